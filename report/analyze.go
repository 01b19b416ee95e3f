package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// Options control [Analyze].
type Options struct {
	// Budget bounds each figure that may take long (load, resilience,
	// domination, the exact availability); a figure not found in time is
	// left out with a note. 0 means DefaultBudget.
	Budget time.Duration
	// Points are the p at which the availability table is given; nil
	// means DefaultPoints().
	Points []float64
	// Samples is the number of Monte Carlo samples per point where no
	// exact availability is found; 0 means 1<<14.
	Samples int
	// AvailabilityBudget, when positive, bounds the exact availability
	// instead of Budget (an interactive caller wants an estimate now
	// rather than the exact value later).
	AvailabilityBudget time.Duration
	// Progress, if not nil, is told the name of each stage as it starts:
	// "drawing", "verify", "load", "resilience", "domination",
	// "availability", "availability points" (with done 0 and total −1:
	// the work of a stage is not known in advance).
	Progress set.Progress
	// Override gives some nodes (0-based) their own probability in place
	// of p, as availability.EvalOptions.Override.
	Override map[int]float64
}

// DefaultBudget is the time each long figure may take by default.
const DefaultBudget = 2 * time.Second

// DefaultPoints returns the p of the availability table.
func DefaultPoints() []float64 { return []float64{0.5, 0.9, 0.99, 0.999} }

// curvePoints are the node nines −log10(1−p) of the availability curve:
// p from 0.5 to 0.999.
var curvePoints = func() []float64 {
	var ps []float64
	for x := math.Log10(2); x < 3.0001; x += 0.1 {
		ps = append(ps, 1-math.Pow(10, -x))
	}
	ps[len(ps)-1] = 0.999
	return ps
}()

// Family is the metrics of one family (a coterie, a k-arbiter or one level
// of an (h,k)-arbiter), as `coterie info` gives them.
type Family struct {
	F          *set.Family
	Stats      set.Stats
	Messages   measure.Messages
	Load       *measure.Load       // nil if not computed
	Resilience *measure.Resilience // nil if not computed
	Notes      []string
}

// newFamily is the report's metrics of the family measured as fa; a
// figure not found within budget is a note.
func newFamily(fa *analysis.Family, budget time.Duration) Family {
	fam := Family{F: fa.F, Stats: fa.Stats, Messages: fa.Messages, Load: fa.Load, Resilience: fa.Resilience}
	switch fa.LoadStatus.Reason {
	case analysis.Unsupported:
		fam.Notes = append(fam.Notes, "load: "+fa.LoadStatus.Detail+"; not computed")
	case analysis.OutOfBudget:
		fam.Notes = append(fam.Notes, fmt.Sprintf("load: not found within %s", budget))
	}
	if fa.ResilienceStatus.Reason == analysis.OutOfBudget {
		fam.Notes = append(fam.Notes, fmt.Sprintf("resilience: not found within %s", budget))
	}
	return fam
}

// Point is the availability at one p.
type Point struct {
	P, AV float64
	// U is 1 − AV, from the exact polynomial when Exact.
	U     *big.Float
	Exact bool
}

// System is everything the report says about one system.
type System struct {
	Name string
	Sys  set.System
	// Verify is the verification of the whole system.
	Verify *verify.Report
	// Families are the metrics of the system (one per level of an
	// (h,k)-arbiter).
	Families []Family
	// Domination is the verdict on the first family; nil with a note in
	// DominationNote when it was not decided.
	Domination     *domination.Result
	DominationNote string
	// Availability of the first family: the method, and the table and
	// curve points.
	AvMethod string
	AvExact  bool
	Table    []Point
	Curve    []Point
	Drawing  *draw.Scene

	points      []float64   // the p of Table
	samples     int         // Monte Carlo samples a point
	WitnessDraw *draw.Scene // the drawing with the domination witness, or nil
	// FailDraw shows two quorums that do not meet, when verify found
	// them: the first highlighted, the nodes of the second marked.
	FailDraw *draw.Scene
}

// avError is err from the availability of system name, said once: the
// availability package's errors name it already.
func avError(name string, err error) error {
	if strings.HasPrefix(err.Error(), "availability: ") {
		return fmt.Errorf("report: %s: %w", name, err)
	}
	return fmt.Errorf("report: %s: availability: %w", name, err)
}

// within2 runs fn with a context that ends after d.
func within2(ctx context.Context, d time.Duration, fn func(context.Context) error) error {
	c, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return fn(c)
}

// computeWithin returns the availability of f, or an error wrapping
// context.DeadlineExceeded once d has passed: Compute watches its context,
// so it returns within a moment of the deadline, and a result it finishes
// past the deadline is dropped as out of time.
func computeWithin(ctx context.Context, f *set.Family, d time.Duration) (*availability.Result, error) {
	c, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	res, err := availability.Compute(c, f, availability.Options{Time: d})
	if c.Err() != nil {
		return nil, fmt.Errorf("availability: %w", c.Err())
	}
	return res, err
}

// disjointDrawing draws the first two quorums of a failed intersection
// check: the first highlighted, the second's nodes marked; nil when there
// is no such pair to draw.
func disjointDrawing(sys set.System, rep *verify.Report) *draw.Scene {
	if rep == nil || sys.HK != nil {
		return nil
	}
	c := rep.Check("intersection", 0)
	if c == nil || c.OK || c.Witness == nil || len(c.Witness.Quorums) < 2 {
		return nil
	}
	f := sys.Family
	a, b := c.Witness.Quorums[0], c.Witness.Quorums[1]
	if a < 0 || b < 0 || a >= len(f.Quorums) || b >= len(f.Quorums) {
		return nil
	}
	o := draw.Options{ShowQuorum: true, Quorum: a, Highlight: f.Quorums[b].Elements()}
	if sc, err := draw.Draw(sys, o); err == nil {
		return sc
	}
	o.Layout, o.MaxCells = "matrix", MaxDrawnCells
	sc, _ := draw.Draw(sys, o)
	return sc
}

// MaxDrawnCells bounds the incidence matrices of a report: a system whose
// matrix would have more filled cells is reported without a drawing (a
// picture of 100,000 cells is unreadable, and drawing it takes seconds).
const MaxDrawnCells = 100000

// Analyze computes the report's figures for sys, named name. Bad options
// and cancellation of ctx are errors; a figure that runs out of its budget
// or does not apply is a note.
func Analyze(ctx context.Context, name string, sys set.System, o Options) (*System, error) {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.Points == nil {
		o.Points = DefaultPoints()
	}
	if o.Samples <= 0 {
		o.Samples = 1 << 14
	}
	r := &System{Name: name, Sys: sys, points: o.Points, samples: o.Samples}
	within := func(fn func(context.Context) error) error { return within2(ctx, o.Budget, fn) }
	stage := func(name string) {
		if o.Progress != nil {
			o.Progress(name, 0, -1)
		}
	}
	outOfTime := func(err error) bool { return ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) }
	var err error
	stage("drawing")
	sc, err := draw.Draw(sys, draw.Options{MaxCells: MaxDrawnCells})
	if err != nil && !errors.Is(err, draw.ErrTooLarge) {
		sc, err = draw.Draw(sys, draw.Options{Layout: "matrix", MaxCells: MaxDrawnCells})
	}
	if err == nil {
		r.Drawing = sc
	}
	stage("verify")
	err = within(func(c context.Context) error {
		var err error
		r.Verify, err = verify.Verify(c, sys, verify.Options{})
		return err
	})
	if err != nil && !outOfTime(err) {
		return nil, fmt.Errorf("report: %s: verify: %w", name, err)
	}
	r.FailDraw = disjointDrawing(sys, r.Verify)
	for _, f := range sys.Families() {
		fa, err := analysis.MeasureFamily(ctx, f, analysis.Options{Budget: o.Budget, NoByzantine: true,
			ExactResilience: true, Progress: o.Progress})
		var fe *analysis.FigureError
		if err != nil && errors.As(err, &fe) {
			return nil, fmt.Errorf("report: %s: %s: %w", name, fe.Figure, fe.Err)
		}
		if err != nil {
			return nil, fmt.Errorf("report: %s: %w", name, err)
		}
		r.Families = append(r.Families, newFamily(fa, o.Budget))
	}
	f := sys.Families()[0]
	switch {
	case sys.HK != nil:
		r.DominationNote = "domination is decided for coteries and k-arbiters, not (h,k)-arbiters"
	case r.Verify == nil || !r.Verify.Valid:
		r.DominationNote = "domination is decided only for a valid system"
	default:
		stage("domination")
		err := within(func(c context.Context) error {
			var err error
			r.Domination, err = domination.Decide(c, f)
			return err
		})
		switch {
		case outOfTime(err):
			r.DominationNote = fmt.Sprintf("not decided within %s", o.Budget)
		case err != nil:
			r.DominationNote = "not decided: " + err.Error()
		}
		if r.Domination != nil && r.Domination.Witness != nil {
			if sc, err := draw.Draw(sys, draw.Options{MaxCells: MaxDrawnCells, Highlight: r.Domination.Witness.Elements()}); err == nil {
				r.WitnessDraw = sc
			} else if sc, err := draw.Draw(sys, draw.Options{Layout: "matrix", MaxCells: MaxDrawnCells, Highlight: r.Domination.Witness.Elements()}); err == nil {
				r.WitnessDraw = sc
			}
		}
	}
	avBudget := o.Budget
	if o.AvailabilityBudget > 0 {
		avBudget = o.AvailabilityBudget
	}
	stage("availability")
	res, err := computeWithin(ctx, f, avBudget)
	if err != nil && !outOfTime(err) {
		return nil, avError(name, err)
	}
	if outOfTime(err) {
		res = nil
	}
	stage("availability points")
	if err := r.setAvailability(ctx, res, avBudget, o); err != nil {
		return nil, err
	}
	return r, nil
}

// setAvailability fills in the availability of the system's first family
// from res, or from Monte Carlo estimates when res is nil (no result
// within budget) or not exact.
func (r *System) setAvailability(ctx context.Context, res *availability.Result, budget time.Duration, o Options) error {
	f := r.Sys.Families()[0]
	r.AvExact = false
	switch {
	case res == nil:
		r.AvMethod = fmt.Sprintf("Monte Carlo estimate, %d samples a point (no exact result within %s)", o.Samples, budget)
	case res.Exact:
		r.AvExact, r.AvMethod = true, string(res.Method)
	default:
		r.AvMethod = fmt.Sprintf("Monte Carlo estimate, %d samples a point (%s)", o.Samples, res.Reason)
	}
	eval := func(ps []float64, samples int) ([]Point, error) {
		out := make([]Point, len(ps))
		if res == nil {
			vec := make([]float64, f.N)
			for i, p := range ps {
				for v := range vec {
					vec[v] = p
					if x, ok := o.Override[v]; ok {
						vec[v] = x
					}
				}
				e, err := availability.EstimateAV(ctx, f, vec, samples, 1)
				if err != nil {
					return nil, err
				}
				out[i] = Point{P: p, AV: e.Value, U: big.NewFloat(math.Max(0, 1-e.Value))}
			}
			return out, nil
		}
		pts, err := res.Evaluate(ctx, ps, availability.EvalOptions{Samples: samples, Seed: 1, Override: o.Override})
		if err != nil {
			return nil, err
		}
		for i, pt := range pts {
			out[i] = Point{P: pt.P, AV: pt.AV, Exact: pt.Exact, U: big.NewFloat(math.Max(0, 1-pt.AV))}
			if pt.Exact && res.Exact && len(o.Override) == 0 {
				if out[i].U, err = res.Poly.UnavailabilityContext(ctx, pt.P); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	var err error
	if r.Table, err = eval(r.points, o.Samples); err != nil {
		return avError(r.Name, err)
	}
	// The curve's estimates take a quarter of the samples: 28 points, each
	// drawn, none read off as a number.
	if r.Curve, err = eval(curvePoints, max(o.Samples/4, 1024)); err != nil {
		return avError(r.Name, err)
	}
	return nil
}

// WithExactAvailability looks again for the exact availability of the
// system's first family, for as long as ctx allows (no budget of its
// own), telling progress how it goes, and returns a copy of s with the
// exact values in place of the estimates. s itself is not changed, so
// that others may read it meanwhile.
func (s *System) WithExactAvailability(ctx context.Context, progress availability.Progress) (*System, error) {
	f := s.Sys.Families()[0]
	res, err := availability.Compute(ctx, f, availability.Options{Progress: progress})
	if err != nil {
		return nil, avError(s.Name, err)
	}
	c := *s
	if err := c.setAvailability(ctx, res, 0, Options{Samples: s.samples}); err != nil {
		return nil, err
	}
	return &c, nil
}
