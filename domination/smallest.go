package domination

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/set"
	"github.com/crillab/gophersat/solver"
)

// DecideSmallest is [Decide] with a witness of minimum size: for a
// projective plane, a smallest blocking set that contains no line. It finds
// a minimal witness, then asks the SAT solver for one of at most b−1 nodes
// (a sequential-counter cardinality constraint, Sinz 2005) until the answer
// is UNSAT, which proves the last witness smallest. Result.Smallest is set
// when the system is dominated.
//
// The cost is exponential at worst and grows quickly with the order of a
// projective plane; ctx cancels it.
func DecideSmallest(ctx context.Context, f *set.Family) (*Result, error) {
	r, err := Decide(ctx, f)
	if err != nil || r.Nondominated || r.Smallest {
		return r, err
	}
	best := r.Witness
	for {
		h, err := boundedWitness(ctx, f, best.Len()-1)
		if err != nil {
			return nil, err
		}
		if h == nil {
			break
		}
		if h, err = shrink(ctx, f, h); err != nil {
			return nil, err
		}
		if h.Len() >= best.Len() {
			return nil, fmt.Errorf("domination: internal error: a witness of at most %d nodes has %d", best.Len()-1, h.Len())
		}
		if err := CheckWitness(ctx, f, h); err != nil {
			return nil, fmt.Errorf("domination: internal error: the solver's witness fails the check: %w", err)
		}
		best = h
	}
	return &Result{K: f.K, Witness: best, Smallest: true}, nil
}

// boundedWitness returns a witness of at most b nodes, or nil if there is
// none.
func boundedWitness(ctx context.Context, f *set.Family, b int) (*set.Set, error) {
	if b < 1 {
		return nil, nil
	}
	card := func(cnf [][]int) [][]int { return atMost(f.N, b, f.N+1) }
	if f.K > 1 {
		return lazyArbiter(ctx, f, card)
	}
	var cnf [][]int
	for i := range f.Quorums {
		var pos, neg []int
		for v := range f.Quorums[i].All() {
			pos = append(pos, v+1)
			neg = append(neg, -(v + 1))
		}
		cnf = append(cnf, pos, neg)
	}
	cnf = append(cnf, card(cnf)...)
	s := solver.New(solver.ParseSliceNb(cnf, maxVar(cnf)))
	st, err := solve(ctx, s)
	if err != nil {
		return nil, err
	}
	if st == solver.Unsat {
		return nil, nil
	}
	if st != solver.Sat {
		return nil, fmt.Errorf("domination: the SAT solver gave no answer (status %v)", st)
	}
	h := set.New(f.N)
	for v, in := range s.Model() {
		if in && v < f.N {
			h.Add(v)
		}
	}
	return h, nil
}

// atMost returns clauses saying that at most b of the variables 1..n are
// true, by Sinz's sequential counter: s(i,j) ("at least j of x1..xi are
// true") is variable next + (i−1)·b + (j−1), for i < n and 1 ≤ j ≤ b.
func atMost(n, b, next int) [][]int {
	var cnf [][]int
	if b >= n {
		return nil
	}
	if b == 0 {
		for i := 1; i <= n; i++ {
			cnf = append(cnf, []int{-i})
		}
		return cnf
	}
	s := func(i, j int) int { return next + (i-1)*b + (j - 1) }
	cnf = append(cnf, []int{-1, s(1, 1)})
	for j := 2; j <= b; j++ {
		cnf = append(cnf, []int{-s(1, j)})
	}
	for i := 2; i < n; i++ {
		cnf = append(cnf, []int{-i, s(i, 1)}, []int{-s(i-1, 1), s(i, 1)})
		for j := 2; j <= b; j++ {
			cnf = append(cnf, []int{-i, -s(i-1, j-1), s(i, j)}, []int{-s(i-1, j), s(i, j)})
		}
		cnf = append(cnf, []int{-i, -s(i-1, b)})
	}
	cnf = append(cnf, []int{-n, -s(n-1, b)})
	return cnf
}
