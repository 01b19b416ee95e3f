package rw

import (
	"context"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
)

// maxDomainExprs bounds the two-level expressions tried per level of the
// domains: beyond it only the majority of majorities is.
const maxDomainExprs = 20000

// domainCandidates yields, for each level of t, systems whose groups are
// the level's domains (hierarchical quorum consensus placed along the
// domain tree): every choose(k, E1, …, Em) over the domains' blocks of
// nodes, as for a partition, when they are few enough, else the majority
// of the blocks' majorities. Nodes above the level form blocks of one.
func domainCandidates(t *domain.Tree, yield func(*expr.Expr, string) bool) bool {
	if t == nil {
		return true
	}
	for l := 1; l <= t.Depth(); l++ {
		var blocks [][]int
		placed := map[int]bool{}
		for _, d := range t.AtLevel(l) {
			b := t.Under(d)
			if len(b) == 0 {
				continue
			}
			for _, v := range b {
				placed[v] = true
			}
			blocks = append(blocks, b)
		}
		for v := range t.N() {
			if !placed[v] {
				blocks = append(blocks, []int{v})
			}
		}
		if len(blocks) < 2 {
			continue
		}
		count := big.NewInt(int64(len(blocks)))
		for _, b := range blocks {
			count.Mul(count, big.NewInt(int64(len(b))))
		}
		name := "groups = the domains of level " + t.LevelName(l)
		if count.Cmp(big.NewInt(maxDomainExprs)) <= 0 {
			ok := blockExprs(blocks, func(e *expr.Expr, _ string) bool { return yield(e, name) })
			if !ok {
				return false
			}
			continue
		}
		args := make([]*expr.Expr, len(blocks))
		for i, b := range blocks {
			leaves := make([]*expr.Expr, len(b))
			for j, v := range b {
				leaves[j] = expr.Node(v)
			}
			args[i] = chooseOf(len(b)/2+1, leaves)
		}
		if !yield(chooseOf(len(args)/2+1, args), fmt.Sprintf("majority of majorities, %s", name)) {
			return false
		}
	}
	return true
}

// surviveDomains reports whether s meets opts.Survive, and the domain
// resilience of s at every level of opts.Domains (reads, writes).
func surviveDomains(ctx context.Context, s *System, opts SearchOptions) (bool, [][2]domain.Resilience, error) {
	t := opts.Domains
	if t == nil {
		return true, nil, nil
	}
	var out [][2]domain.Resilience
	ok := true
	for l := 1; l <= t.Depth(); l++ {
		r, w, err := s.DomainResilience(ctx, t, l, opts.ListLimit)
		if err != nil {
			return false, nil, err
		}
		out = append(out, [2]domain.Resilience{r, w})
		if l == opts.SurviveLevel && min(r.K, w.K) < opts.SurviveK {
			ok = false
		}
	}
	return ok, out, nil
}

// searchAvailability is the smaller of the read and the write
// availability of a candidate: under the failure domains when some can
// fail (exactly, by [DomainEvaluator]), else with independent nodes.
func searchAvailability(ctx context.Context, s *System, opts SearchOptions) (float64, error) {
	t := opts.Domains
	correlated := false
	if t != nil {
		for d := range t.Len() {
			correlated = correlated || t.P(d).Cmp(big.NewRat(1, 1)) < 0
		}
	}
	if !correlated {
		return s.availability(ctx, opts.P)
	}
	ev, err := NewDomainEvaluator(ctx, s, t, DefaultListLimit, 0)
	if err != nil {
		return 0, err
	}
	probs := make([]*big.Rat, s.N)
	for v, nd := range s.Nodes {
		if nd.P != nil {
			probs[v] = nd.P
		} else {
			probs[v] = availability.DecimalRat(opts.P)
		}
	}
	r, w, _, err := ev.At(ctx, probs)
	if err != nil {
		return 0, err
	}
	least := r
	if w.Cmp(r) < 0 {
		least = w
	}
	f, _ := least.Float64()
	return f, nil
}
