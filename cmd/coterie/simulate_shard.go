package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/protocol"
	"github.com/coterie-dev/coterie/shard"
	"github.com/coterie-dev/coterie/shard/partfile"
)

// `simulate --explore --shard I/N` writes the part of kind "explore":
// the pieces are the ways to have made every request (how many each node
// made); shard I expands the states whose requests so far fit under a
// piece p it owns, p mod N = I − 1, and writes the part of the state graph
// it expanded (protocol.ExploreShardRun). The merge searches the union of
// the parts as the unsplit run searches the protocol
// (protocol.MergeExplore), so that its report is the unsplit one. The
// part carries the system, for the merge to replay and describe the
// counterexamples. The files' JSON is package partfile's.

// exploreJob is an exploration that is split or saved: one protocol on
// one file.
type exploreJob struct {
	in   simInput
	spec protocol.Spec
	who  []int // the requesters, 0-based
	// canon is the canonical JSON of the system; hash its input hash.
	canon []byte
	hash  string
	opts  partfile.ExploreOptions
}

// newExploreJob reads the one file and protocol of args and o for a run
// that does (what) "--shard splits" or "--checkpoint saves".
func newExploreJob(s *streams, o simulateOptions, args []string, what string) (*exploreJob, error) {
	if len(args) != 1 {
		return nil, usageErrorf("%s the exploration of one file, not %d", what, len(args))
	}
	if len(o.protocols) > 1 {
		return nil, usageErrorf("%s the exploration of one protocol, not %d", what, len(o.protocols))
	}
	ins, err := readSimInputs(s, o, args)
	if err != nil {
		return nil, err
	}
	in := ins[0]
	specs, err := specsFor(o, in)
	if err != nil {
		return nil, err
	}
	var who []int
	if o.requesters != "" {
		if who, err = format.ParseNodes(o.requesters, in.ps.N); err != nil {
			return nil, usageErrorf("--requesters: %v", err)
		}
	}
	canon, hash, err := partfile.Canonical(in.sys)
	if err != nil {
		return nil, err
	}
	opts := partfile.ExploreOptions{Name: in.name, Format: o.format, Protocol: specs[0].Name, Requests: o.requests, Rounds: o.rounds,
		MaxStates: o.maxStates, MaxDepth: o.maxDepth}
	for _, v := range who {
		opts.Requesters = append(opts.Requesters, v+1)
	}
	return &exploreJob{in: in, spec: specs[0], who: who, canon: canon, hash: hash, opts: opts}, nil
}

// part is the partial result of shard sp of j that p is.
func (j *exploreJob) part(s *streams, sp shard.Spec, p *protocol.ExplorePart) error {
	part, err := partfile.ExplorePart(sp, j.hash, j.canon, j.opts, p)
	return writePartOut(s, part, err)
}

// runExploreShard explores one shard of the state space of one protocol
// on one file and prints its part.
func runExploreShard(ctx context.Context, s *streams, o simulateOptions, args []string) error {
	sp, err := parseShard(o.shard, o.shards, os.Getenv)
	if err != nil {
		return usageErrorf("%v", err)
	}
	j, err := newExploreJob(s, o, args, "--shard splits")
	if err != nil {
		return err
	}
	bar := newProgress(s, fmt.Sprintf("explore %s on %s, shard %s", j.spec.Name, j.in.name, sp))
	part, err := protocol.ExploreShardRun(ctx, j.spec, j.in.ps, exploreConfig(j.opts, j.who, maxMemory(o.in.cmd)),
		protocol.ExploreShard{Owns: sp.Owns})
	bar.Done()
	switch {
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(s.err, "coterie: note: explore: shard %s stopped before it finished: no part written\n", sp)
		return &codeError{code: exitError, err: fmt.Errorf("explore: %w", ctx.Err())}
	case err != nil:
		return usageErrorf("%s: %s", j.in.name, protocolMsg(err))
	}
	return j.part(s, sp, part)
}

// exploreConfig is the configuration of a split exploration with opts;
// who are the requesters, 0-based.
func exploreConfig(opts partfile.ExploreOptions, who []int, maxMemory int64) protocol.ExploreConfig {
	return protocol.ExploreConfig{Requests: opts.Requests, Rounds: opts.Rounds, Requesters: who,
		MaxStates: opts.MaxStates, MaxDepth: opts.MaxDepth, MaxMemory: maxMemory}
}

// mergeExplore puts the shards' parts of an exploration together and
// prints the report of the unsplit `simulate --explore`.
func mergeExplore(ctx context.Context, s *streams, parts []*shard.Part, asJSON bool) error {
	opts, sys, eps, err := partfile.DecodeExplore(parts)
	var me *shard.MergeError
	if errors.As(err, &me) {
		return usageErrorf("merge: %s", me.Msg)
	} else if err != nil {
		return usageErrorf("merge: %v", err)
	}
	ps, err := protocol.NewSystem(sys)
	if err != nil {
		return usageErrorf("merge: %s", protocolMsg(err))
	}
	spec, ok := protocol.Lookup(opts.Protocol)
	if !ok {
		return usageErrorf("merge: protocol %q is not known to this version", opts.Protocol)
	}
	var who []int
	for _, v := range opts.Requesters {
		who = append(who, v-1)
	}
	res, err := protocol.MergeExplore(ctx, spec, ps, exploreConfig(opts, who, 0), eps)
	if err != nil {
		if ctx.Err() != nil {
			return &codeError{code: exitError, err: fmt.Errorf("merge: %w", ctx.Err())}
		}
		return usageErrorf("%s", protocolMsg(err))
	}
	o := simulateOptions{format: opts.Format, maxStates: opts.MaxStates, maxDepth: opts.MaxDepth}
	if asJSON {
		o.format = "json"
	}
	runs := []exploreRun{{opts.Name, res, ""}}
	if err := writeExplore(s, o, runs); err != nil {
		return err
	}
	if !res.Safe || !res.DeadlockFree || res.Terminates != nil && !*res.Terminates {
		return failed()
	}
	return nil
}
