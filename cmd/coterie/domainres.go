package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/domain"
)

// domainResJSON is the resilience of a read-write system to failures of
// whole domains of one level: how many of them may fail with a read
// quorum, a write quorum, and both left, with a smallest set of domains
// whose failure stops reads (writes, either) as the witness; a witness is
// null when no failure of domains of the level stops that side.
type domainResJSON struct {
	Level           int      `json:"level"`
	Name            string   `json:"name,omitempty"`
	Domains         int      `json:"domains"`
	ReadResilience  int      `json:"read_resilience"`
	WriteResilience int      `json:"write_resilience"`
	Resilience      int      `json:"resilience"`
	ReadKilling     []string `json:"read_killing"`
	WriteKilling    []string `json:"write_killing"`
	Killing         []string `json:"killing"`
}

// domainResilience is the resilience at every level of t computed in
// res, with a note for each level it could not compute (a side too large
// to list).
func domainResilience(res *analysis.RW, t *domain.Tree) ([]domainResJSON, []string) {
	var out []domainResJSON
	var notes []string
	for _, m := range res.Missing {
		notes = append(notes, fmt.Sprintf("domain resilience at level %s not computed: %v (raise --limit)", t.LevelName(m.Level), m.Err))
	}
	for _, d := range res.Domains {
		l, r, w := d.Level, d.Read, d.Write
		name := t.LevelName(l)
		if name == strconv.Itoa(l) {
			name = "" // levels without names are numbered
		}
		j := domainResJSON{Level: l, Name: name, Domains: r.Domains,
			ReadResilience: r.K, WriteResilience: w.K, Resilience: min(r.K, w.K),
			ReadKilling: paths(t, r.Killing), WriteKilling: paths(t, w.Killing)}
		switch {
		case r.Killing != nil && (w.Killing == nil || len(r.Killing) <= len(w.Killing)):
			j.Killing = j.ReadKilling
		case w.Killing != nil:
			j.Killing = j.WriteKilling
		}
		out = append(out, j)
	}
	return out, notes
}

func paths(t *domain.Tree, ds []int) []string {
	if ds == nil {
		return nil
	}
	out := []string{}
	for _, d := range ds {
		out = append(out, t.Path(d))
	}
	return out
}

// domainResText says one level's resilience in a table cell.
func domainResText(j domainResJSON) string {
	side := func(k int, kill []string, what string) string {
		if kill == nil {
			return fmt.Sprintf("%d of %d (no failure of these stops %s)", k, j.Domains, what)
		}
		return fmt.Sprintf("%d of %d ({%s} fail: no %s quorum)", k, j.Domains, strings.Join(kill, ", "), what)
	}
	if fmt.Sprint(j.ReadKilling) == fmt.Sprint(j.WriteKilling) {
		return side(j.Resilience, j.Killing, "read or write")
	}
	return side(j.ReadResilience, j.ReadKilling, "read") + "; " + side(j.WriteResilience, j.WriteKilling, "write")
}

// domainResLabel names a level's row in a table.
func domainResLabel(j domainResJSON) string {
	if j.Name != "" {
		return "domain resilience, " + j.Name
	}
	return "domain resilience, level " + strconv.Itoa(j.Level)
}
