package protocol

import (
	"context"
	"time"
)

// ExploreSaved is an exploration saved by an earlier run: its snapshot
// (ExploreSnapshot.AppendBinary) and the counts of that snapshot.
type ExploreSaved struct {
	Snapshot         []byte
	Finished         bool
	States, Expanded int
}

// ExploreResumable runs the shard owns of an exploration as
// [ExploreShardRun] does, going on from saved when it is not nil, and
// saves the search as it goes through write, paced by a [SnapshotSaver]
// (every at least between two saves, and when the run stops or ends).
// failed, if not nil, is told of a save that fails after the first; the
// search goes on without saving. The saver returned says what the
// checkpoint holds (Held, Expanded) and holds the error of a first save
// that failed (Err), which stopped the run.
func ExploreResumable(ctx context.Context, spec Spec, sys *System, cfg ExploreConfig, owns func(int) bool,
	saved *ExploreSaved, write func(*ExploreSnapshot) error, every time.Duration, failed func(error)) (*ExplorePart, *SnapshotSaver, error) {
	saver := NewSnapshotSaver(write, every, false, false, 0, 0)
	sh := ExploreShard{Owns: owns}
	if saved != nil {
		saver = NewSnapshotSaver(write, every, true, saved.Finished, saved.States, saved.Expanded)
		sh.Resume = saved.Snapshot
	}
	saver.Failed = failed
	sh.Save = saver.Save
	part, err := ExploreShardRun(ctx, spec, sys, cfg, sh)
	return part, saver, err
}
