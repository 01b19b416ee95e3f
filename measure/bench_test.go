package measure

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// irregular returns m random quorums over n nodes (each node in a quorum
// with probability p), the kind of system only the LP can measure.
func irregular(n, m int, p float64, seed uint64) *set.Family {
	r := rand.New(rand.NewPCG(seed, seed))
	f := set.NewFamily(n)
	for range m {
		q := set.New(n)
		for q.IsEmpty() {
			for v := range n {
				if r.Float64() < p {
					q.Add(v)
				}
			}
		}
		f.Add(q, set.NoOwner)
	}
	return f
}

func BenchmarkLoadLP500(b *testing.B) {
	f := irregular(60, 500, 0.2, 1)
	for b.Loop() {
		if _, err := LoadOf(context.Background(), f, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadRegularGrid64(b *testing.B) {
	f := grid(64, 64)
	for b.Loop() {
		if _, err := LoadOf(context.Background(), f, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResilienceGrid10(b *testing.B) {
	f := grid(10, 10)
	for b.Loop() {
		if _, err := ResilienceOf(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}

func mustPlane(b *testing.B, q int) *set.Family { return testsys.Plane(b, q) }

func BenchmarkResiliencePG16(b *testing.B) {
	f := mustPlane(b, 16)
	for b.Loop() {
		if _, err := ResilienceOf(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadPG64(b *testing.B) {
	f := mustPlane(b, 64)
	for b.Loop() {
		if _, err := LoadOf(context.Background(), f, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// Maekawa's sets for N = 1000 (PG(2,32) with 57 points merged away): the
// exact load, proved, by the packing simplex and the exact basis solution.
func BenchmarkLoadMaekawa1000(b *testing.B) {
	f, err := construct.Maekawa(1000, construct.MapMin)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		l, err := LoadOf(context.Background(), f, LoadOptions{})
		if err != nil || l.Exact == nil {
			b.Fatal(l, err)
		}
	}
}

// The resilience of Maekawa's sets for N = 1000 within the default work:
// proved bounds (the exact value is beyond the branch and bound).
func BenchmarkResilienceMaekawa1000(b *testing.B) {
	f, err := construct.Maekawa(1000, construct.MapMin)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ResilienceBounded(context.Background(), f, 0); err != nil {
			b.Fatal(err)
		}
	}
}
