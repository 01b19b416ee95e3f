package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
	"github.com/coterie-dev/coterie/shard/partfile"
)

// `transversals --count --shard I/N` writes the part of kind
// "transversals": the MMCS search is cut into numbered pieces by the
// family alone (domination.CountTransversalPieces), shard I counts the
// pieces it owns, and the merge adds up the counts by size
// (domination.MergeShardCounts). The files' JSON is package partfile's.

// runTransversalsSharded counts the minimal transversals of f piece by
// piece: shard sp's pieces with --shard (printing a part), or all of
// them with --checkpoint alone (printing the count as the unsplit run).
func runTransversalsSharded(ctx context.Context, s *streams, path string, f *set.Family, o *transversalsOptions) error {
	sharded := o.shard != ""
	sp := shard.Spec{Index: 1, Count: 1}
	if sharded {
		var err error
		if sp, err = parseShard(o.shard, o.shards, os.Getenv); err != nil {
			return usageErrorf("%v", err)
		}
	} else if o.shards != "" {
		return usageErrorf("--shards goes with --shard auto")
	}
	hash, err := inputHash(set.System{Family: f})
	if err != nil {
		return err
	}
	var st *domination.PieceCount
	var save func(*domination.PieceCount) error
	if o.checkpoint != "" {
		if st, _, err = readCheckpoint(o.checkpoint, "transversals", sp, func(data []byte) (*domination.PieceCount, error) {
			return partfile.ReadTransversalsCheckpoint(data, hash, sp, f.N)
		}); err != nil {
			return err
		}
		save = func(pc *domination.PieceCount) error {
			return writeCheckpoint(o.checkpoint, partfile.TransversalsCheckpoint(hash, sp, pc))
		}
	}
	// Each piece is saved, at most once a second (a small count has many
	// quick pieces), and whatever is unsaved when the count ends.
	p := newProgress(s, "transversals: counting (pieces searched)")
	prog := func(_ string, done, total int64) { p.Update(done, total) }
	st, err = domination.CountTransversalPiecesPaced(ctx, f, sp.Owns, st, domination.Options{Progress: prog, MaxMemory: maxMemory(o.in.cmd)}, save, time.Second)
	p.Done()
	if err != nil {
		if st != nil && ctx.Err() != nil {
			saved := ""
			if o.checkpoint != "" {
				saved = fmt.Sprintf(" (saved in %s: run again to resume)", o.checkpoint)
			}
			fmt.Fprintf(s.err, "coterie: note: transversals: stopped with %d pieces done%s\n", len(st.Done), saved)
			if !sharded {
				// The pieces counted so far, marked partial, as without
				// --checkpoint.
				c := st.Count()
				c.Partial = true
				if werr := writeTransversalCount(s, displayName(path), c, o.asJSON); werr != nil {
					return werr
				}
			}
		}
		return err
	}
	if !sharded {
		return writeTransversalCount(s, displayName(path), st.Count(), o.asJSON)
	}
	part, err := partfile.TransversalsPart(sp, hash, partfile.TransversalsOptions{Name: displayName(path)}, f.N, st)
	return writePartOut(s, part, err)
}

// writeTransversalCount prints c as `transversals --count` does.
func writeTransversalCount(s *streams, name string, c *domination.TransversalCount, asJSON bool) error {
	return writeOutput(s, "", func(w io.Writer) error {
		if asJSON {
			b, err := jsonreport.NewTransversalCount(c).MarshalJSON()
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(w, "%s\n", b)
			return err
		}
		return countText(w, name, c)
	})
}

// mergeTransversals adds up the shards' counts and prints the whole count
// as the unsplit `transversals --count` would.
func mergeTransversals(s *streams, parts []*shard.Part, asJSON bool) error {
	po, counts, err := partfile.DecodeTransversals(parts)
	var me *shard.MergeError
	if errors.As(err, &me) {
		return usageErrorf("merge: %s", me.Msg)
	} else if err != nil {
		return err
	}
	c, err := domination.MergeShardCounts(counts)
	if errors.As(err, &me) {
		return usageErrorf("merge: %s", me.Msg)
	} else if err != nil {
		return err
	}
	return writeTransversalCount(s, po.Name, c, asJSON)
}
