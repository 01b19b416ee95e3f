package domination

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// bruteMinimalTransversals lists, as sorted masks, every minimal
// transversal of a family over n ≤ 20 nodes.
func bruteMinimalTransversals(f *set.Family) []uint32 {
	qs := masks(f)
	hits := func(s uint32) bool {
		for _, q := range qs {
			if q&s == 0 {
				return false
			}
		}
		return true
	}
	var out []uint32
	for s := uint32(0); s < 1<<f.N; s++ {
		if !hits(s) {
			continue
		}
		minimal := true
		for w := s; w != 0; w &= w - 1 {
			if hits(s &^ (w & -w)) {
				minimal = false
				break
			}
		}
		if minimal {
			out = append(out, s)
		}
	}
	return out
}

func listMasks(t *testing.T, f *set.Family, wide bool) ([]uint32, []uint64) {
	t.Helper()
	var got []uint32
	counts, err := mmcsSearch(context.Background(), newHyper(f), func(s []int) bool {
		var m uint32
		for _, v := range s {
			m |= 1 << v
		}
		got = append(got, m)
		return true
	}, wide)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got, counts
}

// Both MMCS engines list exactly the minimal transversals that brute force
// finds, each once, and the parallel count agrees.
func TestTransversalsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 2))
	for i := range 1500 {
		n := 1 + r.IntN(14)
		f := randomFamily(r, n, 1+r.IntN(24), 0.1+0.5*r.Float64())
		want := bruteMinimalTransversals(f)
		for _, wide := range []bool{false, true} {
			got, counts := listMasks(t, f, wide)
			if !slices.Equal(got, want) {
				t.Fatalf("case %d (wide %v): %v\nMMCS %v\nbrute %v", i, wide, f, got, want)
			}
			bySize := make([]uint64, n+1)
			for _, m := range want {
				bySize[bits.OnesCount32(m)]++
			}
			if !slices.Equal(counts, bySize) {
				t.Fatalf("case %d: counts %v, want %v", i, counts, bySize)
			}
		}
		c, err := CountTransversals(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if c.Total.Int64() != int64(len(want)) {
			t.Fatalf("case %d: CountTransversals = %v, want %d", i, c.Total, len(want))
		}
	}
}

// Reference counts, as Murakami and Uno's MMCS gives them:
// PG(2,5) has 506,106 minimal transversals, the smallest of size 6 (a line);
// the r×r grid has 2·r^r − r! (sets meeting every row or every column, minimally).
func TestCountTransversalsKnown(t *testing.T) {
	for _, tt := range []struct {
		name     string
		f        *set.Family
		total    int64
		smallest int
	}{
		{"PG(2,2)", pg(t, 2), 7, 3},
		{"PG(2,5)", pg(t, 5), 506106, 6},
		{"grid 5x5", grid(5, 5), 2*3125 - 120, 5},
		{"grid 7x7", grid(7, 7), 1642046, 7},
		{"threshold 3 of 7", set.NewThreshold(7, 3), 21, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := CountTransversals(context.Background(), tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if c.Total.Int64() != tt.total || c.Smallest != tt.smallest {
				t.Errorf("count %v smallest %d, want %d and %d", c.Total, c.Smallest, tt.total, tt.smallest)
			}
		})
	}
}

// The word-vector engine, forced on a 91-node plane, agrees with the
// single-word engine's answer on a smaller one scaled up: PG(2,9)'s lines
// are themselves minimal transversals, and listing stops on request.
func TestTransversalsStop(t *testing.T) {
	f := pg(t, 9)
	n := 0
	err := Transversals(context.Background(), f, func(s *set.Set) bool {
		if !isTransversal(f, s) {
			t.Fatalf("%v is not a transversal", s)
		}
		n++
		return n < 1000
	})
	if err != nil || n != 1000 {
		t.Fatalf("stopped after %d, err %v", n, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CountTransversals(ctx, pg(t, 7)); err == nil {
		t.Error("cancelled count returned no error")
	}
}

// BenchmarkCountTransversals times the counts to compare with
// Murakami and Uno's C MMCS, and checks them (the same counts MMCS gives).
func BenchmarkCountTransversals(b *testing.B) {
	for _, bb := range []struct {
		name string
		f    *set.Family
		want int64
	}{{"PG(2,5)", pg(b, 5), 506106}, {"grid7x7", grid(7, 7), 1642046}, {"grid8x8", grid(8, 8), 33514112}} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				c, err := CountTransversals(context.Background(), bb.f)
				if err != nil {
					b.Fatal(err)
				}
				if c.Total.Int64() != bb.want {
					b.Fatalf("%s: %v minimal transversals, want %d", bb.name, c.Total, bb.want)
				}
			}
		})
	}
}
