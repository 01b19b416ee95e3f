package domination

import (
	"context"
	"math/big"

	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// selfDualMin is the fewest quorums for which [CountTransversalsOpt]
// first asks whether f is a nondominated coterie: below it the engines
// count at once.
const selfDualMin = 1 << 12

// selfDualCount counts the minimal transversals of f without enumerating
// them when f is a nondominated coterie, and reports whether it could.
//
// The minimal transversals of a nondominated coterie C are exactly its
// minimal quorums (Garcia-Molina and Barbara, JACM 1985; Ibaraki and
// Kameda, IEEE TPDS 1993: a coterie is nondominated iff it is self-dual).
// Proof, with min C the quorums containing no other: every quorum meets
// every quorum (C is intersecting), so every quorum is a transversal and
// contains a minimal one; and every minimal transversal T contains a
// quorum, for otherwise T would meet every quorum and contain none, the
// witness H of domination (Garcia-Molina and Barbara, Theorem; Kuo's
// Theorem 1) that [Decide] proves absent. So T ⊇ Q ⊇ T' for a quorum Q
// and a minimal transversal T' ⊆ Q, and T' = T by T's minimality: T = Q is
// a quorum, a minimal one (a smaller quorum would be a smaller
// transversal). Conversely a minimal quorum Q is a transversal, and any
// minimal transversal inside it is a quorum inside Q, so Q itself.
//
// The checks: the quorums pairwise meet ([verify.FindDisjoint], a
// bit-parallel pass), and [Decide], which recognises and checks the
// structure of the list (a join, a plane) and decides by its parts. Both
// are on the quorums, never the file's kind. f is a list (a threshold
// family is counted by its closed form first).
//
// found, if not nil, is told what [Decide]'s search for a join found, for
// [countTransversals] to split a dominated coterie without searching again.
func selfDualCount(ctx context.Context, f *set.Family, found *joinSearch) (*TransversalCount, bool, error) {
	d, err := verify.FindDisjoint(ctx, f, 2)
	if err != nil {
		return nil, false, err
	}
	if d != nil {
		return nil, false, nil
	}
	// Decide reads f as a coterie (k = 1): quorums containing others do
	// not change its answer, so the list is made minimal only once the
	// answer is known to be used.
	g := f
	if f.K != 1 {
		g = f.Clone()
		g.K = 1
	}
	r, err := decideFound(ctx, g, allEngines, found)
	if err != nil {
		return nil, false, err
	}
	if !r.Nondominated {
		return nil, false, nil
	}
	g = g.Clone()
	if _, err := g.MinimalizeContext(ctx); err != nil {
		return nil, false, err
	}
	c := &TransversalCount{Total: new(big.Int), BySize: map[int]*big.Int{}, Smallest: -1}
	for i := range g.Quorums {
		s := g.Quorums[i].Len()
		if c.BySize[s] == nil {
			c.BySize[s] = new(big.Int)
		}
		c.BySize[s].Add(c.BySize[s], big.NewInt(1))
		if c.Smallest < 0 || s < c.Smallest {
			c.Smallest = s
		}
	}
	c.Total.SetInt64(int64(len(g.Quorums)))
	return c, true, nil
}
