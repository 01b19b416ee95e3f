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

func BenchmarkGrid10x10BDD(b *testing.B) {
	benchCompute(b, ok[*set.Family](b)(construct.Grid(10, 10, 0)), Options{Method: MethodBDD}, MethodBDD)
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
	benchCompute(b, ok[*set.Family](b)(construct.ProjectivePlane(5)), Options{Method: MethodBDD}, MethodBDD)
}

func BenchmarkBilliard9(b *testing.B) {
	benchCompute(b, ok[*set.Family](b)(construct.Billiard(9)), Options{}, MethodBDD)
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
	benchCompute(b, ok[*set.Family](b)(construct.Cube(3, 3, 0)), Options{Method: MethodBDD}, MethodBDD)
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
