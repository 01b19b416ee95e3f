package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/protocol"
	"github.com/coterie-dev/coterie/shard"
)

// The partial result of `simulate --explore --shard I/N` (kind "explore"):
// the pieces are the ways to have made every request (how many each node
// made); shard I expands the states whose requests so far fit under a
// piece p it owns, p mod N = I − 1, and writes the part of the state graph
// it expanded (protocol.ExploreShardRun). The merge searches the union of
// the parts as the unsplit run searches the protocol
// (protocol.MergeExplore), so that its report is the unsplit one. The
// part carries the system, for the merge to replay and describe the
// counterexamples.

// exPartKind is the kind of explorer parts.
const exPartKind = "explore"

// exPartOptions are the options an exploration's report depends on.
type exPartOptions struct {
	Name       string `json:"name"`
	Format     string `json:"format"`
	Protocol   string `json:"protocol"`
	Requests   int    `json:"requests"`
	Rounds     int    `json:"rounds"`
	Requesters []int  `json:"requesters"`
	MaxStates  int    `json:"max_states"`
	MaxDepth   int    `json:"max_depth"`
}

// exPartResult is the part of the state graph one shard expanded.
type exPartResult struct {
	// System is the canonical JSON of the system explored.
	System   json.RawMessage `json:"system"`
	Pieces   int             `json:"pieces"`
	Root     string          `json:"root"`
	Expanded int             `json:"expanded"`
	// Graph is the binary graph of protocol.ExplorePart, in base64.
	Graph []byte `json:"graph"`
}

// exploreJob is an exploration that is split or saved: one protocol on
// one file.
type exploreJob struct {
	in   simInput
	spec protocol.Spec
	who  []int // the requesters, 0-based
	// canon is the canonical JSON of the system; hash its input hash.
	canon []byte
	hash  string
	opts  exPartOptions
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
		if who, err = parseNodes(o.requesters, in.ps.N); err != nil {
			return nil, usageErrorf("--requesters: %v", err)
		}
	}
	var canon bytes.Buffer
	if err := format.Write(&canon, in.sys, format.JSON, format.DefaultOptions()); err != nil {
		return nil, err
	}
	opts := exPartOptions{Name: in.name, Format: o.format, Protocol: specs[0].Name, Requests: o.requests, Rounds: o.rounds,
		MaxStates: o.maxStates, MaxDepth: o.maxDepth}
	for _, v := range who {
		opts.Requesters = append(opts.Requesters, v+1)
	}
	return &exploreJob{in: in, spec: specs[0], who: who, canon: bytes.TrimSpace(canon.Bytes()),
		hash: shard.HashInput(canon.Bytes()), opts: opts}, nil
}

// part is the partial result of shard sp of j that p is.
func (j *exploreJob) part(s *streams, sp shard.Spec, p *protocol.ExplorePart) error {
	res := exPartResult{System: j.canon, Pieces: p.Pieces, Root: hex.EncodeToString(p.Root[:]),
		Expanded: p.Expanded, Graph: p.Graph}
	return writePart(s, exPartKind, sp, j.hash, j.opts, res)
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
func exploreConfig(opts exPartOptions, who []int, maxMemory int64) protocol.ExploreConfig {
	return protocol.ExploreConfig{Requests: opts.Requests, Rounds: opts.Rounds, Requesters: who,
		MaxStates: opts.MaxStates, MaxDepth: opts.MaxDepth, MaxMemory: maxMemory}
}

// mergeExplore puts the shards' parts of an exploration together and
// prints the report of the unsplit `simulate --explore`.
func mergeExplore(ctx context.Context, s *streams, parts []*shard.Part, asJSON bool) error {
	opts, err := shard.DecodeOptions[exPartOptions](parts[0])
	if err != nil {
		return usageErrorf("merge: %v", err)
	}
	results, err := shard.Decode[exPartResult](parts)
	if err != nil {
		return usageErrorf("merge: %v", err)
	}
	sys, err := format.ReadBytes(results[0].System, format.JSON, format.DefaultOptions())
	if err != nil {
		return usageErrorf("merge: shard %s: the system it carries: %v", parts[0].Shard, err)
	}
	// The system the parts carry is the one they hash to.
	if h, err := inputHash(sys); err != nil || h != parts[0].InputSHA256 {
		return usageErrorf("merge: shard %s: the system it carries is not the input its input_sha256 names", parts[0].Shard)
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
	eps := make([]*protocol.ExplorePart, len(results))
	for i, r := range results {
		root, err := hex.DecodeString(r.Root)
		if err != nil || len(root) != 16 {
			return usageErrorf("merge: shard %s: \"root\" is not a state hash", parts[i].Shard)
		}
		eps[i] = &protocol.ExplorePart{Pieces: r.Pieces, Root: [16]byte(root), Expanded: r.Expanded, Graph: r.Graph}
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
