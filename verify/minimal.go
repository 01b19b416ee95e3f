package verify

import (
	"context"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// findContained returns positions (i, j), i ≠ j, with quorum i ⊆ quorum j,
// the first such j in order and then the first such i; or (-1, -1) if the
// family is minimal. Equal quorums count (the list repeats a quorum) unless
// both have owners and the owners differ: Maekawa's S_i and S_j may
// coincide, and the coterie holds that quorum once.
//
// Cost: each quorum P is filed under its least loaded node; a quorum Q is
// compared only with the quorums filed under its own nodes, and a
// comparison walks P's nodes until one is missing from Q. For the systems
// coterie builds that is close to Σ|Q| operations.
func findContained(ctx context.Context, f *set.Family) (int, int, error) {
	m := f.Len()
	if m < 2 {
		return -1, -1, nil
	}
	if f.IsSparse() {
		return findContainedSparse(ctx, f)
	}
	if m >= bigList {
		return findContainedBig(ctx, f)
	}
	deg := f.Degrees()
	elems := make([][]int, m)
	size := make([]int, m)
	bucket := make(map[int][]int)
	for i := range f.Quorums {
		elems[i] = f.Quorums[i].Elements()
		size[i] = len(elems[i])
		key := -1
		for _, v := range elems[i] {
			if key < 0 || deg[v] < deg[key] {
				key = v
			}
		}
		if key >= 0 {
			bucket[key] = append(bucket[key], i)
		}
	}
	// Subset tests walk P's nodes or compare words, whichever is shorter:
	// sparse quorums (planes) differ at once, dense ones (cubes) need words.
	var p *set.Packed
	nw := set.WordsFor(f.N)
	if mean := len(f.Quorums[0].Elements()); mean > nw {
		p = set.Pack(f.N, f.Quorums)
	}
	subset := func(i, j int) bool {
		if p == nil || size[i] <= nw {
			return within(elems[i], &f.Quorums[j])
		}
		return p.Row(i).SubsetOf(p.Row(j))
	}
	for j := range f.Quorums {
		if j&1023 == 0 && ctx.Err() != nil {
			return -1, -1, ctx.Err()
		}
		best := -1
		for _, v := range elems[j] {
			for _, i := range bucket[v] {
				if i == j || size[i] > size[j] || (best >= 0 && i >= best) {
					continue
				}
				if !subset(i, j) {
					continue
				}
				if size[i] == size[j] {
					if i > j {
						continue // equal quorums: report the earlier inside the later
					}
					if oi, oj := f.Owner(i), f.Owner(j); oi != set.NoOwner && oj != set.NoOwner && oi != oj {
						continue
					}
				}
				best = i
			}
		}
		if best >= 0 {
			return best, j, nil
		}
	}
	return -1, -1, nil
}

// bigList is the number of quorums from which findContained asks
// [set.Family.Redundant] which quorums hold another (subset tables, or
// comparisons with strictly smaller quorums only) instead of comparing
// quorums filed under shared nodes, which is quadratic when the nodes are
// evenly loaded (a threshold written out).
const bigList = 4096

// findContainedBig is findContained by [set.Family.Redundant]: the first
// redundant quorum j in order that holds a quorum i by findContained's
// rules (an equal pair with different owners does not count), and the
// first such i.
func findContainedBig(ctx context.Context, f *set.Family) (int, int, error) {
	red, err := f.Redundant(ctx)
	if err != nil {
		return -1, -1, err
	}
	for j, r := range red {
		if !r {
			continue
		}
		if err := ctx.Err(); err != nil {
			return -1, -1, err
		}
		q := &f.Quorums[j]
		size := q.Len()
		for i := range f.Quorums {
			p := &f.Quorums[i]
			if i == j || !set.Subset(p, q) {
				continue
			}
			if p.Len() == size {
				if i > j {
					continue
				}
				if oi, oj := f.Owner(i), f.Owner(j); oi != set.NoOwner && oj != set.NoOwner && oi != oj {
					continue
				}
			}
			return i, j, nil
		}
	}
	return -1, -1, nil
}

// within reports whether every node of p is in q.
func within(p []int, q *set.Set) bool {
	for _, v := range p {
		if !q.Has(v) {
			return false
		}
	}
	return true
}

// minimalityCheck checks that no quorum of the family f (typed as sys)
// contains another.
func minimalityCheck(ctx context.Context, f *set.Family, sys quorum.System) Check {
	c := Check{Name: "minimality", H: f.H}
	if _, ok := quorum.ThresholdOf(sys); ok {
		c.OK, c.Detail = true, "all quorums have the same size"
		return c
	}
	i, j, err := findContained(ctx, f)
	switch {
	case err != nil:
		undecided(&c, err)
	case i < 0:
		c.OK, c.Detail = true, "no quorum contains another"
	default:
		c.Witness = &Witness{Quorums: []int{i, j}}
		if f.QuorumSize(i) == f.QuorumSize(j) {
			c.Detail = "the same quorum is listed twice"
		} else {
			c.Detail = "a quorum contains another"
		}
	}
	return c
}
