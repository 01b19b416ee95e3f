package rw

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/lp"
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
	ro, err := s.oracleFor(ctx, &s.Reads, opts.F, limit)
	if err != nil {
		return nil, nil, err
	}
	wo, err := s.oracleFor(ctx, &s.Writes, opts.F, limit)
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

// solver is the linear program of an optimal strategy: its rows (the two
// sums, the node loads per read fraction, the limits, the marginal groups)
// and the columns known before pricing (the load variables and the
// marginals).
type solver struct {
	s        *System
	ro, wo   oracle
	obj      Objective
	w        Workload
	marg     [2][][]int
	fr, fw   *big.Rat // the mean read and write fractions
	needLoad bool

	kinds                   []lp.Kind
	rhs                     []*big.Rat
	loadRow, latRow, netRow int // -1 when absent
	groupRow                [2][]int

	lcols  [][]*big.Rat // the columns known before pricing
	lcost  []*big.Rat
	zvars  []zvar // the marginal columns, from zstart in lcols
	zstart int
}

// zvar is a marginal variable: node's probability of being in the side's
// quorum, within its group.
type zvar struct {
	write bool
	group int
	node  int
}

func (s *System) solve(ctx context.Context, ro, wo oracle, obj Objective, opts Options, marg [2][][]int) (*Strategy, error) {
	v := newSolver(s, ro, wo, obj, opts, marg)
	// Column generation in floating point finds the quorums and an
	// optimal basis fast; the exact program then starts from that basis
	// and runs the same column generation in rationals, which proves the
	// optimum (usually without a pivot) or corrects it.
	var found []column
	var foundA [][]*big.Rat
	for i, write := range []bool{false, true} {
		if marg[i] != nil {
			continue
		}
		q, _, a := v.price(write, nil, false)
		if q == nil {
			return nil, fmt.Errorf("rw: a side has no quorum: %w", ErrNoStrategy)
		}
		found = append(found, column{write: write, q: q.Clone()})
		foundA = append(foundA, a)
	}
	fbasis, err := s.floatPhase(ctx, v.kinds, v.rhs, v.lcols, v.lcost, &found, &foundA, v.price, v.cost)
	if err != nil {
		return nil, err
	}
	p, cols := v.exactLP(fbasis, found, foundA)
	if err := v.generate(ctx, p, cols); err != nil {
		return nil, err
	}
	return v.strategy(p, cols), nil
}

// newSolver lays out the rows and the columns known before pricing.
func newSolver(s *System, ro, wo oracle, obj Objective, opts Options, marg [2][][]int) *solver {
	w := opts.Workload
	fr := w.Mean()
	v := &solver{s: s, ro: ro, wo: wo, obj: obj, w: w, marg: marg, fr: fr, fw: new(big.Rat).Sub(ratOne, fr),
		needLoad: obj == MinLoad || opts.LoadLimit != nil}
	// Rows: the two sums, the node loads, the limits.
	v.kinds = []lp.Kind{lp.Eq, lp.Eq}
	v.rhs = []*big.Rat{ratOne, ratOne}
	if v.needLoad {
		for range len(w) * s.N {
			v.kinds = append(v.kinds, lp.Le)
			v.rhs = append(v.rhs, ratZero)
		}
	}
	addLimit := func(l *big.Rat) int {
		if l == nil {
			return -1
		}
		v.kinds = append(v.kinds, lp.Le)
		v.rhs = append(v.rhs, l)
		return len(v.kinds) - 1
	}
	v.loadRow = addLimit(opts.LoadLimit)
	v.latRow = addLimit(opts.LatencyLimit)
	v.netRow = addLimit(opts.NetworkLimit)
	// Group rows of marginal sides: group 0 uses the side's sum row.
	for side := range 2 {
		for b := range marg[side] {
			if b == 0 {
				v.groupRow[side] = append(v.groupRow[side], side)
				continue
			}
			v.kinds = append(v.kinds, lp.Eq)
			v.rhs = append(v.rhs, ratOne)
			v.groupRow[side] = append(v.groupRow[side], len(v.kinds)-1)
		}
	}
	v.loadColumns()
	v.marginalColumns()
	return v
}

// nodeRow is the row of node's load at read fraction fi.
func (v *solver) nodeRow(fi, node int) int { return 2 + fi*v.s.N + node }

// frac is the mean fraction of operations on a side.
func (v *solver) frac(write bool) *big.Rat {
	if write {
		return v.fw
	}
	return v.fr
}

// share is the part of read fraction f's operations that go to a side.
func share(write bool, f Fraction) *big.Rat {
	if write {
		return new(big.Rat).Sub(ratOne, f.Read)
	}
	return f.Read
}

// capacity is node's capacity on a side.
func (v *solver) capacity(write bool, node int) *big.Rat {
	if write {
		return v.s.Nodes[node].WriteCapacity
	}
	return v.s.Nodes[node].ReadCapacity
}

// setLoads sets, in column a, the load that node puts on its rows when it
// is in a quorum of the side: its share of each read fraction over its
// capacity.
func (v *solver) setLoads(a []*big.Rat, write bool, node int) {
	capv := v.capacity(write, node)
	for fi, f := range v.w {
		if sh := share(write, f); sh.Sign() != 0 {
			a[v.nodeRow(fi, node)] = new(big.Rat).Quo(sh, capv)
		}
	}
}

// loadColumns adds the load variables, one per read fraction.
func (v *solver) loadColumns() {
	if !v.needLoad {
		return
	}
	minusOne := big.NewRat(-1, 1)
	for fi, f := range v.w {
		a := make([]*big.Rat, len(v.kinds))
		for node := range v.s.N {
			a[v.nodeRow(fi, node)] = minusOne
		}
		if v.loadRow >= 0 {
			a[v.loadRow] = f.Weight
		}
		c := ratZero
		if v.obj == MinLoad {
			c = f.Weight
		}
		v.lcols, v.lcost = append(v.lcols, a), append(v.lcost, c)
	}
}

// marginalColumns adds the marginal variables of the sides given by
// groups: node's probability of being in the side's quorum.
func (v *solver) marginalColumns() {
	v.zstart = len(v.lcols)
	for side := range 2 {
		write := side == 1
		frac := v.frac(write)
		for b, grp := range v.marg[side] {
			for _, node := range grp {
				a := make([]*big.Rat, len(v.kinds))
				a[v.groupRow[side][b]] = ratOne
				if v.needLoad {
					v.setLoads(a, write, node)
				}
				if v.netRow >= 0 {
					a[v.netRow] = frac
				}
				c := ratZero
				if v.obj == MinNetwork {
					c = frac
				}
				v.lcols, v.lcost = append(v.lcols, a), append(v.lcost, c)
				v.zvars = append(v.zvars, zvar{write: write, group: b, node: node})
			}
		}
	}
}

// price returns the best column of one side under duals y (nil y: all
// zero) and its reduced cost.
func (v *solver) price(write bool, y []*big.Rat, phase2 bool) (*set.Set, *big.Rat, []*big.Rat) {
	o, frac, sumRow := v.ro, v.fr, 0
	if write {
		o, frac, sumRow = v.wo, v.fw, 1
	}
	if v.marg[sumRow] != nil {
		return nil, nil, nil // the marginals cover the side
	}
	dual := func(r int) *big.Rat {
		if y == nil || r < 0 {
			return ratZero
		}
		return y[r]
	}
	var prod big.Rat
	n := v.s.N
	weight := make([]*big.Rat, n)
	perNode := new(big.Rat)
	if phase2 && v.obj == MinNetwork {
		perNode.Add(perNode, ratOne)
	}
	perNode.Sub(perNode, dual(v.netRow))
	perNode.Mul(perNode, frac)
	shares := make([]*big.Rat, len(v.w))
	for fi, f := range v.w {
		shares[fi] = share(write, f)
	}
	for node := range n {
		wv := new(big.Rat).Set(perNode)
		if v.needLoad {
			capv := v.capacity(write, node)
			for fi := range v.w {
				if d := dual(v.nodeRow(fi, node)); d.Sign() != 0 {
					wv.Sub(wv, prod.Quo(prod.Mul(d, shares[fi]), capv))
				}
			}
		}
		weight[node] = wv
	}
	latPrice := new(big.Rat)
	if phase2 && v.obj == MinLatency {
		latPrice.Add(latPrice, ratOne)
	}
	latPrice.Sub(latPrice, dual(v.latRow))
	latPrice.Mul(latPrice, frac)
	q, c := o.best(weight, latPrice)
	if q == nil {
		return nil, nil, nil
	}
	c = new(big.Rat).Sub(c, dual(sumRow))
	// The column itself.
	a := make([]*big.Rat, len(v.kinds))
	a[sumRow] = ratOne
	if v.needLoad {
		for node := range q.All() {
			v.setLoads(a, write, node)
		}
	}
	if v.netRow >= 0 {
		a[v.netRow] = new(big.Rat).Mul(big.NewRat(int64(q.Len()), 1), frac)
	}
	if v.latRow >= 0 {
		a[v.latRow] = new(big.Rat).Mul(v.s.quorumLatency(v.side(write), q), frac)
	}
	return q, c, a
}

// side returns the read or the write side of the system.
func (v *solver) side(write bool) *Side {
	if write {
		return &v.s.Writes
	}
	return &v.s.Reads
}

// cost is the objective's cost of quorum q of a side.
func (v *solver) cost(write bool, q *set.Set) *big.Rat {
	switch v.obj {
	case MinNetwork:
		return new(big.Rat).Mul(big.NewRat(int64(q.Len()), 1), v.frac(write))
	case MinLatency:
		return new(big.Rat).Mul(v.s.quorumLatency(v.side(write), q), v.frac(write))
	}
	return ratZero
}

// exactLP builds the exact program: from the float optimum's basis when
// it installs, otherwise afresh with every column the float phase found.
// cols says which exact columns are quorums.
func (v *solver) exactLP(fbasis []int, found []column, foundA [][]*big.Rat) (*lp.Exact, map[int]column) {
	var p *lp.Exact
	var cols map[int]column
	start := func() {
		p, cols = lp.NewExact(v.kinds, v.rhs), map[int]column{}
		for i, a := range v.lcols {
			p.AddColumn(a, v.lcost[i])
		}
	}
	add := func(c column, a []*big.Rat) int {
		j := p.AddColumn(a, v.cost(c.write, c.q))
		cols[j] = c
		return j
	}
	if fbasis != nil {
		start()
		// Only the columns basic in the float optimum, pivoted in.
		exact := map[int]int{} // float column → exact column
		nl := len(v.lcols)
		for _, fj := range fbasis {
			switch {
			case fj < len(v.kinds):
				continue // a slack or artificial: already there
			case fj < len(v.kinds)+nl:
				exact[fj] = fj
			default:
				k := fj - len(v.kinds) - nl
				exact[fj] = add(found[k], foundA[k])
			}
		}
		if p.Install(fbasis, exact) {
			return p, cols
		}
	}
	start()
	for k := range found {
		add(found[k], foundA[k])
	}
	return p, cols
}

// generate runs column generation on p to the proved optimum, adding to
// cols the quorums it prices in.
func (v *solver) generate(ctx context.Context, p *lp.Exact, cols map[int]column) error {
	for {
		if _, err := p.Optimise(ctx); err != nil {
			return err
		}
		y := p.Duals()
		improved := false
		for _, write := range []bool{false, true} {
			q, c, a := v.price(write, y, p.Phase() == 2)
			if q != nil && c.Sign() < 0 {
				j := p.AddColumn(a, v.cost(write, q))
				cols[j] = column{write: write, q: q.Clone()}
				improved = true
			}
		}
		switch {
		case improved:
		case p.Phase() == 1:
			if p.Objective().Sign() > 0 {
				return ErrNoStrategy
			}
			p.EndPhase1()
		default:
			// No column prices in: the oracle has shown that no quorum
			// left out improves, and lp.Certify proves the basis optimal
			// on the columns in the program.
			if v, _ := p.Certify(y); v == nil {
				return fmt.Errorf("rw: the strategy LP's optimum fails its exact certification")
			}
			return nil
		}
	}
}

// strategy reads the optimal strategy off p: the quorum columns with
// positive value, and the marginals split into quorums.
func (v *solver) strategy(p *lp.Exact, cols map[int]column) *Strategy {
	st := &Strategy{}
	for j := range p.Columns() {
		c, ok := cols[j]
		if !ok {
			continue
		}
		if val := p.Value(j); val.Sign() > 0 {
			ch := Choice{Quorum: c.q, P: new(big.Rat).Set(val)}
			if c.write {
				st.Writes = append(st.Writes, ch)
			} else {
				st.Reads = append(st.Reads, ch)
			}
		}
	}
	m := len(v.kinds)
	for side := range 2 {
		if v.marg[side] == nil || len(v.zvars) == 0 {
			continue
		}
		groups := make([][]zmass, len(v.marg[side]))
		for k, z := range v.zvars {
			if z.write != (side == 1) {
				continue
			}
			if val := p.Value(m + v.zstart + k); val.Sign() > 0 {
				groups[z.group] = append(groups[z.group], zmass{z.node, val})
			}
		}
		cs := splitMarginals(groups, v.s.N)
		if side == 1 {
			st.Writes = append(st.Writes, cs...)
		} else {
			st.Reads = append(st.Reads, cs...)
		}
	}
	sortChoices(st.Reads)
	sortChoices(st.Writes)
	return st
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
func (s *System) floatPhase(ctx context.Context, kinds []lp.Kind, rhs []*big.Rat, lcols [][]*big.Rat, lcost []*big.Rat,
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
	p := lp.NewFloat(kinds, b)
	for i, a := range lcols {
		p.AddColumn(col(a), toF(lcost[i]))
	}
	for k, c := range *found {
		p.AddColumn(col((*foundA)[k]), toF(cost(c.write, c.q)))
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
		ok, err := p.Optimise(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil
		}
		yf := p.Duals()
		y := make([]*big.Rat, len(yf))
		for r, v := range yf {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil
			}
			y[r] = new(big.Rat).SetFloat64(v)
		}
		improved := false
		for _, write := range []bool{false, true} {
			q, c, a := price(write, y, p.Phase() == 2)
			if q != nil && c.Cmp(negEps) < 0 && !have[key(write, q)] {
				have[key(write, q)] = true
				*found = append(*found, column{write: write, q: q.Clone()})
				*foundA = append(*foundA, a)
				p.AddColumn(col(a), toF(cost(write, q)))
				improved = true
			}
		}
		if improved {
			continue
		}
		if p.Phase() == 1 {
			if p.Objective() > lp.Eps {
				return nil, nil
			}
			p.EndPhase1()
			continue
		}
		return p.Basis(), nil
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

var (
	ratZero = new(big.Rat)
	ratOne  = big.NewRat(1, 1)
)
