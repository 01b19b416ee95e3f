package rw

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/expr"
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
// improves; latency is priced by trying each node latency as a cap. A side
// that is a product of sums of nodes enters by its node marginals instead.
// The generation runs first in floating point; the exact program then
// starts from the basis found and proves it optimal with exact prices (or
// pivots on to the optimum). Systems of more than 32 nodes that
// [System.ClosedForm] covers are answered by the closed form, with the
// uniform strategy.
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
			st := s.uniformStrategy()
			if !st.Uniform {
				// Listed: evaluate the strategy itself (latency included).
				var err error
				if m, err = s.Evaluate(st, opts.Workload); err != nil {
					return nil, nil, err
				}
			}
			return st, m, nil
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
	// A side that is a product of disjoint sums of nodes (one node of each
	// group, like a grid's write quorums) enters by its node marginals:
	// one variable per node, one row per group, instead of a column per
	// quorum; the optimum is then split into quorums exactly. The latency
	// of such a quorum is not a function of the marginals, so latency
	// objectives and limits, and f > 0, keep the quorum columns.
	var marg [2][][]int
	if opts.F == 0 && obj != MinLatency && opts.LatencyLimit == nil && !opts.noMarginals {
		for i, sd := range []*Side{&s.Reads, &s.Writes} {
			if b, ok := productBlocks(sd.Expr); ok {
				marg[i] = b
			}
		}
	}
	st, err := s.solve(ctx, ro, wo, obj, opts, marg)
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

func (s *System) solve(ctx context.Context, ro, wo oracle, obj Objective, opts Options, marg [2][][]int) (*Strategy, error) {
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
	// Group rows of marginal sides: group 0 uses the side's sum row.
	var groupRow [2][]int
	for side := range 2 {
		for b := range marg[side] {
			if b == 0 {
				groupRow[side] = append(groupRow[side], side)
				continue
			}
			kinds = append(kinds, rowEq)
			rhs = append(rhs, ratOne)
			groupRow[side] = append(groupRow[side], len(kinds)-1)
		}
	}
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

	// The marginal variables: node v's probability of being in the
	// side's quorum.
	type zvar struct {
		write bool
		group int
		node  int
	}
	var zvars []zvar
	zstart := len(lcols)
	for side := range 2 {
		write := side == 1
		frac := fr
		if write {
			frac = fw
		}
		for b, grp := range marg[side] {
			for _, v := range grp {
				a := make([]*big.Rat, len(kinds))
				a[groupRow[side][b]] = ratOne
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
						if share.Sign() != 0 {
							a[nodeRow(fi, v)] = new(big.Rat).Quo(share, capv)
						}
					}
				}
				if netRow >= 0 {
					a[netRow] = frac
				}
				c := ratZero
				if obj == MinNetwork {
					c = frac
				}
				lcols, lcost = append(lcols, a), append(lcost, c)
				zvars = append(zvars, zvar{write: write, group: b, node: v})
			}
		}
	}

	// price returns the best column of one side under duals y (nil y:
	// all zero) and its reduced cost.
	price := func(write bool, y []*big.Rat, phase2 bool) (*set.Set, *big.Rat, []*big.Rat) {
		o, frac, sumRow := ro, fr, 0
		if write {
			o, frac, sumRow = wo, fw, 1
		}
		if marg[sumRow] != nil {
			return nil, nil, nil // the marginals cover the side
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
	seed := func() bool {
		for i, write := range []bool{false, true} {
			if marg[i] != nil {
				continue
			}
			q, _, a := price(write, nil, false)
			if q == nil {
				return false
			}
			found = append(found, column{write: write, q: q.Clone()})
			foundA = append(foundA, a)
		}
		return true
	}
	if !seed() {
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
	// Split the marginals into quorums.
	if len(zvars) > 0 {
		m := len(kinds)
		for side := range 2 {
			if marg[side] == nil {
				continue
			}
			groups := make([][]zmass, len(marg[side]))
			for k, z := range zvars {
				if z.write != (side == 1) {
					continue
				}
				if v := p.value(m + zstart + k); v.Sign() > 0 {
					groups[z.group] = append(groups[z.group], zmass{z.node, v})
				}
			}
			cs := splitMarginals(groups, s.N)
			if side == 1 {
				st.Writes = append(st.Writes, cs...)
			} else {
				st.Reads = append(st.Reads, cs...)
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
	// Rounding can make a column already in the program look improving;
	// it is not added twice.
	have := map[string]bool{}
	key := func(write bool, q *set.Set) string { return fmt.Sprint(write, q) }
	for _, c := range *found {
		have[key(c.write, c.q)] = true
	}
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
			if q != nil && c.Cmp(negEps) < 0 && !have[key(write, q)] {
				have[key(write, q)] = true
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

// productBlocks reports whether e is a product of sums of nodes over
// disjoint groups ((a + b)*(c + d), a lone sum, or a lone node), and returns
// the groups.
func productBlocks(e *expr.Expr) ([][]int, bool) {
	if !e.ReadOnce() {
		return nil, false
	}
	group := func(g *expr.Expr) ([]int, bool) {
		switch g.Op {
		case expr.Leaf:
			return []int{g.Node}, true
		case expr.Or:
			var out []int
			for _, a := range g.Args {
				if a.Op != expr.Leaf {
					return nil, false
				}
				out = append(out, a.Node)
			}
			return out, true
		}
		return nil, false
	}
	if e.Op != expr.And {
		g, ok := group(e)
		if !ok {
			return nil, false
		}
		return [][]int{g}, true
	}
	var out [][]int
	for _, a := range e.Args {
		g, ok := group(a)
		if !ok {
			return nil, false
		}
		out = append(out, g)
	}
	return out, true
}

// zmass is one node's marginal in its group.
type zmass struct {
	node int
	p    *big.Rat
}

// splitMarginals turns per-group marginals (each group's masses sum to 1)
// into a distribution over quorums with one node per group and exactly
// those marginals: lay each group's masses end to end on [0, 1), cut at
// every group's boundaries, and take from each piece the node of every
// group that covers it. There are at most Σ(group sizes) − groups + 1
// quorums.
func splitMarginals(groups [][]zmass, n int) []Choice {
	var cuts []*big.Rat
	for _, g := range groups {
		c := new(big.Rat)
		for _, z := range g[:len(g)-1] {
			c = new(big.Rat).Add(c, z.p)
			cuts = append(cuts, c)
		}
	}
	slices.SortFunc(cuts, func(a, b *big.Rat) int { return a.Cmp(b) })
	cuts = slices.CompactFunc(cuts, func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })
	cuts = append(cuts, big.NewRat(1, 1))
	var out []Choice
	start := new(big.Rat)
	for _, end := range cuts {
		if end.Cmp(start) <= 0 {
			continue
		}
		q := set.New(n)
		for _, g := range groups {
			c := new(big.Rat)
			for i, z := range g {
				c.Add(c, z.p)
				if c.Cmp(start) > 0 || i == len(g)-1 {
					q.Add(z.node)
					break
				}
			}
		}
		out = append(out, Choice{Quorum: q, P: new(big.Rat).Sub(end, start)})
		start = end
	}
	return out
}
