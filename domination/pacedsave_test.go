package domination

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"testing"
	"time"
)

// PacedSave saves the first state at once, holds back the next ones
// within the interval, and flush saves the final state only when one was
// held back.
func TestPacedSave(t *testing.T) {
	var saved []*PieceCount
	save := func(pc *PieceCount) error { saved = append(saved, pc); return nil }
	a, b, c := &PieceCount{Pieces: 1}, &PieceCount{Pieces: 2}, &PieceCount{Pieces: 3}

	paced, flush := PacedSave(save, time.Hour)
	for _, pc := range []*PieceCount{a, b, c} {
		if err := paced(pc); err != nil {
			t.Fatal(err)
		}
	}
	if len(saved) != 1 || saved[0] != a {
		t.Fatalf("within the hour: saved %v, want only the first", saved)
	}
	if err := flush(c); err != nil {
		t.Fatal(err)
	}
	if len(saved) != 2 || saved[1] != c {
		t.Fatalf("flush: saved %v, want the final state", saved)
	}
	if err := flush(c); err != nil || len(saved) != 2 {
		t.Fatalf("a second flush with nothing held back saved again: %v", saved)
	}

	saved = nil
	paced, flush = PacedSave(save, 0)
	_ = paced(a)
	_ = paced(b)
	_ = flush(b)
	if len(saved) != 2 {
		t.Fatalf("no interval: saved %v, want every state once", saved)
	}
}

// A count saved through PacedSave resumes, from what the flush left, to
// the count of a run never stopped.
func TestPacedSaveResumes(t *testing.T) {
	f := grid(4, 4)
	whole, err := CountTransversals(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	var last *PieceCount
	clone := func(pc *PieceCount) *PieceCount {
		c := &PieceCount{Pieces: pc.Pieces, Done: slices.Clone(pc.Done), BySize: map[int]*big.Int{}}
		for k, v := range pc.BySize {
			c.BySize[k] = new(big.Int).Set(v)
		}
		return c
	}
	paced, flush := PacedSave(func(pc *PieceCount) error { last = clone(pc); return nil }, time.Hour)
	stop := errors.New("stop")
	n := 0
	st, err := CountTransversalPieces(context.Background(), f, func(int) bool { return true }, nil, Options{}, func(pc *PieceCount) error {
		if n++; n == 3 {
			return stop
		}
		return paced(pc)
	})
	if !errors.Is(err, stop) {
		t.Fatalf("the count of %d pieces was not stopped at the third: %v", st.Pieces, err)
	}
	if ferr := flush(st); ferr != nil {
		t.Fatal(ferr)
	}
	if last == nil || len(last.Done) != len(st.Done) {
		t.Fatalf("flushed %v, want the state the count returned (%d pieces)", last, len(st.Done))
	}
	st, err = CountTransversalPieces(context.Background(), f, func(int) bool { return true }, last, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Count(); got.Total.Cmp(whole.Total) != 0 || got.Smallest != whole.Smallest {
		t.Errorf("resumed count %s (smallest %d), want %s (%d)", got.Total, got.Smallest, whole.Total, whole.Smallest)
	}
}

// A paced count saves its first state and its final one (every piece
// done), and counts what CountTransversals counts.
func TestCountTransversalPiecesPaced(t *testing.T) {
	f := grid(4, 4)
	whole, err := CountTransversals(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	var saves []int
	st, err := CountTransversalPiecesPaced(context.Background(), f, func(int) bool { return true }, nil, Options{}, func(pc *PieceCount) error {
		saves = append(saves, len(pc.Done))
		return nil
	}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if st.Pieces < 3 || len(saves) != 2 || saves[1] != st.Pieces {
		t.Errorf("%d pieces: saves after %v pieces, want the first and all", st.Pieces, saves)
	}
	if got := st.Count(); got.Total.Cmp(whole.Total) != 0 {
		t.Errorf("count %s, want %s", got.Total, whole.Total)
	}
}
