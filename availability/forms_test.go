package availability

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/set"
)

// implicitAndListed returns an implicit family and the same quorums
// listed by its construction.
func implicitAndListed(t *testing.T, kind string, params set.Params) (imp, listed *set.Family) {
	t.Helper()
	imp, err := construct.Implicit(kind, params)
	if err != nil {
		t.Fatal(err)
	}
	listed, err = construct.Materialize(imp, construct.ListLimit)
	if err != nil {
		t.Fatal(err)
	}
	return imp, listed
}

// pairRacks is a tree of racks of 2 nodes, each up with probability 99/100.
func pairRacks(t *testing.T, n int) *domain.Tree {
	t.Helper()
	tr := domain.New(n)
	for v := range n {
		if err := tr.Place(v, fmt.Sprintf("rack%d", v/2+1)); err != nil {
			t.Fatal(err)
		}
	}
	for d := range tr.Len() {
		if err := tr.SetP(d, big.NewRat(99, 100)); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// The functions under failure domains list an implicit family before
// lifting it: Lift used to lift none of its quorums (an implicit family
// holds none), so that DomainAvailability, LiftedAvailability and
// DomainBoth said 0.
func TestDomainsImplicit(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		kind   string
		params set.Params
	}{
		{"wall", set.Params{"widths": "1,2,3"}},
		{"tree", set.Params{"degree": 2, "height": 2}},
		{"vote", set.Params{"weights": "3,1,1,1,1"}},
	} {
		imp, listed := implicitAndListed(t, c.kind, c.params)
		tr := pairRacks(t, imp.N)
		m := UniformModel(imp.N, big.NewRat(9, 10), tr)
		want, _, err := DomainAvailability(ctx, listed, m, 0)
		if err != nil {
			t.Fatal(err)
		}
		if want.Sign() <= 0 {
			t.Fatalf("%s: availability %s of the list", c.kind, want)
		}
		got, _, err := DomainAvailability(ctx, imp, m, 0)
		if err != nil || got.Cmp(want) != 0 {
			t.Errorf("%s: implicit %v, %v; listed %s", c.kind, got, err, want)
		}
		if got, err := LiftedAvailability(ctx, imp, m, 0); err != nil || got.Cmp(want) != 0 {
			t.Errorf("%s: lifted implicit %v, %v; listed %s", c.kind, got, err, want)
		}
		vars := []int{}
		for d := range tr.Len() {
			vars = append(vars, d)
		}
		li, _ := Lift(imp, tr, vars)
		ll, _ := Lift(listed, tr, vars)
		if li == nil || !set.SameQuorums(li, ll) {
			t.Errorf("%s: Lift of the implicit family %v, of the list %v", c.kind, li, ll)
		}
		maj := set.NewThreshold(imp.N, imp.N/2+1)
		_, _, bi, err := DomainBoth(ctx, imp, maj, m, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, _, bl, err := DomainBoth(ctx, listed, maj, m, 0)
		if err != nil || bi.Cmp(bl) != 0 {
			t.Errorf("%s: both with the majorities: implicit %s, listed %v, %v", c.kind, bi, bl, err)
		}
	}
	// Too many to list: an error, not a wrong answer.
	huge, err := construct.Implicit("tree", set.Params{"degree": 2, "height": 6})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LiftedAvailability(ctx, huge, UniformModel(huge.N, big.NewRat(9, 10), pairRacks(t, huge.N)), 0); !errors.Is(err, set.ErrTooMany) {
		t.Errorf("lifted availability of %s: %v, want set.ErrTooMany", huge, err)
	}
	if lf, order := Lift(huge, pairRacks(t, huge.N), []int{0}); lf != nil || order != nil {
		t.Errorf("Lift of %s: %v", huge, lf)
	}
}

// Result.Probability and Split.Piece list an implicit family: they used
// to find no quorum in it (AV = 0, every piece 0).
func TestProbabilityAndPieceImplicit(t *testing.T) {
	ctx := context.Background()
	imp, listed := implicitAndListed(t, "hqc", set.Params{"levels": "3,3"})
	ri, err := Compute(ctx, imp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := make([]float64, imp.N)
	for i := range p {
		p[i] = 0.8 + 0.01*float64(i)
	}
	want, err := BruteProbability(ctx, listed, p)
	if err != nil {
		t.Fatal(err)
	}
	got, exact, err := ri.Probability(ctx, p, 0)
	if err != nil || !exact || math.Abs(got-want) > 1e-12 {
		t.Errorf("Probability of the implicit family %v, %v, %v; brute force %v", got, exact, err, want)
	}
	sp, err := NewSplit(ctx, listed, 2)
	if err != nil {
		t.Fatal(err)
	}
	for j := range 4 {
		pi, err := sp.Piece(ctx, imp, j, Options{})
		if err != nil {
			t.Fatal(err)
		}
		pl, err := sp.Piece(ctx, listed, j, Options{})
		if err != nil || !pi.Equal(pl) {
			t.Errorf("piece %d: implicit %v, listed %v, %v", j, pi, pl, err)
		}
	}
	if _, err := sp.Piece(ctx, set.NewThreshold(imp.N, 5), 0, Options{}); err == nil {
		t.Errorf("a piece of a threshold family: no error")
	}
	// Too many to list: not exact, left to the estimate.
	huge, err := construct.Implicit("tree", set.Params{"degree": 2, "height": 6})
	if err != nil {
		t.Fatal(err)
	}
	rh, err := Compute(ctx, huge, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if av, exact, err := rh.Probability(ctx, make([]float64, huge.N), 0); err != nil || exact || av != 0 {
		t.Errorf("Probability of %s: %v, %v, %v; want not exact", huge, av, exact, err)
	}
}

// SplittableContext says no once ctx is done, whatever the family's form
// (an implicit family, which must be listed, always said no; a list said
// yes).
func TestSplittableCancelled(t *testing.T) {
	imp, listed := implicitAndListed(t, "wall", set.Params{"widths": "1,2,3"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, f := range []*set.Family{imp, listed} {
		if !Splittable(f, MethodBDD) {
			t.Errorf("%s: not splittable", f)
		}
		if SplittableContext(ctx, f, MethodBDD) {
			t.Errorf("%s: splittable once the context is done", f)
		}
	}
}

// Restrict and NewPartial take a threshold family for the w-subsets it
// stands for: Restrict used to return two empty families, NewPartial a
// smallest quorum of n+1 nodes.
func TestThresholdRestrictPartial(t *testing.T) {
	ctx := context.Background()
	th := set.NewThreshold(5, 3)
	list, err := th.Enumerate(100)
	if err != nil {
		t.Fatal(err)
	}
	for x := range 5 {
		a1, a0 := Restrict(th, x)
		b1, b0 := Restrict(list, x)
		if a1.Len() != 10 || a0.Len() != 4 || !set.SameQuorums(a1, b1) || !set.SameQuorums(a0, b0) {
			t.Errorf("restrict at %d: threshold %v, %v; list %v, %v", x, a1, a0, b1, b0)
		}
	}
	pt, pl := NewPartial(ctx, th), NewPartial(ctx, list)
	if pt.MinQuorum != 3 || !pt.Equal(pl) {
		t.Errorf("NewPartial of the threshold %+v, of its list %+v", pt, pl)
	}
}

// The partial of a family too large to list proves only what is true: its
// bounds hold the exact availability (the recurrence's). It used to claim
// a smallest quorum of 1 node and a union bound over no quorums, so that
// AV(p) = p exactly.
func TestPartialUnlistedBounds(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		kind   string
		params set.Params
	}{
		{"tree", set.Params{"degree": 2, "height": 6}},
		{"wall", set.Params{"widths": "1,3,3,3,3,3,3,3,3,3,3,3,3"}},
	} {
		f, err := construct.Implicit(c.kind, c.params)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Compute(ctx, f, Options{})
		if err != nil || !r.Exact {
			t.Fatalf("%s: %v, %v", f, r, err)
		}
		p := NewPartial(ctx, f)
		small, _, _ := construct.Sizes(f)
		if p.MinQuorum != small {
			t.Errorf("%s: smallest quorum %d, the construction's %d", f, p.MinQuorum, small)
		}
		for _, x := range []float64{0.5, 0.9, 0.99} {
			lo, hi := p.Bounds(x)
			if av := r.Poly.At(x); lo > av+1e-12 || hi < av-1e-12 {
				t.Errorf("%s at %v: bounds [%v, %v], availability %v", f, x, lo, hi, av)
			}
		}
	}
}

// A method asked for runs on the quorums of an implicit family small
// enough to list (it used to be refused whatever the size), and
// per-node probabilities are evaluated on them; past the limit both are
// refused, as before.
func TestImplicitMethodsListed(t *testing.T) {
	ctx := context.Background()
	imp, listed := implicitAndListed(t, "wall", set.Params{"widths": "1,2,3"})
	for _, m := range []Method{MethodBDD, MethodBrute, MethodEstimate} {
		ri, err := Compute(ctx, imp, Options{Method: m})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		rl, err := Compute(ctx, listed, Options{Method: m})
		if err != nil {
			t.Fatal(err)
		}
		if ri.Exact != rl.Exact || ri.Method != rl.Method || rl.Exact && !ri.Poly.Equal(rl.Poly) {
			t.Errorf("%s: implicit %v %s %v, listed %v %s %v", m, ri.Exact, ri.Method, ri.Poly, rl.Exact, rl.Method, rl.Poly)
		}
	}
	r, err := Compute(ctx, imp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pts, err := r.Evaluate(ctx, []float64{0.9}, EvalOptions{Override: map[int]float64{0: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	p := []float64{0.5, 0.9, 0.9, 0.9, 0.9, 0.9}
	want, err := BruteProbability(ctx, listed, p)
	if err != nil {
		t.Fatal(err)
	}
	if !pts[0].Exact || math.Abs(pts[0].AV-want) > 1e-12 {
		t.Errorf("node 1 at 0.5: %+v, brute force %v", pts[0], want)
	}
}
