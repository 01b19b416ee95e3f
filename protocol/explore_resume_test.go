package protocol

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Stopped again and again, each run resumed from what the last one saved,
// ExploreResumable ends with the part of the run never stopped, and its
// merge is the report of Explore; a first save that fails stops the run.
func TestExploreResumable(t *testing.T) {
	spec := mustSpec(t, "maekawa")
	sys := system(t, fig(t, 2))
	cfg := ExploreConfig{Requests: 3, Rounds: 2}
	all := func(int) bool { return true }
	want, err := ExploreShardRun(context.Background(), spec, sys, cfg, ExploreShard{Owns: all})
	if err != nil {
		t.Fatal(err)
	}
	var saved *ExploreSaved
	write := func(sn *ExploreSnapshot) error {
		b, err := sn.AppendBinary(nil)
		if err != nil {
			return err
		}
		saved = &ExploreSaved{Snapshot: b, Finished: sn.Finished, States: sn.States, Expanded: sn.Expanded}
		return nil
	}
	var part *ExplorePart
	for round := 0; ; round++ {
		var saver *SnapshotSaver
		part, saver, err = ExploreResumable(stopAfter(3+round), spec, sys, cfg, all, saved, write, time.Hour, nil)
		if err == nil {
			break
		}
		if !errors.Is(err, context.Canceled) || !saver.Held || round > 200 {
			t.Fatalf("round %d: %v, held %v", round, err, saver.Held)
		}
	}
	if !samePart(part, want) {
		t.Fatal("resumed to another part")
	}
	got, err := MergeExplore(context.Background(), spec, sys, cfg, []*ExplorePart{part})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Explore(context.Background(), spec, sys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got.States != whole.States || got.Transitions != whole.Transitions || got.Safe != whole.Safe || got.DeadlockFree != whole.DeadlockFree {
		t.Errorf("merged %+v, Explore %+v", got, whole)
	}

	disk := errors.New("disk full")
	_, saver, err := ExploreResumable(context.Background(), spec, sys, cfg, all, nil, func(*ExploreSnapshot) error { return disk }, time.Hour, nil)
	if !errors.Is(err, disk) || !errors.Is(saver.Err, disk) {
		t.Errorf("a first save that fails: %v, saver %v", err, saver.Err)
	}
}
