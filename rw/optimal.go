package rw

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/set"
)

// Optimal returns a strategy that minimises opts.Optimize under the
// workload and limits, with its metrics, exactly (rational arithmetic
// throughout). It returns an error wrapping [ErrNoStrategy] when no
// strategy meets the limits.
//
// It solves the linear program of Whittaker et al. (one variable per
// quorum, a load variable per read fraction, a row per node and read
// fraction) by column generation: it starts from one quorum per side and
// adds the quorum of least reduced cost, found by the formula of a
// separable side ([expr.Expr.MinQuorum], so a 10×10 grid's 10^10 write
// quorums are never listed) or by scanning the listed quorums, until none
// improves. Latency is priced by trying each node latency as a cap.
func (s *System) Optimal(ctx context.Context, opts Options) (*Strategy, *Metrics, error) {
	if len(opts.Workload) == 0 {
		return nil, nil, fmt.Errorf("rw: no workload")
	}
	if opts.F < 0 {
		return nil, nil, fmt.Errorf("rw: f = %d is negative", opts.F)
	}
	obj := opts.Optimize
	if obj == "" {
		obj = MinLoad
	}
	switch {
	case obj != MinLoad && obj != MinLatency && obj != MinNetwork:
		return nil, nil, fmt.Errorf("rw: unknown objective %q (want load, latency or network)", obj)
	case obj == MinLoad && opts.LoadLimit != nil,
		obj == MinLatency && opts.LatencyLimit != nil,
		obj == MinNetwork && opts.NetworkLimit != nil:
		return nil, nil, fmt.Errorf("rw: a %s limit makes no sense when optimising %s", obj, obj)
	}
	for _, l := range []*big.Rat{opts.LoadLimit, opts.LatencyLimit, opts.NetworkLimit} {
		if l != nil && l.Sign() < 0 {
			return nil, nil, fmt.Errorf("%w: a limit is negative", ErrNoStrategy)
		}
	}
	if s.N > closedFormNodes {
		if m, ok := s.ClosedForm(opts); ok {
			return &Strategy{Uniform: true}, m, nil
		}
	}
	limit := opts.ListLimit
	if limit <= 0 {
		limit = DefaultListLimit
	}
	ro, err := s.oracleFor(&s.Reads, opts.F, limit)
	if err != nil {
		return nil, nil, err
	}
	wo, err := s.oracleFor(&s.Writes, opts.F, limit)
	if err != nil {
		return nil, nil, err
	}
	st, err := s.solve(ctx, ro, wo, obj, opts)
	if err != nil {
		return nil, nil, err
	}
	m, err := s.Evaluate(st, opts.Workload)
	if err != nil {
		return nil, nil, fmt.Errorf("rw: internal error: the optimal strategy does not evaluate: %w", err)
	}
	return st, m, nil
}

// column records what an LP column stands for.
type column struct {
	write bool
	q     *set.Set
}

func (s *System) solve(ctx context.Context, ro, wo oracle, obj Objective, opts Options) (*Strategy, error) {
	n, w := s.N, opts.Workload
	fr := w.Mean()
	fw := new(big.Rat).Sub(ratOne, fr)
	needLoad := obj == MinLoad || opts.LoadLimit != nil

	// Rows: the two sums, the node loads, the limits.
	kinds := []rowKind{rowEq, rowEq}
	rhs := []*big.Rat{ratOne, ratOne}
	nodeRow := func(fi, v int) int { return 2 + fi*n + v }
	if needLoad {
		for range len(w) * n {
			kinds = append(kinds, rowLe)
			rhs = append(rhs, ratZero)
		}
	}
	loadRow, latRow, netRow := -1, -1, -1
	addLimit := func(l *big.Rat) int {
		if l == nil {
			return -1
		}
		kinds = append(kinds, rowLe)
		rhs = append(rhs, l)
		return len(kinds) - 1
	}
	loadRow = addLimit(opts.LoadLimit)
	latRow = addLimit(opts.LatencyLimit)
	netRow = addLimit(opts.NetworkLimit)
	// The load variables, one per read fraction.
	var lcols [][]*big.Rat
	var lcost []*big.Rat
	if needLoad {
		minusOne := big.NewRat(-1, 1)
		for fi, f := range w {
			a := make([]*big.Rat, len(kinds))
			for v := range n {
				a[nodeRow(fi, v)] = minusOne
			}
			if loadRow >= 0 {
				a[loadRow] = f.Weight
			}
			c := ratZero
			if obj == MinLoad {
				c = f.Weight
			}
			lcols, lcost = append(lcols, a), append(lcost, c)
		}
	}

	// price returns the best column of one side under duals y (nil y:
	// all zero) and its reduced cost.
	price := func(write bool, y []*big.Rat, phase2 bool) (*set.Set, *big.Rat, []*big.Rat) {
		o, frac, sumRow := ro, fr, 0
		if write {
			o, frac, sumRow = wo, fw, 1
		}
		dual := func(r int) *big.Rat {
			if y == nil || r < 0 {
				return ratZero
			}
			return y[r]
		}
		var prod big.Rat
		weight := make([]*big.Rat, n)
		perNode := new(big.Rat)
		if phase2 && obj == MinNetwork {
			perNode.Add(perNode, ratOne)
		}
		perNode.Sub(perNode, dual(netRow))
		perNode.Mul(perNode, frac)
		for v := range n {
			wv := new(big.Rat).Set(perNode)
			if needLoad {
				capv := s.Nodes[v].ReadCapacity
				if write {
					capv = s.Nodes[v].WriteCapacity
				}
				for fi, f := range w {
					share := f.Read
					if write {
						share = new(big.Rat).Sub(ratOne, f.Read)
					}
					if d := dual(nodeRow(fi, v)); d.Sign() != 0 {
						wv.Sub(wv, prod.Quo(prod.Mul(d, share), capv))
					}
				}
			}
			weight[v] = wv
		}
		latPrice := new(big.Rat)
		if phase2 && obj == MinLatency {
			latPrice.Add(latPrice, ratOne)
		}
		latPrice.Sub(latPrice, dual(latRow))
		latPrice.Mul(latPrice, frac)
		q, c := o.best(weight, latPrice)
		if q == nil {
			return nil, nil, nil
		}
		c = new(big.Rat).Sub(c, dual(sumRow))
		// The column itself.
		a := make([]*big.Rat, len(kinds))
		a[sumRow] = ratOne
		if needLoad {
			for v := range q.All() {
				capv := s.Nodes[v].ReadCapacity
				if write {
					capv = s.Nodes[v].WriteCapacity
				}
				for fi, f := range w {
					share := f.Read
					if write {
						share = new(big.Rat).Sub(ratOne, f.Read)
					}
					if share.Sign() != 0 {
						a[nodeRow(fi, v)] = new(big.Rat).Quo(share, capv)
					}
				}
			}
		}
		size := new(big.Rat).Mul(big.NewRat(int64(q.Len()), 1), frac)
		side := &s.Reads
		if write {
			side = &s.Writes
		}
		lat := new(big.Rat).Mul(s.quorumLatency(side, q), frac)
		if netRow >= 0 {
			a[netRow] = size
		}
		if latRow >= 0 {
			a[latRow] = lat
		}
		return q, c, a
	}
	cost := func(write bool, q *set.Set) *big.Rat {
		frac, side := fr, &s.Reads
		if write {
			frac, side = fw, &s.Writes
		}
		switch obj {
		case MinNetwork:
			return new(big.Rat).Mul(big.NewRat(int64(q.Len()), 1), frac)
		case MinLatency:
			return new(big.Rat).Mul(s.quorumLatency(side, q), frac)
		}
		return ratZero
	}
	// Column generation in floating point finds the quorums and an
	// optimal basis fast; the exact program then starts from that basis
	// and runs the same column generation in rationals, which proves the
	// optimum (usually without a pivot) or corrects it.
	var found []column
	var foundA [][]*big.Rat
	seed := func() []int {
		var js []int
		for _, write := range []bool{false, true} {
			q, _, a := price(write, nil, false)
			if q == nil {
				return nil
			}
			found = append(found, column{write: write, q: q.Clone()})
			foundA = append(foundA, a)
			js = append(js, len(found)-1)
		}
		return js
	}
	if seed() == nil {
		return nil, fmt.Errorf("rw: a side has no quorum: %w", ErrNoStrategy)
	}
	fbasis, err := s.floatPhase(ctx, kinds, rhs, lcols, lcost, &found, &foundA, price, cost)
	if err != nil {
		return nil, err
	}

	p := newLP(kinds, rhs)
	cols := map[int]column{}
	for i, a := range lcols {
		p.addColumn(a, lcost[i])
	}
	add := func(c column, a []*big.Rat) int {
		j := p.addColumn(a, cost(c.write, c.q))
		cols[j] = c
		return j
	}
	if fbasis != nil {
		// Only the columns basic in the float optimum, pivoted in.
		exact := map[int]int{} // float column → exact column
		nl := len(lcols)
		for _, fj := range fbasis {
			switch {
			case fj < len(kinds):
				continue // a slack or artificial: already there
			case fj < len(kinds)+nl:
				exact[fj] = fj
			default:
				k := fj - len(kinds) - nl
				exact[fj] = add(found[k], foundA[k])
			}
		}
		if !p.install(fbasis, exact) {
			p = nil
		}
	}
	if p == nil || fbasis == nil {
		// Start afresh with every column the float phase found.
		p = newLP(kinds, rhs)
		cols = map[int]column{}
		for i, a := range lcols {
			p.addColumn(a, lcost[i])
		}
		for k := range found {
			add(found[k], foundA[k])
		}
	}

	for {
		if _, err := p.optimise(ctx); err != nil {
			return nil, err
		}
		y := p.duals()
		improved := false
		for _, write := range []bool{false, true} {
			q, c, a := price(write, y, p.phase == 2)
			if q != nil && c.Sign() < 0 {
				add(column{write: write, q: q.Clone()}, a)
				improved = true
			}
		}
		if improved {
			continue
		}
		if p.phase == 1 {
			if p.objective().Sign() > 0 {
				return nil, ErrNoStrategy
			}
			p.endPhase1()
			continue
		}
		break
	}

	st := &Strategy{}
	for j := range p.cost {
		c, ok := cols[j]
		if !ok {
			continue
		}
		if v := p.value(j); v.Sign() > 0 {
			ch := Choice{Quorum: c.q, P: new(big.Rat).Set(v)}
			if c.write {
				st.Writes = append(st.Writes, ch)
			} else {
				st.Reads = append(st.Reads, ch)
			}
		}
	}
	sortChoices(st.Reads)
	sortChoices(st.Writes)
	return st, nil
}

// sortChoices orders a side's choices by quorum (set.Compare), so that
// output does not depend on the order columns were found.
func sortChoices(cs []Choice) {
	slices.SortFunc(cs, func(a, b Choice) int { return set.Compare(a.Quorum, b.Quorum) })
}

// priceFunc prices one side under duals y (nil: all zero) in phase 1 or 2:
// the best quorum, its reduced cost and its LP column.
type priceFunc func(write bool, y []*big.Rat, phase2 bool) (*set.Set, *big.Rat, []*big.Rat)

// floatPhase runs column generation in floating point from the seed
// columns in *found, appending the columns it generates, and returns the
// optimal basis as float column indices (rows' slack or artificial
// columns first, then the load columns, then found's), or nil when it
// gives up or finds the program infeasible (the exact phase decides).
func (s *System) floatPhase(ctx context.Context, kinds []rowKind, rhs []*big.Rat, lcols [][]*big.Rat, lcost []*big.Rat,
	found *[]column, foundA *[][]*big.Rat, price priceFunc, cost func(bool, *set.Set) *big.Rat) ([]int, error) {
	toF := func(x *big.Rat) float64 {
		if x == nil {
			return 0
		}
		f, _ := x.Float64()
		return f
	}
	col := func(a []*big.Rat) []float64 {
		out := make([]float64, len(kinds))
		for r, v := range a {
			out[r] = toF(v)
		}
		return out
	}
	b := make([]float64, len(rhs))
	for r := range rhs {
		b[r] = toF(rhs[r])
	}
	p := newFLP(kinds, b)
	for i, a := range lcols {
		p.addColumn(col(a), toF(lcost[i]))
	}
	for k, c := range *found {
		p.addColumn(col((*foundA)[k]), toF(cost(c.write, c.q)))
	}
	negEps := big.NewRat(-1, 1_000_000_000)
	for range 10000 {
		ok, err := p.optimise(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil
		}
		yf := p.duals()
		y := make([]*big.Rat, len(yf))
		for r, v := range yf {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil
			}
			y[r] = new(big.Rat).SetFloat64(v)
		}
		improved := false
		for _, write := range []bool{false, true} {
			q, c, a := price(write, y, p.phase == 2)
			if q != nil && c.Cmp(negEps) < 0 {
				*found = append(*found, column{write: write, q: q.Clone()})
				*foundA = append(*foundA, a)
				p.addColumn(col(a), toF(cost(write, q)))
				improved = true
			}
		}
		if improved {
			continue
		}
		if p.phase == 1 {
			if p.objective() > eps {
				return nil, nil
			}
			p.endPhase1()
			continue
		}
		return append([]int(nil), p.basis...), nil
	}
	return nil, nil
}
