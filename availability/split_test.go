package availability

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// The pieces of every split add up to the polynomial, whatever the number
// of split nodes: checked against brute force on random families and
// against the unsplit BDD on billiard q = 7.
func TestPiecesAddUp(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 15))
	var fams []*set.Family
	for range 12 {
		fams = append(fams, randomFamily(r, 4+r.IntN(12), 1+r.IntN(12), 0.4))
	}
	for _, f := range fams {
		want, err := Brute(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []int{0, 1, 2, 3, f.N - 1} {
			sum := NewPolynomial(f.N)
			for j := range 1 << b {
				p, err := ComputePiece(ctx, f, b, j, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if err := sum.Add(p); err != nil {
					t.Fatal(err)
				}
			}
			if !sum.Equal(want) {
				t.Fatalf("%v split at %d nodes: %v, brute force %v", f, b, sum.A, want.A)
			}
		}
	}
	f, err := construct.Billiard(7)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Compute(ctx, f, Options{})
	if err != nil || !whole.Exact {
		t.Fatal(err)
	}
	b := SplitBits(f.N, 7)
	sum := NewPolynomial(f.N)
	for j := range 1 << b {
		p, err := ComputePiece(ctx, f, b, j, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sum.Add(p)
	}
	if !sum.Equal(whole.Poly) {
		t.Fatalf("billiard 7 in %d pieces: %v, whole %v", 1<<b, sum.A, whole.Poly.A)
	}
}

func TestPieceErrors(t *testing.T) {
	ctx := context.Background()
	f := projectivePlane(t, 5)
	if _, err := ComputePiece(ctx, f, 2, 3, Options{Budget: 100}); !errors.Is(err, ErrBudget) {
		t.Errorf("starved piece: err %v, want ErrBudget", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ComputePiece(cctx, f, 2, 3, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled piece: err %v, want context.Canceled", err)
	}
	for _, j := range []int{-1, 4} {
		if _, err := ComputePiece(ctx, f, 2, j, Options{}); err == nil {
			t.Errorf("piece %d of 4 accepted", j)
		}
	}
	if Splittable(f, MethodAuto) {
		t.Error("a projective plane is split: its sweep is a closed form")
	}
	if !Splittable(f, MethodBDD) {
		t.Error("the BDD of a projective plane is not split")
	}
}

// SplitBits gives at least 64 pieces and about 8 a shard, within n.
func TestSplitBits(t *testing.T) {
	for _, c := range []struct{ n, shards, want int }{
		{100, 1, 6}, {100, 7, 6}, {100, 8, 6}, {100, 9, 7}, {100, 1000, 13}, {4, 1, 3}, {1, 5, 0}, {100, 1 << 20, 20},
	} {
		if got := SplitBits(c.n, c.shards); got != c.want {
			t.Errorf("SplitBits(%d, %d) = %d, want %d", c.n, c.shards, got, c.want)
		}
	}
}

// The shares of an estimate add up to the whole estimate exactly, for
// every number of shards; and the automatic sample count shrinks only for
// very large systems.
func TestEstimateShares(t *testing.T) {
	ctx := context.Background()
	f, err := construct.Billiard(9)
	if err != nil {
		t.Fatal(err)
	}
	p := make([]float64, f.N)
	for v := range p {
		p[v] = 0.8
	}
	for _, samples := range []int{64 * 10, 1 << 16} {
		whole, err := EstimateAV(ctx, f, p, samples, 3)
		if err != nil {
			t.Fatal(err)
		}
		if whole.Samples != samples {
			t.Errorf("%d samples asked, %d taken", samples, whole.Samples)
		}
		for _, n := range []int{1, 2, 3, 7, 100} {
			var shares []Estimate
			for i := 1; i <= n; i++ {
				e, err := EstimateShare(ctx, f, p, samples, 3, i, n)
				if err != nil {
					t.Fatal(err)
				}
				shares = append(shares, e)
			}
			if got := MergeEstimates(shares...); got != whole {
				t.Errorf("%d samples in %d shares: %+v, whole %+v", samples, n, got, whole)
			}
		}
	}
	if got := EstimateSamples(f, 0); got != DefaultSamples {
		t.Errorf("billiard 9: %d automatic samples, want %d", got, DefaultSamples)
	}
	big, err := construct.Billiard(101)
	if err != nil {
		t.Fatal(err)
	}
	if got := EstimateSamples(big, 0); got >= DefaultSamples || got < 64*EstimatePieces {
		t.Errorf("billiard 101: %d automatic samples", got)
	}
	if got := EstimateSamples(big, 100); got != 128 {
		t.Errorf("100 samples asked: %d, want 128", got)
	}
}

// A run of pieces stopped half-way (its context cancelled after three
// pieces) resumes from its saved state to the same polynomial as an
// uninterrupted run; a shard's pieces resume the same way.
func TestRunPiecesResume(t *testing.T) {
	f, err := construct.Billiard(7)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Compute(context.Background(), f, Options{Method: MethodBDD})
	if err != nil {
		t.Fatal(err)
	}
	all := func(int) bool { return true }
	for _, owns := range []func(int) bool{all, func(j int) bool { return j%3 == 1 }} {
		b := SplitBits(f.N, 3)
		ctx, cancel := context.WithCancel(context.Background())
		var saved *PieceState
		state, err := RunPieces(ctx, f, b, owns, nil, Options{}, func(s *PieceState) error {
			saved = &PieceState{Bits: s.Bits, Split: s.Split, Done: append([]int(nil), s.Done...), Sum: s.Sum.Clone()}
			if len(s.Done) == 3 {
				cancel()
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) || len(state.Done) != 3 || len(saved.Done) != 3 {
			t.Fatalf("stopped run: err %v, %d pieces done", err, len(state.Done))
		}
		if saved.Split == "" {
			t.Fatal("a saved state does not name its split")
		}
		// Pieces cut otherwise, or saved without saying how they were
		// cut, are not added to this split's.
		for _, split := range []string{"", "nodes 99"} {
			other := &PieceState{Bits: saved.Bits, Split: split, Done: saved.Done, Sum: saved.Sum.Clone()}
			if _, err := RunPieces(context.Background(), f, b, owns, other, Options{}, nil); err == nil {
				t.Errorf("a state of pieces cut by %q was resumed", split)
			}
		}
		state, err = RunPieces(context.Background(), f, b, owns, saved, Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := RunPieces(context.Background(), f, b, owns, nil, Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !state.Sum.Equal(fresh.Sum) || len(state.Done) != len(fresh.Done) {
			t.Fatalf("resumed: %d pieces, %v; uninterrupted: %d pieces, %v", len(state.Done), state.Sum.A, len(fresh.Done), fresh.Sum.A)
		}
		if owns(0) && owns(2) && !state.Sum.Equal(whole.Poly) {
			t.Fatalf("resumed: %v, whole %v", state.Sum.A, whole.Poly.A)
		}
	}
	if _, err := RunPieces(context.Background(), f, 3, all, &PieceState{Bits: 4, Sum: NewPolynomial(f.N)}, Options{}, nil); err == nil {
		t.Error("a state of another split was accepted")
	}
}

// TestSplitWindowPiecesAddUp checks that the pieces of a split at any
// window of the order (the split NewSplit makes when no order fits its
// probes) add up to the brute force: the window moves nodes to the front
// of the order, and the pieces must not depend on where they were.
func TestSplitWindowPiecesAddUp(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 21))
	for range 20 {
		f := randomFamily(r, 6+r.IntN(8), 2+r.IntN(14), 0.4)
		want, err := Brute(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		b := 1 + r.IntN(3)
		order, err := splitWindow(ctx, f, r.Perm(f.N), b)
		if err != nil {
			t.Fatal(err)
		}
		sp := &Split{Bits: b, Order: order}
		sum := NewPolynomial(f.N)
		for j := range 1 << b {
			p, err := sp.Piece(ctx, f, j, Options{})
			if err != nil {
				t.Fatal(err)
			}
			sum.Add(p)
		}
		if !sum.Equal(want) {
			t.Fatalf("%v split at window %v: %v, brute force %v", f, order[:b], sum.A, want.A)
		}
	}
}
