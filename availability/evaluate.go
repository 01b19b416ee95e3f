package availability

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sync"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// Point is the availability at one p.
type Point struct {
	P float64
	// AV is the value: exact up to float64 rounding when Exact, otherwise
	// the Monte Carlo estimate.
	AV    float64
	Exact bool
	// When not Exact: the estimate's 95% interval and the proved bounds.
	Estimate *Estimate
	Lo, Hi   float64
}

// EvalOptions control [Result.Evaluate].
type EvalOptions struct {
	// Override maps nodes (0-based) to their own probability of being up;
	// the other nodes are up with the point's p.
	Override map[int]float64
	// Samples and Seed drive the Monte Carlo estimate where no exact value
	// can be had (0 samples means DefaultSamples).
	Samples int
	Seed    uint64
	// Budget is the BDD node budget for per-node probabilities.
	Budget int
	// Shard of Shards, when Shards > 1, takes only that shard's share of
	// the Monte Carlo samples (see [EstimateShare]); the estimates of the
	// points are then shares, to be added up with [MergeEstimates].
	Shard, Shards int
}

// Evaluate returns AV at each p in ps: from the polynomial when it is
// exact and no node has its own probability; through the structure
// ([Result.Probability]) for per-node probabilities; otherwise the seeded
// Monte Carlo estimate (the same seed at every point, so a curve is smooth)
// with bounds: the [Partial] bounds, and for per-node probabilities the
// values at the smallest and largest probability (AV is monotone).
func (r *Result) Evaluate(ctx context.Context, ps []float64, o EvalOptions) ([]Point, error) {
	for v, x := range o.Override {
		if v < 0 || v >= r.N {
			return nil, fmt.Errorf("availability: node %d is out of range 1..%d", v+1, r.N)
		}
		if !(x >= 0 && x <= 1) {
			return nil, fmt.Errorf("availability: probability %v of node %d is not in [0, 1]", x, v+1)
		}
	}
	if len(o.Override) > 0 && r.f != nil {
		// A family held by its construction's parameters is listed for
		// the per-node methods ([Result.Probability]), if it can be.
		if _, construction, err := typedForm(r.f); construction || err != nil {
			_, err := explicitFamily(ctx, r.f)
			var le *construct.ListError
			if errors.As(err, &le) {
				return nil, fmt.Errorf("availability: per-node probabilities need the quorums: %w", le)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	var eval func(float64) float64
	if r.Exact {
		eval = r.Poly.Evaluator()
	}
	pts := make([]Point, len(ps))
	for i, p := range ps {
		if !(p >= 0 && p <= 1) {
			return nil, fmt.Errorf("availability: p = %v is not in [0, 1]", p)
		}
		pt := Point{P: p}
		if len(o.Override) == 0 && r.Exact {
			pt.AV, pt.Exact = eval(p), true
			pts[i] = pt
			continue
		}
		vec := make([]float64, r.N)
		for v := range vec {
			vec[v] = p
		}
		for v, x := range o.Override {
			vec[v] = x
		}
		if len(o.Override) > 0 {
			av, exact, err := r.Probability(ctx, vec, o.Budget)
			if err != nil {
				return nil, err
			}
			if exact {
				pt.AV, pt.Exact = av, true
				pts[i] = pt
				continue
			}
		}
		shard, shards := 1, 1
		if o.Shards > 1 {
			shard, shards = o.Shard, o.Shards
		}
		e, err := EstimateShare(ctx, r.f, vec, o.Samples, o.Seed, shard, shards)
		if err != nil {
			return nil, err
		}
		pt.AV, pt.Estimate = e.Value, &e
		pt.Lo, pt.Hi = r.bounds(ctx, vec)
		pts[i] = pt
	}
	return pts, nil
}

// bounds returns proved bounds on AV for the probabilities vec: AV is
// nondecreasing in every node's probability, so it lies between the
// uniform values at min(vec) and max(vec), which the polynomial or the
// partial results bound.
func (r *Result) bounds(ctx context.Context, vec []float64) (lo, hi float64) {
	pmin, pmax := slices.Min(vec), slices.Max(vec)
	if r.Exact {
		return r.Poly.At(pmin), r.Poly.At(pmax)
	}
	part := r.Partial
	if part == nil {
		part = r.lazy.partialOf(ctx, r.f)
	}
	lo, _ = part.Bounds(pmin)
	_, hi = part.Bounds(pmax)
	return lo, math.Max(lo, hi)
}

// lazyBDD holds what evaluations of a [Result] compute on first use and
// keep for the next ones: the BDD for per-node probabilities (for a result
// that came from a closed form) and the partial results for bounds. Its
// mutex makes concurrent evaluations of one Result safe.
type lazyBDD struct {
	mu      sync.Mutex
	tried   bool // the BDD was attempted; bdd is nil if it did not fit
	bdd     *BDD
	partial *Partial
}

// perNodeBDD returns the BDD of r's family for per-node probabilities:
// the one Compute built, else one built now under budget and kept, or nil
// when none fits (or r is a threshold family or gave up on the BDD). An
// error comes only from a cancelled context, and leaves nothing kept.
func (r *Result) perNodeBDD(ctx context.Context, budget int) (*BDD, error) {
	f := r.f
	if r.bdd != nil || r.noBDD || construct.ThresholdForm(f) != nil {
		return r.bdd, nil
	}
	c := &r.lazy
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tried {
		return c.bdd, nil
	}
	if budget <= 0 {
		budget = DefaultBudget
	}
	cands, err := orderCandidates(ctx, f)
	if err != nil {
		return nil, err
	}
	for _, order := range cands {
		d, err := BuildBDD(ctx, f, BDDOptions{Order: order, Budget: budget})
		if err == nil {
			c.bdd = d
			break
		}
		if !errors.Is(err, ErrBudget) {
			return nil, err
		}
	}
	c.tried = true
	return c.bdd, nil
}

// partialOf returns the partial results of f, computed on the first call.
func (c *lazyBDD) partialOf(ctx context.Context, f *set.Family) *Partial {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.partial == nil {
		p := NewPartial(ctx, f)
		if ctx.Err() != nil {
			return p // incomplete: not kept
		}
		c.partial = p
	}
	return c.partial
}

// Unavailability returns 1 − AV at pt, a point of r.Evaluate: from the
// exact polynomial when pt and r are exact and every node is up with pt.P
// (uniform: no node has its own probability), so that 0.99999999998 keeps
// its digits; otherwise 1 − pt.AV, which per-node probabilities and
// estimates give as a float64 to begin with (never below 0).
func (r *Result) Unavailability(pt Point, uniform bool) *big.Float {
	if pt.Exact && uniform && r.Exact {
		return r.Poly.Unavailability(pt.P)
	}
	return big.NewFloat(math.Max(0, 1-pt.AV))
}
