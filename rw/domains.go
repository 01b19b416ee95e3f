package rw

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/set"
)

// DomainEvaluator computes the exact availability of reads, of writes,
// and of both at once, under failure domains, for many node
// probabilities: the structures that do not depend on them (the lifted
// BDDs) are built once.
type DomainEvaluator struct {
	s    *System
	tree *domain.Tree
	// Method is "domain-tree" when both sides are thresholds over one
	// set of nodes (the generating function of the live count), else
	// "lifted-bdd" (a threshold side alone still uses the generating
	// function).
	Method availability.Method
	// shared thresholds
	weights    []int
	kr, kw     int
	sharedVote bool
	// per side: a vote (weights, k) or a lifted BDD
	side   [2]sideEval
	either *availability.Lifted
	// same: reads and writes are one formula (side[1] is side[0]).
	same bool
}

type sideEval struct {
	weights []int
	k       int
	lifted  *availability.Lifted
}

// NewDomainEvaluator prepares the exact availability of s under the
// domains of t (nil for none) whose probabilities are below 1: a side
// that is a weighted vote ("k of a set of nodes", or choose(k, …) over
// nodes some of which repeat, a node's weight being how often it
// appears) is counted by the generating function of the live weight
// ([availability.VoteAvailability]); any other by the BDD of its lifted
// formula ([availability.NewLiftedFormula], at most budget nodes), or,
// past the budget, of its listed quorums (at most limit); "both" is
// P(R) + P(W) − P(R or W), the last from the formula R + W. Two votes
// with the same weights share one generating function, and two equal
// formulas one BDD (then both is P(R)).
func NewDomainEvaluator(ctx context.Context, s *System, t *domain.Tree, limit, budget int) (*DomainEvaluator, error) {
	e := &DomainEvaluator{s: s, tree: t, Method: availability.MethodDomainTree}
	var vars []int
	if t != nil {
		for d := range t.Len() {
			if t.P(d).Cmp(big.NewRat(1, 1)) < 0 {
				vars = append(vars, d)
			}
		}
	}
	wr, kr, okr := voteOf(s.N, s.Reads.Expr)
	ww, kw, okw := voteOf(s.N, s.Writes.Expr)
	if okr && okw && slices.Equal(wr, ww) {
		e.weights, e.kr, e.kw, e.sharedVote = wr, kr, kw, true
		return e, nil
	}
	e.Method = availability.MethodLiftedBDD
	if expr.Equal(s.Reads.Expr, s.Writes.Expr) {
		// One formula: P(R and R) = P(R).
		l, err := lifted(ctx, s, s.Reads.Expr, &s.Reads, t, vars, limit, budget)
		if err != nil {
			return nil, err
		}
		e.side[0].lifted, e.side[1].lifted, e.same = l, l, true
		return e, nil
	}
	for i, sd := range []*Side{&s.Reads, &s.Writes} {
		if w, k, ok := voteOf(s.N, sd.Expr); ok {
			e.side[i] = sideEval{weights: w, k: k}
			continue
		}
		l, err := lifted(ctx, s, sd.Expr, sd, t, vars, limit, budget)
		if err != nil {
			return nil, err
		}
		e.side[i].lifted = l
	}
	either := expr.NewOr(s.Reads.Expr, s.Writes.Expr)
	l, err := availability.NewLiftedFormula(ctx, either, s.N, t, vars, budget)
	if errors.Is(err, availability.ErrBudget) {
		// The quorums of both sides, listed.
		fams := [2]*set.Family{}
		for i, sd := range []*Side{&s.Reads, &s.Writes} {
			if fams[i], err = sd.Family(s.N, limit); err != nil {
				return nil, err
			}
		}
		u := set.NewFamily(s.N)
		for _, f := range fams {
			for _, q := range f.All() {
				u.Add(q, set.NoOwner)
			}
		}
		l, err = availability.NewLifted(ctx, u, t, vars, budget)
	}
	if err != nil {
		return nil, err
	}
	e.either = l
	return e, nil
}

// voteOf reads e over n nodes as a weighted vote: a node, or an or, an
// and or a choose(k, …) of nodes, a node that appears m times having
// weight m (a node in no leaf weight 0). The and of nodes needs all of
// their weight, the or one unit of it.
func voteOf(n int, e *expr.Expr) (weights []int, k int, ok bool) {
	weights = make([]int, n)
	if e.Op == expr.Leaf {
		if e.Node < 0 || e.Node >= n {
			return nil, 0, false
		}
		weights[e.Node] = 1
		return weights, 1, true
	}
	total := 0
	for _, a := range e.Args {
		if a.Op != expr.Leaf || a.Node < 0 || a.Node >= n {
			return nil, 0, false
		}
		weights[a.Node]++
		total++
	}
	switch e.Op {
	case expr.Or:
		k = 1
	case expr.And:
		k = total
	default:
		k = e.K
	}
	if k < 1 || k > total {
		return nil, 0, false
	}
	return weights, k, true
}

// lifted is the lifted BDD of one side: from its formula, or, past the
// budget, from its listed quorums.
func lifted(ctx context.Context, s *System, e *expr.Expr, sd *Side, t *domain.Tree, vars []int, limit, budget int) (*availability.Lifted, error) {
	l, err := availability.NewLiftedFormula(ctx, e, s.N, t, vars, budget)
	if !errors.Is(err, availability.ErrBudget) {
		return l, err
	}
	f, ferr := sd.Family(s.N, limit)
	if ferr != nil {
		return nil, err
	}
	return availability.NewLifted(ctx, f, t, vars, budget)
}

// At returns the exact probabilities that a read quorum, a write quorum,
// and both are up when node v is up with probability p[v] (on its own)
// and each domain of the tree with its probability.
func (e *DomainEvaluator) At(ctx context.Context, p []*big.Rat) (reads, writes, both *big.Rat, err error) {
	m := availability.Model{Tree: e.tree, P: p}
	if e.sharedVote {
		av, err := availability.VoteAvailability(ctx, e.weights, []int{e.kr, e.kw, max(e.kr, e.kw)}, m)
		if err != nil {
			return nil, nil, nil, err
		}
		return av[0], av[1], av[2], nil
	}
	if e.same {
		r, err := e.side[0].lifted.At(ctx, m)
		if err != nil {
			return nil, nil, nil, err
		}
		return r, new(big.Rat).Set(r), new(big.Rat).Set(r), nil
	}
	var out [2]*big.Rat
	for i, sd := range e.side {
		if sd.weights != nil {
			av, err := availability.VoteAvailability(ctx, sd.weights, []int{sd.k}, m)
			if err != nil {
				return nil, nil, nil, err
			}
			out[i] = av[0]
		} else if out[i], err = sd.lifted.At(ctx, m); err != nil {
			return nil, nil, nil, err
		}
	}
	either, err := e.either.At(ctx, m)
	if err != nil {
		return nil, nil, nil, err
	}
	both = new(big.Rat).Add(out[0], out[1])
	both.Sub(both, either)
	return out[0], out[1], both, nil
}

// killBudget bounds the BDD over the domains of one level that
// [System.DomainResilience] makes before it lists the quorums instead.
const killBudget = 1 << 22

// DomainResilience returns how many domains of level l of t may fail with
// a read quorum left, and with a write quorum left, each with a smallest
// killing set of domains (see [domain.Resilience]). A side that is "k of
// a set of nodes" is solved greedily; any other by the cheapest path to
// false in the BDD of its formula over the level's domains
// ([availability.DomainKill]), or, past its budget, listed (at most limit
// quorums) and solved by branch and bound. The resilience of both at once
// is the smaller of the two, with that side's killing set.
func (s *System) DomainResilience(ctx context.Context, t *domain.Tree, l, limit int) (read, write domain.Resilience, err error) {
	var out [2]domain.Resilience
	for i, sd := range []*Side{&s.Reads, &s.Writes} {
		if k, nodes, ok := sd.Expr.AsThreshold(); ok {
			out[i] = domain.ThresholdResilience(t, l, nodes, k)
			continue
		}
		// The formula's BDD over the level's domains first: no quorum
		// is listed.
		ds := t.AtLevel(l)
		kill, ok, err := availability.DomainKill(ctx, sd.Expr, s.N, t, ds, killBudget)
		if err == nil {
			out[i] = domain.Resilience{Level: l, Domains: len(ds), K: len(ds)}
			if ok {
				out[i].Killing = []int{}
				for _, x := range kill {
					out[i].Killing = append(out[i].Killing, ds[x])
				}
				slices.SortFunc(out[i].Killing, func(a, b int) int { return strings.Compare(t.Path(a), t.Path(b)) })
				out[i].K = len(kill) - 1
			}
			continue
		}
		if !errors.Is(err, availability.ErrBudget) {
			return domain.Resilience{}, domain.Resilience{}, err
		}
		f, err := sd.Family(s.N, limit)
		if err != nil {
			return domain.Resilience{}, domain.Resilience{}, err
		}
		if out[i], err = domain.ListedResilience(ctx, t, l, f); err != nil {
			return domain.Resilience{}, domain.Resilience{}, err
		}
	}
	return out[0], out[1], nil
}
