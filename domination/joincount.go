package domination

import (
	"context"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/set"
)

// countJoin counts the minimal transversals of an explicit family f found
// to split as g[x := h] (s, from [findJoin]: the quorums meeting the node
// set M of h are every R ∪ G, R a quorum of g through x without x, G one
// of h), from counts of its parts, each counted by [countTransversals] in
// turn (which may split it again).
//
// A set meets every quorum of f iff its complement holds no quorum, so
// the minimal transversals of f are the minimal true sets of the dual f^d;
// the dual of a substitution on disjoint nodes is the substitution of the
// duals, f^d = g^d[x := h^d], and its minimal true sets are
//
//   - the minimal transversals T of g without x, and
//   - (T ∖ {x}) ∪ S for T a minimal transversal of g with x and S one of h,
//
// all distinct (they differ on M or outside it) and each minimal: a true
// subset of (T ∖ {x}) ∪ S either keeps all of S, and then puts a smaller
// true set T' ∪ {x} ⊊ T in g^d, or not, and then its part on M is false
// in h^d, so its part outside M is true in g^d without x, inside T ∖ {x},
// while T is minimal and holds x. The first kind are the minimal
// transversals of g with x taken out of every quorum (gx: a set avoiding x
// meets the quorums of g iff it meets those of gx). So, counting by size,
//
//	count_f(s) = count_gx(s) + Σ (count_g(a) − count_gx(a)) · count_h(b), a−1+b = s.
//
// The parts are counted in the order gx, h, g: the transversals of gx are
// transversals of f, so a count stopped early (ctx, the memory budget)
// returns them, a lower bound marked Partial, whichever part stopped.
func countJoin(ctx context.Context, f *set.Family, s *joinSplit, o Options) (*TransversalCount, error) {
	gx := set.NewFamily(f.N)
	gx.K = f.K
	for i := range s.outer.Quorums {
		q := s.outer.Quorums[i].Clone()
		q.Remove(s.x)
		gx.Add(q, set.NoOwner)
	}
	if _, err := gx.MinimalizeContext(ctx); err != nil {
		return partialCount(nil), err
	}
	a, err := countTransversals(ctx, gx, o)
	if err != nil {
		return partialCount(a), err
	}
	hc, err := countTransversals(ctx, s.in, o)
	if err != nil {
		return partialCount(a), err
	}
	g, err := countTransversals(ctx, s.outer, o)
	if err != nil {
		return partialCount(a), err
	}
	c := &TransversalCount{Total: new(big.Int), BySize: map[int]*big.Int{}, Smallest: -1}
	add := func(size int, k *big.Int) {
		if k.Sign() == 0 {
			return
		}
		if c.BySize[size] == nil {
			c.BySize[size] = new(big.Int)
		}
		c.BySize[size].Add(c.BySize[size], k)
		c.Total.Add(c.Total, k)
	}
	for size, k := range a.BySize {
		add(size, k)
	}
	var with, prod big.Int
	for sa, kg := range g.BySize {
		with.Set(kg)
		if ka := a.BySize[sa]; ka != nil {
			with.Sub(&with, ka)
		}
		if with.Sign() < 0 {
			return nil, fmt.Errorf("domination: internal error: the split at node %d counts fewer transversals of size %d with it than without", s.x+1, sa)
		}
		for sb, kh := range hc.BySize {
			add(sa-1+sb, prod.Mul(&with, kh))
		}
	}
	for size, k := range a.BySize {
		if _, ok := g.BySize[size]; !ok && k.Sign() != 0 {
			return nil, fmt.Errorf("domination: internal error: the split at node %d counts transversals of size %d without it that it lacks with it", s.x+1, size)
		}
	}
	for size := range c.BySize {
		if c.Smallest < 0 || size < c.Smallest {
			c.Smallest = size
		}
	}
	return c, nil
}

// partialCount returns c (nil: an empty count) marked Partial.
func partialCount(c *TransversalCount) *TransversalCount {
	if c == nil {
		c = &TransversalCount{Total: new(big.Int), BySize: map[int]*big.Int{}, Smallest: -1}
	}
	c.Partial = true
	return c
}
