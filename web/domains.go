package web

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/report"
)

// The explorer shows the failure domains an upload carries — a
// read-write JSON file's "nodes" (each with its "domain") and "domains"
// (each with its "p"), as `coterie convert --nodes NODES.csv` writes
// them, or a configuration that says where its nodes are (ZooKeeper's
// groups, Cassandra's datacentres) — as the command line's report does:
// the domain tree, the domain resilience per level, what is left when
// each top-level domain is down, and the drawing with the domains.

// DomainsView is the failure domains of an answer, for the page's script
// and its tests: the tree and the resilience at each level.
type DomainsView struct {
	Tree       []DomainRow     `json:"tree"`
	Resilience []ResilienceRow `json:"resilience"`
}

// DomainRow is one domain: its path, its level (1 the outermost), its
// nodes (1-based) and its probability of being up when given.
type DomainRow struct {
	Domain string `json:"domain"`
	Level  int    `json:"level"`
	Nodes  []int  `json:"nodes"`
	P      string `json:"p,omitempty"`
}

// ResilienceRow is the domain resilience at one level: how many of its
// domains may fail with a read, a write, and both quorums left, and a
// smallest set of them whose failure leaves none (empty when none does).
type ResilienceRow struct {
	Level           int      `json:"level"`
	Name            string   `json:"name,omitempty"`
	Domains         int      `json:"domains"`
	ReadResilience  int      `json:"read_resilience"`
	WriteResilience int      `json:"write_resilience"`
	Resilience      int      `json:"resilience"`
	Killing         []string `json:"killing,omitempty"`
}

// uploadDomains builds the failure domains an uploaded read-write file
// gives (nil, nil when it gives none), with the rules of the command
// line: every node in a domain once one is, no domain named like a node,
// a probability only for a domain some node is in or under. Errors name
// the file and line.
func uploadDomains(name string, f *format.RWFile, labels []string) (*domain.Tree, error) {
	t := domain.New(f.N)
	lineOf := map[int]int{}
	for _, r := range f.Nodes {
		lineOf[r.Node] = r.Line
		if r.Domain == "" {
			continue
		}
		if err := t.Place(r.Node, r.Domain); err != nil {
			return nil, fmt.Errorf("%s:%d: %s", name, r.Line, strings.TrimPrefix(err.Error(), "domain: "))
		}
		if r.DomainLevels != nil {
			t.SetLevelNames(r.DomainLevels)
		}
	}
	if t.Empty() {
		if len(f.Domains) > 0 {
			return nil, fmt.Errorf("%s:%d: domains given, but no node has a domain", name, f.Domains[0].Line)
		}
		return nil, nil
	}
	if err := t.Check(labels); err != nil {
		var ne *domain.NodeError
		if errors.As(err, &ne) {
			return nil, fmt.Errorf("%s:%d: %s", name, lineOf[ne.Node], ne.Msg)
		}
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "domain: "))
	}
	for _, dp := range f.Domains {
		d, ok := t.Lookup(dp.Domain)
		if !ok {
			return nil, fmt.Errorf("%s:%d: domain %q is no node's domain nor above one", name, dp.Line, dp.Domain)
		}
		if err := t.SetP(d, dp.P); err != nil {
			return nil, fmt.Errorf("%s:%d: %s", name, dp.Line, strings.TrimPrefix(err.Error(), "domain: "))
		}
	}
	return t, nil
}

// configNodes gives a configuration's domains (one path per node, or
// nil) as the nodes of a read-write file.
func configNodes(domains []string) []format.NodeAttrs {
	var out []format.NodeAttrs
	for v, d := range domains {
		out = append(out, format.NodeAttrs{Node: v, Domain: d})
	}
	return out
}

// domainsView is the tree and the resilience of a report's domains.
func domainsView(d *report.RWDomains) *DomainsView {
	t := d.Tree
	view := &DomainsView{Tree: []DomainRow{}, Resilience: []ResilienceRow{}}
	for l := 1; l <= t.Depth(); l++ {
		for _, dm := range t.AtLevel(l) {
			row := DomainRow{Domain: t.Path(dm), Level: l}
			for _, v := range t.Under(dm) {
				row.Nodes = append(row.Nodes, v+1)
			}
			if t.HasP(dm) {
				row.P = domain.RatString(t.P(dm))
			}
			view.Tree = append(view.Tree, row)
		}
	}
	for i, rr := range d.Resilience {
		r, w := rr[0], rr[1]
		l := i + 1
		row := ResilienceRow{Level: l, Domains: len(t.AtLevel(l)), ReadResilience: r.K, WriteResilience: w.K, Resilience: min(r.K, w.K)}
		if name := t.LevelName(l); name != strconv.Itoa(l) {
			row.Name = name
		}
		kill := r.Killing
		if kill == nil || w.Killing != nil && len(w.Killing) < len(kill) {
			kill = w.Killing
		}
		for _, dm := range kill {
			row.Killing = append(row.Killing, t.Path(dm))
		}
		view.Resilience = append(view.Resilience, row)
	}
	return view
}
