package measure

import (
	"context"
	"errors"
	"math"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/lp"
	"github.com/coterie-dev/coterie/set"
)

// Weight is one quorum's probability in an access strategy.
type Weight struct {
	Quorum int      // 0-based position in the family
	W      float64  // probability
	Exact  *big.Rat // the same, exactly; nil when not proven
}

// Load is the load of a family (Naor and Wool): the smallest, over all
// probability distributions w on the quorums (access strategies), of the
// largest probability that any one node is accessed,
//
//	L = min_w max_x Σ_{Q∋x} w(Q).
//
// Capacity is 1/L: the highest rate of accesses per unit of a node's
// service time the system sustains.
type Load struct {
	Value float64
	// Exact is the load as a fraction when it is proved (closed form, or an
	// LP optimum certified by a dual solution of equal value); nil if not.
	Exact *big.Rat
	// Method says how the value was found: [MethodThreshold],
	// [MethodRegular], [MethodClosedForm], [MethodLP] or [MethodBounds].
	Method LoadMethod
	// Strategy is an optimal strategy (quorums with positive weight), nil
	// for a threshold family (where it is uniform over all w-subsets).
	Strategy []Weight
	// NetworkLoad is the expected quorum size under Strategy — the mean
	// number of nodes an access contacts. On small systems (a dense LP of
	// about 2·10⁶ operations) the strategy is, among optimal ones, one
	// that makes it smallest; beyond, it is that of the optimal strategy
	// found.
	NetworkLoad      float64
	NetworkLoadExact *big.Rat
	// Lower and Upper, with Method "bounds", are proved bounds on the load
	// (Value is Upper, reached by Strategy); nil otherwise.
	Lower, Upper *big.Rat
}

// Capacity returns 1/L, exactly when the load is exact.
func (l *Load) Capacity() (float64, *big.Rat) {
	if l.Exact != nil && l.Exact.Sign() > 0 {
		c := new(big.Rat).Inv(l.Exact)
		f, _ := c.Float64()
		return f, c
	}
	return 1 / l.Value, nil
}

// LoadOptions bound the linear program.
type LoadOptions struct {
	// MaxCells is the largest LP the solver may build, in matrix cells
	// (n² for the inverse basis of n nodes); 0 means 50 million (400 MB of
	// float64). Beyond it LoadOf refuses with ErrTooLarge.
	MaxCells int
	// MaxWork bounds the work of the LP, counted as it runs in
	// floating-point and word operations (the simplex method's pivots and
	// the exact solution of its final basis); 0 means DefaultLoadWork.
	// Beyond it LoadOf returns proved bounds instead ([LoadBounds]), with
	// Method "bounds". A count, not a time: the answer is the same on
	// every machine.
	MaxWork float64
}

// DefaultLoadWork is LoadOptions.MaxWork's default: a few seconds on one
// core of a 2020s machine (Maekawa's sets for N = 1000 take about 5·10⁸).
const DefaultLoadWork = 2e9

// ErrTooLarge is returned (wrapped) when an LP would exceed
// LoadOptions.MaxCells.
var ErrTooLarge = errors.New("linear program too large")

// ErrLP is returned (wrapped) when the simplex method fails on the load LP,
// typically for numerical reasons (a near-singular basis).
var ErrLP = errors.New("the simplex method failed")

// LoadOf computes the load of f. Closed forms come first:
//
//   - A threshold family (all w-subsets of n nodes) has load w/n.
//
//   - A regular family — every quorum has c nodes and every node that is in
//     some quorum is in the same number d of them; call those nodes U —
//     has load c/|U|, reached by the uniform strategy. Proof: under the
//     uniform strategy node x is accessed with probability d/m, and counting
//     memberships twice gives m·c = |U|·d, so every node's load is c/|U|.
//     No strategy does better: for any w the loads of the nodes of U sum
//     to Σ_Q w(Q)·|Q| = c, so their average, hence their maximum, is at
//     least c/|U|. (Projective planes: (q+1)/(q²+q+1); the Fano plane 3/7.)
//
// Otherwise it solves the LP and then certifies the optimum exactly: a
// strategy and an optimal dual (a distribution y on nodes maximising
// min_Q y(Q)) are found in exact arithmetic, and if the strategy's maximum
// load equals the dual's minimum quorum weight the value is the load by LP
// duality and Exact is set. The LP is solved in its packing form by a
// sparse revised simplex method whose final basis is then solved exactly
// (see [packing] and [lp.SolveBasis]); the dense LP, solved by [lp.Float]
// and then exactly by [lp.Exact], is the fallback.
//
// An implicit family is listed by its construction when it has at most
// construct.ListLimit quorums; past that its construction's closed form
// gives the load (Exact, with no Strategy), or the error says why not.
func LoadOf(ctx context.Context, f *set.Family, opt LoadOptions) (*Load, error) {
	g, err := explicitFamily(ctx, f)
	if err != nil {
		return implicitLoad(f, err)
	}
	f = g
	if l, ok := closedForm(construct.Form(f)); ok {
		return l, nil // a threshold family: w/n
	}
	m := len(f.Quorums)
	if m == 0 {
		return nil, errors.New("measure: load of a family without quorums")
	}
	for q := range f.Quorums {
		if f.Quorums[q].IsEmpty() { // the empty quorum loads nobody
			l := &Load{Exact: new(big.Rat), Method: MethodLP, NetworkLoadExact: new(big.Rat)}
			l.Strategy = []Weight{{Quorum: q, W: 1, Exact: big.NewRat(1, 1)}}
			return l, nil
		}
	}
	if l := regularLoad(f); l != nil {
		return l, nil
	}
	if l := catalogueLoad(f); l != nil {
		return l, nil
	}
	return lpLoad(ctx, f, opt)
}

// regularLoad returns the closed-form load of a regular family, or nil.
func regularLoad(f *set.Family) *Load {
	c := f.Quorums[0].Len()
	for i := range f.Quorums {
		if f.Quorums[i].Len() != c {
			return nil
		}
	}
	deg := f.Degrees()
	d, used := 0, 0
	for _, x := range deg {
		if x == 0 {
			continue
		}
		if d == 0 {
			d = x
		}
		if x != d {
			return nil
		}
		used++
	}
	m := len(f.Quorums)
	l := &Load{Exact: big.NewRat(int64(c), int64(used)), Method: MethodRegular}
	l.Value, _ = l.Exact.Float64()
	w := big.NewRat(1, int64(m))
	wf, _ := w.Float64()
	for i := range m {
		l.Strategy = append(l.Strategy, Weight{Quorum: i, W: wf, Exact: w})
	}
	l.NetworkLoad, l.NetworkLoadExact = float64(c), big.NewRat(int64(c), 1)
	return l
}

// maxDenseWork bounds the estimated work of the dense LP (a tableau of
// every quorum, in floats and then in rationals), which [lpLoad] runs only
// on small systems: its tableau has a column per quorum and its
// rationals grow with every pivot.
const maxDenseWork = 2e6

// lpLoad solves the load LP and certifies it: by the packing simplex and
// an exact solution of its final basis ([packingLoad]); failing that, by
// the dense LP ([denseLoad]), when that LP is small enough. Among
// strategies of optimal load it then looks, on small systems, for one of
// the smallest expected quorum size.
func lpLoad(ctx context.Context, f *set.Family, opt LoadOptions) (*Load, error) {
	n, m := f.N, len(f.Quorums)
	maxCells := opt.MaxCells
	if maxCells == 0 {
		maxCells = 50_000_000
	}
	maxWork := opt.MaxWork
	if maxWork == 0 {
		maxWork = DefaultLoadWork
	}
	// The packing simplex takes about n pivots of up to n² operations
	// each (Maekawa's N = 1000 sets: 5·10⁸): past n³/8, bounds without
	// trying.
	if float64(n)*float64(n)*float64(n)/8 > maxWork {
		return boundedLoad(ctx, f)
	}
	if float64(n)*float64(n) > float64(maxCells) {
		return nil, errorf("load of %d quorums over %d nodes needs a %d-cell linear program: %w", m, n, int64(n)*int64(n), ErrTooLarge)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	members := make([][]int, m)
	for i := range f.Quorums {
		members[i] = f.Quorums[i].Elements()
	}
	// The dense LP's work, cells × (rows + columns), within both limits.
	denseWork := float64(n+1) * float64(m+n+1) * float64(2*n+m+2)
	dense := denseWork <= min(maxWork, maxDenseWork)
	l, err := packingLoad(ctx, n, members, maxWork)
	switch {
	case errors.Is(err, errPackingWork):
		return boundedLoad(ctx, f)
	case err != nil:
		return nil, err
	case l == nil && !dense:
		return boundedLoad(ctx, f)
	case l == nil:
		if l, err = denseLoad(ctx, f, members); err != nil {
			return nil, err
		}
	}
	if dense && l.Exact != nil && sizesDiffer(members) && ctx.Err() == nil {
		smallestNetwork(ctx, n, members, l)
	}
	return l, nil
}

// denseLoad solves the load LP,
//
//	minimise L subject to Σ_{Q∋x} w_Q − L ≤ 0 for each node x, Σ w_Q = 1,
//
// with [lp.Float], installs the float optimum's basis in [lp.Exact] and
// optimises it exactly; the strategy is the exact optimum's values, the
// dual (a distribution on the nodes) its duals, and [certifyGame] proves
// the two optimal before the load counts as exact.
func denseLoad(ctx context.Context, f *set.Family, members [][]int) (*Load, error) {
	n, m := f.N, len(members)
	w, y, L, err := denseGame(ctx, n, members)
	if err != nil {
		return nil, err
	}
	weights := make([]float64, m)
	for q := range m {
		weights[q], _ = w[q].Float64()
	}
	l := &Load{Method: MethodLP}
	l.Value, _ = L.Float64()
	if u := maxLoad(members, w, n); u != nil && u.Cmp(L) == 0 && certifyGame(n, members, w, y, L) {
		l.Exact = L
		l.setStrategy(members, weights, w)
	} else {
		l.setStrategy(members, weights, nil)
	}
	return l, nil
}

// denseGame solves the load LP exactly and returns the optimal strategy
// w (one weight per quorum), the dual y (a distribution on the nodes, the
// negated duals of the node rows) and the optimal load L, not yet
// certified.
func denseGame(ctx context.Context, n int, members [][]int) (w, y []*big.Rat, L *big.Rat, err error) {
	m := len(members)
	kinds := make([]lp.Kind, n+1)
	b := make([]*big.Rat, n+1)
	for x := range n {
		kinds[x], b[x] = lp.Le, new(big.Rat)
	}
	kinds[n], b[n] = lp.Eq, big.NewRat(1, 1)
	one, minusOne := big.NewRat(1, 1), big.NewRat(-1, 1)
	cols := make([][]*big.Rat, m+1)
	costs := make([]*big.Rat, m+1)
	for q, mem := range members {
		cols[q] = make([]*big.Rat, n+1)
		for _, x := range mem {
			cols[q][x] = one
		}
		cols[q][n] = one
		costs[q] = new(big.Rat)
	}
	cols[m] = make([]*big.Rat, n+1)
	for x := range n {
		cols[m][x] = minusOne
	}
	costs[m] = one
	p, err := solveExactLP(ctx, kinds, b, cols, costs)
	if err != nil {
		return nil, nil, nil, err
	}
	if p == nil {
		return nil, nil, nil, errorf("load LP: %w", ErrLP)
	}
	start := n + 1 // the rows' starting columns come first
	w = make([]*big.Rat, m)
	for q := range m {
		w[q] = new(big.Rat).Set(p.Value(start + q))
	}
	duals := p.Duals()
	y = make([]*big.Rat, n)
	for x := range n {
		y[x] = new(big.Rat).Neg(duals[x])
	}
	return w, y, new(big.Rat).Set(p.Objective()), nil
}

// solveExactLP solves minimise costs·x subject to cols·x (kinds) b, x ≥ 0
// to its exact optimum: [lp.Float] finds an optimal basis, which
// [lp.Exact] installs and optimises; when the float method stalls or its
// basis does not install, the exact method solves from scratch. Columns
// are numbered as in both programs: the rows' starting columns, then cols
// in order. It returns nil when the program is infeasible, and ctx's error
// once ctx ends.
func solveExactLP(ctx context.Context, kinds []lp.Kind, b []*big.Rat, cols [][]*big.Rat, costs []*big.Rat) (*lp.Exact, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	toF := func(x *big.Rat) float64 {
		if x == nil {
			return 0
		}
		v, _ := x.Float64()
		return v
	}
	bf := make([]float64, len(b))
	for r := range b {
		bf[r] = toF(b[r])
	}
	fp := lp.NewFloat(kinds, bf)
	a := make([]float64, len(b))
	for j, col := range cols {
		for r := range a {
			a[r] = toF(col[r])
		}
		fp.AddColumn(a, toF(costs[j]))
	}
	var fbasis []int
	for range 2 {
		ok, err := fp.Optimise(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if fp.Phase() == 1 {
			if fp.Objective() > lp.Eps {
				break
			}
			fp.EndPhase1()
			continue
		}
		fbasis = fp.Basis()
		break
	}
	build := func() *lp.Exact {
		p := lp.NewExact(kinds, b)
		for j, col := range cols {
			p.AddColumn(col, costs[j])
		}
		return p
	}
	if fbasis != nil {
		p := build()
		exact := map[int]int{}
		for _, fj := range fbasis {
			if fj >= len(b) {
				exact[fj] = fj
			}
		}
		if p.Install(fbasis, exact) {
			if _, err := p.Optimise(ctx); err != nil {
				return nil, err
			}
			return p, nil
		}
	}
	p := build()
	if _, err := p.Optimise(ctx); err != nil {
		return nil, err
	}
	if p.Objective().Sign() != 0 {
		return nil, nil // infeasible
	}
	p.EndPhase1()
	if _, err := p.Optimise(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// setStrategy sets l's strategy and network load from the weights, exact
// when exactW is not nil.
func (l *Load) setStrategy(members [][]int, weights []float64, exactW []*big.Rat) {
	l.Strategy = nil
	net, netExact := 0.0, new(big.Rat)
	for q, w := range weights {
		if w <= 1e-12 {
			continue
		}
		wt := Weight{Quorum: q, W: math.Max(w, 0)}
		if exactW != nil {
			wt.Exact = exactW[q]
			wt.W, _ = exactW[q].Float64()
			if exactW[q].Sign() == 0 {
				continue
			}
			netExact.Add(netExact, new(big.Rat).Mul(exactW[q], big.NewRat(int64(len(members[q])), 1)))
		}
		net += wt.W * float64(len(members[q]))
		l.Strategy = append(l.Strategy, wt)
	}
	l.NetworkLoad, l.NetworkLoadExact = net, nil
	if exactW != nil {
		l.NetworkLoadExact = netExact
		l.NetworkLoad, _ = netExact.Float64()
	}
}

// smallestNetwork replaces l's strategy, of exact load l.Exact, by one of
// the same load and the smallest expected quorum size: the exact optimum
// of minimise Σ w_Q |Q| subject to Σ_{Q∋x} w_Q ≤ L for each node x and
// Σ w = 1, kept only if its busiest node carries exactly L. Among
// strategies of that least expected size it is the one the simplex method
// ends at from the float optimum's basis.
func smallestNetwork(ctx context.Context, n int, members [][]int, l *Load) {
	m := len(members)
	kinds := make([]lp.Kind, n+1)
	b := make([]*big.Rat, n+1)
	for x := range n {
		kinds[x], b[x] = lp.Le, l.Exact
	}
	kinds[n], b[n] = lp.Eq, big.NewRat(1, 1)
	one := big.NewRat(1, 1)
	cols := make([][]*big.Rat, m)
	costs := make([]*big.Rat, m)
	for q, mem := range members {
		cols[q] = make([]*big.Rat, n+1)
		for _, x := range mem {
			cols[q][x] = one
		}
		cols[q][n] = one
		costs[q] = big.NewRat(int64(len(mem)), 1)
	}
	p, err := solveExactLP(ctx, kinds, b, cols, costs)
	if err != nil || p == nil {
		return
	}
	w := make([]*big.Rat, m)
	wf := make([]float64, m)
	for q := range m {
		w[q] = new(big.Rat).Set(p.Value(n + 1 + q))
		wf[q], _ = w[q].Float64()
	}
	if u := maxLoad(members, w, n); u != nil && u.Cmp(l.Exact) == 0 {
		l.setStrategy(members, wf, w)
	}
}

func sizesDiffer(members [][]int) bool {
	for _, mem := range members {
		if len(mem) != len(members[0]) {
			return true
		}
	}
	return false
}

// certifyGame proves with [lp.Certify] that the strategy w has the
// optimal load L, with the distribution y on the nodes as the dual: the
// load LP is minimise L subject to Σ_{Q∋x} w_Q − L ≤ 0 for each node x,
// Σ w_Q = 1, w ≥ 0, L ≥ 0; its dual is −y on the node rows and L on the
// sum row.
func certifyGame(n int, members [][]int, w, y []*big.Rat, L *big.Rat) bool {
	one, minusOne := big.NewRat(1, 1), big.NewRat(-1, 1)
	m := len(members)
	prog := &lp.Program{Kinds: make([]lp.Kind, n+1), B: make([]*big.Rat, n+1), C: make([]*big.Rat, m+1), Cols: make([][]lp.Entry, m+1)}
	for x := range n {
		prog.Kinds[x] = lp.Le
	}
	prog.Kinds[n], prog.B[n] = lp.Eq, one
	total := 0
	for _, mem := range members {
		total += len(mem) + 1
	}
	flat := make([]lp.Entry, 0, total) // one allocation for every column
	for q, mem := range members {
		start := len(flat)
		for _, x := range mem {
			flat = append(flat, lp.Entry{Row: x, Val: one})
		}
		flat = append(flat, lp.Entry{Row: n, Val: one})
		prog.Cols[q] = flat[start:len(flat):len(flat)]
	}
	last := make([]lp.Entry, n)
	for x := range n {
		last[x] = lp.Entry{Row: x, Val: minusOne}
	}
	prog.Cols[m], prog.C[m] = last, one
	xs := append(slices.Clone(w), L)
	ys := make([]*big.Rat, n+1)
	for x := range n {
		if y[x] != nil {
			ys[x] = new(big.Rat).Neg(y[x])
		}
	}
	ys[n] = L
	v := lp.Certify(prog, xs, ys)
	return v != nil && v.Cmp(L) == 0
}

// maxLoad returns the busiest node's load under the exact strategy w, or
// nil if w is not a distribution.
func maxLoad(members [][]int, w []*big.Rat, n int) *big.Rat {
	sum := new(big.Rat)
	for _, v := range w {
		if v.Sign() < 0 {
			return nil
		}
		sum.Add(sum, v)
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		return nil
	}
	load := make([]*big.Rat, n)
	for i := range load {
		load[i] = new(big.Rat)
	}
	for q, mem := range members {
		if w[q].Sign() == 0 {
			continue
		}
		for _, x := range mem {
			load[x].Add(load[x], w[q])
		}
	}
	upper := new(big.Rat)
	for _, v := range load {
		if v.Cmp(upper) > 0 {
			upper = v
		}
	}
	return upper
}
