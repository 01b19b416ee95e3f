package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/set"
)

// RWSide is one side of a read-write system as [WriteRW] writes it: a
// list of quorums when List is set, otherwise the expression Expr (over
// nodes 0..N-1). Derived leaves the side out: it is the dual of the
// other, and reading the file derives it again.
type RWSide struct {
	Expr    *expr.Expr
	List    *set.Family
	Derived bool
}

// RWSystem is a read-write system as [WriteRW] writes it: N nodes with
// their Labels (nil: none), the two sides, and the failure domains (nil:
// none).
type RWSystem struct {
	N             int
	Labels        []string
	Reads, Writes RWSide
	Domains       *domain.Tree
}

// nameRE is a label an expression can hold.
var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// names are what the nodes are called in the file's expressions and
// lists: their labels when every label can stand in an expression,
// otherwise their numbers 1..N.
func (s *RWSystem) names() []string {
	names := make([]string, s.N)
	for v := range names {
		names[v] = strconv.Itoa(v + 1)
	}
	if s.Labels != nil && !slices.ContainsFunc(s.Labels, func(l string) bool { return !nameRE.MatchString(l) }) {
		copy(names, s.Labels)
	}
	return names
}

// WriteRW writes s as a read-write JSON file (f = JSON: "format", "n",
// "labels", "reads", "writes", and the domains as "nodes" and "domains")
// or text file (f = Text: "# n:", "# labels:", then each side as "# reads:
// EXPR" or "# reads" and one quorum a line), which [ReadRWAny] reads back.
// The text format cannot hold failure domains; other formats hold one
// list of quorums, not a read-write system.
func WriteRW(w io.Writer, s *RWSystem, f Format) error {
	switch f {
	case JSON:
		return writeRWJSON(w, s)
	case Text:
		if s.Domains != nil {
			return fmt.Errorf("format: the text format cannot hold failure domains")
		}
		return writeRWText(w, s)
	}
	return fmt.Errorf("format: a read-write system is written as JSON or text, not %s", f)
}

func writeRWText(w io.Writer, s *RWSystem) error {
	names := s.names()
	var b strings.Builder
	fmt.Fprintf(&b, "# n: %d\n", s.N)
	if s.Labels != nil {
		js, _ := json.Marshal(s.Labels)
		fmt.Fprintf(&b, "# labels: %s\n", js)
	}
	for _, sd := range []struct {
		key string
		RWSide
	}{{"reads", s.Reads}, {"writes", s.Writes}} {
		if sd.Derived {
			continue
		}
		if sd.List == nil {
			fmt.Fprintf(&b, "# %s: %s\n", sd.key, sd.Expr.Relabel(names))
			continue
		}
		fmt.Fprintf(&b, "# %s\n", sd.key)
		for i := range sd.List.Quorums {
			var parts []string
			for v := range sd.List.Quorums[i].All() {
				parts = append(parts, names[v])
			}
			fmt.Fprintln(&b, strings.Join(parts, " "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// rwNodeJSON is an entry of a read-write file's "nodes": a node and its
// failure domain.
type rwNodeJSON struct {
	Node   int    `json:"node"`
	Domain string `json:"domain"`
}

// rwDomainJSON is an entry of a read-write file's "domains".
type rwDomainJSON struct {
	Domain string `json:"domain"`
	P      string `json:"p"`
}

func writeRWJSON(w io.Writer, s *RWSystem) error {
	type fileJSON struct {
		Format  string         `json:"format"`
		N       int            `json:"n"`
		Labels  []string       `json:"labels,omitempty"`
		Reads   any            `json:"reads,omitempty"`
		Writes  any            `json:"writes,omitempty"`
		Nodes   []rwNodeJSON   `json:"nodes,omitempty"`
		Domains []rwDomainJSON `json:"domains,omitempty"`
	}
	names := s.names()
	f := fileJSON{Format: "coterie/1", N: s.N, Labels: s.Labels}
	f.Nodes, f.Domains = rwDomainsJSON(s.Domains)
	side := func(sd RWSide) any {
		if sd.Derived {
			return nil
		}
		if sd.List == nil {
			return sd.Expr.Relabel(names).String()
		}
		qs := make([][]int, len(sd.List.Quorums))
		for i := range qs {
			qs[i] = sd.List.Quorums[i].Elements()
			for j := range qs[i] {
				qs[i][j]++
			}
		}
		return qs
	}
	f.Reads, f.Writes = side(s.Reads), side(s.Writes)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSONControls(buf.Bytes()))
	return err
}

// rwDomainsJSON is the failure domains of t as a read-write JSON file
// keeps them: every node's domain, and the probability of every domain
// that was given one, in order of their paths.
func rwDomainsJSON(t *domain.Tree) ([]rwNodeJSON, []rwDomainJSON) {
	if t == nil {
		return nil, nil
	}
	var nodes []rwNodeJSON
	for v := range t.N() {
		if d := t.Node(v); d >= 0 {
			nodes = append(nodes, rwNodeJSON{Node: v + 1, Domain: t.Path(d)})
		}
	}
	var all []int
	for l := 1; l <= t.Depth(); l++ {
		all = append(all, t.AtLevel(l)...)
	}
	slices.SortFunc(all, func(a, b int) int { return strings.Compare(t.Path(a), t.Path(b)) })
	var ds []rwDomainJSON
	for _, d := range all {
		if t.HasP(d) {
			ds = append(ds, rwDomainJSON{Domain: t.Path(d), P: domain.RatString(t.P(d))})
		}
	}
	return nodes, ds
}
