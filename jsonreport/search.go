package jsonreport

import (
	"strconv"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/rw"
)

// Search is the JSON report of `coterie search`: the best system, the
// Pareto front of load, latency and availability, and how many systems
// were tried and feasible, in all and by family of candidates. Partial
// marks a search that Ctrl-C or --timeout stopped.
type Search struct {
	N        int               `json:"n"`
	Best     *SearchCandidate  `json:"best,omitempty"`
	Pareto   []SearchCandidate `json:"pareto"`
	Tried    int               `json:"tried"`
	Feasible int               `json:"feasible"`
	// TriedBy and FeasibleBy split the counts by family of candidates.
	TriedBy    map[string]int `json:"tried_by"`
	FeasibleBy map[string]int `json:"feasible_by"`
	Complete   bool           `json:"complete"`
	Partial    bool           `json:"partial,omitempty"`
}

// SearchCandidate is one system of the search report: its read and write
// quorums as expressions over the nodes' labels, where it comes from, its
// resilience and figures under its optimal strategy, and its availability
// (the smaller of reads' and writes').
type SearchCandidate struct {
	Reads  string `json:"reads"`
	Writes string `json:"writes"`
	Source string `json:"source"`
	RWResilience
	RWMetrics
	Availability float64 `json:"availability"`
	// AvailabilityAt is the availability (the smaller of reads' and
	// writes') at each --p.
	AvailabilityAt []SearchAvPoint `json:"availability_at,omitempty"`
	Strategy       *Strategy       `json:"strategy,omitempty"`
	// DomainResilience is given when the nodes have failure domains.
	DomainResilience []DomainResilience `json:"domain_resilience,omitempty"`
}

// SearchAvPoint is a candidate's availability at one p.
type SearchAvPoint struct {
	P            float64 `json:"p"`
	Availability float64 `json:"availability"`
}

// NewSearchCandidate is the entry of c, its nodes named by labels, with
// its resilience to the failure of whole domains of t at every level when
// t is not nil. The strategy and the availability at each p are the
// caller's to add.
func NewSearchCandidate(c *rw.Candidate, labels []string, t *domain.Tree) SearchCandidate {
	j := SearchCandidate{
		Reads: c.Reads.Relabel(labels).String(), Writes: c.Writes.Relabel(labels).String(), Source: c.Source,
		RWResilience: NewRWResilience(c.ReadResilience, c.WriteResilience),
		RWMetrics:    FromRWMetrics(c.Metrics),
		Availability: c.Availability,
	}
	if t == nil {
		return j
	}
	for i, lv := range c.DomainResilience {
		r, w := lv[0], lv[1]
		name := t.LevelName(i + 1)
		if name == strconv.Itoa(i+1) {
			name = ""
		}
		d := DomainResilience{Level: i + 1, Name: name, Domains: r.Domains, ReadResilience: r.K, WriteResilience: w.K,
			Resilience: min(r.K, w.K), ReadKilling: DomainPaths(t, r.Killing), WriteKilling: DomainPaths(t, w.Killing)}
		switch {
		case r.Killing != nil && (w.Killing == nil || len(r.Killing) <= len(w.Killing)):
			d.Killing = d.ReadKilling
		case w.Killing != nil:
			d.Killing = d.WriteKilling
		}
		j.DomainResilience = append(j.DomainResilience, d)
	}
	return j
}

// FromSearch is the report of a search with result res over n nodes with
// the given labels and failure domains t (nil: none): its counts, the
// best system with its strategy, and the Pareto front. partial marks a
// search that was interrupted. The availability at each p is the
// caller's to add.
func FromSearch(res *rw.SearchResult, n int, labels []string, t *domain.Tree, partial bool) *Search {
	rep := &Search{N: n, Tried: res.Tried, Feasible: res.Feasible, TriedBy: res.TriedBy, FeasibleBy: res.FeasibleBy,
		Complete: res.Complete, Partial: partial, Pareto: []SearchCandidate{}}
	if res.Best != nil {
		b := NewSearchCandidate(res.Best, labels, t)
		b.Strategy = FromStrategy(res.Best.Strategy)
		rep.Best = &b
	}
	for _, c := range res.Pareto {
		rep.Pareto = append(rep.Pareto, NewSearchCandidate(c, labels, t))
	}
	return rep
}
