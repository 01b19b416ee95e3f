package analysis

import (
	"context"
	"time"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/rw"
)

// MethodReadOnce is the method of a side written as a formula that uses
// each node once: the coefficients by composition and each value by
// independence, however many quorums (expr.Expr.Coefficients).
const MethodReadOnce availability.Method = "read-once formula"

// SideOptions control [SideAvailability].
type SideOptions struct {
	// Limit bounds the quorums the side may list.
	Limit int
	// Budget is the BDD node budget and Time the time of the exact
	// search (availability.Options); 0 for their defaults.
	Budget int
	Time   time.Duration
	// Samples and Seed drive the Monte Carlo estimate where no exact
	// value can be had; the curve's estimates take Samples/16 (at least
	// 4096) a point.
	Samples int
	Seed    uint64
	// Override gives some nodes (0-based) their own probability.
	Override map[int]float64
	// Curve are the p of a curve, besides the points; none when empty.
	Curve []float64
}

// SideAv is the availability of one side of a read-write system.
type SideAv struct {
	Exact  bool
	Method availability.Method
	// Poly is the availability polynomial when Exact (over all the
	// system's nodes), else nil.
	Poly *availability.Polynomial
	// Points are the values at the points asked for, Curve at
	// SideOptions.Curve.
	Points, Curve []availability.Point
}

// SideAvailability returns the availability of side sd of sys at each p
// of ps: exact by composition when sd is a read-once formula, otherwise
// from its listed quorums (availability.Compute, then Evaluate: exact
// where a method fits, estimated elsewhere). A side with more than
// o.Limit quorums to list is a *[FigureError] for Quorums; any other
// failure one for Availability.
func SideAvailability(ctx context.Context, sys *rw.System, sd *rw.Side, ps []float64, o SideOptions) (*SideAv, error) {
	out := &SideAv{}
	if e := sd.Expr; e.ReadOnce() {
		out.Exact, out.Method = true, MethodReadOnce
		out.Poly = &availability.Polynomial{N: sys.N, A: e.CoefficientsOver(sys.N)}
		at := func(p float64) availability.Point {
			return availability.Point{P: p, Exact: true, AV: e.Probability(func(v int) float64 {
				if x, ok := o.Override[v]; ok {
					return x
				}
				return p
			})}
		}
		for _, p := range ps {
			out.Points = append(out.Points, at(p))
		}
		for _, p := range o.Curve {
			out.Curve = append(out.Curve, at(p))
		}
		return out, nil
	}
	fam, err := sys.SideFamily(sd, o.Limit)
	if err != nil {
		return nil, &FigureError{Figure: Quorums, Err: err}
	}
	res, err := availability.Compute(ctx, fam, availability.Options{Budget: o.Budget, Time: o.Time})
	if err != nil {
		return nil, &FigureError{Figure: Availability, Err: err}
	}
	if out.Points, err = res.Evaluate(ctx, ps, availability.EvalOptions{Override: o.Override, Samples: o.Samples, Seed: o.Seed, Budget: o.Budget}); err != nil {
		return nil, &FigureError{Figure: Availability, Err: err}
	}
	if len(o.Curve) > 0 {
		if out.Curve, err = res.Evaluate(ctx, o.Curve, availability.EvalOptions{Override: o.Override, Samples: max(o.Samples/16, 1<<12), Seed: o.Seed, Budget: o.Budget}); err != nil {
			return nil, &FigureError{Figure: Availability, Err: err}
		}
	}
	out.Exact, out.Method = res.Exact, res.Method
	if res.Exact {
		out.Poly = res.Poly
	}
	return out, nil
}
