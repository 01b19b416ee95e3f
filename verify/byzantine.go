package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Byzantine quorum systems (Malkhi and Reiter, "Byzantine quorum systems",
// Distributed Computing 11(4), 1998, Definitions 3.1 and 3.5): a quorum
// system tolerates b faulty nodes
//
//   - as a b-dissemination system when any two quorums share at least b+1
//     nodes (one correct node relays self-verifying data), and as a
//     b-masking system when they share at least 2b+1 (the correct ones
//     outvote the b faulty);
//   - and, in both cases, when for every set B of b nodes some quorum
//     avoids B (the faulty nodes cannot block every quorum): no set of b
//     nodes meets every quorum, that is every transversal has more than b
//     nodes.
//
// "Any two quorums" includes a quorum with itself, so every quorum needs
// the intersection size too.

// ByzantineNeed returns the intersection size a b-masking (2b+1) or
// b-dissemination (b+1) system needs.
func ByzantineNeed(b int, masking bool) int {
	if masking {
		return 2*b + 1
	}
	return b + 1
}

// MinIntersection returns the smallest |Q_i ∩ Q_j| over the quorums of f,
// i ≤ j (i = j is the size of the smallest quorum), the positions i, j
// (−1, −1 for a threshold family) and, for a threshold family, two quorums
// that meet in that many nodes. f must have a quorum. Cost: m²/2
// intersections of bitsets for m explicit quorums; a threshold family is
// max(2w − n, 0) by counting.
func MinIntersection(ctx context.Context, f *set.Family) (size, i, j int, sets [][]int, err error) {
	if f, err = explicitFamily(ctx, f); err != nil {
		return 0, 0, 0, nil, err
	}
	return minIntersection(ctx, f, construct.Form(f))
}

// minIntersection is MinIntersection on the listed or threshold family f,
// typed as sys.
func minIntersection(ctx context.Context, f *set.Family, sys quorum.System) (size, i, j int, sets [][]int, err error) {
	if w, ok := quorum.ThresholdOf(sys); ok {
		n := f.N
		lo, hi := make([]int, w), make([]int, w)
		for k := range w {
			lo[k], hi[k] = k, n-w+k
		}
		return max(2*w-n, 0), -1, -1, [][]int{lo, hi}, nil
	}
	if len(f.Quorums) == 0 {
		return 0, 0, 0, nil, errors.New("verify: byzantine: the family has no quorum")
	}
	size, i, j = f.Quorums[0].Len(), 0, 0
	for a := range f.Quorums {
		if a%64 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, 0, nil, errorf("%w", err)
			}
		}
		if l := f.Quorums[a].Len(); l < size {
			size, i, j = l, a, a
		}
		for b := a + 1; b < len(f.Quorums); b++ {
			if l := set.IntersectionLen(&f.Quorums[a], &f.Quorums[b]); l < size {
				size, i, j = l, a, b
			}
		}
	}
	return size, i, j, nil, nil
}

// ErrSearchLimit is wrapped when a transversal search gives up.
var ErrSearchLimit = errors.New("search limit reached")

// maxTransversalSteps bounds the branching of SmallTransversal.
const maxTransversalSteps = 1 << 24

// SmallTransversal returns a set of at most b nodes that meets every quorum
// of f (so that b faulty nodes can block every quorum), or nil if there is
// none. A threshold family of w-subsets has such a set exactly when
// n − w + 1 ≤ b. An explicit family is searched by branching on the nodes
// of a smallest quorum the partial set misses, depth b: at most s^b
// branches for quorums of s nodes; past 2^24 steps it returns an error
// wrapping [ErrSearchLimit].
func SmallTransversal(ctx context.Context, f *set.Family, b int) ([]int, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	return smallTransversal(ctx, f, construct.Form(f), b)
}

// smallTransversal is SmallTransversal on the listed or threshold family
// f, typed as sys.
func smallTransversal(ctx context.Context, f *set.Family, sys quorum.System, b int) ([]int, error) {
	if b < 0 {
		return nil, nil
	}
	if w, ok := quorum.ThresholdOf(sys); ok {
		t := f.N - w + 1
		if t > b {
			return nil, nil
		}
		out := make([]int, t)
		for k := range out {
			out[k] = k
		}
		return out, nil
	}
	if len(f.Quorums) == 0 {
		return []int{}, nil // nothing to block: no quorum is available anyway
	}
	order := make([]int, len(f.Quorums))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(x, y int) int { return f.Quorums[x].Len() - f.Quorums[y].Len() })
	chosen := set.New(f.N)
	var picked []int
	steps := 0
	var rec func(depth int) (bool, error)
	rec = func(depth int) (bool, error) {
		steps++
		if steps%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return false, errorf("%w", err)
			}
		}
		if steps > maxTransversalSteps {
			return false, errorf("byzantine: transversals of at most %d nodes: %w (%d steps)", b, ErrSearchLimit, maxTransversalSteps)
		}
		miss := -1
		for _, q := range order {
			if !set.Intersects(&f.Quorums[q], chosen) {
				miss = q
				break
			}
		}
		if miss < 0 {
			return true, nil
		}
		if depth == b {
			return false, nil
		}
		for v := range f.Quorums[miss].All() {
			chosen.Add(v)
			picked = append(picked, v)
			ok, err := rec(depth + 1)
			if ok || err != nil {
				return ok, err
			}
			picked = picked[:len(picked)-1]
			chosen.Remove(v)
		}
		return false, nil
	}
	ok, err := rec(0)
	if err != nil || !ok {
		return nil, err
	}
	slices.Sort(picked)
	return picked, nil
}

// Byzantine checks f as a b-masking (masking) or b-dissemination quorum
// system and returns two checks: "byzantine_intersection", whose witness is
// two quorums (positions, or their nodes in Sets for a threshold family)
// and their common nodes, and "byzantine_availability", whose witness is at
// most b nodes meeting every quorum. See [MinIntersection] and
// [SmallTransversal] for the cost.
func Byzantine(ctx context.Context, f *set.Family, b int, masking bool) ([]Check, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	if b < 0 {
		return nil, errorf("byzantine: b = %d must be at least 0", b)
	}
	kind, need := "dissemination", ByzantineNeed(b, masking)
	if masking {
		kind = "masking"
	}
	sys := construct.Form(f)
	inter := Check{Name: "byzantine_intersection", OK: true,
		Detail: fmt.Sprintf("every two quorums share at least %d nodes (b-%s, b = %d)", need, kind, b)}
	size, i, j, sets, err := minIntersection(ctx, f, sys)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, err
	case err != nil:
		inter.OK, inter.Detail = false, "the system has no quorum"
	case size < need:
		inter.OK = false
		inter.Detail = fmt.Sprintf("two quorums share %d nodes; b-%s with b = %d needs %d", size, kind, b, need)
		w := &Witness{}
		var common set.Set
		if sets != nil {
			w.Sets = sets
			common.Intersect(set.Of(sets[0]...), set.Of(sets[1]...))
		} else {
			w.Quorums = []int{i, j}
			common.Intersect(&f.Quorums[i], &f.Quorums[j])
		}
		w.Nodes = common.Elements()
		inter.Witness = w
	}
	avail := Check{Name: "byzantine_availability", OK: true,
		Detail: fmt.Sprintf("no set of %d nodes meets every quorum", b)}
	t, err := smallTransversal(ctx, f, sys, b)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, err
	case err != nil:
		avail.OK, avail.Undecided = false, true
		avail.Detail = err.Error()
	case t != nil:
		avail.OK = false
		avail.Detail = fmt.Sprintf("%d nodes meet every quorum: if they fail, no quorum is all correct", len(t))
		avail.Witness = &Witness{Nodes: t}
	}
	return []Check{inter, avail}, nil
}

// AddChecks appends checks to r and updates Valid and Undecided.
func (r *Report) AddChecks(cs ...Check) {
	r.Checks = append(r.Checks, cs...)
	r.finish()
}

// MaxByzantine returns the largest b for which f is a b-masking (masking)
// or b-dissemination system, or −1 when there is none; see [ByzantineMax].
func MaxByzantine(ctx context.Context, f *set.Family, masking bool) (int, error) {
	m, d, err := ByzantineMax(ctx, f)
	if masking {
		return m, err
	}
	return d, err
}

// ByzantineMax returns the largest b for which f is a b-masking system and
// the largest for which it is a b-dissemination system (Malkhi and
// Reiter), each −1 when there is none (two quorums are disjoint, or no
// quorum exists): with I the smallest intersection of two quorums and τ
// the size of the smallest transversal, b ≤ (I−1)/2 (masking) or b ≤ I−1
// (dissemination), and b < τ. The transversal search goes up to I−1 nodes and
// returns an error wrapping [ErrSearchLimit] when it is too large; finding
// I costs m²/2 intersections for m explicit quorums.
func ByzantineMax(ctx context.Context, f *set.Family) (masking, dissemination int, err error) {
	if f, err = explicitFamily(ctx, f); err != nil {
		return 0, 0, err
	}
	sys := construct.Form(f)
	if _, ok := quorum.ThresholdOf(sys); !ok && len(f.Quorums) == 0 {
		return -1, -1, nil
	}
	size, _, _, _, err := minIntersection(ctx, f, sys)
	if err != nil {
		return 0, 0, err
	}
	if size == 0 {
		return -1, -1, nil
	}
	// The smallest transversal, up to size−1 nodes (beyond, it no longer
	// bounds either answer): the first k with one.
	tau := size
	for k := 0; k < size; k++ {
		t, err := smallTransversal(ctx, f, sys, k)
		if err != nil {
			return 0, 0, err
		}
		if t != nil {
			tau = k
			break
		}
	}
	return min((size-1)/2, tau-1), min(size-1, tau-1), nil
}
