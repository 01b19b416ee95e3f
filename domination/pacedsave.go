package domination

import (
	"context"
	"time"

	"github.com/coterie-dev/coterie/set"
)

// PacedSave wraps the save of [CountTransversalPieces] so that it runs at
// most once per every: a count of many quick pieces would otherwise
// rewrite its checkpoint after each. The first state is saved at once;
// one that comes sooner than every after the last save is held back, and
// flush, called with the final state when the count returns, saves it if
// some state was held back since (and does nothing otherwise, or for a
// nil state).
func PacedSave(save func(*PieceCount) error, every time.Duration) (paced, flush func(*PieceCount) error) {
	var last time.Time
	held := false
	paced = func(pc *PieceCount) error {
		if !last.IsZero() && time.Since(last) < every {
			held = true
			return nil
		}
		last, held = time.Now(), false
		return save(pc)
	}
	flush = func(pc *PieceCount) error {
		if !held || pc == nil {
			return nil
		}
		held = false
		last = time.Now()
		return save(pc)
	}
	return paced, flush
}

// CountTransversalPiecesPaced is [CountTransversalPieces] with its saves
// paced by [PacedSave]: save, if not nil, is called at most once per
// every, and once more with the final state when one was held back, also
// when the count stops; an error of that last save is returned when the
// count has none of its own.
func CountTransversalPiecesPaced(ctx context.Context, f *set.Family, owns func(piece int) bool, st *PieceCount, o Options, save func(*PieceCount) error, every time.Duration) (*PieceCount, error) {
	if save == nil {
		return CountTransversalPieces(ctx, f, owns, st, o, nil)
	}
	paced, flush := PacedSave(save, every)
	st, err := CountTransversalPieces(ctx, f, owns, st, o, paced)
	if ferr := flush(st); ferr != nil && err == nil {
		err = ferr
	}
	return st, err
}
