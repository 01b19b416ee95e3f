package availability

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/set"
)

// A threshold family, held without its quorums, gets the same answers as
// the same family listed (every w-subset written out), through every
// entry point that answers it by its closed form: the polynomial, per-node
// probabilities (also of a result put together from pieces), the
// automatic number of samples. The entry points that need the quorums
// refuse it and accept the listed one.
func TestThresholdFormAgreesWithListed(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(21, 22))
	for n := 1; n <= 7; n++ {
		for w := 1; w <= n; w++ {
			f := set.NewThreshold(n, w)
			e, err := f.Enumerate(1 << 10)
			if err != nil {
				t.Fatal(err)
			}
			want := mustBrute(t, e)
			got := mustCompute(t, f, MethodAuto)
			if got.Method != MethodThreshold || !got.Poly.Equal(want) {
				t.Fatalf("%d of %d: %s %v, brute force on the list %v", w, n, got.Method, got.Poly, want)
			}
			p := make([]float64, n)
			for v := range p {
				p[v] = r.Float64()
			}
			wantP, err := BruteProbability(ctx, e, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, res := range []*Result{got, ExactResult(f, MethodThreshold, want)} {
				av, exact, err := res.Probability(ctx, p, 0)
				if err != nil || !exact || math.Abs(av-wantP) > 1e-12 {
					t.Fatalf("%d of %d: Probability = %v (exact %v, %v), brute force on the list %v", w, n, av, exact, err, wantP)
				}
			}
			if got := EstimateSamples(f, 0); got != DefaultSamples {
				t.Errorf("%d of %d: %d automatic samples, want %d", w, n, got, DefaultSamples)
			}
			for _, m := range []Method{MethodBDD, MethodEstimate} {
				if _, err := Compute(ctx, f, Options{Method: m}); err == nil {
					t.Errorf("%d of %d: method %s accepted the threshold form", w, n, m)
				}
				res, err := Compute(ctx, e, Options{Method: m})
				if err != nil {
					t.Fatalf("%d of %d listed, method %s: %v", w, n, m, err)
				}
				if res.Exact && !res.Poly.Equal(want) {
					t.Fatalf("%d of %d listed, method %s: %v, want %v", w, n, m, res.Poly, want)
				}
			}
			if _, err := BuildBDD(ctx, f, BDDOptions{}); err == nil {
				t.Errorf("%d of %d: BuildBDD accepted the threshold form", w, n)
			}
			d, err := BuildBDD(ctx, e, BDDOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(d.Probability(p)-wantP) > 1e-12 {
				t.Fatalf("%d of %d: BDD of the list %v, brute force %v", w, n, d.Probability(p), wantP)
			}
			if _, err := NewLifted(ctx, f, domain.New(n), nil, 0); err == nil {
				t.Errorf("%d of %d: NewLifted accepted the threshold form", w, n)
			}
			if _, err := NewLifted(ctx, e, domain.New(n), nil, 0); err != nil {
				t.Errorf("%d of %d listed: NewLifted: %v", w, n, err)
			}
			if n >= 2 {
				if _, err := NewSplit(ctx, f, 1); err == nil {
					t.Errorf("%d of %d: NewSplit accepted the threshold form", w, n)
				}
				if _, err := NewSplit(ctx, e, 1); err != nil {
					t.Errorf("%d of %d listed: NewSplit: %v", w, n, err)
				}
			}
		}
	}
}

// Per-node probabilities need the quorums: an implicit family's result,
// whether Compute made it or it was put together from its polynomial
// (pieces), answers them on the quorums its construction lists, as the
// same family listed does; one with too many quorums to list refuses them.
func TestImplicitResultPerNode(t *testing.T) {
	ctx := context.Background()
	f, err := construct.Implicit("tree", set.Params{"degree": 2, "height": 2})
	if err != nil {
		t.Fatal(err)
	}
	e, err := construct.Explicit(ctx, f, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	over := EvalOptions{Override: map[int]float64{0: 0.5}}
	p := []float64{0.5, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9}
	want, err := BruteProbability(ctx, e, p)
	if err != nil {
		t.Fatal(err)
	}
	r := mustCompute(t, f, MethodAuto)
	for _, res := range []*Result{r, ExactResult(f, r.Method, r.Poly), mustCompute(t, e, MethodAuto)} {
		pts, err := res.Evaluate(ctx, []float64{0.9}, over)
		if err != nil || !pts[0].Exact || math.Abs(pts[0].AV-want) > 1e-12 {
			t.Errorf("%s: %+v, %v; brute force %v", res.Family(), pts, err, want)
		}
	}
	big, err := construct.Implicit("tree", set.Params{"degree": 2, "height": 6})
	if err != nil {
		t.Fatal(err)
	}
	if pts, err := mustCompute(t, big, MethodAuto).Evaluate(ctx, []float64{0.9}, over); err == nil {
		t.Errorf("per-node probabilities on %s: %+v", big, pts)
	}
}
