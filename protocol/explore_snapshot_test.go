package protocol

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
)

// stopAfter is a context whose Err is nil for its first polls, then
// context.Canceled: a stop part way through a search after a fixed amount
// of work, whichever of the workers polls.
func stopAfter(polls int) *testsys.StopAfter {
	return &testsys.StopAfter{Context: context.Background(), Left: polls}
}

// snapshots runs shard sh of the search and returns its part and every
// snapshot it offered, in binary, with the flags of each.
type offered struct {
	bin           []byte
	end, finished bool
	expanded      int
}

func shardSnapshots(t *testing.T, ctx context.Context, spec Spec, sys *System, cfg ExploreConfig, owns func(int) bool, resume []byte) (*ExplorePart, []offered, error) {
	t.Helper()
	var got []offered
	part, err := ExploreShardRun(ctx, spec, sys, cfg, ExploreShard{Owns: owns, Resume: resume, Save: func(sn *ExploreSnapshot) error {
		b, err := sn.AppendBinary(nil)
		if err != nil {
			return err
		}
		got = append(got, offered{b, sn.End, sn.Finished, sn.Expanded})
		return nil
	}})
	return part, got, err
}

func samePart(a, b *ExplorePart) bool {
	return a.Pieces == b.Pieces && a.Root == b.Root && a.Expanded == b.Expanded && bytes.Equal(a.Graph, b.Graph)
}

// A shard's run resumed from any snapshot it offered (between levels, or
// where a cancelled context stopped it) returns the part of the run that
// was never stopped, byte for byte: whole searches and shards of three,
// with a safety violation, deadlocks, an undefined step, and a depth
// bound. A finished snapshot gives the part at once, and a run resumed
// and stopped again goes on from where it stopped.
func TestExploreShardResume(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		sys        *System
		cfg        ExploreConfig
	}{
		{"triangle, 3 requests", "ordered", system(t, triangle(1)), ExploreConfig{Requests: 3}},
		{"cut, 2 requests (violation)", "maekawa", system(t, cut()), ExploreConfig{Requests: 2}},
		{"triangle, 3 requests (deadlock)", "maekawa", system(t, triangle(1)), ExploreConfig{Requests: 3}},
		{"Fig. 1(a), 3 requests, 2 rounds", "maekawa", system(t, fig(t, 2)), ExploreConfig{Requests: 3, Rounds: 2}},
		{"triangle, 2 requests (anomaly)", "hk", system(t, triangle(1)), ExploreConfig{Requests: 2}},
		{"Fig. 1(b), depth 7", "maekawa", system(t, fig(t, 3)), ExploreConfig{Requests: 2, MaxDepth: 7}},
	} {
		spec := mustSpec(t, tc.spec)
		for _, sh := range []struct{ i, n int }{{0, 1}, {1, 3}} {
			owns := func(p int) bool { return p%sh.n == sh.i }
			want, err := ExploreShardRun(context.Background(), spec, tc.sys, tc.cfg, ExploreShard{Owns: owns})
			if err != nil {
				t.Fatal(err)
			}
			part, snaps, err := shardSnapshots(t, context.Background(), spec, tc.sys, tc.cfg, owns, nil)
			if err != nil || !samePart(part, want) {
				t.Fatalf("%s %s, shard %d/%d: saving changed the part (%v)", tc.spec, tc.name, sh.i+1, sh.n, err)
			}
			if len(snaps) == 0 || !snaps[len(snaps)-1].finished || !snaps[len(snaps)-1].end {
				t.Fatalf("%s %s: %d snapshots, the last not finished", tc.spec, tc.name, len(snaps))
			}
			for k, sn := range snaps {
				got, again, err := shardSnapshots(t, context.Background(), spec, tc.sys, tc.cfg, owns, sn.bin)
				if err != nil || !samePart(got, want) {
					t.Errorf("%s %s, shard %d/%d, resumed from snapshot %d of %d (%d expanded): %v, not the part", tc.spec, tc.name, sh.i+1, sh.n, k+1, len(snaps), sn.expanded, err)
					continue
				}
				if sn.finished && len(again) != 1 {
					t.Errorf("%s %s: a finished snapshot searched on (%d snapshots)", tc.spec, tc.name, len(again))
				}
			}
			// Stopped again and again after a few polls of its context (a
			// few more each time), each run resumes the last one's
			// snapshot, until the part is whole.
			var resume []byte
			for round := 0; ; round++ {
				got, snaps, err := shardSnapshots(t, stopAfter(3+round), spec, tc.sys, tc.cfg, owns, resume)
				if err == nil {
					if !samePart(got, want) {
						t.Errorf("%s %s: stopped %d times, resumed to another part", tc.spec, tc.name, round)
					}
					break
				}
				if !errors.Is(err, context.Canceled) || len(snaps) == 0 || !snaps[len(snaps)-1].end || round > 200 {
					t.Fatalf("%s %s, round %d: %v, %d snapshots", tc.spec, tc.name, round, err, len(snaps))
				}
				resume = snaps[len(snaps)-1].bin
			}
		}
	}
}

// A run stopped in the middle of a level (the frontier is expanded in
// chunks) resumes to the same part: Fig. 1(b) with three requests, whose
// widest levels span several chunks.
func TestExploreShardResumeMidLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("a search of 200,000 states, four times")
	}
	spec, sys, cfg := mustSpec(t, "maekawa"), system(t, fig(t, 3)), ExploreConfig{Requests: 3}
	all := func(int) bool { return true }
	want, snaps, err := shardSnapshots(t, context.Background(), spec, sys, cfg, all, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := newExplorer(spec, sys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var mid []offered
	for _, sn := range snaps {
		s, err := newSearch(context.Background(), e, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if s.classes, err = newRequestClasses(e, all); err != nil {
			t.Fatal(err)
		}
		if err := s.resume(sn.bin, want.Root); err != nil {
			t.Fatal(err)
		}
		if len(s.pendingNext) > 0 {
			mid = append(mid, sn)
		}
	}
	if len(mid) < 3 {
		t.Fatalf("%d snapshots inside a level", len(mid))
	}
	for _, sn := range []offered{mid[0], mid[len(mid)/2], mid[len(mid)-1]} {
		got, err := ExploreShardRun(context.Background(), spec, sys, cfg, ExploreShard{Owns: all, Resume: sn.bin})
		if err != nil || !samePart(got, want) {
			t.Errorf("resumed inside a level (%d expanded): %v, not the part", sn.expanded, err)
		}
	}
}

// A snapshot cut short anywhere, or of another instance, split or shard
// count, is refused with ErrSnapshot, never a panic.
func TestExploreShardResumeRefuses(t *testing.T) {
	spec, sys, cfg := mustSpec(t, "maekawa"), system(t, cut()), ExploreConfig{Requests: 2}
	all := func(int) bool { return true }
	_, snaps, err := shardSnapshots(t, stopAfter(4), spec, sys, cfg, all, nil)
	if !errors.Is(err, context.Canceled) || len(snaps) == 0 {
		t.Fatalf("%v, %d snapshots", err, len(snaps))
	}
	bin := snaps[len(snaps)-1].bin
	for n := range len(bin) {
		if _, err := ExploreShardRun(context.Background(), spec, sys, cfg, ExploreShard{Owns: all, Resume: bin[:n]}); !errors.Is(err, ErrSnapshot) {
			t.Fatalf("cut to %d of %d bytes: %v", n, len(bin), err)
		}
	}
	for _, c := range []struct {
		name string
		sys  *System
		cfg  ExploreConfig
	}{
		{"another instance", system(t, fig(t, 3)), cfg},
		{"more requests", sys, ExploreConfig{Requests: 3}},
		{"a depth bound", sys, ExploreConfig{Requests: 2, MaxDepth: 9}},
	} {
		if _, err := ExploreShardRun(context.Background(), spec, c.sys, c.cfg, ExploreShard{Owns: all, Resume: bin}); !errors.Is(err, ErrSnapshot) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, err := ExploreShardRun(context.Background(), mustSpec(t, "maekawa-fixed"), sys, cfg, ExploreShard{Owns: all, Resume: bin}); !errors.Is(err, ErrSnapshot) {
		t.Errorf("another protocol: %v", err)
	}
	if _, err := ExploreShardRun(context.Background(), spec, sys, cfg, ExploreShard{Owns: func(p int) bool { return p%2 == 0 }, Resume: bin}); !errors.Is(err, ErrSnapshot) {
		t.Errorf("another shard: %v", err)
	}
	long := append(bytes.Clone(bin), 0)
	if _, err := ExploreShardRun(context.Background(), spec, sys, cfg, ExploreShard{Owns: all, Resume: long}); !errors.Is(err, ErrSnapshot) {
		t.Errorf("a byte too many: %v", err)
	}
}

// A snapshot read back is written out again byte for byte: resumed under
// a context that is already cancelled, a run offers the snapshot it
// resumed from and stops.
func TestExploreSnapshotRoundTrip(t *testing.T) {
	spec, sys, cfg := mustSpec(t, "maekawa"), system(t, triangle(1)), ExploreConfig{Requests: 3}
	all := func(int) bool { return true }
	_, snaps, err := shardSnapshots(t, context.Background(), spec, sys, cfg, all, nil)
	if err != nil {
		t.Fatal(err)
	}
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	for k, sn := range snaps {
		_, again, err := shardSnapshots(t, stopped, spec, sys, cfg, all, sn.bin)
		if sn.finished {
			// Nothing to expand: the run is done, whatever ctx says.
			if err != nil || len(again) != 1 || !bytes.Equal(again[0].bin, sn.bin) {
				t.Errorf("finished snapshot: %v, %d offered", err, len(again))
			}
			continue
		}
		if !errors.Is(err, context.Canceled) || len(again) != 1 || !again[0].end || !bytes.Equal(again[0].bin, sn.bin) {
			t.Errorf("snapshot %d of %d: %v; %d offered, not the same bytes", k+1, len(snaps), err, len(again))
		}
	}
}

// Whatever the bytes, resuming from them never panics: the snapshots of
// a small search, cut and changed.
func FuzzExploreShardResume(f *testing.F) {
	spec, sys, cfg := mustSpec(f, "maekawa"), system(f, cut()), ExploreConfig{Requests: 2}
	all := func(int) bool { return true }
	_, err := ExploreShardRun(stopAfter(6), spec, sys, cfg, ExploreShard{Owns: all, Save: func(sn *ExploreSnapshot) error {
		b, err := sn.AppendBinary(nil)
		f.Add(b)
		return err
	}})
	if !errors.Is(err, context.Canceled) {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := ExploreShardRun(context.Background(), spec, sys, cfg, ExploreShard{Owns: all, Resume: b})
		var pe *Error
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("%v is not a protocol error", err)
		}
	})
}
