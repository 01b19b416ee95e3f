package availability

import (
	"context"
	"math/big"
	"slices"

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
	if f.IsThreshold() || f.K != 1 || len(f.Quorums) == 0 {
		return nil, false
	}
	c, ok := describe(f)
	if !ok || !c.count.IsInt64() || c.count.Int64() != int64(len(f.Quorums)) {
		return nil, false
	}
	seen := make(map[string]bool, len(f.Quorums))
	var s set.Set
	for i := range f.Quorums {
		q := &f.Quorums[i]
		if m, ok := q.Max(); !ok || m >= f.N || !c.live(q) {
			return nil, false
		}
		key := q.String()
		if seen[key] {
			return nil, false
		}
		seen[key] = true
		s.Copy(q)
		for v := range q.All() {
			s.Remove(v)
			live := c.live(&s)
			s.Add(v)
			if live {
				return nil, false
			}
		}
	}
	p, err := c.poly(ctx)
	if err != nil || p.N != f.N {
		return nil, false
	}
	return p, true
}

// describe reads the construction from f's Kind and Params.
func describe(f *set.Family) (catalogue, bool) {
	if d, ok := describers[f.Kind]; ok {
		return d(f, f.N)
	}
	return catalogue{}, false
}

// describers read each construction with a recurrence from its Params,
// for a family of n nodes.
var describers = map[string]func(f *set.Family, n int) (catalogue, bool){
	"tree":     describeTree,
	"hqc":      describeHQC,
	"wall":     describeWall,
	"triangle": describeWall,
	"wheel":    describeWall,
	"cgrid":    describeCGrid,
	"vote":     describeVote,
	"bgrid":    describeBGrid,
}

// describeTree reads an Agrawal–El Abbadi tree of degree and height.
func describeTree(f *set.Family, n int) (catalogue, bool) {
	d, h := paramInt(f, "degree"), paramInt(f, "height")
	if d < 2 || h < 0 || treeNodes(d, h) != n {
		return catalogue{}, false
	}
	t := big.NewInt(1)
	for range h {
		t = new(big.Int).Add(new(big.Int).Exp(t, big.NewInt(int64(d)), nil), new(big.Int).Mul(big.NewInt(int64(d)), t))
	}
	var live func(s *set.Set, v, depth int) bool
	live = func(s *set.Set, v, depth int) bool {
		if depth == h {
			return s.Has(v)
		}
		some, all := false, true
		for c := v*d + 1; c <= v*d+d; c++ {
			l := live(s, c, depth+1)
			some, all = some || l, all && l
		}
		return (s.Has(v) && some) || all
	}
	return catalogue{
		live:  func(s *set.Set) bool { return live(s, 0, 0) },
		count: t,
		poly:  func(ctx context.Context) (*Polynomial, error) { return TreePolynomial(ctx, d, h) },
	}, true
}

// describeHQC reads a hierarchical quorum consensus system of the levels' group sizes.
func describeHQC(f *set.Family, n int) (catalogue, bool) {
	levels, ok := paramInts(f, "levels")
	if !ok || product(levels) != n {
		return catalogue{}, false
	}
	c := big.NewInt(1)
	for i := len(levels) - 1; i >= 0; i-- {
		g := levels[i]
		m := g/2 + 1
		c = new(big.Int).Mul(new(big.Int).Binomial(int64(g), int64(m)), new(big.Int).Exp(c, big.NewInt(int64(m)), nil))
	}
	var live func(s *set.Set, level, lo, size int) bool
	live = func(s *set.Set, level, lo, size int) bool {
		if level == len(levels) {
			return s.Has(lo)
		}
		g, up := levels[level], 0
		for j := range g {
			if live(s, level+1, lo+j*(size/g), size/g) {
				up++
			}
		}
		return 2*up > g
	}
	return catalogue{
		live:  func(s *set.Set) bool { return live(s, 0, 0, n) },
		count: c,
		poly:  func(ctx context.Context) (*Polynomial, error) { return HQCPolynomial(ctx, levels) },
	}, true
}

// describeWall reads a crumbling wall (a triangle and a wheel are walls) by its row widths.
func describeWall(f *set.Family, n int) (catalogue, bool) {
	var widths []int
	switch {
	case f.Kind == "triangle":
		for i := 1; i <= paramInt(f, "rows"); i++ {
			widths = append(widths, i)
		}
	case f.Kind == "wheel":
		widths = []int{1, n - 1}
	default: // CWlog files record their widths too
		widths, _ = paramInts(f, "widths")
	}
	if len(widths) == 0 || sum(widths) != n {
		return catalogue{}, false
	}
	count, below := new(big.Int), big.NewInt(1)
	for i := len(widths) - 1; i >= 0; i-- {
		count.Add(count, below)
		below.Mul(below, big.NewInt(int64(widths[i])))
	}
	return catalogue{
		live:  func(s *set.Set) bool { return wallLive(s, widths) },
		count: count,
		poly:  func(ctx context.Context) (*Polynomial, error) { return WallPolynomial(ctx, widths) },
	}, true
}

// describeCGrid reads a grid of rows × cols whose quorums are a full column and one node of every column.
func describeCGrid(f *set.Family, n int) (catalogue, bool) {
	r, c := paramInt(f, "rows"), paramInt(f, "cols")
	if r < 1 || c < 1 || r*c != n {
		return catalogue{}, false
	}
	count := new(big.Int).Exp(big.NewInt(int64(r)), big.NewInt(int64(c-1)), nil)
	return catalogue{
		live: func(s *set.Set) bool {
			someFull := false
			for col := range c {
				full, ne := true, false
				for row := range r {
					full = full && s.Has(row*c+col)
					ne = ne || s.Has(row*c+col)
				}
				if !ne {
					return false
				}
				someFull = someFull || full
			}
			return someFull
		},
		count: count.Mul(count, big.NewInt(int64(c))),
		poly:  func(ctx context.Context) (*Polynomial, error) { return CGridPolynomial(ctx, r, c) },
	}, true
}

// describeVote reads a weighted vote by its weights and threshold.
func describeVote(f *set.Family, n int) (catalogue, bool) {
	weights, ok := paramWeights(f)
	t := paramInt(f, "threshold")
	if !ok || len(weights) != n || t < 1 {
		return catalogue{}, false
	}
	count, ok := minimalVoteCount(weights, t)
	if !ok {
		return catalogue{}, false
	}
	return catalogue{
		live: func(s *set.Set) bool {
			votes := 0
			for v := range s.All() {
				votes += weights[v]
			}
			return votes >= t
		},
		count: count,
		poly:  func(ctx context.Context) (*Polynomial, error) { return VotePolynomial(ctx, weights, t) },
	}, true
}

// describeBGrid reads a banded grid of cols, bands and band-rows.
func describeBGrid(f *set.Family, n int) (catalogue, bool) {
	c, b, r := paramInt(f, "cols"), paramInt(f, "bands"), paramInt(f, "band-rows")
	// Below two columns or two rows per band the count formula does
	// not apply (quorums coincide); the general methods take those.
	if c < 2 || b < 1 || r < 2 || c*b*r != n {
		return catalogue{}, false
	}
	count := new(big.Int).Exp(big.NewInt(int64(c)), big.NewInt(int64(b)), nil)
	count.Mul(count, big.NewInt(int64(b)))
	count.Mul(count, new(big.Int).Exp(big.NewInt(int64(r)), big.NewInt(int64(c-1)), nil))
	return catalogue{
		live: func(s *set.Set) bool {
			covered := false
			for band := range b {
				full, cov := false, true
				for col := range c {
					all, any := true, false
					for i := range r {
						v := (band*r+i)*c + col
						all, any = all && s.Has(v), any || s.Has(v)
					}
					full, cov = full || all, cov && any
				}
				if !full {
					return false
				}
				covered = covered || cov
			}
			return covered
		},
		count: count,
		poly:  func(ctx context.Context) (*Polynomial, error) { return BGridPolynomial(ctx, c, b, r) },
	}, true
}

// wallLive reports whether some row of the wall is all in s with every row
// below it meeting s.
func wallLive(s *set.Set, widths []int) bool {
	end := sum(widths)
	nonemptyBelow := true
	for i := len(widths) - 1; i >= 0; i-- {
		start := end - widths[i]
		full, ne := true, false
		for v := start; v < end; v++ {
			h := s.Has(v)
			full, ne = full && h, ne || h
		}
		if full && nonemptyBelow {
			return true
		}
		nonemptyBelow = nonemptyBelow && ne
		end = start
	}
	return false
}

func treeNodes(d, h int) int {
	n, level := 0, 1
	for range h + 1 {
		n += level
		level *= d
		if n > 1<<24 || level > 1<<24 {
			return -1
		}
	}
	return n
}

// paramInts reads a comma-separated list parameter of positive integers.
func paramInts(f *set.Family, name string) ([]int, bool) {
	v, ok := f.Params.Ints(name)
	if !ok || slices.Min(v) < 1 {
		return nil, false
	}
	return v, true
}

func product(v []int) int {
	p := 1
	for _, x := range v {
		p *= x
		if p > 1<<24 {
			return -1
		}
	}
	return p
}

func sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

// paramWeights reads the "weights" of a vote family (0 allowed).
func paramWeights(f *set.Family) ([]int, bool) {
	v, ok := f.Params.Ints("weights")
	if !ok || slices.Min(v) < 0 {
		return nil, false
	}
	return v, true
}

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
