package rw

import (
	"context"
	"fmt"
	"math/big"
	"slices"

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
	if !t.Fallible() {
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

// maxVoteTotal bounds the votes of the weighted-vote candidates of
// [domainVotes], per node: past it a level's weights are not tried.
const maxVoteTotal = 16

// maxVoteThresholds is the most votes for which every read threshold is
// tried; above it only the majority of the votes is.
const maxVoteThresholds = 64

// domainVotes yields, for each level of t, weighted votes in which every
// domain of the level holds the same number of votes (a node's weight is
// inversely proportional to the size of its domain; nodes above the level
// are domains of one): when the domains are unbalanced, a plain majority
// of the nodes is lost with the largest domain, but such a vote survives
// any minority of the domains failing. A node of weight w appears w times
// in choose(k, …) (see [NewDomainEvaluator]); the reads need k of the
// votes (every k when the votes are few, else the majority), the writes
// are the dual (total − k + 1).
func domainVotes(t *domain.Tree, yield func(*expr.Expr, string) bool) bool {
	if t == nil {
		return true
	}
	n := t.N()
	for l := 1; l <= t.Depth(); l++ {
		size := make([]int, n)
		placed := 0
		for _, d := range t.AtLevel(l) {
			b := t.Under(d)
			for _, v := range b {
				size[v] = len(b)
			}
			placed += len(b)
		}
		L := 1
		for v := range n {
			if size[v] == 0 {
				size[v] = 1
			}
			L = lcm(L, size[v])
			if L > maxVoteTotal*n {
				break
			}
		}
		weights := make([]int, n)
		g, total, equal := 0, 0, true
		for v := range n {
			weights[v] = L / size[v]
			g = gcd(g, weights[v])
			equal = equal && size[v] == size[0]
		}
		if equal || placed == 0 || L > maxVoteTotal*n {
			continue // a plain threshold, or too many votes
		}
		var leaves []*expr.Expr
		for v := range n {
			weights[v] /= g
			total += weights[v]
			for range weights[v] {
				leaves = append(leaves, expr.Node(v))
			}
		}
		if total > maxVoteTotal*n {
			continue
		}
		lo, hi := total/2+1, total/2+1
		if total <= maxVoteThresholds {
			lo, hi = 1, total
		}
		for k := lo; k <= hi; k++ {
			e, err := expr.NewChoose(k, slices.Clone(leaves)...)
			if err != nil {
				continue
			}
			src := fmt.Sprintf("weighted vote, equal votes per domain of level %s: read %d of %d votes, write %d", t.LevelName(l), k, total, total-k+1)
			if !yield(e, src) {
				return false
			}
		}
	}
	return true
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int { return a / gcd(a, b) * b }
