package availability

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// Each recurrence against the brute force over all 2^n subsets and the BDD,
// on the constructed families; Compute recognises the family and answers
// by the recurrence.
func TestCatalogueRecurrences(t *testing.T) {
	ctx := context.Background()
	type tc struct {
		name string
		f    *set.Family
		p    func() (*Polynomial, error)
	}
	var cases []tc
	for _, dh := range [][2]int{{2, 0}, {2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {4, 1}} {
		d, h := dh[0], dh[1]
		cases = append(cases, tc{fmt.Sprint("tree", dh), ok[*set.Family](t)(construct.Tree(d, h)),
			func() (*Polynomial, error) { return TreePolynomial(context.Background(), d, h) }})
	}
	for _, l := range [][]int{{3}, {4}, {3, 3}, {2, 3}, {5, 3}, {3, 2, 2}, {1, 4}} {
		cases = append(cases, tc{fmt.Sprint("hqc", l), ok[*set.Family](t)(construct.HQC(l)),
			func() (*Polynomial, error) { return HQCPolynomial(context.Background(), l) }})
	}
	for _, w := range [][]int{{1}, {4}, {1, 2}, {1, 2, 3}, {2, 2, 2}, {1, 3, 2, 4}, {3, 5, 2}, {1, 2, 3, 4, 5}} {
		cases = append(cases, tc{fmt.Sprint("wall", w), ok[*set.Family](t)(construct.Wall(w)),
			func() (*Polynomial, error) { return WallPolynomial(context.Background(), w) }})
	}
	for _, n := range []int{3, 6, 13, 17, 20} {
		cases = append(cases, tc{fmt.Sprint("cwlog", n), ok[*set.Family](t)(construct.CWlog(n)),
			func() (*Polynomial, error) { return WallPolynomial(context.Background(), construct.CWlogWidths(n)) }})
	}
	for _, n := range []int{3, 5, 9} {
		cases = append(cases, tc{fmt.Sprint("wheel", n), ok[*set.Family](t)(construct.Wheel(n)),
			func() (*Polynomial, error) { return WallPolynomial(context.Background(), []int{1, n - 1}) }})
	}
	cases = append(cases, tc{"triangle5", ok[*set.Family](t)(construct.Triangle(5)),
		func() (*Polynomial, error) { return WallPolynomial(context.Background(), []int{1, 2, 3, 4, 5}) }})
	for _, rc := range [][2]int{{1, 1}, {1, 4}, {4, 1}, {2, 2}, {3, 3}, {2, 5}, {4, 3}} {
		r, c := rc[0], rc[1]
		cases = append(cases, tc{fmt.Sprint("cgrid", rc), ok[*set.Family](t)(construct.CGrid(r, c)),
			func() (*Polynomial, error) { return CGridPolynomial(context.Background(), r, c) }})
	}
	for _, p := range [][3]int{{2, 1, 2}, {2, 2, 2}, {3, 2, 2}, {2, 3, 2}, {2, 2, 3}, {1, 2, 2}, {3, 3, 1}} {
		cases = append(cases, tc{fmt.Sprint("bgrid", p), ok[*set.Family](t)(construct.BGrid(p[0], p[1], p[2])),
			func() (*Polynomial, error) { return BGridPolynomial(context.Background(), p[0], p[1], p[2]) }})
	}
	for _, v := range []struct {
		w []int
		t int
	}{{[]int{3, 1, 1, 1, 1}, 0}, {[]int{2, 0, 1, 1, 3, 2, 1}, 6}, {[]int{5, 4, 3, 2, 1, 1}, 0}, {[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0}, {[]int{2, 2, 2, 2, 2}, 0}} {
		f := ok[*set.Family](t)(construct.Vote(v.w, v.t))
		if f.IsThreshold() {
			f = ok[*set.Family](t)(f.Enumerate(1 << 12))
		}
		cases = append(cases, tc{fmt.Sprint("vote", v.w, v.t), f,
			func() (*Polynomial, error) { return VotePolynomial(context.Background(), v.w, v.t) }})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := Brute(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.p()
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Fatalf("recurrence %v\nbrute force %v", got, want)
			}
			bdd, err := Compute(ctx, c.f, Options{Method: MethodBDD})
			if err != nil || !bdd.Poly.Equal(want) {
				t.Fatalf("bdd %v, %v", bdd.Poly, err)
			}
			r, err := Compute(ctx, c.f, Options{})
			if err != nil || !r.Exact || !r.Poly.Equal(want) {
				t.Fatalf("Compute: %+v, %v", r, err)
			}
			degenerate := c.f.Kind == "bgrid" && (paramInt(c.f, "cols") < 2 || paramInt(c.f, "band-rows") < 2)
			if !degenerate && r.Method != MethodRecurrence && r.Method != MethodThreshold {
				t.Errorf("Compute used %s, not the recurrence", r.Method)
			}
		})
	}
}

// A family that claims a kind but is not that construction is not
// answered by the recurrence: one quorum dropped, or one quorum changed.
func TestRecogniseDeclinesImpostors(t *testing.T) {
	ctx := context.Background()
	for _, f := range []*set.Family{
		ok[*set.Family](t)(construct.Tree(2, 2)),
		ok[*set.Family](t)(construct.Wall([]int{1, 2, 3})),
		ok[*set.Family](t)(construct.CGrid(3, 3)),
		ok[*set.Family](t)(construct.HQC([]int{3, 3})),
		ok[*set.Family](t)(construct.BGrid(2, 2, 2)),
		ok[*set.Family](t)(construct.Vote([]int{5, 4, 3, 2, 1, 1}, 0)),
	} {
		if _, ok := recognise(ctx, f); !ok {
			t.Errorf("%s %v not recognised", f.Kind, f.Params)
		}
		dropped := f.Clone()
		dropped.Quorums = dropped.Quorums[1:]
		changed := f.Clone()
		v, _ := changed.Quorums[0].Max()
		changed.Quorums[0].Remove(v)
		if v+1 < f.N {
			changed.Quorums[0].Add(v + 1)
		}
		for _, g := range []*set.Family{dropped, changed} {
			if _, ok := recognise(ctx, g); ok {
				t.Errorf("%s impostor recognised", f.Kind)
			}
			r, err := Compute(ctx, g, Options{})
			want, _ := Brute(ctx, g)
			if err != nil || !r.Poly.Equal(want) {
				t.Errorf("%s impostor: %v, %v", f.Kind, r.Poly, err)
			}
		}
	}
}

// Peleg and Wool (DAM 1997): the availability of CWlog tends to 1 when
// nodes are up with probability p > 1/2. At p = 0.6 it increases along the
// walls whose rows are all complete (n = 1, 3, 6, 9, 13, …) and is high
// at 1,000 nodes; at p = 1/2 it stays at most 1/2 (a nondominated coterie
// has AV(1/2) = 1/2 exactly, Kuo's Theorem 6), and at p = 0.4 it falls.
func TestCWlogAvailabilityTendsToOne(t *testing.T) {
	prev := 0.0
	n := 0
	for i := 1; n < 300; i++ {
		w := 1
		for 1<<(w-1) < i {
			w++
		}
		n += w
		p, err := WallPolynomial(context.Background(), cwlogRows(n))
		if err != nil {
			t.Fatal(err)
		}
		av := p.At(0.6)
		if av <= prev {
			t.Fatalf("AV(0.6) of CWlog: %g at n = %d after %g", av, n, prev)
		}
		prev = av
		if half := p.AtRat(big.NewRat(1, 2)); n < 60 && half.Cmp(big.NewRat(1, 2)) != 0 {
			t.Fatalf("CWlog n = %d: AV(1/2) = %v, want 1/2", n, half)
		}
	}
	p, err := WallPolynomial(context.Background(), cwlogRows(1000))
	if err != nil {
		t.Fatal(err)
	}
	at := p.Evaluator()
	if av := at(0.6); av <= prev || av < 0.9 {
		t.Errorf("AV(0.6) of CWlog: %g at n = 1000, %g at n = %d", av, prev, n)
	}
	if av := at(0.4); av > 0.1 {
		t.Errorf("AV(0.4) of CWlog at n = 1000 is %g", av)
	}
}

func cwlogRows(n int) []int { return construct.CWlogWidths(n) }

// The tree recurrence on random subsets: a subset is live by the
// recursive rule exactly when it contains a listed quorum, counted by size.
func TestTreePolynomialRandomSubsets(t *testing.T) {
	f := ok[*set.Family](t)(construct.Tree(3, 2))
	p := ok[*Polynomial](t)(TreePolynomial(context.Background(), 3, 2))
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		s := set.New(f.N)
		for v := range f.N {
			if r.IntN(2) == 0 {
				s.Add(v)
			}
		}
		contains := false
		for i := range f.Quorums {
			if set.Subset(&f.Quorums[i], s) {
				contains = true
				break
			}
		}
		c, _ := describe(f)
		if c.live(s) != contains {
			t.Fatalf("%v: live %v, contains a quorum %v", s, c.live(s), contains)
		}
	}
	if p.N != 13 {
		t.Fatalf("n = %d", p.N)
	}
}

// The recurrences stop on a done context, before they start and part way
// through, and return its error rather than a polynomial.
func TestCatalogueRecurrencesStop(t *testing.T) {
	recs := []struct {
		name string
		p    func(context.Context) (*Polynomial, error)
	}{
		{"tree", func(ctx context.Context) (*Polynomial, error) { return TreePolynomial(ctx, 2, 8) }},
		{"hqc", func(ctx context.Context) (*Polynomial, error) { return HQCPolynomial(ctx, []int{5, 5, 5}) }},
		{"wall", func(ctx context.Context) (*Polynomial, error) { return WallPolynomial(ctx, cwlogRows(500)) }},
		{"cgrid", func(ctx context.Context) (*Polynomial, error) { return CGridPolynomial(ctx, 9, 40) }},
		{"bgrid", func(ctx context.Context) (*Polynomial, error) { return BGridPolynomial(ctx, 6, 5, 4) }},
		{"vote", func(ctx context.Context) (*Polynomial, error) {
			return VotePolynomial(ctx, slices.Repeat([]int{3, 1, 2}, 30), 0)
		}},
	}
	pre, cancel := context.WithCancel(context.Background())
	cancel()
	for _, r := range recs {
		if p, err := r.p(pre); p != nil || !errors.Is(err, context.Canceled) {
			t.Errorf("%s, pre-cancelled: %v, %v", r.name, p, err)
		}
		// Count the checks of a whole run, then stop at half of them.
		all := &testsys.StopAfter{Context: context.Background(), Left: 1 << 30}
		if _, err := r.p(all); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if all.Calls < 4 {
			t.Fatalf("%s: only %d checks of the context", r.name, all.Calls)
		}
		half := &testsys.StopAfter{Context: context.Background(), Left: all.Calls / 2}
		if p, err := r.p(half); p != nil || !errors.Is(err, context.Canceled) || half.Calls > all.Calls/2+5 { // a few cheap checks on the way out
			t.Errorf("%s, cancelled after %d of %d checks: %v, %v after %d checks", r.name, all.Calls/2, all.Calls, p, err, half.Calls)
		}
	}
	// Compute, on a family it recognises and on an implicit one.
	wall := ok[*set.Family](t)(construct.Wall([]int{1, 2, 3}))
	if r, err := Compute(pre, wall, Options{}); r != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Compute(wall), pre-cancelled: %v, %v", r, err)
	}
	impl := set.NewFamily(2047)
	impl.Kind, impl.Params, impl.Implicit = "tree", set.Params{"degree": 2, "height": 10}, true
	if _, err := compute(&testsys.StopAfter{Context: context.Background(), Left: 3}, impl, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("implicit tree, cancelled part way: %v", err)
	}
	if r, err := compute(context.Background(), impl, Options{}); err != nil || r.Poly.N != 2047 {
		t.Errorf("implicit tree: %v, %v", r, err)
	}
}
