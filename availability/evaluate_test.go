package availability

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
)

// TestEvaluateLeavesResult evaluates one Result from several goroutines at
// once, with per-node probabilities (which build a BDD on first use) and
// bounds from partial results: every value matches the brute force, and
// the Result's exported fields are what Compute returned (run with -race).
func TestEvaluateLeavesResult(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"closed form", Options{}},                    // PG(2,3) by the plane sweep: no BDD yet
		{"estimate", Options{Method: MethodEstimate}}, // partial results, then brute force
	} {
		f := projectivePlane(t, 3)
		r, err := Compute(ctx, f, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		var before Polynomial
		if r.Poly != nil {
			before = *r.Poly
		}
		snap := struct {
			N       int
			Exact   bool
			Method  Method
			Poly    *Polynomial
			Partial *Partial
			Reason  string
		}{r.N, r.Exact, r.Method, r.Poly, r.Partial, r.Reason}
		rnd := rand.New(rand.NewPCG(1, 2))
		override := map[int]float64{}
		for v := range f.N {
			if v%3 == 0 {
				override[v] = rnd.Float64()
			}
		}
		ps := []float64{0.1, 0.5, 0.9}
		var wg sync.WaitGroup
		got := make([][]Point, 4)
		errs := make([]error, 4)
		for g := range got {
			wg.Go(func() {
				got[g], errs[g] = r.Evaluate(ctx, ps, EvalOptions{Override: override, Samples: 2000, Seed: 7})
			})
		}
		wg.Wait()
		for g := range got {
			if errs[g] != nil {
				t.Fatalf("%s: goroutine %d: %v", tc.name, g, errs[g])
			}
			if !reflect.DeepEqual(got[g], got[0]) {
				t.Errorf("%s: goroutine %d got %+v, goroutine 0 %+v", tc.name, g, got[g], got[0])
			}
		}
		for i, p := range ps {
			vec := make([]float64, f.N)
			for v := range vec {
				vec[v] = p
				if x, ok := override[v]; ok {
					vec[v] = x
				}
			}
			want, err := BruteProbability(ctx, f, vec)
			if err != nil {
				t.Fatal(err)
			}
			pt := got[0][i]
			if !pt.Exact || math.Abs(pt.AV-want) > 1e-12 {
				t.Errorf("%s: p = %v: AV %v, brute force %v", tc.name, p, pt.AV, want)
			}
		}
		now := struct {
			N       int
			Exact   bool
			Method  Method
			Poly    *Polynomial
			Partial *Partial
			Reason  string
		}{r.N, r.Exact, r.Method, r.Poly, r.Partial, r.Reason}
		if now != snap || (r.Poly != nil && !reflect.DeepEqual(*r.Poly, before)) {
			t.Errorf("%s: Evaluate changed the result: %+v, was %+v", tc.name, now, snap)
		}
	}
}
