package domination

import "time"

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
