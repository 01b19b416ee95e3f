package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
	"github.com/coterie-dev/coterie/shard/partfile"
)

// `domination --smallest --shard I/N` writes the part of kind
// "smallest": every shard finds the same first minimal witness; the
// candidate sizes below it, each cut into cubes, are the pieces, and
// shard I asks the solver about the cubes it owns
// (domination.SmallestShard). The merge takes the smallest size some cube
// answered yes (domination.MergeSmallest); the part carries the system
// for that. --checkpoint saves the answers (domination.SmallestShardFrom,
// domination.SmallestResumable). The files' JSON is package partfile's.

// smallestShardSpec reads --shard, --shards: the zero Spec when not split.
func smallestShardSpec(o *dominationOptions) (shard.Spec, error) {
	if o.checkpoint != "" && (!o.smallest || o.makeND) {
		return shard.Spec{}, usageErrorf("--checkpoint saves --smallest (without --make-nd)")
	}
	if o.shard == "" {
		if o.shards != "" {
			return shard.Spec{}, usageErrorf("--shards goes with --shard auto")
		}
		return shard.Spec{}, nil
	}
	if !o.smallest || o.makeND {
		return shard.Spec{}, usageErrorf("--shard splits --smallest (without --make-nd)")
	}
	sp, err := parseShard(o.shard, o.shards, os.Getenv)
	if err != nil {
		return shard.Spec{}, usageErrorf("%v", err)
	}
	return sp, nil
}

// runSmallestShard does shard sp of `domination --smallest` on f and
// prints its part.
func runSmallestShard(ctx context.Context, s *streams, name string, f *set.Family, o *dominationOptions, sp shard.Spec) error {
	canon, hash, err := partfile.Canonical(set.System{Family: f})
	if err != nil {
		return err
	}
	part, err := smallestRun(ctx, s, f, o, sp, hash)
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(s.err, "coterie: note: domination: shard %s stopped before it finished: no part written\n", sp)
		}
		return err
	}
	p, err := partfile.SmallestPart(sp, hash, canon, partfile.SmallestOptions{Name: name, JSON: o.asJSON}, part)
	return writePartOut(s, p, err)
}

// mergeSmallest puts the shards' parts of --smallest together and prints
// the report of the unsplit run.
func mergeSmallest(ctx context.Context, s *streams, parts []*shard.Part, asJSON bool) error {
	opts, f, sps, err := partfile.DecodeSmallest(parts)
	var me *shard.MergeError
	if errors.As(err, &me) {
		return usageErrorf("merge: %s", me.Msg)
	} else if err != nil {
		return usageErrorf("merge: %v", err)
	}
	r, err := domination.MergeSmallest(ctx, f, sps)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		return usageErrorf("%v", err)
	}
	rep := newDominationReport(r, true)
	return writeOutput(s, "", func(w io.Writer) error {
		if asJSON || opts.JSON {
			return rep.json(w)
		}
		return rep.text(w, opts.Name, f)
	})
}

// smallestRun runs shard sp of --smallest on f (hash is its input hash),
// resuming from and saving to --checkpoint when given. Stopped, it
// returns the part so far with the error.
func smallestRun(ctx context.Context, s *streams, f *set.Family, o *dominationOptions, sp shard.Spec, hash string) (*domination.SmallestPart, error) {
	if o.checkpoint == "" {
		return domination.SmallestShard(ctx, f, sp.Owns)
	}
	known, save, err := smallestCheckpoint(o, hash, sp, f.N)
	if err != nil {
		return nil, err
	}
	part, err := domination.SmallestShardFrom(ctx, f, sp.Owns, known, save)
	return part, smallestStopped(s, o, part, err, ctx)
}

// smallestCheckpoint reads the answers saved in --checkpoint (none if
// there is no file; a file of another command, input or shard is
// refused) and returns the function that saves them.
func smallestCheckpoint(o *dominationOptions, hash string, sp shard.Spec, n int) ([]domination.SizeAnswer, func(*domination.SmallestPart) error, error) {
	known, _, err := readCheckpoint(o.checkpoint, "domination --smallest", sp, func(data []byte) ([]domination.SizeAnswer, error) {
		return partfile.ReadSmallestCheckpoint(data, hash, sp, n)
	})
	if err != nil {
		return nil, nil, err
	}
	save := func(p *domination.SmallestPart) error {
		return writeCheckpoint(o.checkpoint, partfile.SmallestCheckpoint(hash, sp, p))
	}
	return known, save, nil
}

// smallestStopped notes a run with --checkpoint that ctx stopped, and
// names the checkpoint in an error about its answers.
func smallestStopped(s *streams, o *dominationOptions, part *domination.SmallestPart, err error, ctx context.Context) error {
	if err != nil && part != nil && ctx.Err() != nil {
		fmt.Fprintf(s.err, "coterie: note: domination: stopped with %d sizes answered (saved in %s: run again to resume)\n", len(part.Answers), o.checkpoint)
	}
	if err != nil && ctx.Err() == nil {
		var ce *codeError
		if !errors.As(err, &ce) {
			err = asInputError(o.checkpoint, 0, err.Error())
		}
	}
	return err
}

// smallestCheckpointed is DecideSmallest resumed from and saved to
// --checkpoint: one shard of one, merged. Stopped, it returns what the
// answers so far prove, marked partial, with the error.
func smallestCheckpointed(ctx context.Context, s *streams, f *set.Family, o *dominationOptions) (*domination.Result, error) {
	hash, err := partfile.InputHash(set.System{Family: f})
	if err != nil {
		return nil, err
	}
	part, err := smallestRun(ctx, s, f, o, shard.Spec{Index: 1, Count: 1}, hash)
	if err != nil {
		if part == nil {
			return nil, err
		}
		best, lower := domination.SmallestProved([]*domination.SmallestPart{part})
		if best == nil {
			return nil, err
		}
		return &domination.Result{K: f.K, Witness: best, LowerBound: lower, Partial: true}, err
	}
	return domination.MergeSmallest(ctx, f, []*domination.SmallestPart{part})
}
