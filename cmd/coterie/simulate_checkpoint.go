package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/coterie-dev/coterie/protocol"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
	"github.com/coterie-dev/coterie/shard/partfile"
)

// `simulate --explore --checkpoint FILE` runs the exploration as the one
// shard of one (or, with --shard I/N, as its shard) and saves the
// breadth-first search as it goes (protocol.ExploreShard.Save): the part
// of the state graph found so far and the states still to expand. Run
// again with the same file, it goes on from there (ExploreShard.Resume)
// to the part an uninterrupted run finds; the unsplit report is then the
// merge of that one part, as `coterie merge` would print it, which is the
// report of the plain search byte for byte.

// exSaveEvery is the least time between two saves of a running search;
// a save that takes long spaces the next ones further
// (protocol.SnapshotSaver).
const exSaveEvery = 2 * time.Second

// exSearchDiffers says how the search of saved differs from the one of
// opts, in flags ("" when it does not): the protocol, requests, rounds,
// requesters and depth bound. The name, the report format and the state
// bound change the report, not the search saved.
func exSearchDiffers(saved, opts partfile.ExploreOptions) string {
	nodes := func(v []int) string {
		if len(v) == 0 {
			return "all"
		}
		return joinInts(v)
	}
	switch {
	case saved.Protocol != opts.Protocol:
		return fmt.Sprintf("--protocol %s, not %s", saved.Protocol, opts.Protocol)
	case saved.Requests != opts.Requests:
		return fmt.Sprintf("--requests %d, not %d", saved.Requests, opts.Requests)
	case saved.Rounds != opts.Rounds:
		return fmt.Sprintf("--rounds %d, not %d", saved.Rounds, opts.Rounds)
	case !slices.Equal(saved.Requesters, opts.Requesters):
		return fmt.Sprintf("--requesters %s, not %s", nodes(saved.Requesters), nodes(opts.Requesters))
	case saved.MaxDepth != opts.MaxDepth:
		return fmt.Sprintf("--max-depth %d, not %d", saved.MaxDepth, opts.MaxDepth)
	}
	return ""
}

// loadExCheckpoint reads the checkpoint at path for shard sp of j (nil
// if there is no file). A file of another command, input, shard or
// search, or whose search is damaged, is refused.
func loadExCheckpoint(path string, j *exploreJob, sp shard.Spec) (*partfile.ExploreSaved, error) {
	got, found, err := readCheckpoint(path, "simulate --explore", sp, func(data []byte) (*partfile.ExploreSaved, error) {
		return partfile.ReadExploreCheckpoint(data, j.hash, sp)
	})
	if err != nil || !found {
		return nil, err
	}
	if d := exSearchDiffers(got.Options, j.opts); d != "" {
		return nil, asInputError(path, 0, "a checkpoint of "+d+" (remove it or choose another --checkpoint file)")
	}
	if got.Check() != nil {
		return nil, asInputError(path, 0, "a damaged checkpoint: the saved search does not match its snapshot_sha256 (remove it or choose another --checkpoint file)")
	}
	return got, nil
}

// runExploreCheckpointed explores one protocol on one file, whole or
// shard --shard I/N of it, saving the search to --checkpoint and resuming
// it from there; it prints the report of the whole search (exactly that of
// runExplore) or the shard's part (that of runExploreShard).
func runExploreCheckpointed(ctx context.Context, s *streams, o simulateOptions, args []string) error {
	sharded := o.shard != "" || o.shards != ""
	sp := shard.Spec{Index: 1, Count: 1}
	if sharded {
		var err error
		if sp, err = parseShard(o.shard, o.shards, os.Getenv); err != nil {
			return usageErrorf("%v", err)
		}
	}
	j, err := newExploreJob(s, o, args, "--checkpoint saves")
	if err != nil {
		return err
	}
	loaded, err := loadExCheckpoint(o.checkpoint, j, sp)
	if err != nil {
		return err
	}
	write := func(sn *protocol.ExploreSnapshot) error {
		ck, err := partfile.ExploreCheckpoint(j.hash, sp, j.opts, sn)
		if err != nil {
			return err
		}
		return writeCheckpoint(o.checkpoint, ck)
	}
	label := fmt.Sprintf("explore %s on %s", j.spec.Name, j.in.name)
	if sharded {
		label += ", shard " + sp.String()
	}
	cfg := exploreConfig(j.opts, j.who, maxMemory(o.in.cmd))
	bar := newProgress(s, label)
	cfg.Progress = func(_ string, states, total int64) { bar.Update(states, total) }
	var from *protocol.ExploreSaved
	if loaded != nil {
		from = &protocol.ExploreSaved{Snapshot: loaded.Snapshot, Finished: loaded.Finished, States: loaded.States, Expanded: loaded.Expanded}
	}
	part, saver, err := protocol.ExploreResumable(ctx, j.spec, j.in.ps, cfg, sp.Owns, from, write, exSaveEvery, func(err error) {
		fmt.Fprintf(s.err, "coterie: note: %v; the search goes on without saving\n", err)
	})
	bar.Done()
	cfg.Progress = nil
	saved := func() string {
		if !saver.Held {
			return "nothing saved"
		}
		return fmt.Sprintf("%d states expanded, saved in %s: run again to resume", saver.Expanded, o.checkpoint)
	}
	switch {
	case saver.Err != nil:
		return saver.Err
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(s.err, "coterie: note: %s: stopped before the end (%s)\n", label, saved())
		return &codeError{code: exitError, err: fmt.Errorf("explore: %w", ctx.Err())}
	case errors.Is(err, set.ErrMemoryBudget):
		fmt.Fprintf(s.err, "coterie: note: %s: stopped at the memory budget (%s with more --max-memory)\n", label, saved())
		return usageErrorf("%s: %s", j.in.name, protocolMsg(err))
	case errors.Is(err, protocol.ErrSnapshot):
		return asInputError(o.checkpoint, 0, "the saved search does not fit this one (a checkpoint of another version of coterie?): "+
			"remove it or choose another --checkpoint file")
	case errors.Is(err, protocol.ErrStateBound) && !sharded:
		// The whole search stops at --max-states as well: the report is
		// that of the plain search, which the saved one cannot give.
		fmt.Fprintf(s.err, "coterie: note: %s: the search reaches --max-states %d; exploring again without --checkpoint, which only helps a search that ends\n", label, o.maxStates)
		o.checkpoint = ""
		return runExplore(ctx, s, o, args)
	case err != nil:
		return usageErrorf("%s: %s", j.in.name, protocolMsg(err))
	}
	if sharded {
		return j.part(s, sp, part)
	}
	// The search's own data is garbage now: collect it before the merge
	// builds the graph it walks (a fifth less memory at the peak on a
	// search of 1.5 million states).
	runtime.GC()
	res, err := protocol.MergeExplore(ctx, j.spec, j.in.ps, cfg, []*protocol.ExplorePart{part})
	switch {
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(s.err, "coterie: note: %s: stopped before the end (%s)\n", label, saved())
		return &codeError{code: exitError, err: fmt.Errorf("explore: %w", ctx.Err())}
	case err != nil:
		return usageErrorf("%s", protocolMsg(err))
	}
	if err := writeExplore(s, o, []exploreRun{{j.in.name, res, ""}}); err != nil {
		return err
	}
	if !res.Safe || !res.DeadlockFree || res.Terminates != nil && !*res.Terminates {
		return failed()
	}
	return nil
}
