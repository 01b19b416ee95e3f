package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
	"github.com/coterie-dev/coterie/shard/partfile"
)

// `availability --shard I/N` writes the part of kind "availability":
// availability.ComputeShare works out each family's share, and
// `coterie merge` puts them together with availability.MergeShares.
// --checkpoint saves the pieces done (availability.Checkpoint) and
// resumes from them. The files' JSON is package partfile's.

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
func inputHash(sys set.System) (string, error) { return partfile.InputHash(sys) }

func avPartOptionsOf(o availabilityOptions, name string, ps []float64, pointsGiven bool) partfile.AvailabilityOptions {
	return partfile.AvailabilityOptions{Name: name, Format: o.format, Points: ps, PointsGiven: pointsGiven, Polynomial: o.polynomial,
		Digits: o.digits, Method: o.method, Samples: o.samples, Seed: o.seed}
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

// avCheckpointer is --checkpoint of one run of availability: the file,
// and the progress of the input read from it.
type avCheckpointer struct {
	path string
	hash string
	sp   shard.Spec
	ck   *availability.Checkpoint
}

// loadAvCheckpoint reads the checkpoint at path, or starts one if there
// is no file; a file of another input or shard is refused.
func loadAvCheckpoint(path, hash string, sp shard.Spec) (*avCheckpointer, error) {
	ck, found, err := readCheckpoint(path, "availability", sp, func(data []byte) (*availability.Checkpoint, error) {
		return partfile.ReadAvailabilityCheckpoint(data, hash, sp)
	})
	if err != nil {
		return nil, err
	}
	if !found {
		ck = &availability.Checkpoint{}
	}
	return &avCheckpointer{path: path, hash: hash, sp: sp, ck: ck}, nil
}

func (c *avCheckpointer) save(ck *availability.Checkpoint) error {
	return writeCheckpoint(c.path, partfile.AvailabilityCheckpoint(c.hash, c.sp, ck))
}

// avShareOptions are the options of the share of fam (index fi) in
// shard sp, with its progress bars, reasons worded for the command's
// flags and --checkpoint; done clears the progress bar.
func avShareOptions(ctx context.Context, s *streams, name string, fam *set.Family, fi int, o availabilityOptions, m availability.Method, sp shard.Spec, ps []float64, ckp *avCheckpointer) (availability.ShareOptions, func()) {
	label := "availability: " + name + avLevelSuffix(fam)
	prog, done := avProgress(s, label)
	so := availability.ShareOptions{
		Options: availability.Options{Method: m, Budget: o.maxNodes, Time: o.exactTime, Progress: prog, MaxMemory: maxMemory(o.in.cmd)},
		Points:  ps, Samples: o.samples, Seed: o.seed, Family: fi,
		Compute: func(ctx context.Context, f *set.Family, opts availability.Options) (*availability.Result, error) {
			return computeAvFamilyPlain(ctx, s, name, f, opts.Method, opts.Budget, opts.Time, opts.MaxMemory)
		},
		Explain: avReasonOf,
		ExplainStop: func(stop *availability.PiecesStopped) string {
			return avStopNote(stop, ckp)
		},
	}
	if ckp != nil {
		so.Checkpoint, so.Save = ckp.ck, ckp.save
	}
	return so, done
}

// avPiecesDone says how far stopped pieces got, and where they are saved.
func avPiecesDone(stop *availability.PiecesStopped, ckp *avCheckpointer) string {
	saved := ""
	if ckp != nil {
		saved = fmt.Sprintf(" (saved in %s: run again to resume)", ckp.path)
	}
	return fmt.Sprintf("%d of %d pieces done%s", stop.Done, stop.Owned, saved)
}

// avStopNote is the reason of pieces a budget or --exact-time stopped.
func avStopNote(stop *availability.PiecesStopped, ckp *avCheckpointer) string {
	progress := avPiecesDone(stop, ckp)
	if stop.Time > 0 && stop.Plane > 0 {
		return fmt.Sprintf("the plane sweep of order %d did not finish within %s: %s", stop.Plane, stop.Time, progress)
	}
	if stop.Time > 0 {
		return fmt.Sprintf("no BDD within %s: %s", stop.Time, progress)
	}
	return fmt.Sprintf("%v: %s", stop.Err, progress)
}

// avPiecesErr prints the note of pieces an interrupt stopped, and wraps
// an error of fam's computation with its name.
func avPiecesErr(s *streams, name string, fam *set.Family, ckp *avCheckpointer, err error) error {
	var stop *availability.PiecesStopped
	if errors.As(err, &stop) && stop.Interrupted {
		fmt.Fprintf(s.err, "coterie: note: availability: %s%s: stopped with %s\n", name, avLevelSuffix(fam), avPiecesDone(stop, ckp))
	}
	var mm *availability.CheckpointMismatch
	if ckp != nil && errors.As(err, &mm) {
		return asInputError(ckp.path, 0, fmt.Sprintf("a checkpoint that does not fit this run: %s%s: family %d: %s (remove it or choose another --checkpoint file)", name, avLevelSuffix(fam), mm.Family+1, mm.Msg))
	}
	return fmt.Errorf("%s%s: %w", name, avLevelSuffix(fam), err)
}

// computeAvShard works out shard sp's share of every family of sys and
// prints the part.
func computeAvShard(ctx context.Context, s *streams, name string, sys set.System, m availability.Method, o availabilityOptions, sp shard.Spec, ps []float64, pointsGiven bool, hash string) error {
	var ckp *avCheckpointer
	r := partfile.AvailabilityResult{N: sys.N(), K: sys.K(), HK: sys.HK != nil}
	for fi, fam := range sys.Families() {
		if o.checkpoint != "" && ckp == nil && availability.SplittableContext(ctx, fam, m) {
			var err error
			if ckp, err = loadAvCheckpoint(o.checkpoint, hash, sp); err != nil {
				return fmt.Errorf("%s%s: %w", name, avLevelSuffix(fam), err)
			}
		}
		so, done := avShareOptions(ctx, s, name, fam, fi, o, m, sp, ps, ckp)
		sh, err := availability.ComputeShare(ctx, fam, sp, so)
		done()
		if err != nil {
			return avPiecesErr(s, name, fam, ckp, err)
		}
		r.Shares = append(r.Shares, sh)
	}
	p, err := partfile.AvailabilityPart(sp, hash, avPartOptionsOf(o, name, ps, pointsGiven), r)
	return writePartOut(s, p, err)
}

// computeAvCheckpointed is computeAvFamily for a family split into pieces
// saved to --checkpoint: the same result as an uninterrupted run; when a
// budget or --exact-time stops it, the proved coefficients, bounds and an
// estimate, as without a checkpoint.
func computeAvCheckpointed(ctx context.Context, s *streams, name string, fam *set.Family, fi int, o availabilityOptions, m availability.Method, ckp *avCheckpointer) (*availability.Result, error) {
	one := shard.Spec{Index: 1, Count: 1}
	so, done := avShareOptions(ctx, s, name, fam, fi, o, m, one, nil, ckp)
	explain := so.ExplainStop
	so.ExplainStop = func(stop *availability.PiecesStopped) string {
		if stop.Plane > 0 {
			// The result's cause (time or memory) says what to raise.
			return explain(stop)
		}
		return explain(stop) + "; raise --max-nodes or --exact-time, or rely on the bounds and estimate"
	}
	res, err := availability.ComputeResumable(ctx, fam, so)
	done()
	if err != nil {
		return nil, avPiecesErr(s, name, fam, ckp, err)
	}
	return res, nil
}

// mergeAvailability puts the parts together and prints the result as the
// unsplit command would.
func mergeAvailability(ctx context.Context, s *streams, parts []*shard.Part, asJSON bool) error {
	po, results, err := partfile.DecodeAvailability(parts)
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
		if r.N != first.N || r.K != first.K || r.HK != first.HK || len(r.Shares) != len(first.Shares) {
			return fmt.Errorf("merge: shard %s describes another system than shard %s", parts[i].Shard, parts[0].Shard)
		}
	}
	for fi := range first.Shares {
		shares := make([]*availability.Share, len(results))
		for i, r := range results {
			shares[i] = r.Shares[fi]
		}
		res, pts, err := availability.MergeShares(ctx, shares, po.Points)
		var me *availability.MergeError
		switch {
		case errors.As(err, &me) && me.Unfinished:
			return fmt.Errorf("merge: %s; run it again (with --checkpoint it resumes), raise --max-nodes or --exact-time, or split it with --method estimate", me.Msg())
		case errors.As(err, &me):
			return fmt.Errorf("merge: %s", me.Msg())
		case err != nil:
			return err
		}
		if !res.Exact {
			fmt.Fprintf(s.err, "coterie: note: %s%s: no exact result: %s; showing the proved coefficients, bounds and a Monte Carlo estimate (%d samples, seed %d)\n",
				po.Name, avHLabel(in.hk, shares[0].H), avReason(res), avSamplesOf(pts, po.Samples), po.Seed)
		}
		in.fams = append(in.fams, avFamily{h: shares[0].H, res: res, points: pts})
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
