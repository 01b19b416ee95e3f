package availability

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// mustCompute runs Compute with the given method and fails the test on error.
func mustCompute(t testing.TB, f *set.Family, m Method) *Result {
	t.Helper()
	r, err := Compute(context.Background(), f, Options{Method: m})
	if err != nil {
		t.Fatalf("Compute(%v, %q): %v", f, m, err)
	}
	return r
}

func mustBrute(t testing.TB, f *set.Family) *Polynomial {
	t.Helper()
	p, err := Brute(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The three-node majority {12, 23, 13}: the 2-sets all contain a quorum,
// and so does the full set.
func TestBruteMajority3(t *testing.T) {
	p := mustBrute(t, family(3, []int{0, 1}, []int{1, 2}, []int{0, 2}))
	if got, want := p.String(), "n=3 [0 0 3 1]"; got != want {
		t.Errorf("Brute = %s, want %s", got, want)
	}
}

// Kuo 2001, Section 5: the uniform k-arbiter over N nodes has quorums of
// size w = ⌈(kN+1)/(k+1)⌉ and AV(p) = Σ_{i≥w} C(N,i) p^i (1−p)^(N−i).
func TestKuoWorkedExamples(t *testing.T) {
	uniform := func(n, k int) *set.Family {
		w := (k*n + 1 + k) / (k + 1) // ⌈(kN+1)/(k+1)⌉
		f := set.NewThreshold(n, w)
		f.K = k
		return f
	}
	half := big.NewRat(1, 2)

	// N = 7, k = 1: w = 4 and AV(1/2) = 1/2 exactly, so the system is
	// nondominated by Theorem 7.
	r := mustCompute(t, uniform(7, 1), MethodAuto)
	if got := r.Poly.AtRat(half); got.Cmp(half) != 0 {
		t.Errorf("uniform N=7 k=1: AV(1/2) = %v, want 1/2", got)
	}
	// N = 4, k = 2: w = 3 and AV(1/2) = 5/16 = 0.3125 ≠ 1/2 although the
	// 2-arbiter is nondominated: the converse of Theorem 7 fails.
	r = mustCompute(t, uniform(4, 2), MethodAuto)
	if got := r.Poly.AtRat(half); got.Cmp(big.NewRat(5, 16)) != 0 {
		t.Errorf("uniform N=4 k=2: AV(1/2) = %v, want 5/16", got)
	}
	// N = 7, k = 2: w = 5. The paper prints AV(0.85) = 0.8663; that is a
	// misprint. The sum it writes down, Σ_{i=5}^{7} C(7,i) 0.85^i 0.15^(7−i)
	// = 21·0.85⁵·0.15² + 7·0.85⁶·0.15 + 0.85⁷, is 0.9262348398 (the value
	// the availability report shows), still ≥ 0.85 as Corollary 6 needs.
	r = mustCompute(t, uniform(7, 2), MethodAuto)
	want := 21*math.Pow(0.85, 5)*0.15*0.15 + 7*math.Pow(0.85, 6)*0.15 + math.Pow(0.85, 7)
	if got := r.Poly.At(0.85); math.Abs(got-want) > 1e-12 || math.Abs(got-0.9262348398) > 5e-11 {
		t.Errorf("uniform N=7 k=2: AV(0.85) = %.10f, want %.10f", got, want)
	}
	if got := r.Poly.Strings(); len(got) != 8 || got[5] != "21" || got[6] != "7" || got[7] != "1" || got[4] != "0" {
		t.Errorf("uniform N=7 k=2 coefficients = %v", got)
	}
	exact := r.Poly.AtRat(big.NewRat(85, 100))
	if f, _ := exact.Float64(); math.Abs(f-0.9262348398) > 5e-11 {
		t.Errorf("uniform N=7 k=2: exact AV(0.85) = %v", exact.FloatString(12))
	}
}

// Every method agrees with brute force on random families.
func TestComputeMatchesBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for it := range 200 {
		n := 2 + r.IntN(19)
		var f *set.Family
		if it%2 == 0 {
			f = randomFamily(r, n, 1+r.IntN(10), 0.2+0.4*r.Float64())
		} else {
			f = randomIntersecting(r, n, 30, 0.3+0.4*r.Float64())
		}
		want := mustBrute(t, f)
		for _, m := range []Method{MethodAuto, MethodBDD} {
			got := mustCompute(t, f, m)
			if !got.Exact || !got.Poly.Equal(want) {
				t.Fatalf("case %d, method %q (%s): %v\ngot  %v\nwant %v", it, m, got.Method, f, got.Poly, want)
			}
		}
	}
}

// Threshold systems: the closed form agrees with brute force on the
// enumerated family, and Compute recognises the enumerated form.
func TestThresholdClosedForm(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for w := 1; w <= n; w++ {
			f, err := set.NewThreshold(n, w).Enumerate(1 << 12)
			if err != nil {
				t.Fatal(err)
			}
			want := mustBrute(t, f)
			if got := Threshold(n, w); !got.Equal(want) {
				t.Fatalf("Threshold(%d, %d) = %v, want %v", n, w, got, want)
			}
			if r := mustCompute(t, f, MethodAuto); r.Method != MethodThreshold {
				t.Errorf("all %d-subsets of %d: method %q, want threshold", w, n, r.Method)
			}
		}
	}
}

// The majority of 10,001 nodes: the closed form is immediate, and
// AV(1/2) = 1/2 since n is odd (the system is nondominated).
func TestMajority10001(t *testing.T) {
	f := set.NewThreshold(10001, 5001)
	r := mustCompute(t, f, MethodAuto)
	if r.Method != MethodThreshold {
		t.Fatalf("method %q", r.Method)
	}
	if got := r.Poly.At(0.5); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("AV(1/2) = %v, want 1/2", got)
	}
	// Far from 1/2 the tail is tiny or near 1.
	if got := r.Poly.At(0.45); got > 1e-20 {
		t.Errorf("AV(0.45) = %v, want < 1e-20", got)
	}
	// Self-duality (n odd: a set holds a majority iff its complement does
	// not) gives AV(0.55) = 1 − AV(0.45), which is 1 to float64 precision
	// (1 − 1e-20 is 1 in float64, so no tolerance that small can be tested).
	if got, want := r.Poly.At(0.55), 1-r.Poly.At(0.45); math.Abs(got-want) > 1e-15 {
		t.Errorf("AV(0.55) = %v, want 1 − AV(0.45) = %v", got, want)
	}
	// Σ A_i = 2^10000 (half the subsets contain a majority).
	if got, want := r.Poly.Total(), new(big.Int).Lsh(big.NewInt(1), 10000); got.Cmp(want) != 0 {
		t.Errorf("Σ A_i ≠ 2^10000")
	}
}

// Grids and cubes: the product closed form agrees with brute force and the
// BDD, and Compute finds the structure only when the quorums really are
// the slab system.
func TestProductClosedForm(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    *set.Family
		dims []int
	}{
		{"grid 2x3", grid(2, 3), []int{3, 2}},
		{"grid 3x3", grid(3, 3), []int{3, 3}},
		{"grid 4x5", grid(4, 5), []int{5, 4}},
		{"grid 1x4", grid(1, 4), []int{4, 1}},
		{"cube a=2 k=1", cube(2, 1), []int{2, 2}},
		{"cube a=2 k=2", cube(2, 2), []int{2, 2, 2}},
		{"cube a=2 k=3", cube(2, 3), []int{2, 2, 2, 2}},
		{"cube a=3 k=1", cube(3, 1), []int{3, 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := mustBrute(t, tt.f)
			if got := Product(tt.dims...); !got.Equal(want) {
				t.Errorf("Product(%v) = %v, want %v", tt.dims, got, want)
			}
			r := mustCompute(t, tt.f, MethodAuto)
			if !r.Poly.Equal(want) {
				t.Errorf("Compute = %v (%s), want %v", r.Poly, r.Method, want)
			}
			if r.Method != MethodProduct && r.Method != MethodThreshold {
				t.Errorf("method %q, want product", r.Method)
			}
		})
	}
	// A grid with one quorum changed is no product: the BDD answers.
	g := grid(3, 4)
	g.Quorums[5].Remove(g.Quorums[5].Elements()[0])
	r := mustCompute(t, g, MethodAuto)
	if r.Method == MethodProduct {
		t.Error("a damaged grid was taken for a product")
	}
	if !r.Poly.Equal(mustBrute(t, g)) {
		t.Error("damaged grid: wrong polynomial")
	}
	// Kind says grid, params lie: still checked.
	g = grid(3, 4)
	g.Params = set.Params{"rows": 2, "cols": 6}
	if r := mustCompute(t, g, MethodAuto); !r.Poly.Equal(Product(4, 3)) {
		t.Error("grid with wrong params: wrong polynomial")
	}
}

// The 10×10 grid (two-word counts), a 20×7 grid (n = 140: three-word
// counts, C(140, 70) ≈ 2^136) and the 3-arbiter 4-cube with a = 3
// (n = 81): the closed form agrees with the BDD.
func TestProductLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds BDDs of 10^5 nodes")
	}
	ctx := context.Background()
	for _, f := range []*set.Family{grid(10, 10), grid(20, 7), cube(3, 3)} {
		r := mustCompute(t, f, MethodAuto)
		if r.Method != MethodProduct {
			t.Fatalf("%s: method %q", f.Kind, r.Method)
		}
		b, err := BuildBDD(ctx, f, BDDOptions{Order: naturalOrder(f.N)})
		if err != nil {
			t.Fatal(err)
		}
		p, err := b.Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Equal(r.Poly) {
			t.Errorf("%s n=%d: BDD and closed form differ", f.Kind, f.N)
		}
	}
}

// nondominatedBrute decides nondomination of an intersecting coterie by
// Garcia-Molina and Barbara's criterion (Kuo's Theorem 1): dominated iff
// some H contains no quorum and meets every quorum. All 2^n sets H.
func nondominatedBrute(f *set.Family) bool {
	n := f.N
	masks := make([]uint32, len(f.Quorums))
	for i := range f.Quorums {
		for v := range f.Quorums[i].All() {
			masks[i] |= 1 << v
		}
	}
	for h := uint32(0); h < 1<<n; h++ {
		contains, meetsAll := false, true
		for _, q := range masks {
			if q&h == q {
				contains = true
				break
			}
			if q&h == 0 {
				meetsAll = false
			}
		}
		if !contains && meetsAll {
			return false
		}
	}
	return true
}

// Peleg and Wool: for an intersecting system A_i + A_{n−i} ≤ C(n, i), with
// equality for every i exactly when it is nondominated; hence AV(1/2) = 1/2
// iff nondominated (Kuo's Theorems 6 and 7).
func TestPelegWool(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var fams []*set.Family
	for range 150 {
		fams = append(fams, randomIntersecting(r, 2+r.IntN(12), 40, 0.3+0.4*r.Float64()))
	}
	fams = append(fams, projectivePlane(t, 2), projectivePlane(t, 3), grid(3, 3), grid(3, 4),
		cube(2, 2), family(3, []int{0, 1}, []int{1, 2}, []int{0, 2}))
	// Random joins of small nondominated and dominated inputs.
	for range 30 {
		c1 := randomIntersecting(r, 2+r.IntN(5), 20, 0.5)
		c2 := randomIntersecting(r, 2+r.IntN(5), 20, 0.5)
		x := c1.Quorums[0].Elements()[0]
		fams = append(fams, joinFamilies(c1, x, c2))
	}
	nd, dom := 0, 0
	half := big.NewRat(1, 2)
	for _, f := range fams {
		if len(f.Quorums) == 0 {
			continue
		}
		p := mustCompute(t, f, MethodAuto).Poly
		row := binomialRow(f.N)
		equal := true
		for i := 0; i <= f.N; i++ {
			s := new(big.Int).Add(p.A[i], p.A[f.N-i])
			switch s.Cmp(row[i]) {
			case 1:
				t.Fatalf("%v: A_%d + A_%d = %v > C(%d,%d)", f, i, f.N-i, s, f.N, i)
			case -1:
				equal = false
			}
		}
		isND := nondominatedBrute(f)
		if equal != isND {
			t.Fatalf("%v: equality for all i = %v, nondominated = %v", f, equal, isND)
		}
		if got := p.AtRat(half).Cmp(half) == 0; got != isND {
			t.Fatalf("%v: AV(1/2) = 1/2 is %v, nondominated = %v", f, got, isND)
		}
		if isND {
			nd++
		} else {
			dom++
		}
	}
	if nd < 10 || dom < 10 {
		t.Errorf("only %d nondominated and %d dominated systems tested", nd, dom)
	}
}

// Corollary 5 on random joins: AV_{C1⊕xC2}(p) = AV_{C1}(p') with p'(x) =
// AV_{C2}(p), and the coefficient-vector composition agrees with brute
// force; Compute finds the join in the quorums.
func TestJoinCorollary5(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	ctx := context.Background()
	for it := range 60 {
		c1 := randomIntersecting(r, 2+r.IntN(7), 25, 0.5)
		c2 := randomIntersecting(r, 2+r.IntN(7), 25, 0.5)
		x := c1.Quorums[r.IntN(len(c1.Quorums))].Elements()[0]
		c3 := joinFamilies(c1, x, c2)
		want := mustBrute(t, c3)
		g1, g0 := Restrict(c1, x)
		got, err := Compose(mustBrute(t, g1), mustBrute(t, g0), mustBrute(t, c2))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) {
			t.Fatalf("case %d: Compose = %v, want %v", it, got, want)
		}
		res := mustCompute(t, c3, MethodAuto)
		if !res.Poly.Equal(want) {
			t.Fatalf("case %d: Compute (%s) = %v, want %v", it, res.Method, res.Poly, want)
		}
		// Corollary 5 at a random p.
		p := r.Float64()
		av2 := mustBrute(t, c2).At(p)
		probs := make([]float64, c1.N)
		for v := range probs {
			probs[v] = p
		}
		probs[x] = av2
		av1, err := BruteProbability(ctx, c1, probs)
		if err != nil {
			t.Fatal(err)
		}
		if av3 := want.At(p); math.Abs(av3-av1) > 1e-12 {
			t.Fatalf("case %d: AV_C3(%v) = %v, AV_C1(p') = %v", it, p, av3, av1)
		}
	}
}

// Kuo's example of Section 4: the uniform 2-arbiters over {1,2,3,4} and
// {a,b,c,d} joined at 4 give 13 quorums over 7 nodes; Compute recovers the
// join and both routes agree.
func TestKuoJoinExample(t *testing.T) {
	u := func() *set.Family {
		f, _ := set.NewThreshold(4, 3).Enumerate(10)
		f.K = 2
		return f
	}
	c3 := joinFamilies(u(), 3, u())
	if len(c3.Quorums) != 13 {
		t.Fatalf("join has %d quorums, want 13", len(c3.Quorums))
	}
	r := mustCompute(t, c3, MethodAuto)
	if r.Method != MethodJoin {
		t.Errorf("method %q, want join", r.Method)
	}
	if !r.Poly.Equal(mustBrute(t, c3)) {
		t.Error("join polynomial differs from brute force")
	}
	// Corollary 6: AV of the uniform 2-arbiter over 4 nodes at p0 = 0.85 is
	// 0.8905 ≥ 0.85, so the join beats C1 for p ≥ 0.85.
	c1 := Threshold(4, 3)
	for _, p := range []float64{0.85, 0.9, 0.99} {
		if r.Poly.At(p) < c1.At(p) {
			t.Errorf("AV_C3(%v) = %v < AV_C1 = %v", p, r.Poly.At(p), c1.At(p))
		}
	}
}

// Per-node probabilities agree with the brute-force sum, for every method.
func TestPerNodeProbability(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	ctx := context.Background()
	check := func(f *set.Family) {
		t.Helper()
		p := make([]float64, f.N)
		for v := range p {
			p[v] = r.Float64()
		}
		ef, err := f.Enumerate(1 << 20)
		if err != nil {
			t.Fatal(err)
		}
		want, err := BruteProbability(ctx, ef, p)
		if err != nil {
			t.Fatal(err)
		}
		res := mustCompute(t, f, MethodAuto)
		got, exact, err := res.Probability(ctx, p, 0)
		if err != nil || !exact {
			t.Fatalf("%v: Probability: %v, exact %v", f, err, exact)
		}
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("%v (%s): Probability = %v, want %v", f, res.Method, got, want)
		}
		// Uniform probabilities agree with the polynomial.
		x := r.Float64()
		for v := range p {
			p[v] = x
		}
		got, _, _ = res.Probability(ctx, p, 0)
		if want := res.Poly.At(x); math.Abs(got-want) > 1e-12 {
			t.Fatalf("%v: uniform Probability = %v, polynomial %v", f, got, want)
		}
	}
	for range 40 {
		check(randomIntersecting(r, 2+r.IntN(12), 30, 0.5))
	}
	for range 20 {
		c1 := randomIntersecting(r, 2+r.IntN(6), 25, 0.5)
		c2 := randomIntersecting(r, 2+r.IntN(6), 25, 0.5)
		check(joinFamilies(c1, c1.Quorums[0].Elements()[0], c2))
	}
	check(set.NewThreshold(9, 5))
	check(grid(3, 4))
	check(projectivePlane(t, 3))
}

// At agrees with exact rational evaluation.
func TestAtMatchesAtRat(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for range 50 {
		f := randomFamily(r, 1+r.IntN(14), 1+r.IntN(6), 0.4)
		p := mustBrute(t, f)
		for _, x := range []float64{0, 1, 0.5, r.Float64(), r.Float64()} {
			want, _ := p.AtRat(new(big.Rat).SetFloat64(x)).Float64()
			if got := p.At(x); math.Abs(got-want) > 1e-13 {
				t.Fatalf("%v: At(%v) = %v, want %v", p, x, got, want)
			}
		}
	}
}

// The provable coefficients are right, the bounds bracket the exact value,
// and the Monte Carlo interval holds it (fixed seeds: deterministic).
func TestPartialAndEstimate(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(15, 16))
	fams := []*set.Family{projectivePlane(t, 3), projectivePlane(t, 5), grid(4, 4), cube(2, 3)}
	for range 30 {
		fams = append(fams, randomIntersecting(r, 3+r.IntN(14), 40, 0.4))
	}
	for _, f := range fams {
		exact := mustCompute(t, f, MethodAuto).Poly
		pp := NewPartial(ctx, f)
		for i, k := range pp.Known {
			if k && pp.A[i].Cmp(exact.A[i]) != 0 {
				t.Fatalf("%v: proved A_%d = %v, exact %v", f, i, pp.A[i], exact.A[i])
			}
		}
		for _, x := range []float64{0.1, 0.5, 0.8, 0.95} {
			lo, hi := pp.Bounds(x)
			av := exact.At(x)
			if av < lo-1e-12 || av > hi+1e-12 {
				t.Fatalf("%v: AV(%v) = %v outside bounds [%v, %v]", f, x, av, lo, hi)
			}
		}
		probs := make([]float64, f.N)
		for v := range probs {
			probs[v] = 0.7
		}
		e, err := EstimateAV(ctx, f, probs, 1<<16, 42)
		if err != nil {
			t.Fatal(err)
		}
		if av := exact.At(0.7); av < e.Lo-0.01 || av > e.Hi+0.01 {
			// 95% intervals: allow a margin so that a fixed seed cannot flake.
			t.Errorf("%v: AV(0.7) = %v, estimate %v [%v, %v]", f, av, e.Value, e.Lo, e.Hi)
		}
		e2, _ := EstimateAV(ctx, f, probs, 1<<16, 42)
		if e2 != e {
			t.Errorf("estimate not reproducible with the same seed: %v vs %v", e, e2)
		}
	}
	// PG(2,q): every A_i with i ≤ 2q is proved (two lines need 2q+1 points).
	pp := NewPartial(ctx, projectivePlane(t, 5))
	if lo, _ := pp.KnownRange(); lo < 11 {
		t.Errorf("PG(2,5): low-order coefficients known up to %d, want ≥ 11", lo)
	}
}

// A BDD over budget refuses with ErrBudget, and Compute then reports
// partial results rather than failing; when those prove every coefficient
// (PG(2,5)), the result is exact after all.
func TestBudget(t *testing.T) {
	ctx := context.Background()
	f := projectivePlane(t, 5)
	if _, err := BuildBDD(ctx, f, BDDOptions{Budget: 1000}); !errors.Is(err, ErrBudget) {
		t.Fatalf("BuildBDD within 1000 nodes: %v", err)
	}
	r, err := Compute(ctx, f, Options{Method: MethodBDD, Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := PlanePolynomial(ctx, 5, nil)
	if !r.Exact || r.Method != MethodIE || !r.Poly.Equal(want) {
		t.Errorf("PG(2,5) over budget: exact %v, method %q", r.Exact, r.Method)
	}
	g := ok[*set.Family](t)(construct.ProjectivePlane(7))
	r, err = Compute(ctx, g, Options{Method: MethodBDD, Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Exact || r.Partial == nil || !strings.Contains(r.Reason, "budget") || r.Cause != CauseBudget {
		t.Errorf("PG(2,7) over budget: exact %v, partial %v, reason %q, cause %v", r.Exact, r.Partial != nil, r.Reason, r.Cause)
	}
	// Points: estimates inside the proved bounds, which hold the exact
	// value (from the stored polynomial); with node 1 always up, the
	// bounds are AV between p and 1.
	golden := pg7Golden(t)
	pts, err := r.Evaluate(ctx, []float64{0.5, 0.8}, EvalOptions{Samples: 1 << 14, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range pts {
		av := golden.At(pt.P)
		if pt.Exact || pt.Estimate == nil || av < pt.Lo-1e-12 || av > pt.Hi+1e-12 || pt.Estimate.Hi < pt.Lo || pt.Estimate.Lo > pt.Hi {
			t.Errorf("PG(2,7) at %v: exact AV %v, point %+v, estimate %+v", pt.P, av, pt, pt.Estimate)
		}
	}
	// The BDD failed once: per-node points do not try it again.
	pts, err = r.Evaluate(ctx, []float64{0.5}, EvalOptions{Override: map[int]float64{0: 1}, Samples: 1 << 14, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if pt := pts[0]; pt.Exact || pt.Hi < golden.At(0.5) || pt.Estimate.Value < golden.At(0.5)-0.02 {
		t.Errorf("PG(2,7) with node 1 up: %+v (AV(1/2) = %v)", pt, golden.At(0.5))
	}
	if _, err := r.Evaluate(ctx, []float64{0.5}, EvalOptions{Override: map[int]float64{57: 1}}); err == nil {
		t.Error("Evaluate accepted node 58 of 57")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := BuildBDD(cctx, grid(10, 10), BDDOptions{}); err == nil {
		t.Error("BuildBDD ignored a cancelled context")
	}
}
