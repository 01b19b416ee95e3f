package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/rw"
)

// searchDomains builds the failure domains of a search from the nodes
// file's domain column, and reads --survive LEVEL:K.
func searchDomains(o searchOptions, nodes []rw.Node, rows []format.NodeAttrs) (*domain.Tree, int, int, error) {
	name := displayName(o.rw.nodes)
	t := domain.New(len(nodes))
	lineOf := map[int]int{}
	for _, r := range rows {
		lineOf[r.Node] = r.Line
		if r.Domain == "" {
			continue
		}
		if err := t.Place(r.Node, r.Domain); err != nil {
			return nil, 0, 0, asInputError(name, r.Line, err.Error())
		}
		if r.DomainLevels != nil {
			t.SetLevelNames(r.DomainLevels)
		}
	}
	if t.Empty() {
		if o.rw.domains != "" {
			return nil, 0, 0, usageErrorf("--domains: the nodes have no domains (give --nodes with a domain column)")
		}
		if o.survive != "" {
			return nil, 0, 0, usageErrorf("--survive: the nodes have no domains (give --nodes with a domain column)")
		}
		return nil, 0, 0, nil
	}
	labels := make([]string, len(nodes))
	for v := range nodes {
		labels[v] = nodes[v].Label
	}
	if err := t.Check(labels); err != nil {
		if ne, ok := err.(*domain.NodeError); ok {
			return nil, 0, 0, asInputError(name, lineOf[ne.Node], ne.Msg)
		}
		return nil, 0, 0, asInputError(name, 0, strings.TrimPrefix(err.Error(), "domain: "))
	}
	if o.rw.domains != "" {
		dname := displayName(o.rw.domains)
		data, err := os.ReadFile(o.rw.domains)
		if err != nil {
			return nil, 0, 0, asInputError(dname, 0, "cannot read: "+unwrapPath(err).Error())
		}
		if err := domain.ReadCSV(data, t); err != nil {
			if le, ok := err.(*domain.LineError); ok {
				return nil, 0, 0, asInputError(dname, le.Line, le.Msg)
			}
			return nil, 0, 0, asInputError(dname, 0, err.Error())
		}
	}
	if o.survive == "" {
		return t, 0, 0, nil
	}
	lv, ks, ok := strings.Cut(o.survive, ":")
	if !ok {
		return nil, 0, 0, usageErrorf("--survive %q: want LEVEL:K, such as zone:1", o.survive)
	}
	level, err := t.LevelOf(strings.TrimSpace(lv))
	if err != nil {
		return nil, 0, 0, usageErrorf("--survive: %v", err)
	}
	k, err := strconv.Atoi(strings.TrimSpace(ks))
	if err != nil || k < 0 {
		return nil, 0, 0, usageErrorf("--survive %q: K must be a whole number ≥ 0", o.survive)
	}
	return t, level, k, nil
}

// domainSummary is the domain resilience in one table cell.
func domainSummary(js []domainResJSON) []string {
	if js == nil {
		return nil
	}
	var parts []string
	for _, j := range js {
		name := j.Name
		if name == "" {
			name = "level " + strconv.Itoa(j.Level)
		}
		parts = append(parts, name+": "+strconv.Itoa(j.Resilience)+" of "+strconv.Itoa(j.Domains))
	}
	return []string{strings.Join(parts, ", ")}
}
