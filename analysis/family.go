package analysis

import (
	"context"
	"errors"
	"math"
	"math/big"
	"time"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// Figure names a figure that may take long, and so may be missing.
type Figure int

// The figures of a family, in the order [Measure] computes them.
const (
	Load         Figure = iota + 1 // load, capacity, network load and strategy
	Resilience                     // the smallest transversal
	Byzantine                      // the largest b of b-masking and b-dissemination
	Availability                   // AV(p) at Options.Points
)

// String names the figure as the progress hook is told it.
func (f Figure) String() string {
	switch f {
	case Load:
		return "load"
	case Resilience:
		return "resilience"
	case Byzantine:
		return "byzantine"
	case Availability:
		return "availability"
	case ReadResilience:
		return "read resilience"
	case WriteResilience:
		return "write resilience"
	case DomainResilience:
		return "domain resilience"
	case Intersection:
		return "intersection"
	case Strategy:
		return "strategy"
	case Quorums:
		return "quorums"
	}
	return "figure"
}

// Reason says what became of a figure.
type Reason int

// The reasons of a [Status].
const (
	// Computed: the figure is there (possibly as proved bounds, which
	// the figure itself says).
	Computed Reason = iota
	// NotAsked: the options skipped it, it does not apply to the family
	// (the Byzantine figures of a k-arbiter), or the measure stopped
	// before it.
	NotAsked
	// OutOfBudget: not found within Options.Budget.
	OutOfBudget
	// Stopped: the context ended while it was being computed.
	Stopped
	// Unsupported: the method refuses the family; Detail says why.
	Unsupported
	// TooLarge: the family has more quorums than the figure is computed
	// for ([MaxByzantineQuorums]).
	TooLarge
	// WorkLimit: the search ran past its work limit; Detail says which.
	WorkLimit
	// OverMemory: the figure needs more than Options.MaxMemory.
	OverMemory
)

// Status is what became of one figure.
type Status struct {
	Reason Reason
	// Detail is the library's own words where the Reason needs them
	// (Unsupported, WorkLimit, and OutOfBudget of the Byzantine search).
	Detail string
}

// MaxByzantineQuorums bounds the explicit families whose Byzantine
// figures are computed: finding the smallest intersection costs m²/2
// intersections for m quorums.
const MaxByzantineQuorums = 1 << 12

// ByzantineBounds are the largest b for which a quorum system is a
// b-masking system and a b-dissemination system (Malkhi and Reiter),
// each −1 when there is none.
type ByzantineBounds struct {
	Masking, Dissemination int
}

// Point is the availability at one p.
type Point struct {
	P, AV float64
	// U is 1 − AV, from the exact polynomial when Exact and no node has a
	// probability of its own.
	U     *big.Float
	Exact bool
}

// Family is the figures of one family: a coterie, a k-arbiter, or one
// level of an (h,k)-arbiter.
type Family struct {
	F        *set.Family
	Stats    set.Stats
	Messages measure.Messages

	// Load is nil unless LoadStatus is Computed; Load.Method is
	// measure.MethodBounds when only proved bounds were found.
	Load       *measure.Load
	LoadStatus Status
	// Resilience is nil unless ResilienceStatus is Computed;
	// Resilience.Bounded when only proved bounds were found.
	Resilience       *measure.Resilience
	ResilienceStatus Status
	// Byzantine is nil unless ByzantineStatus is Computed.
	Byzantine       *ByzantineBounds
	ByzantineStatus Status
	// Availability holds AV at each of Options.Points; when the context
	// ended during it (Stopped), the points found before.
	Availability       []Point
	AvailabilityStatus Status
}

// Options control [Measure] and [MeasureFamily].
type Options struct {
	// Budget bounds each figure; a figure not found in time is left out
	// with the status OutOfBudget. 0 means no limit: the load and the
	// resilience then end in proved bounds past fixed work limits, so
	// that the answer is the same on a slow machine and a fast one.
	Budget time.Duration
	// StrictBudget leaves out a load or resilience whose budget (or
	// context) has run out before it starts, even one a formula would give
	// at once (info and compare); without it such a figure is given
	// whatever the budget (report).
	StrictBudget bool
	// NoLoad, NoResilience and NoByzantine skip those figures.
	NoLoad, NoResilience, NoByzantine bool
	// ExactResilience searches for the smallest transversal without a
	// work limit (measure.ResilienceOf) instead of ending in bounds
	// (measure.ResilienceWithin).
	ExactResilience bool
	// Points are the p at which the availability is given; none when
	// empty.
	Points []float64
	// Override gives some nodes (0-based) their own probability in place
	// of p, as availability.EvalOptions.Override.
	Override map[int]float64
	// Progress, if not nil, is told the name of each figure as it starts
	// (Figure.String), with done 0 and total −1.
	Progress set.Progress
	// MaxMemory bounds the bytes of the availability's exact methods (0 =
	// none); past it the availability is left out, status OverMemory.
	MaxMemory int64
}

func (o Options) stage(f Figure) {
	if o.Progress != nil {
		o.Progress(f.String(), 0, -1)
	}
}

// within runs fn under ctx bounded by the budget. With check (and
// StrictBudget), a context or budget ended already returns its error
// without running fn: some figures come from formulas that would not look
// at it.
func (o Options) within(ctx context.Context, check bool, fn func(context.Context) error) error {
	c := ctx
	if o.Budget > 0 {
		var cancel context.CancelFunc
		c, cancel = context.WithTimeout(ctx, o.Budget)
		defer cancel()
	}
	if err := c.Err(); check && o.StrictBudget && err != nil {
		return err
	}
	return fn(c)
}

// NewFamily returns the figures of f that cost nothing: its statistics
// and messages per entry. The others are NotAsked.
func NewFamily(f *set.Family) Family {
	fa, _ := newFamily(context.Background(), f)
	return fa
}

// newFamily is NewFamily watching ctx: the statistics of a threshold
// over millions of nodes are binomials of millions of digits.
func newFamily(ctx context.Context, f *set.Family) (Family, error) {
	st, err := f.StatsContext(ctx)
	if err != nil {
		return Family{}, err
	}
	na := Status{Reason: NotAsked}
	return Family{F: f, Stats: st, Messages: measure.MessagesOf(f),
		LoadStatus: na, ResilienceStatus: na, ByzantineStatus: na, AvailabilityStatus: na}, nil
}

// FigureError is a failure of one figure (not its budget running out, nor
// a refusal that a [Status] reports). Its message is Err's.
type FigureError struct {
	Figure Figure
	Err    error
}

func (e *FigureError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *FigureError) Unwrap() error { return e.Err }

// MeasureFamily returns the figures of f: load, resilience and the
// Byzantine figures (not the availability; see [Family.MeasureAvailability]).
// A figure that runs out of its budget, or that its method refuses, is
// left out with a Status saying why. When ctx ends, the figures found so
// far are returned with ctx's error, the one being computed Stopped. Any
// other failure is a *[FigureError] and no result.
func MeasureFamily(ctx context.Context, f *set.Family, o Options) (*Family, error) {
	fa, err := newFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	_, err = fa.measure(ctx, o)
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	return &fa, err
}

// measure fills in load, resilience and the Byzantine figures; stopped is
// the figure computed when ctx ended, and the error a *FigureError.
func (fa *Family) measure(ctx context.Context, o Options) (stopped Figure, err error) {
	defer func() {
		if err != nil {
			err = &FigureError{Figure: stopped, Err: err}
		}
	}()
	f := fa.F
	// A figure that ran out of its own budget is a status; the caller's
	// context ending stops the measure.
	outOfBudget := func(err error) bool { return ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) }
	if !o.NoLoad {
		o.stage(Load)
		err := o.within(ctx, true, func(c context.Context) error {
			l, err := measure.LoadOf(c, f, measure.LoadOptions{})
			if err == nil {
				fa.Load = l
			}
			return err
		})
		var me *measure.Error
		switch {
		case err == nil:
			fa.LoadStatus = Status{}
		case errors.As(err, &me):
			fa.LoadStatus = Status{Reason: Unsupported, Detail: me.Msg}
		case outOfBudget(err):
			fa.LoadStatus = Status{Reason: OutOfBudget}
		case ctx.Err() != nil:
			fa.LoadStatus = Status{Reason: Stopped}
			return Load, err
		default:
			return Load, err
		}
	}
	if !o.NoResilience {
		o.stage(Resilience)
		err := o.within(ctx, true, func(c context.Context) error {
			var r *measure.Resilience
			var err error
			if o.ExactResilience {
				r, err = measure.ResilienceOf(c, f)
			} else {
				r, err = measure.ResilienceWithin(c, f, measure.ResilienceOptions{Load: fa.Load})
			}
			if err == nil {
				fa.Resilience = r
			}
			return err
		})
		switch {
		case err == nil:
			fa.ResilienceStatus = Status{}
		case outOfBudget(err):
			fa.ResilienceStatus = Status{Reason: OutOfBudget}
		case ctx.Err() != nil:
			fa.ResilienceStatus = Status{Reason: Stopped}
			return Resilience, err
		default:
			return Resilience, err
		}
	}
	if o.NoByzantine || f.K != 1 {
		return 0, nil
	}
	// Too many listed quorums to search; a family held by its rule or its
	// construction lists none here, and verify lists or answers it.
	if len(f.Quorums) > MaxByzantineQuorums {
		fa.ByzantineStatus = Status{Reason: TooLarge}
		return 0, nil
	}
	o.stage(Byzantine)
	var b ByzantineBounds
	err = o.within(ctx, false, func(c context.Context) error {
		var err error
		b.Masking, b.Dissemination, err = verify.ByzantineMax(c, f)
		return err
	})
	switch {
	case err == nil:
		fa.Byzantine, fa.ByzantineStatus = &b, Status{}
	case errors.Is(err, verify.ErrSearchLimit), outOfBudget(err):
		msg := err.Error()
		var ve *verify.Error
		if errors.As(err, &ve) {
			msg = ve.Msg
		}
		fa.ByzantineStatus = Status{Reason: WorkLimit, Detail: msg}
		if !errors.Is(err, verify.ErrSearchLimit) {
			fa.ByzantineStatus.Reason = OutOfBudget
		}
	case ctx.Err() != nil:
		fa.ByzantineStatus = Status{Reason: Stopped}
		return Byzantine, err
	default:
		return Byzantine, err
	}
	return 0, nil
}

// MeasureAvailability sets the availability of the family at each of
// o.Points (with o.Override), exactly where an exact method fits and by
// Monte Carlo estimate (seed 1) elsewhere, within o.Budget for the whole;
// out of budget it is left out, status OutOfBudget. When ctx ends the
// points found so far are kept, status Stopped, and ctx's error returned;
// errors are *[FigureError].
func (fa *Family) MeasureAvailability(ctx context.Context, o Options) error {
	if len(o.Points) == 0 {
		return nil
	}
	o.stage(Availability)
	c := ctx
	if o.Budget > 0 {
		var cancel context.CancelFunc
		c, cancel = context.WithTimeout(ctx, o.Budget)
		defer cancel()
	}
	fa.Availability = nil
	res, err := availability.Compute(c, fa.F, availability.Options{MaxMemory: o.MaxMemory})
	if err == nil {
		var pts []availability.Point
		pts, err = res.Evaluate(c, o.Points, availability.EvalOptions{Seed: 1, Override: o.Override})
		for _, pt := range pts {
			u := big.NewFloat(math.Max(0, 1-pt.AV))
			if pt.Exact && res.Exact && len(o.Override) == 0 {
				if u, err = res.Poly.UnavailabilityContext(c, pt.P); err != nil {
					break
				}
			}
			fa.Availability = append(fa.Availability, Point{P: pt.P, AV: pt.AV, Exact: pt.Exact, U: u})
		}
	}
	switch {
	case err == nil:
		fa.AvailabilityStatus = Status{}
		return nil
	case ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded):
		fa.Availability = nil
		fa.AvailabilityStatus = Status{Reason: OutOfBudget}
		return nil
	case ctx.Err() == nil && errors.Is(err, set.ErrMemoryBudget):
		fa.Availability = nil
		fa.AvailabilityStatus = Status{Reason: OverMemory, Detail: err.Error()}
		return nil
	case ctx.Err() != nil:
		fa.AvailabilityStatus = Status{Reason: Stopped}
	}
	return &FigureError{Figure: Availability, Err: err}
}
