package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/rw"
)

// searchDomains builds the failure domains of a search from the nodes
// file's domain column, and reads --survive LEVEL:K.
func searchDomains(o searchOptions, nodes []rw.Node, rows []format.NodeAttrs) (*domain.Tree, int, int, error) {
	name := displayName(o.rw.nodes)
	labels := rw.OwnLabels(nodes)
	t, err := domain.FromRows(len(nodes), domainRows(name, rows, nil), labels)
	if err != nil {
		return nil, 0, 0, domainRowError(err, name)
	}
	if t == nil {
		if o.rw.domains != "" {
			return nil, 0, 0, usageErrorf("--domains: the nodes have no domains (give --nodes with a domain column)")
		}
		if o.survive != "" {
			return nil, 0, 0, usageErrorf("--survive: the nodes have no domains (give --nodes with a domain column)")
		}
		return nil, 0, 0, nil
	}
	if o.rw.domains != "" {
		dname := displayName(o.rw.domains)
		data, err := os.ReadFile(o.rw.domains)
		if err != nil {
			return nil, 0, 0, asInputError(dname, 0, "cannot read: "+unwrapPath(err).Error())
		}
		if err := readDomainsCSV(dname, data, t); err != nil {
			return nil, 0, 0, err
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
func domainSummary(js []jsonreport.DomainResilience) []string {
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
