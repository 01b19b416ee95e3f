package verify

import (
	"context"
	"fmt"
	"slices"

	"github.com/coterie-dev/coterie/set"
)

// A sparse family ([set.Family.IsSparse]) holds its quorums as node
// lists because its node ids are too wide for a bit set per quorum. Its
// checks run on the lists and an inverted index (node → quorums holding
// it), never on an n-bit row per quorum, and give what the bit-set checks
// give on the same quorums, position for position.

// sparseDenseLimit is the most memory the bit sets of a sparse family may
// take for a check that has no sparse version (k+1-wise intersection for
// k ≥ 2, the brute-force method) to run on them.
const sparseDenseLimit = 256 << 20

// verifySparse is verifyFamily for a sparse family.
func verifySparse(ctx context.Context, f *set.Family, opts Options) (*Report, error) {
	if f.K > 1 || opts.Method == Brute {
		what := fmt.Sprintf("%d-wise intersection", f.K+1)
		if opts.Method == Brute {
			what = "the brute-force method"
		}
		if b := f.Sparse.SetBytes(); b > sparseDenseLimit {
			return nil, fmt.Errorf("verify: %s needs the quorums as bit sets, and %d quorums over node ids up to %d would take %d MiB as bit sets (at most %d MiB): number the nodes 1..n with n as small as it can be",
				what, f.Sparse.Len(), f.N, b>>20, sparseDenseLimit>>20)
		}
		g := f.Clone()
		g.Densify()
		return verifyFamily(ctx, g, opts)
	}
	return verifyFamily(ctx, f, opts)
}

// sparsePigeonhole is pigeonhole for a sparse family.
func sparsePigeonhole(f *set.Family, k int) bool {
	l := f.Sparse
	if l.Len() == 0 {
		return false
	}
	least := -1
	for i := range l.Len() {
		if s := l.Size(i); least < 0 || s < least {
			least = s
		}
	}
	used := 0
	for _, d := range f.Degrees() {
		if d > 0 {
			used++
		}
	}
	return least > 0 && int64(k+1)*int64(used-least) < int64(used)
}

// sparsePair returns the first pair of disjoint quorums of the sparse
// family f (smallest i, then smallest j > i), as findPair does, or
// (-1, -1) if every two quorums meet, or ctx.Err().
//
// Quorum i needs a partner among the quorums after it. With the inverted
// index, each node v of Q_i names the later quorums holding v; their
// number summed over Q_i's nodes bounds how many later quorums meet Q_i.
// Three cases, cheapest first:
//   - a node of Q_i is in every later quorum: Q_i has no partner (a node
//     common to all quorums settles the family in one pass);
//   - the bound is below the number of later quorums: a partner exists,
//     and the first is found by scanning the later quorums against a mark
//     of Q_i's nodes, each quorum passed being one that meets Q_i;
//   - otherwise the later quorums meeting Q_i are marked through the
//     index and counted; if some are unmarked, the first is the partner.
//
// Cost: Σ|Q| for the index, then per quorum at most Σ over its nodes v
// of the later quorums holding v: Σ_v deg(v)² at worst, quadratic only
// when nodes lie in a large share of the quorums and none in all of them
// (a family that does intersect pairwise must have such nodes, unless the
// size bound of pigeonhole decides it first). Memory: 4 bytes a node of
// every quorum and 16 bytes a node id, plus 4 bytes a quorum.
func sparsePair(ctx context.Context, f *set.Family, progress func(done, total int)) (int, int, error) {
	l := f.Sparse
	m := l.Len()
	if m < 2 {
		return -1, -1, nil
	}
	start, holders := l.Index(f.N)
	cursor := slices.Clone(start[:f.N]) // holders[v][cursor[v]:] are the quorums ≥ i holding v
	mark := make([]int32, f.N)          // i+1 on the nodes of Q_i
	seen := make([]int32, m)            // i+1 on the later quorums meeting Q_i
	disjoint := func(j int, stamp int32) bool {
		for _, v := range l.At(j) {
			if mark[v] == stamp {
				return false
			}
		}
		return true
	}
	work := 0
	for i := range m - 1 {
		if i&1023 == 0 || work > 1<<20 {
			work = 0
			if err := ctx.Err(); err != nil {
				return -1, -1, err
			}
			if progress != nil {
				progress(i, m-1)
			}
		}
		q := l.At(i)
		rest := m - 1 - i
		bound, covered := 0, false
		for _, v := range q {
			cursor[v]++ // past i itself
			c := start[v+1] - cursor[v]
			bound += c
			covered = covered || c == rest
		}
		if covered {
			continue
		}
		stamp := int32(i + 1)
		if bound < rest {
			for _, v := range q {
				mark[v] = stamp
			}
			for j := i + 1; ; j++ {
				if disjoint(j, stamp) {
					return i, j, nil
				}
			}
		}
		met := 0
		for _, v := range q {
			for _, j := range holders[cursor[v]:start[v+1]] {
				if seen[j] != stamp {
					seen[j] = stamp
					met++
				}
			}
		}
		work += bound
		if met < rest {
			for j := i + 1; ; j++ {
				if seen[j] != stamp {
					return i, j, nil
				}
			}
		}
	}
	return -1, -1, nil
}

// findContainedSparse is findContainedBig for a sparse family.
func findContainedSparse(ctx context.Context, f *set.Family) (int, int, error) {
	red, err := f.Redundant(ctx)
	if err != nil {
		return -1, -1, err
	}
	l := f.Sparse
	in := make([]bool, f.N)
	for j, r := range red {
		if !r {
			continue
		}
		if err := ctx.Err(); err != nil {
			return -1, -1, err
		}
		q := l.At(j)
		for _, v := range q {
			in[v] = true
		}
		found := -1
		for i := range l.Len() {
			p := l.At(i)
			if i == j || len(p) > len(q) || !allIn(p, in) {
				continue
			}
			if len(p) == len(q) {
				if i > j {
					continue
				}
				if oi, oj := f.Owner(i), f.Owner(j); oi != set.NoOwner && oj != set.NoOwner && oi != oj {
					continue
				}
			}
			found = i
			break
		}
		for _, v := range q {
			in[v] = false
		}
		if found >= 0 {
			return found, j, nil
		}
	}
	return -1, -1, nil
}

// allIn reports whether in[v] holds for every v of p.
func allIn(p []int32, in []bool) bool {
	for _, v := range p {
		if !in[v] {
			return false
		}
	}
	return true
}
