package availability

import (
	"context"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// catalogue describes a classic construction for the recurrences of
// catalogue.go: its live predicate (read off the construction's definition,
// on the numbering package construct documents), the number of its minimal
// quorums, and its polynomial.
type catalogue struct {
	live  func(s *set.Set) bool
	count *big.Int
	poly  func(context.Context) (*Polynomial, error)
}

// recognise returns the polynomial of f when f's Kind and Params name a
// classic construction (tree, hqc, wall, triangle, wheel, cgrid, bgrid,
// vote) and
// f is provably that construction: its quorums are distinct, each is a
// minimal live set of the construction's predicate, and there are as many
// as the construction has. Distinct minimal live sets, as many as all of
// them, are all of them, so Kind is never trusted alone.
//
// A done ctx makes it report no match.
func recognise(ctx context.Context, f *set.Family) (*Polynomial, bool) {
	if f.K != 1 || len(f.Quorums) == 0 {
		return nil, false
	}
	c, ok := describe(f)
	if !ok || !c.holds(ctx, f) {
		return nil, false
	}
	p, err := c.poly(ctx)
	if err != nil || p.N != f.N {
		return nil, false
	}
	return p, true
}

// holds reports whether f's quorums are distinct minimal live sets of c's
// predicate, as many as c has: then they are all of them. A done ctx
// makes it answer false; it looks every 256 quorums, since a list of two
// million (a bgrid's) takes seconds.
func (c catalogue) holds(ctx context.Context, f *set.Family) bool {
	if !c.count.IsInt64() || c.count.Int64() != int64(len(f.Quorums)) {
		return false
	}
	// Distinct: by hash, the quorums of one hash compared as sets (first
	// holds the first of each hash, more the rare others).
	first := make(map[uint64]int32, len(f.Quorums))
	var more map[uint64][]int32
	var s set.Set
	for i := range f.Quorums {
		if i&0xff == 0 && ctx.Err() != nil {
			return false
		}
		q := &f.Quorums[i]
		if m, ok := q.Max(); !ok || m >= f.N || !c.live(q) {
			return false
		}
		h := q.Hash()
		if j, ok := first[h]; !ok {
			first[h] = int32(i)
		} else {
			if set.Equal(q, &f.Quorums[j]) {
				return false
			}
			for _, k := range more[h] {
				if set.Equal(q, &f.Quorums[k]) {
					return false
				}
			}
			if more == nil {
				more = map[uint64][]int32{}
			}
			more[h] = append(more[h], int32(i))
		}
		s.Copy(q)
		for v := range q.All() {
			s.Remove(v)
			live := c.live(&s)
			s.Add(v)
			if live {
				return false
			}
		}
	}
	return true
}

// describe reads the construction that f's kind and params claim (the
// registry's typed construction, see construct.Claimed): its membership
// test and its count come from the construction, its polynomial from the
// recurrence of this package that matches its type. The claim is checked
// on f's quorums by recognise; an implicit family has no other.
func describe(f *set.Family) (catalogue, bool) {
	sys, ok := construct.Claimed(f)
	if !ok {
		return catalogue{}, false
	}
	return catalogueOf(sys)
}

// catalogueOf is the catalogue entry of the construction sys: its
// membership test, its count and its recurrence.
func catalogueOf(sys quorum.System) (catalogue, bool) {
	poly := recurrence(sys)
	if poly == nil {
		return catalogue{}, false
	}
	var count *big.Int
	if c, ok := sys.(quorum.Counter); ok {
		count, ok = c.QuorumCount()
		if !ok {
			return catalogue{}, false
		}
	} else if v, ok := sys.(*construct.VoteSystem); ok {
		if count, ok = minimalVoteCount(v.Weights, v.Threshold); !ok {
			return catalogue{}, false
		}
	} else {
		return catalogue{}, false
	}
	return catalogue{live: sys.HasQuorum, count: count, poly: poly}, true
}

// recurrence returns the availability polynomial's recurrence of the
// construction sys, or nil when sys is none of those with one (a tree,
// an hqc, a crumbling wall, a cgrid, a bgrid, a weighted vote); a listed
// family is none of them, whatever it claims.
func recurrence(sys quorum.System) func(context.Context) (*Polynomial, error) {
	var poly func(context.Context) (*Polynomial, error)
	switch s := sys.(type) {
	case *construct.TreeSystem:
		poly = func(ctx context.Context) (*Polynomial, error) { return TreePolynomial(ctx, s.Degree, s.Height) }
	case *construct.HQCSystem:
		poly = func(ctx context.Context) (*Polynomial, error) { return HQCPolynomial(ctx, s.Levels) }
	case *construct.WallSystem:
		poly = func(ctx context.Context) (*Polynomial, error) { return WallPolynomial(ctx, s.Widths) }
	case *construct.CGridSystem:
		poly = func(ctx context.Context) (*Polynomial, error) { return CGridPolynomial(ctx, s.Rows, s.Cols) }
	case *construct.BGridSystem:
		poly = func(ctx context.Context) (*Polynomial, error) {
			return BGridPolynomial(ctx, s.Cols, s.Bands, s.BandRows)
		}
	case *construct.VoteSystem:
		poly = func(ctx context.Context) (*Polynomial, error) { return VotePolynomial(ctx, s.Weights, s.Threshold) }
	}
	return poly
}

// MinimalVoteCount returns the number of minimal sets of nodes holding at
// least t of the votes weights (see minimalVoteCount), and false when
// weights and t are too large to count.
func MinimalVoteCount(weights []int, t int) (*big.Int, bool) { return minimalVoteCount(weights, t) }

// minimalVoteCount returns the number of minimal sets holding at least t
// votes. Sorted by decreasing votes, a set is minimal exactly when it
// reaches t only with its last node k; so the count is, over k with
// w_k > 0, the number of subsets A of the nodes before k with
// t − w_k ≤ w(A) < t, from a subset-sum count over the prefix.
func minimalVoteCount(weights []int, t int) (*big.Int, bool) {
	if t > 1<<20 || int64(len(weights))*int64(t) > 1<<28 {
		return nil, false
	}
	w := slices.Clone(weights)
	slices.SortStableFunc(w, func(a, b int) int { return b - a })
	dp := make([]*big.Int, t) // dp[s]: subsets of the prefix with s < t votes
	for s := range dp {
		dp[s] = new(big.Int)
	}
	dp[0].SetInt64(1)
	count := new(big.Int)
	for _, x := range w {
		if x == 0 {
			continue
		}
		for s := max(t-x, 0); s < t; s++ {
			count.Add(count, dp[s])
		}
		for s := t - 1; s >= x; s-- {
			dp[s].Add(dp[s], dp[s-x])
		}
	}
	return count, true
}
