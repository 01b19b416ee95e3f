package domination

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
	"github.com/crillab/gophersat/solver"
)

// maxRounds bounds the rounds of the lazy P2 loop: each round adds at
// least one new clause, so the loop ends anyway; the bound turns a runaway
// into an error.
const maxRounds = 1 << 20

// lazyArbiter decides a k-arbiter (k > 1) by Kuo's Theorem 2: it returns a
// set H with P1 and P2, or nil if there is none. extra, if not nil, adds
// clauses to the problem before the first solve (the cardinality bound of
// DecideSmallest).
//
// P1 gives a clause per quorum ("some node of Q is not in H"). Every quorum
// is itself a k-wise intersection (take it k times), so "H meets Q" starts
// the P2 clauses; the rest are added as candidates miss them.
func lazyArbiter(ctx context.Context, f *set.Family, extra func(c *cnf)) (*set.Set, error) {
	c := newCNF(f.N)
	witnessClauses(c, f)
	if extra != nil {
		extra(c)
	}
	p := parsed(c.clauses, c.nvars)
	for range maxRounds {
		h, err := solveModel(ctx, p, f.N)
		if h == nil || err != nil {
			return nil, err
		}
		ks, err := missedIntersection(ctx, f, h)
		if err != nil {
			return nil, err
		}
		if ks == nil {
			return h, nil
		}
		// The intersection of quorums ks misses h: H must meet it.
		var inter set.Set
		inter.Copy(&f.Quorums[ks[0]])
		for _, i := range ks[1:] {
			inter.Intersect(&inter, &f.Quorums[i])
		}
		if inter.IsEmpty() {
			// k quorums share no node: no H meets their intersection.
			return nil, nil
		}
		clause := make([]int, 0, inter.Len())
		for v := range inter.All() {
			clause = append(clause, v+1)
		}
		p.s.AppendClause(solver.NewClause(lits(clause)))
	}
	return nil, fmt.Errorf("domination: no answer after %d rounds of the P2 loop", maxRounds)
}

func lits(xs []int) []solver.Lit {
	out := make([]solver.Lit, len(xs))
	for i, x := range xs {
		out[i] = solver.IntToLit(int32(x))
	}
	return out
}

// missedIntersection returns k quorums (0-based positions) whose
// intersection h misses, or nil if h meets every k-wise intersection of f:
// k quorums of {Q ∩ h} with an empty common intersection.
func missedIntersection(ctx context.Context, f *set.Family, h *set.Set) ([]int, error) {
	cut := set.NewFamily(f.N)
	cut.Quorums = make([]set.Set, len(f.Quorums))
	for i := range f.Quorums {
		cut.Quorums[i].Intersect(&f.Quorums[i], h)
	}
	ks, err := verify.FindDisjoint(ctx, cut, f.K)
	if err != nil {
		return nil, fmt.Errorf("domination: %w", err)
	}
	return ks, nil
}

// shrinkArbiter drops nodes from the witness h while P2 still holds, in
// increasing order, and returns an inclusion-minimal witness. Intersections
// found on the way are remembered, so that most candidates are refused
// without a search.
func shrinkArbiter(ctx context.Context, f *set.Family, h *set.Set) (*set.Set, error) {
	out := h.Clone()
	var known []*set.Set
	for v := range h.All() {
		out.Remove(v)
		ok := true
		for _, in := range known {
			if !set.Intersects(in, out) {
				ok = false
				break
			}
		}
		if ok {
			// Each quorum must keep a node of H (it is its own k-wise
			// intersection); cheap, so check it before the search.
			for i := range f.Quorums {
				if !set.Intersects(&f.Quorums[i], out) {
					ok = false
					break
				}
			}
		}
		if ok {
			ks, err := missedIntersection(ctx, f, out)
			if err != nil {
				return nil, err
			}
			if ks != nil {
				ok = false
				in := f.Quorums[ks[0]].Clone()
				for _, i := range ks[1:] {
					in.Intersect(in, &f.Quorums[i])
				}
				known = append(known, in)
			}
		}
		if !ok {
			out.Add(v)
		}
	}
	return out, nil
}
