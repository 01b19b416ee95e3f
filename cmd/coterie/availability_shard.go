package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// The partial result of `availability --shard I/N` (kind "availability").
//
// Exact polynomials found by BDD are split into pieces by the first nodes
// (see availability.ComputePiece): a shard sums the contributions of its
// pieces. Monte Carlo estimates (--method estimate) are split by the
// pieces of their samples (availability.EstimateShare): a shard counts
// the hits of its share. Closed forms are not split: shard 1 carries the
// whole result of such a family, the others nothing.

// avPartKind is the kind of availability parts.
const avPartKind = "availability"

// How a part shares a family's result.
const (
	avShareWhole   = "whole"   // this part holds the whole result
	avShareNone    = "none"    // another part holds the whole result
	avSharePieces  = "pieces"  // the sum of this shard's pieces
	avShareSamples = "samples" // this shard's share of the samples
)

// avPartOptions are the options an availability result depends on; parts
// merge only when theirs are the same.
type avPartOptions struct {
	Name        string    `json:"name"`
	Format      string    `json:"format"`
	Points      []float64 `json:"points"`
	PointsGiven bool      `json:"points_given"`
	Polynomial  bool      `json:"polynomial"`
	Digits      int       `json:"digits"`
	Method      string    `json:"method"`
	Samples     int       `json:"samples"`
	Seed        uint64    `json:"seed"`
}

// avPartResult is what a shard proved about one input.
type avPartResult struct {
	N        int            `json:"n"`
	K        int            `json:"k"`
	HK       bool           `json:"hk,omitempty"`
	Families []avPartFamily `json:"families"`
}

// avPartFamily is a shard's share of one family (one level h of an
// (h,k)-arbiter).
type avPartFamily struct {
	H      int    `json:"h,omitempty"`
	N      int    `json:"n"`
	Share  string `json:"share"`
	Method string `json:"method"`
	// Exact says whether the share is exact; a pieces share that is not
	// (a budget or --exact-time stopped it) cannot be merged.
	Exact  bool   `json:"exact"`
	Reason string `json:"reason,omitempty"`
	// Pieces and PiecesDone: the split and how many of this shard's
	// pieces are summed in Coefficients.
	Pieces       int                   `json:"pieces,omitempty"`
	PiecesDone   int                   `json:"pieces_done,omitempty"`
	Coefficients []string              `json:"coefficients,omitempty"`
	Proved       *availability.Partial `json:"proved,omitempty"`
	Points       []avPartPoint         `json:"points,omitempty"`
}

// avPartPoint is a share of the estimate at one p, with the proved
// bounds there.
type avPartPoint struct {
	P       float64 `json:"p"`
	Hits    int     `json:"hits"`
	Samples int     `json:"samples"`
	Seed    uint64  `json:"seed"`
	Lo      float64 `json:"bound_low"`
	Hi      float64 `json:"bound_high"`
}

// avShardSpec reads --shard, --shards: the zero Spec when not split.
func avShardSpec(o availabilityOptions) (shard.Spec, error) {
	if o.shard == "" {
		if o.shards != "" {
			return shard.Spec{}, usageErrorf("--shards goes with --shard auto")
		}
		return shard.Spec{}, nil
	}
	sp, err := parseShard(o.shard, o.shards, os.Getenv)
	if err != nil {
		return shard.Spec{}, usageErrorf("%v", err)
	}
	return sp, nil
}

// inputHash returns the SHA-256 of the canonical JSON of sys.
func inputHash(sys set.System) (string, error) {
	var b bytes.Buffer
	if err := format.Write(&b, sys, format.JSON, format.DefaultOptions()); err != nil {
		return "", err
	}
	return shard.HashInput(b.Bytes()), nil
}

func avPartOptionsOf(o availabilityOptions, name string, ps []float64, pointsGiven bool) avPartOptions {
	return avPartOptions{Name: name, Format: o.format, Points: ps, PointsGiven: pointsGiven, Polynomial: o.polynomial,
		Digits: o.digits, Method: o.method, Samples: o.samples, Seed: o.seed}
}

func polyStrings(p *availability.Polynomial) []string { return p.Strings() }

func parsePoly(n int, cs []string) (*availability.Polynomial, error) {
	if len(cs) != n+1 {
		return nil, fmt.Errorf("%d coefficients for %d nodes", len(cs), n)
	}
	p := availability.NewPolynomial(n)
	for i, c := range cs {
		if _, ok := p.A[i].SetString(c, 10); !ok || p.A[i].Sign() < 0 {
			return nil, fmt.Errorf("coefficient %d is not a count: %q", i, c)
		}
	}
	return p, nil
}

// avProgress returns a Progress that draws a bar per stage on stderr, and
// the function that clears the last one.
func avProgress(s *streams, label string) (availability.Progress, func()) {
	var bar *progress
	stage := ""
	return func(st string, done, total int64) {
			if st != stage {
				bar.Done()
				stage = st
				bar = newProgress(s, label+": "+st)
			}
			bar.Update(done, total)
		}, func() {
			bar.Done()
		}
}

// computeAvShardFamily works out shard sp's share of family fam.
func computeAvShardFamily(ctx context.Context, s *streams, name string, fam *set.Family, fi int, m availability.Method, o availabilityOptions, sp shard.Spec, ps []float64, hash string) (avPartFamily, error) {
	pf := avPartFamily{H: fam.H, N: fam.N}
	label := "availability: " + name + avLevelSuffix(fam)
	switch {
	case m == availability.MethodEstimate && !fam.IsThreshold():
		res, err := availability.Compute(ctx, fam, availability.Options{Method: m})
		if err != nil {
			return pf, fmt.Errorf("%s%s: %w", name, avLevelSuffix(fam), err)
		}
		if res.Exact {
			// What is proved is every coefficient: the same in every shard.
			pf.Share, pf.Method, pf.Exact = avShareWhole, string(res.Method), true
			if sp.Index != 1 {
				pf.Share = avShareNone
				return pf, nil
			}
			pf.Coefficients = polyStrings(res.Poly)
			return pf, nil
		}
		pts, err := res.Evaluate(ctx, ps, availability.EvalOptions{Samples: o.samples, Seed: o.seed, Budget: o.maxNodes, Shard: sp.Index, Shards: sp.Count})
		if err != nil {
			return pf, err
		}
		pf.Share, pf.Method, pf.Reason, pf.Proved = avShareSamples, string(availability.MethodEstimate), avReason(res), res.Partial
		for _, pt := range pts {
			e := pt.Estimate
			pf.Points = append(pf.Points, avPartPoint{P: pt.P, Hits: e.Hits, Samples: e.Samples, Seed: e.Seed, Lo: pt.Lo, Hi: pt.Hi})
		}
		return pf, nil
	case availability.SplittableContext(ctx, fam, m):
		bits := availability.SplitBits(fam.N, sp.Count)
		pf.Share, pf.Method, pf.Pieces = avSharePieces, string(availability.MethodBDD), 1<<bits
		state, err := runAvPieces(ctx, s, label, fam, fi, bits, sp, o, hash)
		if err != nil {
			var stop *avStopped
			if !errors.As(err, &stop) {
				return pf, fmt.Errorf("%s%s: %w", name, avLevelSuffix(fam), err)
			}
			pf.Reason = stop.reason
		} else {
			pf.Exact = true
		}
		pf.PiecesDone = len(state.Done)
		pf.Coefficients = polyStrings(state.Sum)
		return pf, nil
	}
	// Not split: shard 1 does it all.
	if sp.Index != 1 {
		pf.Share = avShareNone
		return pf, nil
	}
	res, err := computeAvFamily(ctx, s, name, fam, m, o.maxNodes, o.exactTime, maxMemory(o.in.cmd))
	if err != nil {
		return pf, err
	}
	pf.Share, pf.Method, pf.Exact = avShareWhole, string(res.Method), res.Exact
	if res.Exact {
		pf.Coefficients = polyStrings(res.Poly)
		return pf, nil
	}
	pts, err := res.Evaluate(ctx, ps, availability.EvalOptions{Samples: o.samples, Seed: o.seed, Budget: o.maxNodes})
	if err != nil {
		return pf, err
	}
	pf.Method, pf.Reason, pf.Proved = string(availability.MethodEstimate), avReason(res), res.Partial
	for _, pt := range pts {
		e := pt.Estimate
		pf.Points = append(pf.Points, avPartPoint{P: pt.P, Hits: e.Hits, Samples: e.Samples, Seed: e.Seed, Lo: pt.Lo, Hi: pt.Hi})
	}
	return pf, nil
}

// avStopped is the error of runAvPieces when a budget or --exact-time
// stopped a piece (not an interrupt): the pieces done so far are saved.
type avStopped struct{ reason string }

func (e *avStopped) Error() string { return e.reason }

// runAvPieces computes shard sp's pieces of fam under --exact-time,
// resuming from and saving to --checkpoint when given. An interrupt or
// --timeout returns the context's error; a budget or --exact-time an
// *avStopped; either way the state holds the pieces done.
func runAvPieces(ctx context.Context, s *streams, label string, fam *set.Family, fi, bits int, sp shard.Spec, o availabilityOptions, hash string) (*availability.PieceState, error) {
	var ck *avCheckpoint
	var state *availability.PieceState
	if o.checkpoint != "" {
		var err error
		ck, err = loadAvCheckpoint(o.checkpoint, hash, sp)
		if err != nil {
			return nil, err
		}
		if state, err = ck.state(fi, fam.N, bits); err != nil {
			return nil, err
		}
	}
	bctx := ctx
	if o.exactTime > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeout(ctx, o.exactTime)
		defer cancel()
	}
	prog, done := avProgress(s, label)
	defer done()
	var save func(*availability.PieceState) error
	if ck != nil {
		save = func(st *availability.PieceState) error { return ck.save(o.checkpoint, fi, st) }
	}
	state, err := availability.RunPieces(bctx, fam, bits, sp.Owns, state, availability.Options{Budget: o.maxNodes, Progress: prog, MaxMemory: maxMemory(o.in.cmd)}, save)
	if err == nil {
		return state, nil
	}
	if state == nil {
		return nil, err
	}
	owned := 0
	for j := range 1 << bits {
		if sp.Owns(j) {
			owned++
		}
	}
	saved := ""
	if ck != nil {
		saved = fmt.Sprintf(" (saved in %s: run again to resume)", o.checkpoint)
	}
	progressNote := fmt.Sprintf("%d of %d pieces done%s", len(state.Done), owned, saved)
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(s.err, "coterie: note: %s: stopped with %s\n", label, progressNote)
		return state, err
	case bctx.Err() != nil && errors.Is(err, context.DeadlineExceeded):
		return state, &avStopped{fmt.Sprintf("no BDD within %s: %s", o.exactTime, progressNote)}
	case errors.Is(err, availability.ErrBudget) || errors.Is(err, set.ErrMemoryBudget):
		return state, &avStopped{fmt.Sprintf("%v: %s", err, progressNote)}
	}
	return state, err
}

// computeAvCheckpointed is computeAvFamily for a family split into pieces
// saved to --checkpoint: the same result as an uninterrupted run; when a
// budget or --exact-time stops it, the proved coefficients, bounds and an
// estimate, as without a checkpoint.
func computeAvCheckpointed(ctx context.Context, s *streams, name string, fam *set.Family, fi int, o availabilityOptions, hash string) (*availability.Result, error) {
	label := "availability: " + name + avLevelSuffix(fam)
	bits := availability.SplitBits(fam.N, 1)
	state, err := runAvPieces(ctx, s, label, fam, fi, bits, shard.Spec{Index: 1, Count: 1}, o, hash)
	if err == nil {
		return availability.ExactResult(fam, availability.MethodBDD, state.Sum), nil
	}
	var stop *avStopped
	if !errors.As(err, &stop) {
		return nil, fmt.Errorf("%s%s: %w", name, avLevelSuffix(fam), err)
	}
	res, err := availability.Settle(ctx, fam, stop.reason+"; raise --max-nodes or --exact-time, or rely on the bounds and estimate")
	if err != nil {
		return nil, fmt.Errorf("%s%s: %w", name, avLevelSuffix(fam), err)
	}
	return res, nil
}

// avCheckpoint is the --checkpoint file: the pieces done of each split
// family of one input (and shard), and their sum.
type avCheckpoint struct {
	Format      string               `json:"format"`
	Kind        string               `json:"kind"`
	InputSHA256 string               `json:"input_sha256"`
	Shard       string               `json:"shard"`
	Families    []avCheckpointFamily `json:"families"`
}

type avCheckpointFamily struct {
	Family int      `json:"family"`
	Pieces int      `json:"pieces"`
	Done   []int    `json:"done"`
	Sum    []string `json:"sum"`
}

// loadAvCheckpoint reads the checkpoint at path, or starts one if there
// is no file; a file of another input or shard is refused.
func loadAvCheckpoint(path, hash string, sp shard.Spec) (*avCheckpoint, error) {
	ck := &avCheckpoint{Format: checkpointFormat, Kind: avPartKind, InputSHA256: hash, Shard: sp.String()}
	var got avCheckpoint
	switch found, err := readCheckpoint(path, avPartKind, "availability", hash, sp, &got); {
	case err != nil:
		return nil, err
	case !found:
		return ck, nil
	}
	ck.Families = got.Families
	return ck, nil
}

// state returns the saved pieces of family fi, nil if none.
func (ck *avCheckpoint) state(fi, n, bits int) (*availability.PieceState, error) {
	for _, f := range ck.Families {
		if f.Family != fi {
			continue
		}
		if f.Pieces != 1<<bits {
			return nil, fmt.Errorf("checkpoint: family %d is split into %d pieces, this run into %d", fi+1, f.Pieces, 1<<bits)
		}
		sum, err := parsePoly(n, f.Sum)
		if err != nil {
			return nil, fmt.Errorf("checkpoint: family %d: %v", fi+1, err)
		}
		done := slices.Clone(f.Done)
		slices.Sort(done)
		if len(slices.Compact(slices.Clone(done))) != len(done) || len(done) > 0 && (done[0] < 0 || done[len(done)-1] >= 1<<bits) {
			return nil, fmt.Errorf("checkpoint: family %d: bad list of pieces done", fi+1)
		}
		return &availability.PieceState{Bits: bits, Done: done, Sum: sum}, nil
	}
	return nil, nil
}

// save records the state of family fi and rewrites the file: a
// temporary file in the same folder, renamed over the old one.
func (ck *avCheckpoint) save(path string, fi int, st *availability.PieceState) error {
	f := avCheckpointFamily{Family: fi, Pieces: 1 << st.Bits, Done: slices.Clone(st.Done), Sum: st.Sum.Strings()}
	i := slices.IndexFunc(ck.Families, func(g avCheckpointFamily) bool { return g.Family == fi })
	if i < 0 {
		ck.Families = append(ck.Families, f)
	} else {
		ck.Families[i] = f
	}
	return writeCheckpoint(path, ck)
}

// writeAvPart writes shard sp's part to stdout.
func writeAvPart(s *streams, sp shard.Spec, hash string, opts avPartOptions, res *avPartResult) error {
	return writePart(s, avPartKind, sp, hash, opts, res)
}

// mergeAvailability puts the parts together and prints the result as the
// unsplit command would.
func mergeAvailability(ctx context.Context, s *streams, parts []*shard.Part, asJSON bool) error {
	po, err := shard.DecodeOptions[avPartOptions](parts[0])
	if err != nil {
		return err
	}
	results, err := shard.Decode[avPartResult](parts)
	if err != nil {
		return err
	}
	o := availabilityOptions{format: po.Format, polynomial: po.Polynomial, digits: po.Digits, method: po.Method, samples: po.Samples, seed: po.Seed}
	if asJSON {
		o.format = "json"
	}
	first := results[0]
	in := &avInput{name: po.Name, n: first.N, k: first.K, hk: first.HK}
	for i, r := range results {
		if r.N != first.N || r.K != first.K || r.HK != first.HK || len(r.Families) != len(first.Families) {
			return fmt.Errorf("merge: shard %s describes another system than shard %s", parts[i].Shard, parts[0].Shard)
		}
	}
	for fi := range first.Families {
		fams := make([]avPartFamily, len(results))
		for i, r := range results {
			fams[i] = r.Families[fi]
		}
		res, pts, err := mergeAvFamily(ctx, parts, fams, po)
		if err != nil {
			return err
		}
		if !res.Exact {
			fmt.Fprintf(s.err, "coterie: note: %s%s: no exact result: %s; showing the proved coefficients, bounds and a Monte Carlo estimate (%d samples, seed %d)\n",
				po.Name, avHLabel(in.hk, fams[0].H), avReason(res), avSamplesOf(pts, po.Samples), po.Seed)
		}
		in.fams = append(in.fams, avFamily{h: fams[0].H, res: res, points: pts})
	}
	return writeAvailabilityResults(s, o, []*avInput{in}, po.Points, po.PointsGiven)
}

func avHLabel(hk bool, h int) string {
	if hk {
		return fmt.Sprintf(" (h=%d)", h)
	}
	return ""
}

func avSamplesOf(pts []availability.Point, samples int) int {
	for _, pt := range pts {
		if pt.Estimate != nil {
			return pt.Estimate.Samples
		}
	}
	return samples
}

// mergeAvFamily puts together the shares of one family.
func mergeAvFamily(ctx context.Context, parts []*shard.Part, fams []avPartFamily, po avPartOptions) (*availability.Result, []availability.Point, error) {
	first := fams[0]
	for i, f := range fams {
		if f.N != first.N || f.H != first.H || f.Share != avShareNone && (f.Method != first.Method || f.Pieces != first.Pieces) {
			return nil, nil, fmt.Errorf("merge: shard %s and shard %s split level %d differently", parts[0].Shard, parts[i].Shard, first.H)
		}
	}
	var res *availability.Result
	var pts []availability.Point
	switch first.Share {
	case avShareWhole, avShareNone:
		if first.Share != avShareWhole {
			return nil, nil, fmt.Errorf("merge: shard %s should hold the whole result and does not", parts[0].Shard)
		}
		for i, f := range fams[1:] {
			if f.Share != avShareNone {
				return nil, nil, fmt.Errorf("merge: shard %s holds a share %q where shard 1 holds the whole result", parts[i+1].Shard, f.Share)
			}
		}
		if first.Exact {
			p, err := parsePoly(first.N, first.Coefficients)
			if err != nil {
				return nil, nil, fmt.Errorf("merge: shard %s: %v", parts[0].Shard, err)
			}
			res = availability.ExactResult(nil, availability.Method(first.Method), p)
			break
		}
		return mergeAvEstimate(parts[:1], fams[:1])
	case avSharePieces:
		sum := availability.NewPolynomial(first.N)
		for i, f := range fams {
			if f.Share != avSharePieces {
				return nil, nil, fmt.Errorf("merge: shard %s holds a share %q, shard %s pieces", parts[i].Shard, f.Share, parts[0].Shard)
			}
			if !f.Exact {
				return nil, nil, fmt.Errorf("merge: shard %s did not finish its pieces: %s; run it again (with --checkpoint it resumes), raise --max-nodes or --exact-time, or split it with --method estimate", parts[i].Shard, f.Reason)
			}
			p, err := parsePoly(first.N, f.Coefficients)
			if err != nil {
				return nil, nil, fmt.Errorf("merge: shard %s: %v", parts[i].Shard, err)
			}
			sum.Add(p)
		}
		res = availability.ExactResult(nil, availability.Method(first.Method), sum)
	case avShareSamples:
		return mergeAvEstimate(parts, fams)
	default:
		return nil, nil, fmt.Errorf("merge: shard %s: unknown share %q", parts[0].Shard, first.Share)
	}
	pts, err := res.Evaluate(ctx, po.Points, availability.EvalOptions{})
	if err != nil {
		return nil, nil, err
	}
	return res, pts, nil
}

// mergeAvEstimate adds up the shares of an estimate.
func mergeAvEstimate(parts []*shard.Part, fams []avPartFamily) (*availability.Result, []availability.Point, error) {
	first := fams[0]
	if first.Proved == nil {
		return nil, nil, fmt.Errorf("merge: shard %s: no proved coefficients", parts[0].Shard)
	}
	proved, _ := json.Marshal(first.Proved)
	for i, f := range fams {
		if f.Share != first.Share || len(f.Points) != len(first.Points) || f.Proved == nil {
			return nil, nil, fmt.Errorf("merge: shard %s and shard %s hold different shares", parts[0].Shard, parts[i].Shard)
		}
		if other, _ := json.Marshal(f.Proved); !bytes.Equal(other, proved) || f.Reason != first.Reason {
			return nil, nil, fmt.Errorf("merge: shard %s and shard %s proved different things", parts[0].Shard, parts[i].Shard)
		}
	}
	pts := make([]availability.Point, len(first.Points))
	for k, pt := range first.Points {
		shares := make([]availability.Estimate, len(fams))
		for i, f := range fams {
			q := f.Points[k]
			if q.P != pt.P || q.Seed != pt.Seed || q.Hits < 0 || q.Samples < 0 || q.Hits > q.Samples {
				return nil, nil, fmt.Errorf("merge: shard %s: point %d does not match shard %s", parts[i].Shard, k+1, parts[0].Shard)
			}
			shares[i] = availability.Estimate{Hits: q.Hits, Samples: q.Samples, Seed: q.Seed}
		}
		e := availability.MergeEstimates(shares...)
		pts[k] = availability.Point{P: pt.P, AV: e.Value, Estimate: &e, Lo: pt.Lo, Hi: pt.Hi}
	}
	return availability.PartialResult(first.Proved, first.Reason), pts, nil
}

// writeCheckpoint rewrites the checkpoint file at path with ck as JSON: a
// temporary file in the same folder, synced, then renamed over the old
// one, so a stop at any moment leaves the old checkpoint or the new one.
func writeCheckpoint(path string, ck any) error {
	data, err := json.MarshalIndent(ck, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".checkpoint-*")
	if err != nil {
		return fmt.Errorf("checkpoint %s: %v", path, unwrapPath(err))
	}
	_, err = tmp.Write(append(data, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("checkpoint %s: %v", path, unwrapPath(err))
	}
	return nil
}
