package domain

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// ParseDown reads a list of the parts of a system that are down,
// comma-separated: node ids 1..n, node labels (labels[v] of node v) and
// the domain paths of t (nil: no domains), a domain standing for every
// node under it. It returns the nodes down (0-based) and the items as
// given.
func ParseDown(spec string, n int, labels []string, t *Tree) (*set.Set, []string, error) {
	dead := set.New(n)
	var names []string
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, nil, fmt.Errorf("an empty item in %q", spec)
		}
		names = append(names, item)
		if t != nil {
			if d, ok := t.Lookup(item); ok {
				for _, v := range t.Under(d) {
					dead.Add(v)
				}
				continue
			}
		}
		if v, err := strconv.Atoi(item); err == nil {
			if v < 1 || v > n {
				return nil, nil, fmt.Errorf("node %d is not in 1..%d", v, n)
			}
			dead.Add(v - 1)
			continue
		}
		found := false
		for v := range n {
			if v < len(labels) && labels[v] == item {
				dead.Add(v)
				found = true
				break
			}
		}
		if !found {
			what := "a node id (1.." + strconv.Itoa(n) + ") or a node label"
			if t != nil {
				what += " or a domain"
			}
			return nil, nil, fmt.Errorf("%q is not %s", item, what)
		}
	}
	return dead, names, nil
}
