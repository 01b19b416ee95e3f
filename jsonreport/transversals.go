package jsonreport

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/domination"
)

// TransversalCount is the JSON report of `coterie transversals --count`
// (docs/formats.md): the number of minimal transversals in all and by
// size, as decimal strings (they outgrow a float64), and the size of the
// smallest (-1 for none). Partial marks a count stopped before the end,
// whose numbers are lower bounds.
type TransversalCount struct {
	Count    string            `json:"count"`
	BySize   map[string]string `json:"by_size"`
	Smallest int               `json:"smallest"`
	Partial  bool              `json:"partial,omitempty"`
}

// NewTransversalCount is the report of c.
func NewTransversalCount(c *domination.TransversalCount) TransversalCount {
	t := TransversalCount{Count: c.Total.String(), BySize: make(map[string]string, len(c.BySize)), Smallest: c.Smallest, Partial: c.Partial}
	for size, n := range c.BySize {
		t.BySize[strconv.Itoa(size)] = n.String()
	}
	return t
}

// MarshalJSON writes the report on one line, spaced, with the sizes in
// increasing numeric order (encoding/json would sort "10" before "2").
func (t TransversalCount) MarshalJSON() ([]byte, error) {
	type entry struct {
		size int
		n    string
	}
	sizes := make([]entry, 0, len(t.BySize))
	for k, n := range t.BySize {
		size, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("jsonreport: transversal count: size %q is not a number", k)
		}
		sizes = append(sizes, entry{size, n})
	}
	slices.SortFunc(sizes, func(a, b entry) int { return a.size - b.size })
	var b strings.Builder
	fmt.Fprintf(&b, `{"count": %q, "by_size": {`, t.Count)
	for i, e := range sizes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"%d": %q`, e.size, e.n)
	}
	fmt.Fprintf(&b, `}, "smallest": %d`, t.Smallest)
	if t.Partial {
		b.WriteString(`, "partial": true`)
	}
	b.WriteString("}")
	return []byte(b.String()), nil
}
