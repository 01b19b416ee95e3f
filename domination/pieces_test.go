package domination

import (
	"context"
	"errors"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
)

// sameCount reports whether two counts agree in total and by size.
func sameCount(a, b *TransversalCount) bool {
	if a.Total.Cmp(b.Total) != 0 || len(a.BySize) != len(b.BySize) || a.Smallest != b.Smallest {
		return false
	}
	for size, k := range a.BySize {
		if b.BySize[size] == nil || k.Cmp(b.BySize[size]) != 0 {
			return false
		}
	}
	return true
}

// Counted one at a time, the pieces add up to CountTransversals and, for
// n ≤ 12, to brute force; dealt to 2, 3 or 7 shards, the sums add up too.
func TestPiecesAddUp(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(15, 7))
	for range 60 {
		n := 3 + r.IntN(18)
		f := randomFamily(r, n, 1+r.IntN(30), 0.1+0.5*r.Float64())
		whole, err := CountTransversals(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		one, err := CountTransversalPieces(ctx, f, func(int) bool { return false }, nil, Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sum := &PieceCount{Pieces: one.Pieces, BySize: map[int]*big.Int{}}
		for p := range min(one.Pieces, 40) {
			pc, err := CountTransversalPieces(ctx, f, func(q int) bool { return q == p }, nil, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(pc.Done) != 1 || pc.Done[0] != p {
				t.Fatalf("%v: piece %d: done %v", f, p, pc.Done)
			}
			for size, k := range pc.BySize {
				if sum.BySize[size] == nil {
					sum.BySize[size] = new(big.Int)
				}
				sum.BySize[size].Add(sum.BySize[size], k)
			}
		}
		if got := sum.Count(); one.Pieces <= 40 && !sameCount(got, whole) {
			t.Fatalf("%v: pieces add up to %v %v, the whole count is %v %v", f, got.Total, got.BySize, whole.Total, whole.BySize)
		}
		for _, nsh := range []int{2, 3, 7} {
			var shards PieceCount
			shards.BySize = map[int]*big.Int{}
			for i := range nsh {
				pc, err := CountTransversalPieces(ctx, f, func(q int) bool { return q%nsh == i }, nil, Options{}, nil)
				if err != nil {
					t.Fatal(err)
				}
				for size, k := range pc.BySize {
					if shards.BySize[size] == nil {
						shards.BySize[size] = new(big.Int)
					}
					shards.BySize[size].Add(shards.BySize[size], k)
				}
			}
			if got := shards.Count(); !sameCount(got, whole) {
				t.Fatalf("%v: %d shards add up to %v, the whole count is %v", f, nsh, got.Total, whole.Total)
			}
		}
		if n <= 12 {
			brute := bruteMinimalTransversals(f)
			if whole.Total.Cmp(big.NewInt(int64(len(brute)))) != 0 {
				t.Fatalf("%v: %v minimal transversals, brute force %d", f, whole.Total, len(brute))
			}
			bySize := map[int]int64{}
			for _, m := range brute {
				bySize[bits.OnesCount32(m)]++
			}
			for size, k := range bySize {
				if whole.BySize[size] == nil || whole.BySize[size].Int64() != k {
					t.Fatalf("%v: size %d: brute force %d", f, size, k)
				}
			}
		}
	}
}

// A count stopped after some pieces (a countdown on save cancels it)
// resumes from the saved state to the uninterrupted count; the grid 5×5
// is cut into many pieces.
func TestPiecesResume(t *testing.T) {
	f, err := construct.Grid(5, 5, 25)
	if err != nil {
		t.Fatal(err)
	}
	all := func(int) bool { return true }
	whole, err := CountTransversals(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	left := 5
	var saved *PieceCount
	st, err := CountTransversalPieces(ctx, f, all, nil, Options{}, func(pc *PieceCount) error {
		saved = &PieceCount{Pieces: pc.Pieces, Done: append([]int(nil), pc.Done...), BySize: map[int]*big.Int{}}
		for s, k := range pc.BySize {
			saved.BySize[s] = new(big.Int).Set(k)
		}
		if left--; left == 0 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped count: err %v", err)
	}
	if st.Pieces < 10 || len(saved.Done) == 0 || len(saved.Done) >= st.Pieces {
		t.Fatalf("stopped count: %d of %d pieces saved", len(saved.Done), st.Pieces)
	}
	st, err = CountTransversalPieces(context.Background(), f, all, saved, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Done) != st.Pieces || !sameCount(st.Count(), whole) {
		t.Fatalf("resumed: %d of %d pieces, %v; whole %v", len(st.Done), st.Pieces, st.Count().Total, whole.Total)
	}
	// A pre-cancelled context counts nothing and keeps the state.
	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := CountTransversalPieces(done, f, all, nil, Options{}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("pre-cancelled: err %v", err)
	}
	// A state of another cut is refused.
	if _, err := CountTransversalPieces(context.Background(), f, all, &PieceCount{Pieces: st.Pieces + 1}, Options{}, nil); err == nil {
		t.Fatal("a state of another cut was accepted")
	}
}
