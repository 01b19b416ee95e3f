package domain

import (
	"context"
	"math/bits"
	"slices"

	"github.com/coterie-dev/coterie/set"
)

// Resilience is how many domains of one level may fail with a quorum
// left: any K of them may fail, and Killing (a smallest set of domains of
// the level whose failure leaves no quorum) shows that K+1 may not. When
// no failure of domains of the level leaves the system without a quorum,
// Killing is nil and K is the number of domains at the level.
type Resilience struct {
	Level   int
	Domains int   // at the level
	K       int   // largest number of domains that may fail
	Killing []int // domains; nil when no set kills
}

// ThresholdResilience is [Resilience] for a system whose quorums are the
// sets of at least k of the nodes in counted: failing the domains with
// the most counted nodes first kills fastest, so taking them greedily
// gives a smallest killing set.
func ThresholdResilience(t *Tree, level int, counted []int, k int) Resilience {
	ds := t.AtLevel(level)
	r := Resilience{Level: level, Domains: len(ds)}
	in := map[int]int{}
	left := len(counted)
	for _, v := range counted {
		for _, d := range t.Above(v) {
			if t.depth[d] == level {
				in[d]++
			}
		}
	}
	order := slices.Clone(ds)
	// Largest first; ties by path, so the witness is the same every run.
	slices.SortStableFunc(order, func(a, b int) int { return in[b] - in[a] })
	for i, d := range order {
		if left < k {
			break
		}
		left -= in[d]
		if left < k {
			r.K = i
			r.Killing = slices.Clone(order[:i+1])
			sortByPath(t, r.Killing)
			return r
		}
	}
	if left < k { // no quorum even with every domain up
		return Resilience{Level: level, Domains: len(ds), K: -1, Killing: []int{}}
	}
	r.K = len(ds)
	return r
}

// ListedResilience is [Resilience] for the listed family f: each quorum is
// projected onto the domains of the level above its nodes (a quorum dies
// with any of them), and a smallest set of domains meeting every
// projection is found by branch and bound, branching on the projection
// with the fewest domains. The search is exponential in the worst case;
// it returns ctx.Err() when the context ends.
func ListedResilience(ctx context.Context, t *Tree, level int, f *set.Family) (Resilience, error) {
	ds := t.AtLevel(level)
	r := Resilience{Level: level, Domains: len(ds)}
	if f.Len() == 0 {
		return Resilience{Level: level, Domains: len(ds), K: -1, Killing: []int{}}, nil
	}
	pos := map[int]int{}
	for i, d := range ds {
		pos[d] = i
	}
	words := (len(ds) + 63) / 64
	var proj [][]uint64
	for _, q := range f.All() {
		m := make([]uint64, words)
		for v := range q.All() {
			for _, d := range t.Above(v) {
				if i, ok := pos[d]; ok {
					m[i/64] |= 1 << (i % 64)
				}
			}
		}
		if isZero(m) {
			r.K = len(ds) // a quorum no failure at this level touches
			return r, nil
		}
		proj = append(proj, m)
	}
	proj = minimalMasks(proj)
	hs := &hitter{ctx: ctx, sets: proj, words: words, best: nil}
	hs.bestLen = len(ds) + 1
	chosen := make([]uint64, words)
	if err := hs.search(chosen, 0); err != nil {
		return Resilience{}, err
	}
	for i := range ds {
		if hs.best[i/64]>>(i%64)&1 == 1 {
			r.Killing = append(r.Killing, ds[i])
		}
	}
	sortByPath(t, r.Killing)
	r.K = len(r.Killing) - 1
	return r, nil
}

func isZero(m []uint64) bool {
	for _, w := range m {
		if w != 0 {
			return false
		}
	}
	return true
}

func popcount(m []uint64) int {
	c := 0
	for _, w := range m {
		c += bits.OnesCount64(w)
	}
	return c
}

func subsetOf(a, b []uint64) bool {
	for i := range a {
		if a[i]&^b[i] != 0 {
			return false
		}
	}
	return true
}

func meets(a, b []uint64) bool {
	for i := range a {
		if a[i]&b[i] != 0 {
			return true
		}
	}
	return false
}

// minimalMasks drops duplicates and supersets: hitting a subset hits
// every superset of it.
func minimalMasks(ms [][]uint64) [][]uint64 {
	slices.SortFunc(ms, func(a, b []uint64) int { return popcount(a) - popcount(b) })
	var out [][]uint64
	for _, m := range ms {
		keep := true
		for _, o := range out {
			if subsetOf(o, m) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, m)
		}
	}
	return out
}

// hitter finds a smallest set meeting every set of sets.
type hitter struct {
	ctx     context.Context
	sets    [][]uint64
	words   int
	best    []uint64
	bestLen int
	steps   int
}

func (h *hitter) search(chosen []uint64, size int) error {
	if h.steps++; h.steps%1024 == 0 {
		if err := h.ctx.Err(); err != nil {
			return err
		}
	}
	if size >= h.bestLen {
		return nil
	}
	// The unhit set with the fewest elements; and a lower bound: sets
	// pairwise disjoint among the unhit need one element each.
	var pick []uint64
	pickLen := 0
	var disjoint [][]uint64
	for _, s := range h.sets {
		if meets(s, chosen) {
			continue
		}
		if c := popcount(s); pick == nil || c < pickLen {
			pick, pickLen = s, c
		}
		free := true
		for _, o := range disjoint {
			if meets(o, s) {
				free = false
				break
			}
		}
		if free {
			disjoint = append(disjoint, s)
		}
	}
	if pick == nil {
		h.best = slices.Clone(chosen)
		h.bestLen = size
		return nil
	}
	if size+len(disjoint) >= h.bestLen {
		return nil
	}
	for i := range h.words * 64 {
		if pick[i/64]>>(i%64)&1 == 0 {
			continue
		}
		chosen[i/64] |= 1 << (i % 64)
		err := h.search(chosen, size+1)
		chosen[i/64] &^= 1 << (i % 64)
		if err != nil {
			return err
		}
	}
	return nil
}
