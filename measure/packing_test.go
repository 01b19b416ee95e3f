package measure

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/lp"
	"github.com/coterie-dev/coterie/set"
)

func membersOf(f *set.Family) [][]int {
	members := make([][]int, len(f.Quorums))
	for q := range f.Quorums {
		members[q] = f.Quorums[q].Elements()
	}
	return members
}

// exactBusiest evaluates an exact strategy independently of the package:
// it checks the weights are a distribution and returns the busiest node's
// load.
func exactBusiest(t *testing.T, f *set.Family, l *Load) *big.Rat {
	t.Helper()
	sum := new(big.Rat)
	load := make([]big.Rat, f.N)
	for _, w := range l.Strategy {
		if w.Exact == nil || w.Exact.Sign() <= 0 {
			t.Fatalf("strategy weight %v of quorum %d is not a positive fraction", w.Exact, w.Quorum+1)
		}
		sum.Add(sum, w.Exact)
		for x := range f.Quorums[w.Quorum].All() {
			load[x].Add(&load[x], w.Exact)
		}
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Fatalf("strategy sums to %v", sum)
	}
	top := new(big.Rat)
	for x := range load {
		if load[x].Cmp(top) > 0 {
			top.Set(&load[x])
		}
	}
	return top
}

// threshold returns all w-subsets of n nodes as an explicit family.
func threshold(n, w int) *set.Family {
	f := set.NewFamily(n)
	for mask := range 1 << n {
		s := set.New(n)
		for v := range n {
			if mask>>v&1 == 1 {
				s.Add(v)
			}
		}
		if s.Len() == w {
			f.Add(s, set.NoOwner)
		}
	}
	return f
}

// The packing simplex with its exact basis solution agrees with the
// dense method (lp.Float, then lp.Exact, certified) on random systems and
// on the constructions, with the closed forms where they apply, and its
// strategy reaches the load exactly.
func TestPackingMatchesDense(t *testing.T) {
	type tc struct {
		name string
		f    *set.Family
		want *big.Rat // known load, if any
	}
	var cases []tc
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 80 {
		cases = append(cases, tc{fmt.Sprintf("random %d", i), randomSystem(r, 3+r.IntN(14)), nil})
	}
	for i := range 10 {
		cases = append(cases, tc{fmt.Sprintf("random irregular %d", i), testsys.Family(r, 20+r.IntN(20), 10+r.IntN(60), 0.2), nil})
	}
	for _, n := range []int{3, 5, 6, 8, 10, 12, 18, 20, 25, 31, 43, 50, 60, 90} {
		for _, how := range []construct.DegenerateMap{construct.MapMin, construct.MapPaper} {
			f, err := construct.Maekawa(n, how)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, tc{fmt.Sprintf("maekawa n=%d map=%v", n, how), f, nil})
		}
	}
	for _, rc := range [][2]int{{2, 3}, {3, 3}, {3, 5}, {4, 4}, {4, 6}} {
		cases = append(cases, tc{fmt.Sprintf("grid %d×%d", rc[0], rc[1]), grid(rc[0], rc[1]), nil})
	}
	for _, q := range []int{2, 3, 4, 5} {
		cases = append(cases, tc{fmt.Sprintf("PG(2,%d)", q), testsys.Plane(t, q), nil})
	}
	for _, nw := range [][2]int{{3, 2}, {5, 3}, {7, 4}, {8, 5}} {
		cases = append(cases, tc{fmt.Sprintf("majority %d of %d", nw[1], nw[0]), threshold(nw[0], nw[1]),
			big.NewRat(int64(nw[1]), int64(nw[0]))})
	}
	cases = append(cases, tc{"wheel of 9", wheel(9), big.NewRat(8, 15)}, tc{"Fano", fano(), big.NewRat(3, 7)})
	for _, c := range cases {
		members := membersOf(c.f)
		l, err := packingLoad(context.Background(), c.f.N, members, 1e12)
		if err != nil || l == nil {
			t.Fatalf("%s: packing: %v, %v", c.name, l, err)
		}
		if got := exactBusiest(t, c.f, l); got.Cmp(l.Exact) != 0 {
			t.Fatalf("%s: the strategy's busiest node carries %v, load %v", c.name, got, l.Exact)
		}
		// The dense method where it is quick (the dense tableau
		// slows down fast); proved bounds from the game otherwise.
		want := regularLoad(c.f)
		if want == nil && c.f.N+len(members) <= 60 {
			if want, err = denseLoad(context.Background(), c.f, members); err != nil || want.Exact == nil {
				t.Fatalf("%s: dense LP: %v, %v", c.name, want, err)
			}
		}
		if want != nil && l.Exact.Cmp(want.Exact) != 0 {
			t.Errorf("%s: packing %v, earlier method %v", c.name, l.Exact, want.Exact)
		}
		lo, up, err := LoadBounds(context.Background(), c.f)
		if err != nil || lo.Cmp(l.Exact) > 0 || up.Cmp(l.Exact) < 0 {
			t.Errorf("%s: load %v outside the proved bounds %v..%v (%v)", c.name, l.Exact, lo, up, err)
		}
		if c.want != nil && l.Exact.Cmp(c.want) != 0 {
			t.Errorf("%s: load %v, want %v", c.name, l.Exact, c.want)
		}
	}
}

// The packing simplex stops at its work limit and when its context ends.
func TestPackingLimits(t *testing.T) {
	f := wheel(30)
	if _, err := packingLoad(context.Background(), f.N, membersOf(f), 1); err != errPackingWork {
		t.Errorf("work limit 1: %v", err)
	}
	var work float64
	if _, err := lp.SolveBasis(context.Background(), 3, [][]int{{0}, {1}, {2}}, &work, 1); err != errPackingWork {
		t.Errorf("exact basis solution past its work: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := packingLoad(ctx, f.N, membersOf(f), 1e12); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}

// A family with an empty quorum has load 0: that quorum touches nobody.
func TestLoadEmptyQuorum(t *testing.T) {
	f := set.NewFamily(3)
	f.Add(set.New(3), set.NoOwner)
	q := set.New(3)
	q.Add(1)
	f.Add(q, set.NoOwner)
	l, err := LoadOf(context.Background(), f, LoadOptions{})
	if err != nil || l.Exact == nil || l.Exact.Sign() != 0 || exactBusiest(t, f, l).Sign() != 0 {
		t.Errorf("load %+v, %v; want 0", l, err)
	}
}

// Only the empty quorum: load 0 as well.
func TestLoadOnlyEmptyQuorum(t *testing.T) {
	f := set.NewFamily(2)
	f.Add(set.New(2), set.NoOwner)
	l, err := LoadOf(context.Background(), f, LoadOptions{})
	if err != nil || l.Exact == nil || l.Exact.Sign() != 0 {
		t.Errorf("load %+v, %v; want 0", l, err)
	}
}

// Recomputing B⁻¹ from the basic columns gives back the product-form
// inverse's values and duals, and the basis still proves the load.
func TestPackingReinvert(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	for i := range 20 {
		f := testsys.Family(r, 10+r.IntN(30), 5+r.IntN(40), 0.25)
		members := membersOf(f)
		p := newPacking(f.N, members)
		if err := p.solve(context.Background(), 1e12); err != nil {
			t.Fatal(err)
		}
		xb := append([]float64(nil), p.xb...)
		pi := append([]float64(nil), p.pi...)
		if !p.reinvert() {
			t.Fatalf("system %d: an optimal basis is singular", i)
		}
		for k := range xb {
			if math.Abs(xb[k]-p.xb[k]) > 1e-9 || math.Abs(pi[k]-p.pi[k]) > 1e-9 {
				t.Fatalf("system %d, row %d: values %v/%v, duals %v/%v", i, k, xb[k], p.xb[k], pi[k], p.pi[k])
			}
		}
		l, err := p.prove(context.Background(), 1e12)
		if err != nil || l == nil {
			t.Fatalf("system %d: after reinversion: %v, %v", i, l, err)
		}
		if got := exactBusiest(t, f, l); got.Cmp(l.Exact) != 0 {
			t.Fatalf("system %d: busiest node %v, load %v", i, got, l.Exact)
		}
	}
}
