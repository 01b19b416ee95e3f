package domination

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// bruteMinTransversal returns the size of a smallest transversal by trying
// every subset of the n ≤ 20 nodes.
func bruteMinTransversal(f *set.Family) int {
	best := f.N + 1
	qs := masks(f)
	for s := uint32(0); s < 1<<f.N; s++ {
		c := bits.OnesCount32(s)
		if c >= best {
			continue
		}
		ok := true
		for _, q := range qs {
			if q&s == 0 {
				ok = false
				break
			}
		}
		if ok {
			best = c
		}
	}
	return best
}

// masks returns the quorums of a small family as bit masks.
func masks(f *set.Family) []uint32 {
	var out []uint32
	for i := range f.Quorums {
		var m uint32
		for v := range f.Quorums[i].All() {
			m |= 1 << v
		}
		out = append(out, m)
	}
	return out
}

func isTransversal(f *set.Family, t *set.Set) bool {
	for i := range f.Quorums {
		if !set.Intersects(&f.Quorums[i], t) {
			return false
		}
	}
	return true
}

func TestMinTransversalBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	for i := range 2000 {
		n := 1 + r.IntN(14)
		f := randomFamily(r, n, 1+r.IntN(20), 0.1+0.5*r.Float64())
		got, err := MinTransversal(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if !isTransversal(f, got) {
			t.Fatalf("case %d: %v is not a transversal of %v", i, got, f)
		}
		if want := bruteMinTransversal(f); got.Len() != want {
			t.Fatalf("case %d: MinTransversal(%v) = %v (size %d), want size %d", i, f, got, got.Len(), want)
		}
	}
}

func TestMinTransversalKnown(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    *set.Family
		want int
	}{
		// A blocking set of PG(2,q) has at least q+1 points, a line.
		{"PG(2,2)", pg(t, 2), 3},
		{"PG(2,4)", pg(t, 4), 5},
		{"PG(2,16)", pg(t, 16), 17},
		// Maekawa's r×c grid is blocked by a whole row or column and by
		// nothing smaller: min(r, c).
		{"grid 4x4", grid(4, 4), 4},
		{"grid 3x7", grid(3, 7), 3},
		{"grid 10x10", grid(10, 10), 10},
		// All 3-subsets of 7 nodes: any 5 nodes.
		{"threshold", set.NewThreshold(7, 3), 5},
		{"no quorums", set.NewFamily(3), 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MinTransversal(context.Background(), tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if got.Len() != tt.want {
				t.Errorf("size %d, want %d: %v", got.Len(), tt.want, got)
			}
			if !tt.f.IsThreshold() && !isTransversal(tt.f, got) {
				t.Errorf("%v is not a transversal", got)
			}
		})
	}
}

// A context that has ended stops the search before its greedy upper
// bound: no transversal, the context's error.
func TestMinTransversalCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, _, err := MinTransversalBounded(ctx, pg(t, 16), 0)
	if !errors.Is(err, context.Canceled) || got != nil {
		t.Errorf("cancelled: %v, %v; want no transversal and context.Canceled", got, err)
	}
}

func BenchmarkMinTransversal(b *testing.B) {
	for _, bb := range []struct {
		name string
		f    *set.Family
	}{{"grid10x10", grid(10, 10)}, {"PG(2,16)", pg(b, 16)}, {"grid7x9", grid(7, 9)}} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := MinTransversal(context.Background(), bb.f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
