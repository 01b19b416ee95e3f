package availability

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// benchCompute measures Compute on f and checks the method it used.
func benchCompute(b *testing.B, f *set.Family, opts Options, want Method) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		r, err := Compute(ctx, f, opts)
		if err != nil {
			b.Fatal(err)
		}
		if !r.Exact || r.Method != want {
			b.Fatalf("method %q, exact %v", r.Method, r.Exact)
		}
	}
}

// The speed targets: grid 10×10 under 5 s, PG(2,4) under 1 s, PG(2,5)
// under 2 s, billiard q = 9 under 10 s, majority of 10,001 at once.

func BenchmarkGrid10x10(b *testing.B) {
	benchCompute(b, ok[*set.Family](b)(construct.Grid(10, 10, 0)), Options{}, MethodProduct)
}

// benchBDD measures the BDD method on f and checks its coefficients
// against want, found by an independent method before the timing.
func benchBDD(b *testing.B, f *set.Family, want *Polynomial) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		r, err := Compute(ctx, f, Options{Method: MethodBDD})
		if err != nil {
			b.Fatal(err)
		}
		if r.Method != MethodBDD || !r.Poly.Equal(want) {
			b.Fatalf("method %q, polynomial %v, want %v", r.Method, r.Poly, want)
		}
	}
}

// reference computes f's coefficients with the automatic method, which
// must be method m (a closed form or the plane sweep).
func reference(b *testing.B, f *set.Family, m Method) *Polynomial {
	r, err := Compute(context.Background(), f, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if r.Method != m {
		b.Fatalf("reference by %q, want %q", r.Method, m)
	}
	return r.Poly
}

// The BDD on the four instances timed against CUDD: grid 10×10 against
// the product form, PG(2,5) against the plane sweep, the cube a = 3,
// k = 3 against the product form, billiard q = 9 against the diagram
// built by apply and counted level by level.

func BenchmarkGrid10x10BDD(b *testing.B) {
	f := ok[*set.Family](b)(construct.Grid(10, 10, 0))
	benchBDD(b, f, reference(b, f, MethodProduct))
}

func BenchmarkPG4(b *testing.B) {
	benchCompute(b, ok[*set.Family](b)(construct.ProjectivePlane(4)), Options{}, MethodPlane)
}

func BenchmarkPG4BDD(b *testing.B) {
	benchCompute(b, ok[*set.Family](b)(construct.ProjectivePlane(4)), Options{Method: MethodBDD}, MethodBDD)
}

func BenchmarkPG5(b *testing.B) {
	benchCompute(b, ok[*set.Family](b)(construct.ProjectivePlane(5)), Options{}, MethodPlane)
}

func BenchmarkPG5BDD(b *testing.B) {
	f := ok[*set.Family](b)(construct.ProjectivePlane(5))
	benchBDD(b, f, reference(b, f, MethodPlane))
}

func BenchmarkBilliard9(b *testing.B) {
	benchCompute(b, ok[*set.Family](b)(construct.Billiard(9)), Options{}, MethodBDD)
}

func BenchmarkBilliard9BDD(b *testing.B) {
	f := ok[*set.Family](b)(construct.Billiard(9))
	ctx := context.Background()
	d, err := BuildBDD(ctx, f, BDDOptions{Order: chainOrder(context.Background(), f), apply: true})
	if err != nil {
		b.Fatal(err)
	}
	c := counter{n: f.N, w: countWords(f.N), byLevel: true}
	want, err := c.run(ctx, d)
	if err != nil {
		b.Fatal(err)
	}
	benchBDD(b, f, want)
}

func BenchmarkMajority10001(b *testing.B) {
	benchCompute(b, ok[*set.Family](b)(construct.Majority(10001)), Options{}, MethodThreshold)
}

func BenchmarkMajority10001At(b *testing.B) {
	r, err := Compute(context.Background(), ok[*set.Family](b)(construct.Majority(10001)), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ev := r.Poly.Evaluator()
	for b.Loop() {
		ev(0.5)
	}
}

// The 3-arbiter (k+1)-cube with a = 3 (n = 81): closed form, and BDD.
func BenchmarkCube3x4(b *testing.B) {
	benchCompute(b, ok[*set.Family](b)(construct.Cube(3, 3, 0)), Options{}, MethodProduct)
}

func BenchmarkCube3x4BDD(b *testing.B) {
	f := ok[*set.Family](b)(construct.Cube(3, 3, 0))
	benchBDD(b, f, reference(b, f, MethodProduct))
}

// PG(2,7), n = 57: the plane sweep (half a minute; run with
// -benchtime 1x), checked against testdata/pg7.txt.
func BenchmarkPG7(b *testing.B) {
	f := ok[*set.Family](b)(construct.ProjectivePlane(7))
	want := pg7Golden(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		r, err := Compute(ctx, f, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if r.Method != MethodPlane || !r.Poly.Equal(want) {
			b.Fatalf("method %q, polynomial %v", r.Method, r.Poly)
		}
	}
}

func BenchmarkBrute24(b *testing.B) {
	f := ok[*set.Family](b)(construct.Billiard(7)) // N = 24
	ctx := context.Background()
	for b.Loop() {
		if _, err := Brute(ctx, f); err != nil {
			b.Fatal(err)
		}
	}
}

// Billiard q = 9 in the 64 pieces of a split run, one after the other:
// the cost of splitting against BenchmarkBilliard9.
func BenchmarkBilliard9Pieces(b *testing.B) {
	f := ok[*set.Family](b)(construct.Billiard(9))
	ctx := context.Background()
	bits := SplitBits(f.N, 1)
	for b.Loop() {
		if _, err := RunPieces(ctx, f, bits, func(int) bool { return true }, nil, Options{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// One estimated point of billiard q = 101 (n = 5100, 5100 quorums) with
// the automatic number of samples, which its size caps.
func BenchmarkEstimateBilliard101(b *testing.B) {
	f := ok[*set.Family](b)(construct.Billiard(101))
	p := make([]float64, f.N)
	for v := range p {
		p[v] = 0.9
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := EstimateAV(ctx, f, p, 0, 1); err != nil {
			b.Fatal(err)
		}
	}
}
