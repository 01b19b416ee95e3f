package main

import (
	"slices"
	"strings"

	"github.com/coterie-dev/coterie/domain"
)

// nodeDomainJSON is an entry of a read-write file's "nodes": a node and
// its failure domain.
type nodeDomainJSON struct {
	Node   int    `json:"node"`
	Domain string `json:"domain"`
}

// domainPJSON is an entry of a read-write file's "domains".
type domainPJSON struct {
	Domain string `json:"domain"`
	P      string `json:"p"`
}

// domainsFileJSON is the failure domains of t as a read-write JSON file
// keeps them: every node's domain, and the probability of every domain
// that was given one, in order of their paths.
func domainsFileJSON(t *domain.Tree) ([]nodeDomainJSON, []domainPJSON) {
	if t == nil {
		return nil, nil
	}
	var nodes []nodeDomainJSON
	for v := range t.N() {
		if d := t.Node(v); d >= 0 {
			nodes = append(nodes, nodeDomainJSON{Node: v + 1, Domain: t.Path(d)})
		}
	}
	var ds []domainPJSON
	var all []int
	for l := 1; l <= t.Depth(); l++ {
		all = append(all, t.AtLevel(l)...)
	}
	for _, d := range sortedPaths(t, all) {
		if t.HasP(d) {
			ds = append(ds, domainPJSON{Domain: t.Path(d), P: domain.RatString(t.P(d))})
		}
	}
	return nodes, ds
}

func sortedPaths(t *domain.Tree, ds []int) []int {
	out := slices.Clone(ds)
	slices.SortFunc(out, func(a, b int) int { return strings.Compare(t.Path(a), t.Path(b)) })
	return out
}
