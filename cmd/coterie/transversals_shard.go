package main

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// The partial result of `transversals --count --shard I/N` (kind
// "transversals"): the MMCS search is cut into numbered pieces by the
// family alone (domination.CountTransversalPieces), shard I counts the
// pieces it owns, and the merge adds up the counts by size.

// tvPartKind is the kind of transversal-count parts.
const tvPartKind = "transversals"

// tvPartOptions are the options a transversal count's output depends on.
type tvPartOptions struct {
	Name string `json:"name"`
}

// tvPartResult is what a shard counted: its pieces of the search and the
// minimal transversals in them by size (sizes and counts as decimal
// strings).
type tvPartResult struct {
	N          int               `json:"n"`
	Pieces     int               `json:"pieces"`
	PiecesDone int               `json:"pieces_done"`
	BySize     map[string]string `json:"by_size"`
}

// tvCheckpoint is the --checkpoint file of a transversal count.
type tvCheckpoint struct {
	Format      string            `json:"format"`
	Kind        string            `json:"kind"`
	InputSHA256 string            `json:"input_sha256"`
	Shard       string            `json:"shard"`
	Pieces      int               `json:"pieces"`
	Done        []int             `json:"done"`
	BySize      map[string]string `json:"by_size"`
}

func bySizeStrings(m map[int]*big.Int) map[string]string {
	out := make(map[string]string, len(m))
	for size, k := range m {
		out[strconv.Itoa(size)] = k.String()
	}
	return out
}

func parseBySize(n int, m map[string]string) (map[int]*big.Int, error) {
	out := make(map[int]*big.Int, len(m))
	for s, c := range m {
		size, err := strconv.Atoi(s)
		if err != nil || size < 0 || size > n {
			return nil, fmt.Errorf("size %q is not 0..%d", s, n)
		}
		k, ok := new(big.Int).SetString(c, 10)
		if !ok || k.Sign() < 0 {
			return nil, fmt.Errorf("size %d: count %q is not a count", size, c)
		}
		out[size] = k
	}
	return out, nil
}

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
	dirty := false
	if o.checkpoint != "" {
		if st, err = loadTvCheckpoint(o.checkpoint, hash, sp, f.N); err != nil {
			return err
		}
		// Each piece is saved, at most once a second (a small count has
		// many quick pieces), and whatever is unsaved when the count ends.
		var last time.Time
		save = func(pc *domination.PieceCount) error {
			if time.Since(last) < time.Second {
				dirty = true
				return nil
			}
			last, dirty = time.Now(), false
			return saveTvCheckpoint(o.checkpoint, hash, sp, pc)
		}
	}
	p := newProgress(s, "transversals: counting (pieces searched)")
	prog := func(_ string, done, total int64) { p.Update(done, total) }
	st, err = domination.CountTransversalPieces(ctx, f, sp.Owns, st, domination.Options{Progress: prog, MaxMemory: maxMemory(o.in.cmd)}, save)
	p.Done()
	if dirty && st != nil {
		if serr := saveTvCheckpoint(o.checkpoint, hash, sp, st); serr != nil && err == nil {
			err = serr
		}
	}
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
	res := tvPartResult{N: f.N, Pieces: st.Pieces, PiecesDone: len(st.Done), BySize: bySizeStrings(st.BySize)}
	return writePart(s, tvPartKind, sp, hash, tvPartOptions{Name: displayName(path)}, res)
}

// writeTransversalCount prints c as `transversals --count` does.
func writeTransversalCount(s *streams, name string, c *domination.TransversalCount, asJSON bool) error {
	return writeOutput(s, "", func(w io.Writer) error {
		if asJSON {
			b, err := transversalCount{c}.MarshalJSON()
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
	po, err := shard.DecodeOptions[tvPartOptions](parts[0])
	if err != nil {
		return err
	}
	results, err := shard.Decode[tvPartResult](parts)
	if err != nil {
		return err
	}
	first := results[0]
	sum := &domination.PieceCount{Pieces: first.Pieces, BySize: map[int]*big.Int{}}
	done := 0
	for i, r := range results {
		if r.N != first.N || r.Pieces != first.Pieces {
			return usageErrorf("merge: shard %s cut the search into %d pieces, shard %s into %d", parts[i].Shard, r.Pieces, parts[0].Shard, first.Pieces)
		}
		owned := 0
		sp := shard.Spec{Index: i + 1, Count: len(parts)}
		for p := range r.Pieces {
			if sp.Owns(p) {
				owned++
			}
		}
		if r.PiecesDone != owned {
			return usageErrorf("merge: shard %s counted %d of its %d pieces", parts[i].Shard, r.PiecesDone, owned)
		}
		done += r.PiecesDone
		m, err := parseBySize(r.N, r.BySize)
		if err != nil {
			return usageErrorf("merge: shard %s: %v", parts[i].Shard, err)
		}
		for size, k := range m {
			if sum.BySize[size] == nil {
				sum.BySize[size] = new(big.Int)
			}
			sum.BySize[size].Add(sum.BySize[size], k)
		}
	}
	if done != first.Pieces {
		return usageErrorf("merge: the shards counted %d of %d pieces", done, first.Pieces)
	}
	return writeTransversalCount(s, po.Name, sum.Count(), asJSON)
}

// loadTvCheckpoint reads the checkpoint at path (nil if there is no
// file); a file of another command, input or shard is refused.
func loadTvCheckpoint(path, hash string, sp shard.Spec, n int) (*domination.PieceCount, error) {
	var got tvCheckpoint
	found, err := readCheckpointInto(path, tvPartKind, "transversals", hash, sp, &got)
	if err != nil || !found {
		return nil, err
	}
	m, err := parseBySize(n, got.BySize)
	if err != nil {
		return nil, asInputError(path, 0, "checkpoint: "+err.Error())
	}
	done := slices.Clone(got.Done)
	slices.Sort(done)
	if len(slices.Compact(slices.Clone(done))) != len(done) || len(done) > 0 && (done[0] < 0 || done[len(done)-1] >= got.Pieces) {
		return nil, asInputError(path, 0, "checkpoint: bad list of pieces done")
	}
	return &domination.PieceCount{Pieces: got.Pieces, Done: done, BySize: m}, nil
}

// saveTvCheckpoint rewrites the checkpoint: a temporary file in the same
// folder, renamed over the old one.
func saveTvCheckpoint(path, hash string, sp shard.Spec, pc *domination.PieceCount) error {
	ck := tvCheckpoint{Format: checkpointFormat, Kind: tvPartKind, InputSHA256: hash, Shard: sp.String(),
		Pieces: pc.Pieces, Done: slices.Clone(pc.Done), BySize: bySizeStrings(pc.BySize)}
	return writeCheckpoint(path, ck)
}
