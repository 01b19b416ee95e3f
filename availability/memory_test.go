package availability

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// A memory budget stops the BDD with set.ErrMemoryBudget, and Compute
// then returns what it proved with that error; the proved coefficients are
// those of the exact polynomial.
func TestMaxMemory(t *testing.T) {
	ctx := context.Background()
	f, err := construct.Billiard(9)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := Compute(ctx, f, Options{Method: MethodBDD})
	if err != nil || !exact.Exact {
		t.Fatalf("unbounded: exact %v, err %v", exact != nil && exact.Exact, err)
	}
	if _, err := BuildBDD(ctx, f, BDDOptions{MaxMemory: 64 << 10}); !errors.Is(err, set.ErrMemoryBudget) {
		t.Fatalf("BuildBDD under 64 KiB: err %v, want ErrMemoryBudget", err)
	}
	// A budget the diagram fits in changes nothing.
	roomy, err := Compute(ctx, f, Options{Method: MethodBDD, MaxMemory: 256 << 20})
	if err != nil || !roomy.Exact || !roomy.Poly.Equal(exact.Poly) {
		t.Fatalf("under 256 MiB: err %v, exact %v", err, roomy != nil && roomy.Exact)
	}
	r, err := Compute(ctx, f, Options{Method: MethodBDD, MaxMemory: 64 << 10})
	if !errors.Is(err, set.ErrMemoryBudget) {
		t.Fatalf("Compute under 64 KiB: err %v, want ErrMemoryBudget", err)
	}
	if r == nil || r.Exact || r.Partial == nil {
		t.Fatalf("Compute under 64 KiB: want the partial result, got %+v", r)
	}
	known := 0
	for i, k := range r.Partial.Known {
		if k {
			known++
			if r.Partial.A[i].Cmp(exact.Poly.A[i]) != 0 {
				t.Errorf("A_%d proved %v, exact %v", i, r.Partial.A[i], exact.Poly.A[i])
			}
		}
	}
	if known == 0 {
		t.Error("nothing proved")
	}
	for _, x := range []float64{0.5, 0.9} {
		lo, hi := r.Partial.Bounds(x)
		if av := exact.Poly.At(x); av < lo-1e-12 || av > hi+1e-12 {
			t.Errorf("AV(%v) = %v outside the bounds [%v, %v]", x, av, lo, hi)
		}
	}
}

// The count pass and the plane sweep honour the budget too.
func TestMaxMemoryCountAndPlane(t *testing.T) {
	ctx := context.Background()
	f, err := construct.Billiard(9)
	if err != nil {
		t.Fatal(err)
	}
	d, err := BuildBDD(ctx, f, BDDOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.count(ctx, nil, 1<<10); !errors.Is(err, set.ErrMemoryBudget) {
		t.Errorf("count under 1 KiB: err %v, want ErrMemoryBudget", err)
	}
	if _, err := planePolynomial(ctx, 5, nil, 1<<10); !errors.Is(err, set.ErrMemoryBudget) {
		t.Errorf("plane sweep of order 5 under 1 KiB: err %v, want ErrMemoryBudget", err)
	}
	p, err := planePolynomial(ctx, 3, nil, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Brute(ctx, projectivePlane(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Equal(want) {
		t.Errorf("plane sweep of order 3 under 64 MiB: %v, brute force %v", p.A, want.A)
	}
}

// Every stage stops on a cancelled context with the context's error.
func TestCancelledEveryStage(t *testing.T) {
	f, err := construct.Billiard(9)
	if err != nil {
		t.Fatal(err)
	}
	d, err := BuildBDD(context.Background(), f, BDDOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := make([]float64, f.N)
	for _, c := range []struct {
		stage string
		run   func() error
	}{
		{"BuildBDD", func() error { _, err := BuildBDD(ctx, f, BDDOptions{}); return err }},
		{"Count", func() error { _, err := d.Count(ctx); return err }},
		{"Compute", func() error { _, err := Compute(ctx, f, Options{}); return err }},
		{"Compute estimate", func() error { _, err := Compute(ctx, f, Options{Method: MethodEstimate}); return err }},
		{"EstimateAV", func() error { _, err := EstimateAV(ctx, f, p, 1<<16, 1); return err }},
		{"PlanePolynomial", func() error { _, err := PlanePolynomial(ctx, 5, nil); return err }},
		{"RunPieces", func() error {
			_, err := RunPieces(ctx, f, 3, func(int) bool { return true }, nil, Options{}, nil)
			return err
		}},
	} {
		if err := c.run(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s on a cancelled context: err %v", c.stage, err)
		}
	}
}
