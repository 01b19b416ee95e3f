package availability

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Method names a way [Compute] obtained a result.
type Method string

// The methods of [Compute]. Estimate means no exact method fitted.
const (
	MethodThreshold Method = "threshold"
	MethodProduct   Method = "product"
	MethodJoin      Method = "join"
	MethodPlane     Method = "projective-plane"
	MethodBDD       Method = "bdd"
	MethodBrute     Method = "brute-force"
	MethodIE        Method = "inclusion-exclusion" // the partial results proved everything
	MethodEstimate  Method = "estimate"
	MethodAuto      Method = ""
)

// reasonEstimate is the Reason of a result computed with Method
// MethodEstimate.
const reasonEstimate = "a Monte Carlo estimate was asked for"

// Cause says what kept a [Result] from being exact, so that a caller can
// say what would change it (a larger budget, more time, more memory).
type Cause int

// The causes of an inexact result.
const (
	CauseNone   Cause = iota // exact, or a cause not listed here
	CauseAsked               // Options.Method was MethodEstimate
	CauseBudget              // no BDD within Options.Budget nodes or Options.Time
	CauseMemory              // the BDD or the plane sweep needed more than Options.MaxMemory
	CauseTime                // the plane sweep did not finish within Options.Time
)

// Options control [Compute].
type Options struct {
	// Method forces one method ("bdd", "brute-force", or "estimate": no
	// exact search, only what [NewPartial] proves); empty chooses by
	// structure.
	Method Method
	// Budget is the BDD node budget; 0 means [DefaultBudget].
	Budget int
	// Time, if positive, bounds the time spent looking for an exact result
	// by BDD; past it Compute returns what can be proved (see [Partial]).
	Time time.Duration
	// Progress, if not nil, is called now and then during long work.
	Progress Progress
	// MaxMemory, if positive, bounds the bytes held at once by the exact
	// methods (the BDD's arena, unique table and operation cache, its
	// counting pass, the plane sweep's states). Past it Compute stops
	// looking for an exact result and returns what it proved (see
	// [Partial]) together with an error wrapping [set.ErrMemoryBudget].
	MaxMemory int64
}

// Progress reports how far a long computation has got: stage names the
// work ("building the BDD, order 1 of 3"), and done of total units are
// finished (total −1 when unknown). It is [set.Progress].
type Progress = set.Progress

// Result is the availability of one family: the exact polynomial when some
// method reached it, otherwise what could be proved (see [Partial]).
type Result struct {
	N      int
	Exact  bool
	Method Method
	// Poly holds every coefficient when Exact.
	Poly *Polynomial
	// Partial holds the provable coefficients and bounds when not Exact.
	Partial *Partial
	// Reason says why no exact method succeeded (empty when Exact), and
	// Cause what stopped it.
	Reason string
	Cause  Cause

	f     *set.Family
	split *joinSplit
	inner *Result // for joins: the inner system's result
	outer struct{ g1, g0 *Result }
	dims  []int
	bdd   *BDD
	// noBDD records that the BDD did not fit the budget, so that
	// per-node evaluations do not try again at every point.
	noBDD bool
	// lazy holds the BDD that per-node evaluations build on first use; the
	// fields above do not change once Compute returns.
	lazy lazyBDD
}

// Family returns the family the result describes.
func (r *Result) Family() *set.Family { return r.f }

// Compute returns the availability polynomial of f, choosing the method by
// structure (see the package comment): threshold form, product of slabs,
// projective plane, join, then the BDD under the node budget, and the brute
// force only when the caller forces it. When every exact method is out of
// reach it returns a Result with Exact false and a [Partial] (exact
// low/high-order coefficients and bounds); the error is then nil and Reason
// says what failed, except when the memory budget stopped the search: then
// the Result comes with an error wrapping [set.ErrMemoryBudget]. Other
// errors are returned, without a Result, for a cancelled context and a
// malformed family. An implicit family is computed by its construction's
// recurrence; with a method asked for, on its quorums as its construction
// lists them (an error wrapping [set.ErrTooMany] past
// construct.ListLimit).
func Compute(ctx context.Context, f *set.Family, opts Options) (*Result, error) {
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("availability: %w", err)
	}
	return compute(ctx, f, opts)
}

// compute is Compute without validation, for the parts of a join, which
// may hold an empty quorum (the outer quorum {x}) or none at all.
func compute(ctx context.Context, f *set.Family, opts Options) (*Result, error) {
	progress := func(done, total int64, format string, args ...any) {
		if opts.Progress != nil {
			opts.Progress(fmt.Sprintf(format, args...), done, total)
		}
	}
	// The typed form says what the family knows without its quorums: an
	// implicit construction its recurrence, a threshold family its
	// threshold.
	sys, construction, err := typedForm(f)
	if err != nil {
		return nil, errNoRecurrence(f)
	}
	if construction {
		return computeImplicit(ctx, f, sys, opts)
	}
	// An implicit family without a recurrence is listed, if it can be.
	g, err := explicitFamily(ctx, f)
	if err != nil {
		var le *construct.ListError
		if errors.As(err, &le) {
			return nil, errNoRecurrence(f)
		}
		return nil, err
	}
	f = g
	r := &Result{N: f.N, f: f}
	t, threshold := sys.(quorum.Thresholder)
	if !threshold {
		if len(f.Quorums) == 0 {
			r.Exact, r.Method, r.Poly = true, MethodThreshold, NewPolynomial(f.N)
			return r, nil
		}
		for i := range f.Quorums {
			if f.Quorums[i].IsEmpty() {
				// The empty quorum is always up.
				r.Exact, r.Method, r.Poly = true, MethodThreshold, Threshold(f.N, 0)
				return r, nil
			}
		}
	}
	switch opts.Method {
	case MethodBrute:
		p, err := Brute(ctx, f)
		if err != nil {
			return nil, err
		}
		r.Exact, r.Method, r.Poly = true, MethodBrute, p
		return r, nil
	case MethodBDD:
		if threshold {
			return nil, errors.New("availability: the bdd method needs an explicit family; this one is a threshold system")
		}
		return computeBDD(ctx, r, opts, progress)
	case MethodEstimate:
		if threshold {
			return nil, errors.New("availability: the estimate method needs an explicit family; this one is a threshold system")
		}
		return settle(ctx, r, reasonEstimate, CauseAsked)
	case MethodAuto:
	default:
		return nil, fmt.Errorf("availability: unknown method %q", opts.Method)
	}
	if w, ok := allSubsets(f, t); ok {
		p, err := ThresholdContext(ctx, f.N, w, opts.MaxMemory)
		if err != nil {
			return nil, err
		}
		r.Exact, r.Method, r.Poly = true, MethodThreshold, p
		return r, nil
	}
	if p, ok := recognise(ctx, f); ok {
		r.Exact, r.Method, r.Poly = true, MethodRecurrence, p
		return r, nil
	}
	if p, ok := recogniseTree(ctx, f); ok {
		r.Exact, r.Method, r.Poly = true, MethodRecurrence, p
		return r, nil
	}
	if p, ok := recogniseWall(ctx, f); ok {
		r.Exact, r.Method, r.Poly = true, MethodRecurrence, p
		return r, nil
	}
	if dims, ok := productDims(ctx, f); ok {
		r.Exact, r.Method, r.Poly, r.dims = true, MethodProduct, Product(dims...), dims
		return r, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var memErr error
	if q, ok := planeOrder(f); ok {
		// From order 8 the sweep takes long: it runs under the deadline
		// of the exact search, and past it the BDD, which fails on far
		// smaller planes, is not tried.
		pctx := ctx
		if q >= planeSlowOrder && opts.Time > 0 {
			var cancel context.CancelFunc
			pctx, cancel = context.WithTimeout(ctx, opts.Time)
			defer cancel()
		}
		p, err := planePolynomial(pctx, q, opts.Progress, opts.MaxMemory)
		if errors.Is(err, set.ErrMemoryBudget) {
			memErr = err
		}
		switch {
		case err == nil:
			r.Exact, r.Method, r.Poly = true, MethodPlane, p
			// The BDD of PG(2,7) exceeds 40 million nodes (measured): per-node
			// probabilities go straight to the estimate.
			r.noBDD = q >= 7
			return r, nil
		case ctx.Err() != nil:
			return nil, err
		case q >= planeSlowOrder && (pctx.Err() != nil || memErr != nil):
			reason, cause := fmt.Sprintf("the plane sweep of order %d did not finish within %s", q, opts.Time), CauseTime
			if memErr != nil {
				reason, cause = memErr.Error(), CauseMemory
			}
			r, err = settle(ctx, r, reason, cause)
			if err == nil && !r.Exact && memErr != nil {
				err = memErr
			}
			return r, err
		}
		progress(0, -1, "%v; trying the BDD", err)
	}
	if s, ok := findJoin(f); ok {
		res, err := computeJoin(ctx, r, s, opts)
		if err != nil {
			return nil, err
		}
		if res.Exact {
			return res, nil
		}
	}
	r, err = computeBDD(ctx, r, opts, progress)
	if err == nil && memErr != nil && !r.Exact {
		err = memErr
	}
	return r, err
}

func computeJoin(ctx context.Context, r *Result, s *joinSplit, opts Options) (*Result, error) {
	inner, err := compute(ctx, s.in, opts)
	if err != nil {
		return nil, err
	}
	x := len(s.outerNodes)
	g1f, g0f := Restrict(s.outer, x)
	g1, err := compute(ctx, g1f, opts)
	if err != nil {
		return nil, err
	}
	g0, err := compute(ctx, g0f, opts)
	if err != nil {
		return nil, err
	}
	if !inner.Exact || !g1.Exact || !g0.Exact {
		return &Result{N: r.N, f: r.f}, nil
	}
	p, err := Compose(g1.Poly, g0.Poly, inner.Poly)
	if err != nil {
		return nil, err
	}
	r.Exact, r.Method, r.Poly = true, MethodJoin, p
	r.split, r.inner = s, inner
	r.outer.g1, r.outer.g0 = g1, g0
	return r, nil
}

func computeBDD(ctx context.Context, r *Result, opts Options, progress func(done, total int64, format string, args ...any)) (*Result, error) {
	f := r.f
	if len(f.Quorums) == 0 {
		r.Exact, r.Method, r.Poly = true, MethodBDD, NewPolynomial(f.N)
		return r, nil
	}
	// The BDD attempts run under their own deadline (Options.Time): past
	// it the search for an exact result gives way to what can be proved.
	bctx := ctx
	if opts.Time > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeout(ctx, opts.Time)
		defer cancel()
	}
	if sup, w, ok := f.EverySubset(); ok {
		// A threshold written out: its diagram is known, w·(u−w+1) nodes.
		d := thresholdBDD(f.N, sup, w)
		p, err := d.Count(ctx)
		if err != nil {
			return nil, err
		}
		r.Exact, r.Method, r.Poly, r.bdd = true, MethodBDD, p, d
		return r, nil
	}
	d, p, err := searchBDD(bctx, f, nil, opts, progress)
	if err == nil {
		r.Exact, r.Method, r.Poly, r.bdd = true, MethodBDD, p, d
		return r, nil
	}
	var fail *bddFailure
	switch {
	case ctx.Err() == nil && bctx.Err() != nil && errors.Is(err, context.DeadlineExceeded):
		cands, err := orderCandidates(ctx, f)
		if err != nil {
			return nil, err
		}
		fail = &bddFailure{reason: fmt.Errorf("no BDD within %s", opts.Time), orders: len(cands)}
	case !errors.As(err, &fail):
		return nil, err
	}
	cause := CauseBudget
	if fail.memory {
		cause = CauseMemory
	}
	r, err = settle(ctx, r, fmt.Sprintf("%v (tried %d variable orders)", fail.reason, fail.orders), cause)
	if err == nil && !r.Exact && fail.memory {
		return r, fmt.Errorf("availability: no exact result within the memory budget: %w", fail.reason)
	}
	return r, err
}

// maxKeptBytes bounds the managers [searchBDD] keeps between rounds.
const maxKeptBytes = 96 << 20

// bddFailure is the error of [searchBDD] when no order fitted the node
// or memory budget; it wraps the last budget error.
type bddFailure struct {
	reason error
	orders int
	memory bool
}

func (e *bddFailure) Error() string { return e.reason.Error() }
func (e *bddFailure) Unwrap() error { return e.reason }

// searchBDD looks for the BDD of f and counts it, by iterative deepening
// over the candidate orders: a first round probes the first two orders
// with a small budget (not for a grid or a cube, whose natural order is
// the one to try first), then each round tries every order, those that got
// furthest first, with a budget four times the last (the first order the
// whole of it, each later one half of the one before), so the work is
// within a small factor of the best order's. cands are the orders to try,
// nil for [OrderCandidates]. It
// fails with a *bddFailure when the budgets are exhausted, and with ctx's
// error when ctx ends.
func searchBDD(ctx context.Context, f *set.Family, cands [][]int, opts Options, progress func(done, total int64, format string, args ...any)) (*BDD, *Polynomial, error) {
	budget := opts.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	// The candidates are made when first tried, in the order of
	// [OrderCandidates]: often the first one fits at once.
	var makers []func() []int
	if cands == nil {
		makers = orderMakers(ctx, f)
		cands = make([][]int, len(makers))
	}
	skip := make([]bool, len(cands))
	var lastErr error
	memory := false
	// Each round tries first the orders that got furthest in the last.
	tries := make([]int, len(cands))
	steps := make([]int, len(cands))
	for i := range tries {
		tries[i] = i
	}
	// The managers of the orders that ran out of budget, taken up again
	// in the next round while they are small.
	kept := make([]*manager, len(cands))
	// A first round with a small budget probes every order: the orders
	// are then ranked by how far they got, so that the order that goes on
	// first is seldom a poor one.
	probe, first := min(1<<10, budget), min(1<<14, budget)
	const probeOrders = 2
	if _, slabs := claimedSlabs(f); makers != nil && slabs {
		// The constructions number a grid or a cube row by row, the
		// natural order, which goes first: no need to rank the others
		// first. (Only a hint for the order: the diagram is exact
		// whatever the file's kind says.)
		probe = first
	}
	for round := probe; ; round = min(max(4*round, first), budget) {
		slices.SortStableFunc(tries, func(x, y int) int { return steps[y] - steps[x] })
		for rank, i := range tries {
			if round == probe && probe < budget && i >= probeOrders {
				// The probe leaves out the costlier orders.
				continue
			}
			if makers != nil && cands[i] == nil {
				cands[i] = makers[i]()
				if err := ctx.Err(); err != nil {
					return nil, nil, err
				}
				// A candidate equal to one before it is tried once.
				skip[i] = slices.ContainsFunc(cands[:i], func(o []int) bool { return slices.Equal(o, cands[i]) })
			}
			if skip[i] {
				continue
			}
			order := cands[i]
			// The best guess has a head start: each order after it
			// gets half the budget of the one before, until
			// the last round, where every order gets the whole
			// budget. A taken-up manager makes the rounds cheap for
			// the orders that fall behind.
			b := round
			if b < budget {
				b = max(b>>rank, min(first, round))
			}
			d, k, m, err := buildBDD(ctx, f, BDDOptions{Order: order, Budget: b, MaxMemory: opts.MaxMemory, count: true, Progress: func(stage string, done, total int64) {
				progress(done, total, "%s (order %d of %d, budget %d nodes)", stage, i+1, len(cands), b)
			}}, kept[i])
			kept[i] = nil
			if m != nil && m.keptBytes() <= maxKeptBytes/int64(len(cands)) {
				kept[i] = m
			}
			steps[i] = k
			if err == nil {
				var p *Polynomial
				left := int64(0)
				if opts.MaxMemory > 0 {
					left = max(opts.MaxMemory-int64(d.Size())*nodeBytes, 1)
				}
				p, err = d.count(ctx, func(done, total int) {
					progress(int64(done), int64(total), "counting the paths of a BDD of %d nodes", d.Size())
				}, left)
				if err == nil {
					return d, p, nil
				}
			}
			switch {
			case errors.Is(err, set.ErrMemoryBudget):
				// Another order of this round may still fit; a larger
				// node budget will not.
				lastErr, memory = err, true
			case errors.Is(err, ErrBudget):
				lastErr = err
			default:
				return nil, nil, err
			}
		}
		if round == budget || memory {
			tried := 0
			for i := range cands {
				if cands[i] != nil && !skip[i] {
					tried++
				}
			}
			return nil, nil, &bddFailure{reason: lastErr, orders: tried, memory: memory}
		}
	}
}

// settle gives up on an exact method for reason and cause: r gets what
// [NewPartial] proves, and is exact after all if that is every coefficient.
func settle(ctx context.Context, r *Result, reason string, cause Cause) (*Result, error) {
	f := r.f
	r.noBDD = true
	r.Reason, r.Cause = reason, cause
	r.Partial = NewPartial(ctx, f)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("availability: %w", err)
	}
	if !slices.Contains(r.Partial.Known, false) {
		// The provable coefficients turned out to be all of them.
		r.Exact, r.Method, r.Poly, r.Reason, r.Cause = true, MethodIE, &Polynomial{N: f.N, A: r.Partial.A}, "", CauseNone
	}
	return r, nil
}

// Probability returns AV for per-node probabilities p (p[v] for node v),
// exactly in float64 through the same structure as the result: the
// Poisson-binomial distribution for threshold systems, Corollary 5 for
// joins, the BDD otherwise (built now if the result came from a closed
// form), brute force for small n. When none fits the budget it returns
// exact = false and the caller should estimate (see [Estimate]).
func (r *Result) Probability(ctx context.Context, p []float64, budget int) (av float64, exact bool, err error) {
	f := r.f
	if len(p) != f.N {
		return 0, false, fmt.Errorf("availability: %d probabilities for %d nodes", len(p), f.N)
	}
	t := construct.ThresholdForm(f)
	if t == nil {
		// An implicit family is listed by its construction; one with too
		// many quorums to list is left to the estimate.
		g, err := explicitFamily(ctx, f)
		var le *construct.ListError
		if errors.As(err, &le) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, err
		}
		f = g
		if len(f.Quorums) == 0 {
			return 0, true, nil
		}
		for i := range f.Quorums {
			if f.Quorums[i].IsEmpty() {
				return 1, true, nil
			}
		}
	}
	if w, ok := allSubsets(f, t); ok {
		return poissonBinomialTail(p, w), true, nil
	}
	if r.split != nil {
		s := r.split
		pin := make([]float64, len(s.inner))
		for i, v := range s.inner {
			pin[i] = p[v]
		}
		px, ok, err := r.inner.Probability(ctx, pin, budget)
		if err != nil || !ok {
			return 0, false, err
		}
		pout := make([]float64, len(s.outerNodes))
		for i, v := range s.outerNodes {
			pout[i] = p[v]
		}
		a1, ok1, err := r.outer.g1.Probability(ctx, pout, budget)
		if err != nil || !ok1 {
			return 0, false, err
		}
		a0, ok0, err := r.outer.g0.Probability(ctx, pout, budget)
		if err != nil || !ok0 {
			return 0, false, err
		}
		return px*a1 + (1-px)*a0, true, nil
	}
	d, err := r.perNodeBDD(ctx, budget)
	if err != nil {
		return 0, false, err
	}
	if d != nil {
		return d.Probability(p), true, nil
	}
	if f.N <= 24 {
		av, err := BruteProbability(ctx, f, p)
		return av, err == nil, err
	}
	return 0, false, nil
}

// poissonBinomialTail returns P[at least w of the nodes are up] for
// independent nodes up with probabilities p, by the O(n·w) recurrence on
// the number of up nodes, capped at w.
func poissonBinomialTail(p []float64, w int) float64 {
	if w <= 0 {
		return 1
	}
	// d[j] = P[exactly j up so far] for j < w; d[w] = P[at least w].
	d := make([]float64, w+1)
	d[0] = 1
	for _, x := range p {
		d[w] += d[w-1] * x
		for j := w - 1; j >= 1; j-- {
			d[j] = d[j]*(1-x) + d[j-1]*x
		}
		d[0] *= 1 - x
	}
	return d[w]
}
