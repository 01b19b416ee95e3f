package verify

import (
	"context"
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// FindDisjoint searches the explicit family f for t quorums (distinct
// positions; all of them if f has fewer than t) whose common intersection is
// empty. It returns their 0-based positions in increasing order, or nil if
// every t quorums share a node, or ctx.Err() if ctx is cancelled first.
//
// A k-arbiter is exactly a family for which FindDisjoint(ctx, f, k+1)
// returns nil: if some choice of at most k+1 quorums, repetitions allowed,
// had an empty intersection, so would any min(m, k+1) distinct quorums
// containing it (Manabe and Tajima, Definition 2). The witness does not
// depend on scheduling: the same family and t give the same answer.
//
// Cost: t = 2 is a bit-parallel pairwise check over all cores, about
// Σ|Q|·m/128 word operations. For t ≥ 3 it is a cover search, exponential
// in t at worst, pruned by a counting bound and run on all cores; it needs
// an n×m-bit incidence table and refuses with an error past 1 GiB.
// It returns an error if f is a threshold family (use the counting of
// [Verify]) or t < 1.
func FindDisjoint(ctx context.Context, f *set.Family, t int) ([]int, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	if _, ok := quorum.ThresholdOf(construct.Form(f)); ok {
		return nil, errors.New("verify: find disjoint quorums: a threshold family has no positions; decide it by counting")
	}
	return findDisjoint(ctx, f, t, nil)
}

// findDisjoint is FindDisjoint on the listed family f.
func findDisjoint(ctx context.Context, f *set.Family, t int, progress func(done, total int)) ([]int, error) {
	if t < 1 {
		return nil, fmt.Errorf("verify: find disjoint quorums: t = %d must be at least 1", t)
	}
	m := len(f.Quorums)
	t = min(t, m)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch {
	case t == 0:
		return nil, nil
	case t == 1:
		for i := range f.Quorums {
			if f.Quorums[i].IsEmpty() {
				return []int{i}, nil
			}
		}
		return nil, nil
	case t == m:
		var acc set.Set
		acc.Copy(&f.Quorums[0])
		for i := 1; i < m; i++ {
			acc.Intersect(&acc, &f.Quorums[i])
		}
		if !acc.IsEmpty() {
			return nil, nil
		}
		all := make([]int, m)
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	p := set.Pack(f.N, f.Quorums)
	if t == 2 {
		i, j, err := findPair(ctx, p, progress)
		if err != nil || i < 0 {
			return nil, err
		}
		return []int{i, j}, nil
	}
	pr := newProblem(p, [][2]int{{0, m}}, []int{t}, 0)
	pr.progress = progress
	return pr.solve(ctx)
}
