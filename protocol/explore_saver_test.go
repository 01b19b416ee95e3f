package protocol

import (
	"errors"
	"testing"
	"time"
)

// The saver writes at once, then not again before Every unless the run
// ends, never a snapshot the checkpoint holds; a first write that fails
// stops the run, a later one is reported and saving stops.
func TestSnapshotSaver(t *testing.T) {
	var wrote []int
	fail := false
	write := func(sn *ExploreSnapshot) error {
		if fail {
			return errors.New("disk full")
		}
		wrote = append(wrote, sn.Expanded)
		return nil
	}
	v := NewSnapshotSaver(write, time.Hour, false, false, 0, 0)
	for _, sn := range []*ExploreSnapshot{
		{States: 5, Expanded: 1},            // at once: nothing is saved
		{States: 9, Expanded: 2},            // too soon
		{States: 9, Expanded: 3, End: true}, // the run ends
		{States: 9, Expanded: 3, End: true}, // held already
	} {
		if err := v.Save(sn); err != nil {
			t.Fatal(err)
		}
	}
	if len(wrote) != 2 || wrote[0] != 1 || wrote[1] != 3 || !v.Held || v.Expanded != 3 {
		t.Fatalf("wrote %v, held %v (%d expanded)", wrote, v.Held, v.Expanded)
	}
	// A later write that fails is reported, and no more are tried.
	fail = true
	var failed []error
	v.Failed = func(err error) { failed = append(failed, err) }
	if err := v.Save(&ExploreSnapshot{States: 12, Expanded: 4, End: true}); err != nil || len(failed) != 1 {
		t.Fatalf("a later failure: %v, reported %v", err, failed)
	}
	fail = false
	if err := v.Save(&ExploreSnapshot{States: 13, Expanded: 5, End: true}); err != nil || len(wrote) != 2 {
		t.Fatalf("after a failure: %v, wrote %v", err, wrote)
	}
	// A first write that fails stops the run.
	fail = true
	w := NewSnapshotSaver(write, time.Hour, false, false, 0, 0)
	if err := w.Save(&ExploreSnapshot{States: 1}); err == nil || w.Err == nil || w.Held {
		t.Fatalf("a first failure: %v, Err %v", err, w.Err)
	}
	// Resumed from a checkpoint that holds a search: not written again
	// until there is something new and the time has come or the run ends.
	fail = false
	wrote = nil
	r := NewSnapshotSaver(write, time.Hour, true, false, 9, 3)
	for _, sn := range []*ExploreSnapshot{{States: 9, Expanded: 3, End: true}, {States: 10, Expanded: 4}, {States: 11, Expanded: 6, End: true}} {
		if err := r.Save(sn); err != nil {
			t.Fatal(err)
		}
	}
	if len(wrote) != 1 || wrote[0] != 6 {
		t.Fatalf("resumed: wrote %v", wrote)
	}
}
