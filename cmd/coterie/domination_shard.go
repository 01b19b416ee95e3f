package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// The partial result of `domination --smallest --shard I/N` (kind
// "smallest"): every shard finds the same first minimal witness; the
// candidate sizes below it, each cut into cubes (the nodes of the most
// quorums fixed in or out), are the pieces, and shard I asks the solver
// for a witness of at most b nodes in the cubes it owns
// (domination.SmallestShard). The merge takes the smallest size some cube
// answered yes and asks the solver for its witness, as the unsplit run
// does (domination.MergeSmallest): the part carries the system for that.
// A system whose smallest witness needs no such search (nondominated,
// threshold, projective plane, at most 26 nodes in quorums) is not split:
// shard 1 carries the whole result.

// smPartKind is the kind of --smallest parts.
const smPartKind = "smallest"

// smPartOptions are the options the report depends on.
type smPartOptions struct {
	Name string `json:"name"`
	JSON bool   `json:"json"`
}

// smPartResult is a shard's share of --smallest.
type smPartResult struct {
	// System is the family judged (canonical JSON, with its k).
	System json.RawMessage `json:"system"`
	// The split: sizes Lower .. Lower+Sizes−1 below the first witness,
	// Cubes cubes each.
	Sizes   int        `json:"sizes"`
	Cubes   int        `json:"cubes,omitempty"`
	Lower   int        `json:"lower,omitempty"`
	First   []int      `json:"first,omitempty"`
	Answers []smAnswer `json:"answers,omitempty"`
	// Whole is the whole result of a run that is not split.
	Whole *smWhole `json:"whole,omitempty"`
}

// smAnswer is the answer for at most Size nodes in cube Cube: a witness,
// or null.
type smAnswer struct {
	Size    int   `json:"size"`
	Cube    int   `json:"cube"`
	Witness []int `json:"witness"`
}

// smWhole is a whole domination.Result.
type smWhole struct {
	Nondominated bool   `json:"nondominated"`
	Witness      []int  `json:"witness,omitempty"`
	Smallest     bool   `json:"smallest"`
	Proof        string `json:"proof,omitempty"`
	PlaneOrder   int    `json:"plane_order,omitempty"`
	ClosedForm   bool   `json:"closed_form,omitempty"`
	LowerBound   int    `json:"lower_bound,omitempty"`
	Structure    string `json:"structure,omitempty"`
	Inner        []int  `json:"inner,omitempty"`
}

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

func nodes1(h *set.Set) []int {
	if h == nil {
		return nil
	}
	out := []int{}
	for v := range h.All() {
		out = append(out, v+1)
	}
	return out
}

func setOf1(n int, vs []int) (*set.Set, error) {
	if vs == nil {
		return nil, nil
	}
	h := set.New(n)
	for _, v := range vs {
		if v < 1 || v > n {
			return nil, fmt.Errorf("node %d is not 1..%d", v, n)
		}
		h.Add(v - 1)
	}
	return h, nil
}

// runSmallestShard does shard sp of `domination --smallest` on f and
// prints its part.
func runSmallestShard(ctx context.Context, s *streams, name string, f *set.Family, o *dominationOptions, sp shard.Spec) error {
	var canon bytes.Buffer
	if err := format.Write(&canon, set.System{Family: f}, format.JSON, format.DefaultOptions()); err != nil {
		return err
	}
	hash := shard.HashInput(canon.Bytes())
	part, err := smallestRun(ctx, s, f, o, sp, hash)
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(s.err, "coterie: note: domination: shard %s stopped before it finished: no part written\n", sp)
		}
		return err
	}
	res := smPartResult{System: bytes.TrimSpace(canon.Bytes()), Sizes: part.Sizes, Cubes: part.Cubes, Lower: part.Lower,
		First: nodes1(part.First)}
	for _, a := range part.Answers {
		res.Answers = append(res.Answers, smAnswer{Size: a.Size, Cube: a.Cube, Witness: nodes1(a.Witness)})
	}
	if w := part.Whole; w != nil {
		res.Whole = &smWhole{Nondominated: w.Nondominated, Witness: nodes1(w.Witness), Smallest: w.Smallest, Proof: string(w.Proof),
			PlaneOrder: w.PlaneOrder, ClosedForm: w.ClosedForm, LowerBound: w.LowerBound,
			Structure: w.Structure, Inner: nodes1(w.Inner)}
	}
	return writePart(s, smPartKind, sp, hash, smPartOptions{Name: name, JSON: o.asJSON}, res)
}

// mergeSmallest puts the shards' parts of --smallest together and prints
// the report of the unsplit run.
func mergeSmallest(ctx context.Context, s *streams, parts []*shard.Part, asJSON bool) error {
	opts, err := shard.DecodeOptions[smPartOptions](parts[0])
	if err != nil {
		return usageErrorf("merge: %v", err)
	}
	results, err := shard.Decode[smPartResult](parts)
	if err != nil {
		return usageErrorf("merge: %v", err)
	}
	sys, err := format.ReadBytes(results[0].System, format.JSON, format.DefaultOptions())
	if err != nil || sys.Family == nil {
		return usageErrorf("merge: shard %s: the system it carries: %v", parts[0].Shard, err)
	}
	// The system the parts carry is the one they hash to.
	if h, err := inputHash(sys); err != nil || h != parts[0].InputSHA256 {
		return usageErrorf("merge: shard %s: the system it carries is not the input its input_sha256 names", parts[0].Shard)
	}
	f := sys.Family
	sps := make([]*domination.SmallestPart, len(results))
	for i, r := range results {
		bad := func(err error) error { return usageErrorf("merge: shard %s: %v", parts[i].Shard, err) }
		sp := &domination.SmallestPart{Sizes: r.Sizes, Cubes: r.Cubes, Lower: r.Lower}
		if sp.First, err = setOf1(f.N, r.First); err != nil {
			return bad(err)
		}
		for _, a := range r.Answers {
			h, err := setOf1(f.N, a.Witness)
			if err != nil {
				return bad(err)
			}
			sp.Answers = append(sp.Answers, domination.SizeAnswer{Size: a.Size, Cube: a.Cube, Witness: h})
		}
		if w := r.Whole; w != nil {
			h, err := setOf1(f.N, w.Witness)
			if err != nil {
				return bad(err)
			}
			inner, err := setOf1(f.N, w.Inner)
			if err != nil {
				return bad(err)
			}
			sp.Whole = &domination.Result{Nondominated: w.Nondominated, K: f.K, Witness: h, Smallest: w.Smallest,
				Proof: domination.Proof(w.Proof), PlaneOrder: w.PlaneOrder, ClosedForm: w.ClosedForm, LowerBound: w.LowerBound,
				Structure: w.Structure, Inner: inner}
		}
		sps[i] = sp
	}
	r, err := domination.MergeSmallest(ctx, f, sps)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		return usageErrorf("%v", err)
	}
	rep := newDominationReport(r, true)
	if rep.Smallest && !f.IsThreshold() {
		rep.Support = supportSize(f)
	}
	return writeOutput(s, "", func(w io.Writer) error {
		if asJSON || opts.JSON {
			return rep.json(w)
		}
		return rep.text(w, opts.Name, f)
	})
}

// smCheckpoint is the --checkpoint file of --smallest: the answers so far.
type smCheckpoint struct {
	Format      string     `json:"format"`
	Kind        string     `json:"kind"`
	InputSHA256 string     `json:"input_sha256"`
	Shard       string     `json:"shard"`
	Answers     []smAnswer `json:"answers"`
}

// smallestRun runs shard sp of --smallest on f (hash is its input hash),
// resuming from and saving to --checkpoint when given. Stopped, it
// returns the part so far with the error.
func smallestRun(ctx context.Context, s *streams, f *set.Family, o *dominationOptions, sp shard.Spec, hash string) (*domination.SmallestPart, error) {
	if o.checkpoint == "" {
		return domination.SmallestShard(ctx, f, sp.Owns)
	}
	known, err := loadSmCheckpoint(o.checkpoint, hash, sp, f.N)
	if err != nil {
		return nil, err
	}
	save := func(p *domination.SmallestPart) error {
		ck := smCheckpoint{Format: checkpointFormat, Kind: smPartKind, InputSHA256: hash, Shard: sp.String(), Answers: []smAnswer{}}
		for _, a := range p.Answers {
			ck.Answers = append(ck.Answers, smAnswer{Size: a.Size, Cube: a.Cube, Witness: nodes1(a.Witness)})
		}
		return writeCheckpoint(o.checkpoint, ck)
	}
	part, err := domination.SmallestShardFrom(ctx, f, sp.Owns, known, save)
	if err != nil && part != nil && ctx.Err() != nil {
		fmt.Fprintf(s.err, "coterie: note: domination: stopped with %d sizes answered (saved in %s: run again to resume)\n", len(part.Answers), o.checkpoint)
	}
	if err != nil && ctx.Err() == nil {
		var ce *codeError
		if !errors.As(err, &ce) {
			err = asInputError(o.checkpoint, 0, err.Error())
		}
	}
	return part, err
}

// smallestCheckpointed is DecideSmallest resumed from and saved to
// --checkpoint: one shard of one, merged. Stopped, it returns what the
// answers so far prove, marked partial, with the error.
func smallestCheckpointed(ctx context.Context, s *streams, f *set.Family, o *dominationOptions) (*domination.Result, error) {
	hash, err := inputHash(set.System{Family: f})
	if err != nil {
		return nil, err
	}
	one := shard.Spec{Index: 1, Count: 1}
	part, err := smallestRun(ctx, s, f, o, one, hash)
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

// loadSmCheckpoint reads the answers saved at path (none if there is no
// file); a file of another command, input or shard is refused.
func loadSmCheckpoint(path, hash string, sp shard.Spec, n int) ([]domination.SizeAnswer, error) {
	var got smCheckpoint
	found, err := readCheckpointInto(path, smPartKind, "domination --smallest", hash, sp, &got)
	if err != nil || !found {
		return nil, err
	}
	var out []domination.SizeAnswer
	for _, a := range got.Answers {
		h, err := setOf1(n, a.Witness)
		if err != nil {
			return nil, asInputError(path, 0, "checkpoint: "+err.Error())
		}
		out = append(out, domination.SizeAnswer{Size: a.Size, Cube: a.Cube, Witness: h})
	}
	return out, nil
}
