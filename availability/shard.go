package availability

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// A computation split across shards (see package shard) gives, for each
// family, one [Share] per shard; [MergeShares] puts the shares of every
// shard together into the result of the unsplit computation. How a family
// is shared depends on how it is computed:
//
//   - an exact polynomial by BDD ([Splittable]) is cut into the pieces of
//     [SplitBits](n, N) split nodes; shard I sums its pieces (ShareKind
//     SharePieces) and the merge adds the sums;
//   - the lines of a projective plane of order 8 (the plane sweep, which
//     takes long) are cut into the pieces of [PlanePieces]: shard I sums
//     the counts of its pieces (SharePieces, MethodPlane), and the merge
//     adds the sums and turns them into the polynomial;
//   - a Monte Carlo estimate (MethodEstimate) is cut into the shares of
//     its samples ([EstimateShare]); the merge adds hits and samples;
//   - anything else (closed forms) is not split: shard 1 carries the whole
//     result (ShareWhole), the others nothing (ShareNone).
//
// The pieces of a family can also be saved as they are done and resumed
// (a [Checkpoint]), whether the run is split or not.

// ShareKind says how a [Share] holds its part of a family's result.
type ShareKind string

// The kinds of shares.
const (
	ShareWhole   ShareKind = "whole"   // the whole result
	ShareNone    ShareKind = "none"    // nothing: another shard holds the whole result
	SharePieces  ShareKind = "pieces"  // the sum of the shard's pieces of the BDD computation
	ShareSamples ShareKind = "samples" // the shard's share of the Monte Carlo samples
)

// Share is one shard's share of the availability of one family (one
// level H of an (h,k)-arbiter).
type Share struct {
	H, N   int
	Kind   ShareKind
	Method Method
	// Exact says whether the share is exact; a SharePieces share that is
	// not (a budget or a time limit stopped it) cannot be merged.
	Exact bool
	// Reason says why the share is not exact.
	Reason string
	// Pieces is the number of pieces of the split (SharePieces) and
	// PiecesDone how many of this shard's are summed in Poly. Split is
	// the [Split.ID] of the pieces ("" in a share made before splits were
	// named): shares merge only when theirs are the same.
	Pieces, PiecesDone int
	Split              string
	// Poly is the exact polynomial (ShareWhole, Exact) or the sum of the
	// pieces done (SharePieces).
	Poly *Polynomial
	// Proved and Points are what an inexact share proved and its share of
	// the estimate at each p (Estimate holds the hits, samples and seed;
	// Lo and Hi the proved bounds).
	Proved *Partial
	Points []Point
}

// ShareOptions are the options of [ComputeShare].
type ShareOptions struct {
	// Options are those of [Compute]; Time bounds the search for an exact
	// result of a family split into pieces as well.
	Options
	// Points are the probabilities at which an inexact result is
	// estimated, with Samples and Seed (see [EvalOptions]).
	Points  []float64
	Samples int
	Seed    uint64
	// Checkpoint, if not nil, holds the pieces of family Family done by
	// earlier runs: they are not done again, and Save (if not nil) is
	// called with the checkpoint after each new piece.
	Checkpoint *Checkpoint
	Family     int
	Save       func(*Checkpoint) error
	// Compute, if not nil, computes a family that is not split in place
	// of [Compute] (a caller that wants to show progress its own way).
	Compute func(context.Context, *set.Family, Options) (*Result, error)
	// Explain, if not nil, words the reason of an inexact result from its
	// Reason and Cause; ExplainStop, the reason of pieces a budget or
	// Time stopped. Without them the reasons are Reason and the stop's
	// Error.
	Explain     func(reason string, cause Cause) string
	ExplainStop func(*PiecesStopped) string
}

func (o *ShareOptions) explain(res *Result) string {
	if o.Explain == nil {
		return res.Reason
	}
	return o.Explain(res.Reason, res.Cause)
}

func (o *ShareOptions) compute(ctx context.Context, f *set.Family, opts Options) (*Result, error) {
	if o.Compute != nil {
		return o.Compute(ctx, f, opts)
	}
	return Compute(ctx, f, opts)
}

// ComputeShare works out shard sp's share of the availability of f (see
// [Share]). A piece that a budget or o.Time stops makes an inexact share
// of kind SharePieces, without an error; a cancelled ctx or a failed save
// of the checkpoint returns the error (a *[PiecesStopped] for pieces
// interrupted, saying how many were done).
func ComputeShare(ctx context.Context, f *set.Family, sp shard.Spec, o ShareOptions) (*Share, error) {
	sh := &Share{H: f.H, N: f.N}
	switch {
	case o.Method == MethodEstimate && construct.ThresholdForm(f) == nil:
		res, err := Compute(ctx, f, Options{Method: o.Method})
		if err != nil {
			return nil, err
		}
		if res.Exact {
			// What is proved is every coefficient: the same in every shard.
			sh.Kind, sh.Method, sh.Exact = ShareWhole, res.Method, true
			if sp.Index != 1 {
				sh.Kind = ShareNone
				return sh, nil
			}
			sh.Poly = res.Poly
			return sh, nil
		}
		pts, err := res.Evaluate(ctx, o.Points, EvalOptions{Samples: o.Samples, Seed: o.Seed, Budget: o.Budget, Shard: sp.Index, Shards: sp.Count})
		if err != nil {
			return nil, err
		}
		sh.Kind, sh.Method, sh.Reason, sh.Proved, sh.Points = ShareSamples, MethodEstimate, o.explain(res), res.Partial, pts
		return sh, nil
	case o.Method == MethodAuto && planeSplittable(f):
		return planeShare(ctx, f, sp, &o)
	case SplittableContext(ctx, f, o.Method):
		bits := SplitBits(f.N, sp.Count)
		sh.Kind, sh.Method, sh.Pieces = SharePieces, MethodBDD, 1<<bits
		state, err := runShardPieces(ctx, f, bits, sp, &o)
		if err != nil {
			if sh.Reason, err = stoppedReason(err, &o); err != nil {
				return nil, err
			}
		} else {
			sh.Exact = true
		}
		sh.PiecesDone, sh.Split, sh.Poly = len(state.Done), state.Split, state.Sum
		return sh, nil
	}
	// Not split: shard 1 does it all.
	if sp.Index != 1 {
		sh.Kind = ShareNone
		return sh, nil
	}
	res, err := o.compute(ctx, f, o.Options)
	if err != nil {
		return nil, err
	}
	sh.Kind, sh.Method, sh.Exact = ShareWhole, res.Method, res.Exact
	if res.Exact {
		sh.Poly = res.Poly
		return sh, nil
	}
	pts, err := res.Evaluate(ctx, o.Points, EvalOptions{Samples: o.Samples, Seed: o.Seed, Budget: o.Budget})
	if err != nil {
		return nil, err
	}
	sh.Method, sh.Reason, sh.Proved, sh.Points = MethodEstimate, o.explain(res), res.Partial, pts
	return sh, nil
}

// ComputeResumable computes the exact polynomial of f, a family that
// [Splittable] accepts, piece by piece from o.Checkpoint (see
// [ComputeShare]): the result an uninterrupted [Compute] by BDD gives,
// or, for a projective plane of order 8 and o.Method auto, by the plane
// sweep (its pieces are those of one shard of [ComputeShare]). When a
// budget or o.Time stops a piece it returns what [Settle] proves, with
// the stop's reason (o.ExplainStop).
func ComputeResumable(ctx context.Context, f *set.Family, o ShareOptions) (*Result, error) {
	var err error
	if o.Method == MethodAuto && planeSplittable(f) {
		var r *Result
		if r, _, err = planeResumable(ctx, f, &o); err == nil {
			return r, nil
		}
	} else {
		var state *PieceState
		state, err = runShardPieces(ctx, f, SplitBits(f.N, 1), shard.Spec{Index: 1, Count: 1}, &o)
		if err == nil {
			return ExactResult(f, MethodBDD, state.Sum), nil
		}
	}
	var stop *PiecesStopped
	if !errors.As(err, &stop) || stop.Interrupted {
		return nil, err
	}
	reason := stop.Error()
	if o.ExplainStop != nil {
		reason = o.ExplainStop(stop)
	}
	if stop.Plane > 0 {
		if err := f.Validate(); err != nil {
			return nil, fmt.Errorf("availability: %w", err)
		}
		return settle(ctx, &Result{N: f.N, f: f}, reason, stop.Cause)
	}
	return Settle(ctx, f, reason)
}

// planeResumable is [ComputeResumable] for a projective plane: the
// pieces of the plane sweep of one shard of one.
func planeResumable(ctx context.Context, f *set.Family, o *ShareOptions) (*Result, *PieceState, error) {
	q, _ := planeOrder(f)
	state, err := planeRun(ctx, f, q, min(SplitBits(f.N, 1), 10), shard.Spec{Index: 1, Count: 1}, o)
	if err != nil {
		return nil, state, err
	}
	p, err := planeFromShares(state.Sum)
	if err != nil {
		return nil, state, fmt.Errorf("availability: %w", err)
	}
	r := ExactResult(f, MethodPlane, p)
	r.noBDD = true // as the unsplit sweep's: its BDD is out of reach
	return r, state, nil
}

// PiecesStopped is the error of a split computation that stopped before
// every piece of its shard was done: Done of Owned pieces are summed (and
// saved, with a checkpoint). Interrupted says that ctx stopped it (Err is
// then the context's error); otherwise a budget did: Cause is CauseBudget
// (the node budget, Err wrapping [ErrBudget], or Time when Time is not
// zero) or CauseMemory (Err wrapping [set.ErrMemoryBudget]). Plane is the
// order of the projective plane whose sweep was split (then Cause is
// CauseTime when Time stopped it), 0 for pieces of a BDD.
type PiecesStopped struct {
	Interrupted bool
	Cause       Cause
	Time        time.Duration
	Err         error
	Done, Owned int
	Plane       int
}

func (e *PiecesStopped) Error() string {
	switch {
	case e.Interrupted:
		return e.Err.Error()
	case e.Time > 0 && e.Plane > 0:
		return fmt.Sprintf("the plane sweep of order %d did not finish within %s: %d of %d pieces done", e.Plane, e.Time, e.Done, e.Owned)
	case e.Time > 0:
		return fmt.Sprintf("no BDD within %s: %d of %d pieces done", e.Time, e.Done, e.Owned)
	}
	return fmt.Sprintf("%v: %d of %d pieces done", e.Err, e.Done, e.Owned)
}

func (e *PiecesStopped) Unwrap() error { return e.Err }

// runShardPieces computes shard sp's pieces of f under o.Time, resuming
// from and saving to o.Checkpoint. A stop returns the state so far with
// a *PiecesStopped (or the error of a save).
func runShardPieces(ctx context.Context, f *set.Family, bits int, sp shard.Spec, o *ShareOptions) (*PieceState, error) {
	var state *PieceState
	if o.Checkpoint != nil {
		var err error
		if state, err = o.Checkpoint.State(o.Family, f.N, bits); err != nil {
			return nil, err
		}
	}
	bctx := ctx
	if o.Time > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeout(ctx, o.Time)
		defer cancel()
	}
	var save func(*PieceState) error
	if o.Checkpoint != nil {
		save = func(st *PieceState) error {
			o.Checkpoint.Record(o.Family, st)
			if o.Save == nil {
				return nil
			}
			return o.Save(o.Checkpoint)
		}
	}
	popts := Options{Budget: o.Budget, Progress: o.Progress, MaxMemory: o.MaxMemory}
	state, err := RunPieces(bctx, f, bits, sp.Owns, state, popts, save)
	if err == nil {
		return state, nil
	}
	if state == nil {
		return nil, err
	}
	stop := &PiecesStopped{Err: err, Done: len(state.Done), Owned: sp.Owned(1 << bits)}
	switch {
	case ctx.Err() != nil:
		stop.Interrupted = true
	case bctx.Err() != nil && errors.Is(err, context.DeadlineExceeded):
		stop.Cause, stop.Time = CauseBudget, o.Time
	case errors.Is(err, ErrBudget):
		stop.Cause = CauseBudget
	case errors.Is(err, set.ErrMemoryBudget):
		stop.Cause = CauseMemory
	default:
		return state, err
	}
	return state, stop
}

// Checkpoint is the saved progress of the split families of one input:
// the pieces done of each, and their sum, in the order the families were
// first saved.
type Checkpoint struct {
	Families []CheckpointFamily
}

// CheckpointFamily is the progress of family Family (its index in
// [set.System.Families]).
type CheckpointFamily struct {
	Family int
	State  *PieceState
}

// State returns the saved pieces of family fi, nil if none; a state that
// does not fit a family of n nodes split into 2^bits pieces is refused.
func (ck *Checkpoint) State(fi, n, bits int) (*PieceState, error) {
	for _, f := range ck.Families {
		if f.Family != fi {
			continue
		}
		st := f.State
		if st.Bits != bits {
			return nil, &CheckpointMismatch{Family: fi, Msg: fmt.Sprintf("split into %d pieces, this run into %d", 1<<st.Bits, 1<<bits)}
		}
		if st.Sum == nil || st.Sum.N != n {
			return nil, &CheckpointMismatch{Family: fi, Msg: fmt.Sprintf("not a polynomial over %d nodes", n)}
		}
		done := slices.Clone(st.Done)
		slices.Sort(done)
		if len(slices.Compact(slices.Clone(done))) != len(done) || len(done) > 0 && (done[0] < 0 || done[len(done)-1] >= 1<<bits) {
			return nil, &CheckpointMismatch{Family: fi, Msg: "bad list of pieces done"}
		}
		return &PieceState{Bits: bits, Split: st.Split, Done: done, Sum: st.Sum.Clone()}, nil
	}
	return nil, nil
}

// CheckpointMismatch is the error of a checkpoint whose saved pieces of
// family Family (0-based) do not fit this run: Msg says how.
type CheckpointMismatch struct {
	Family int
	Msg    string
}

func (e *CheckpointMismatch) Error() string {
	return fmt.Sprintf("checkpoint: family %d: %s", e.Family+1, e.Msg)
}

// Record sets the progress of family fi to a copy of st.
func (ck *Checkpoint) Record(fi int, st *PieceState) {
	f := CheckpointFamily{Family: fi, State: &PieceState{Bits: st.Bits, Split: st.Split, Done: slices.Clone(st.Done), Sum: st.Sum.Clone()}}
	i := slices.IndexFunc(ck.Families, func(g CheckpointFamily) bool { return g.Family == fi })
	if i < 0 {
		ck.Families = append(ck.Families, f)
	} else {
		ck.Families[i] = f
	}
}

// MergeError is why shares cannot be merged: parts of other splits,
// unfinished or inconsistent. Shard is the shard at fault (0 when no one
// is), Unfinished says that it did not finish its pieces (Reason says
// why).
type MergeError struct {
	Shard      shard.Spec
	Unfinished bool
	Reason     string
	msg        string
}

func (e *MergeError) Error() string { return "availability: merge: " + e.msg }

// Msg is the error without the package's prefix.
func (e *MergeError) Msg() string { return e.msg }

// MergeShares puts together the shares of one family, one per shard in
// shard order (as [shard.Check] returns them), into the result of the
// unsplit computation and its values at the given points (which must be
// those the shares were computed for). Shares of other splits, unfinished
// or inconsistent ones are refused with a *[MergeError].
func MergeShares(ctx context.Context, shares []*Share, points []float64) (*Result, []Point, error) {
	if len(shares) == 0 {
		return nil, nil, &MergeError{msg: "no shares"}
	}
	n := len(shares)
	spec := func(i int) shard.Spec { return shard.Spec{Index: i + 1, Count: n} }
	bad := func(i int, format string, args ...any) error {
		return &MergeError{Shard: spec(i), msg: fmt.Sprintf(format, args...)}
	}
	first := shares[0]
	for i, f := range shares {
		if f.N != first.N || f.H != first.H || f.Kind != ShareNone && (f.Method != first.Method || f.Pieces != first.Pieces || f.Split != first.Split) {
			return nil, nil, bad(i, "shard %s and shard %s split level %d differently", spec(0), spec(i), first.H)
		}
	}
	var res *Result
	switch first.Kind {
	case ShareWhole, ShareNone:
		if first.Kind != ShareWhole {
			return nil, nil, bad(0, "shard %s should hold the whole result and does not", spec(0))
		}
		for i, f := range shares[1:] {
			if f.Kind != ShareNone {
				return nil, nil, bad(i+1, "shard %s holds a share %q where shard 1 holds the whole result", spec(i+1), f.Kind)
			}
		}
		if !first.Exact {
			return mergeEstimate(shares[:1], n)
		}
		if first.Poly == nil || first.Poly.N != first.N {
			return nil, nil, bad(0, "shard %s: no polynomial over %d nodes", spec(0), first.N)
		}
		res = ExactResult(nil, first.Method, first.Poly)
	case SharePieces:
		sum := NewPolynomial(first.N)
		for i, f := range shares {
			if f.Kind != SharePieces {
				return nil, nil, bad(i, "shard %s holds a share %q, shard %s pieces", spec(i), f.Kind, spec(0))
			}
			if !f.Exact {
				return nil, nil, &MergeError{Shard: spec(i), Unfinished: true, Reason: f.Reason,
					msg: fmt.Sprintf("shard %s did not finish its pieces: %s", spec(i), f.Reason)}
			}
			if f.Poly == nil || f.Poly.N != first.N {
				return nil, nil, bad(i, "shard %s: no polynomial over %d nodes", spec(i), first.N)
			}
			if owned := spec(i).Owned(f.Pieces); f.PiecesDone != owned {
				return nil, nil, bad(i, "shard %s summed %d pieces, and shard %s of %d pieces owns %d", spec(i), f.PiecesDone, spec(i), f.Pieces, owned)
			}
			sum.Add(f.Poly)
		}
		if first.Method == MethodPlane {
			p, err := planeFromShares(sum)
			if err != nil {
				return nil, nil, bad(0, "%v", err)
			}
			sum = p
		}
		res = ExactResult(nil, first.Method, sum)
	case ShareSamples:
		return mergeEstimate(shares, n)
	default:
		return nil, nil, bad(0, "shard %s: unknown share %q", spec(0), first.Kind)
	}
	pts, err := res.Evaluate(ctx, points, EvalOptions{})
	if err != nil {
		return nil, nil, err
	}
	return res, pts, nil
}

// mergeEstimate adds up the shares of an estimate (the first shares of
// n shards).
func mergeEstimate(shares []*Share, n int) (*Result, []Point, error) {
	spec := func(i int) shard.Spec { return shard.Spec{Index: i + 1, Count: n} }
	bad := func(i int, format string, args ...any) error {
		return &MergeError{Shard: spec(i), msg: fmt.Sprintf(format, args...)}
	}
	first := shares[0]
	if first.Proved == nil {
		return nil, nil, bad(0, "shard %s: no proved coefficients", spec(0))
	}
	for i, f := range shares {
		if f.Kind != first.Kind || len(f.Points) != len(first.Points) || f.Proved == nil {
			return nil, nil, bad(i, "shard %s and shard %s hold different shares", spec(0), spec(i))
		}
		if !f.Proved.Equal(first.Proved) || f.Reason != first.Reason {
			return nil, nil, bad(i, "shard %s and shard %s proved different things", spec(0), spec(i))
		}
	}
	pts := make([]Point, len(first.Points))
	for k, pt := range first.Points {
		parts := make([]Estimate, len(shares))
		for i, f := range shares {
			q := f.Points[k]
			if q.Estimate == nil || pt.Estimate == nil || q.P != pt.P || q.Estimate.Seed != pt.Estimate.Seed ||
				q.Estimate.Hits < 0 || q.Estimate.Samples < 0 || q.Estimate.Hits > q.Estimate.Samples {
				return nil, nil, bad(i, "shard %s: point %d does not match shard %s", spec(i), k+1, spec(0))
			}
			parts[i] = Estimate{Hits: q.Estimate.Hits, Samples: q.Estimate.Samples, Seed: q.Estimate.Seed}
		}
		e := MergeEstimates(parts...)
		pts[k] = Point{P: pt.P, AV: e.Value, Estimate: &e, Lo: pt.Lo, Hi: pt.Hi}
	}
	return PartialResult(first.Proved, first.Reason), pts, nil
}

// stoppedReason is why a share of pieces stopped short, which its part
// keeps: o.ExplainStop's words for the stop, or the stop's own. err is
// returned when it is not such a stop (a *[PiecesStopped]) or when the run
// was interrupted, which keeps no part.
func stoppedReason(err error, o *ShareOptions) (string, error) {
	var stop *PiecesStopped
	if !errors.As(err, &stop) || stop.Interrupted {
		return "", err
	}
	if o.ExplainStop != nil {
		return o.ExplainStop(stop), nil
	}
	return stop.Error(), nil
}
