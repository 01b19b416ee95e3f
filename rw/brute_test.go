package rw

import (
	"context"
	"errors"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/set"
)

// randomSeparable builds a random read-once expression over the nodes in
// order (every node once).
func randomSeparable(r *rand.Rand, nodes []int) *expr.Expr {
	if len(nodes) == 1 {
		return expr.Node(nodes[0])
	}
	parts := 2 + r.IntN(min(3, len(nodes)-1))
	var args []*expr.Expr
	start := 0
	for i := range parts {
		end := start + 1 + r.IntN(len(nodes)-start-(parts-i)+1)
		if i == parts-1 {
			end = len(nodes)
		}
		args = append(args, randomSeparable(r, nodes[start:end]))
		start = end
	}
	switch r.IntN(3) {
	case 0:
		return expr.NewOr(args...)
	case 1:
		return expr.NewAnd(args...)
	default:
		e, _ := expr.NewChoose(1+r.IntN(len(args)), args...)
		return e
	}
}

// gridStrategies calls visit with every strategy whose probabilities are
// multiples of 1/den over the listed quorums.
func gridStrategies(reads, writes []*set.Set, den int, visit func(*Strategy)) {
	var rec func(qs []*set.Set, i, left int, acc []Choice, done func([]Choice))
	rec = func(qs []*set.Set, i, left int, acc []Choice, done func([]Choice)) {
		if i == len(qs)-1 {
			done(append(acc, Choice{qs[i], big.NewRat(int64(left), int64(den))}))
			return
		}
		for k := 0; k <= left; k++ {
			rec(qs, i+1, left-k, append(acc, Choice{qs[i], big.NewRat(int64(k), int64(den))}), done)
		}
	}
	rec(reads, 0, den, nil, func(rc []Choice) {
		rc = append([]Choice(nil), rc...)
		rec(writes, 0, den, nil, func(wc []Choice) {
			visit(&Strategy{Reads: rc, Writes: wc})
		})
	})
}

func sets(f *set.Family) []*set.Set {
	var out []*set.Set
	for i := range f.Quorums {
		out = append(out, &f.Quorums[i])
	}
	return out
}

// TestAgainstBruteForce compares the LP with every strategy on a grid of
// probabilities (1/den steps) on tiny random systems: no grid strategy
// beats the LP, and when the LP's optimum lies on the grid, the grid finds
// the same value. Both the formula pricing and the listed quorums are
// tried, and must agree.
func TestAgainstBruteForce(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 7))
	const den = 6
	checked, onGrid := 0, 0
	for i := 0; checked < 60 && i < 2000; i++ {
		n := 3 + r.IntN(3)
		nodes := []int{}
		for v := range n {
			nodes = append(nodes, v)
		}
		e := randomSeparable(r, nodes)
		attrs := DefaultNodes(n)
		for v := range attrs {
			attrs[v].ReadCapacity = big.NewRat(int64(1+r.IntN(2)), 1)
			attrs[v].WriteCapacity = big.NewRat(int64(1+r.IntN(3)), 1)
			attrs[v].Latency = big.NewRat(int64(1+r.IntN(4)), 1)
		}
		s, err := New(n, e, nil, attrs)
		if err != nil {
			t.Fatal(err)
		}
		rf, _ := s.Reads.Family(n, 0)
		wf, _ := s.Writes.Family(n, 0)
		if len(rf.Quorums) > 3 || len(wf.Quorums) > 3 {
			continue
		}
		checked++
		fr := []string{"0", "1/3", "1/2", "1"}[r.IntN(4)]
		obj := []Objective{MinLoad, MinLatency, MinNetwork}[r.IntN(3)]
		o := Options{Workload: Fixed(rat(fr)), Optimize: obj}
		if obj != MinLoad && r.IntN(2) == 0 {
			o.LoadLimit = rat("2/3")
		}
		_, m, err := s.Optimal(ctx, o)
		if err != nil && !errors.Is(err, ErrNoStrategy) {
			t.Fatal(err)
		}
		// The same program with every quorum listed up front.
		listed, _ := New(n, e, nil, attrs)
		listed.Reads.List, listed.Writes.List = rf, wf
		_, m2, err2 := listed.Optimal(ctx, o)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("%s: formula pricing err %v, listed err %v", e, err, err2)
		}
		metric := func(m *Metrics) *big.Rat {
			switch obj {
			case MinLatency:
				return m.Latency
			case MinNetwork:
				return m.Network
			}
			return m.Load
		}
		if err == nil && metric(m).Cmp(metric(m2)) != 0 {
			t.Fatalf("%s %s: formula pricing %v, listed %v", e, obj, metric(m), metric(m2))
		}
		var best *big.Rat
		gridStrategies(sets(rf), sets(wf), den, func(st *Strategy) {
			gm, err := s.Evaluate(st, o.Workload)
			if err != nil {
				t.Fatal(err)
			}
			if o.LoadLimit != nil && gm.Load.Cmp(o.LoadLimit) > 0 {
				return
			}
			if v := metric(gm); best == nil || v.Cmp(best) < 0 {
				best = v
			}
		})
		if err != nil {
			if best != nil {
				t.Fatalf("%s %s: LP infeasible, grid strategy with %v", e, obj, best)
			}
			continue
		}
		if best == nil {
			continue
		}
		if best.Cmp(metric(m)) < 0 {
			t.Fatalf("%s %s at %s: grid strategy %v beats the LP's %v", e, obj, fr, best, metric(m))
		}
		// When the optimum is attained on the grid (its denominator
		// divides 6 for these figures), the grid must find it; check by
		// refining: LP ≤ grid, and grid − LP small.
		if best.Cmp(metric(m)) == 0 {
			onGrid++
		}
		gap := new(big.Rat).Sub(best, metric(m))
		if f, _ := gap.Float64(); f > 0.5 {
			t.Fatalf("%s %s: grid %v far above LP %v", e, obj, best, metric(m))
		}
	}
	if checked < 60 {
		t.Fatalf("only %d systems checked", checked)
	}
	if onGrid < checked/3 {
		t.Errorf("the grid matched the LP on only %d of %d systems", onGrid, checked)
	}
}

// TestCoterieMatchesMeasure: a coterie as a read-write system (R = W) has
// the Naor–Wool load at every read fraction, and its resilience, as
// package measure computes them.
func TestCoterieMatchesMeasure(t *testing.T) {
	ctx := context.Background()
	mustF := func(f *set.Family, err error) *set.Family {
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, c := range []struct {
		name string
		f    *set.Family
	}{
		{"fpp 2", mustF(construct.ProjectivePlane(2))},
		{"fpp 3", mustF(construct.ProjectivePlane(3))},
		{"grid 3x4", mustF(construct.Grid(3, 4, 12))},
		{"maekawa 10", mustF(construct.Maekawa(10, construct.MapMin))},
		{"majority 7", mustF(construct.Majority(7))},
		{"billiard 5", mustF(construct.Billiard(5))},
	} {
		f := c.f
		load, err := measure.LoadOf(ctx, f, measure.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := measure.ResilienceOf(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := FromFamilies(ctx, f, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, fr := range []string{"0", "1/3", "1"} {
			_, m, err := s.Optimal(ctx, Options{Workload: Fixed(rat(fr))})
			if err != nil {
				t.Fatal(err)
			}
			if load.Exact == nil {
				t.Fatalf("%s: measure has no exact load", c.name)
			}
			if m.Load.Cmp(load.Exact) != 0 {
				t.Errorf("%s at %s: rw load %v, measure %v", c.name, fr, m.Load, load.Exact)
			}
			if _, capExact := load.Capacity(); capExact == nil || m.Capacity.Cmp(capExact) != 0 {
				t.Errorf("%s at %s: rw capacity %v, measure %v", c.name, fr, m.Capacity, capExact)
			}
		}
		for _, side := range []func(context.Context) (Resilience, error){s.ReadResilience, s.WriteResilience} {
			r, err := side(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if r.F != res.F {
				t.Errorf("%s: rw resilience %d, measure %d", c.name, r.F, res.F)
			}
		}
	}
}

// TestResilientSets checks the f-resilient sets of random small systems
// against their definition: each survives any f failures, loses that
// property when any node is dropped, and every set that survives f
// failures contains one.
func TestResilientSets(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	for range 40 {
		n := 3 + r.IntN(4)
		nodes := make([]int, n)
		for v := range nodes {
			nodes[v] = v
		}
		s, err := New(n, randomSeparable(r, nodes), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		f := 1 + r.IntN(2)
		sets, err := s.resilientSets(context.Background(), &s.Reads, f, 1000)
		if err != nil {
			t.Fatal(err)
		}
		// Survives any f failures: every subset of at most f of its nodes
		// removed leaves a quorum (by brute force over subsets).
		survives := func(q *set.Set) bool {
			elems := q.Elements()
			if len(elems) < f {
				return false
			}
			for fail := range 1 << len(elems) {
				if bits.OnesCount(uint(fail)) > f {
					continue
				}
				rest := q.Clone()
				for i, v := range elems {
					if fail&(1<<i) != 0 {
						rest.Remove(v)
					}
				}
				if !s.Reads.IsQuorum(rest) {
					return false
				}
			}
			return true
		}
		for mask := range 1 << n {
			q := new(set.Set)
			for v := range n {
				if mask&(1<<v) != 0 {
					q.Add(v)
				}
			}
			contains := false
			for _, m := range sets {
				if set.Subset(m, q) {
					contains = true
				}
			}
			if survives(q) != contains {
				t.Fatalf("%s, f = %d: %v survives %v, contains a listed set %v", s.Reads.Expr, f, q, survives(q), contains)
			}
		}
		for _, m := range sets {
			for v := range m.All() {
				d := m.Clone()
				d.Remove(v)
				if survives(d) {
					t.Fatalf("%s, f = %d: %v is not minimal", s.Reads.Expr, f, m)
				}
			}
		}
	}
}
