package measure

import (
	"context"
	"errors"
	"math"
	"math/big"
	"slices"

	"gonum.org/v1/gonum/mat"
	gonumlp "gonum.org/v1/gonum/optimize/convex/lp"

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

// simplex runs gonum's simplex method on the standard-form LP (minimise
// cᵀx subject to Ax = b, x ≥ 0) and returns ctx's error once ctx ends.
// gonum's solver takes no context, but it reads A in every iteration (the
// entering column): it reads it here through a matrix that looks at ctx
// every 1024 reads and panics once ctx is done, and the panic is
// recovered, so that the solver stops within an iteration and nothing
// goes on in the background.
func simplex(ctx context.Context, c []float64, A mat.Matrix, b []float64) (opt float64, x []float64, err error) {
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			st, ok := r.(simplexStopped)
			if !ok {
				panic(r)
			}
			opt, x, err = 0, nil, st.err
		}
	}()
	return gonumlp.Simplex(c, &watchedMatrix{Matrix: A, ctx: ctx}, b, 1e-10, nil)
}

// watchedMatrix is a matrix whose At panics with simplexStopped once its
// context is done (looked at every 1024 reads).
type watchedMatrix struct {
	mat.Matrix
	ctx   context.Context
	reads int
}

// simplexStopped is the panic that stops gonum's simplex method.
type simplexStopped struct{ err error }

// At returns the element (i, j), or panics with simplexStopped once the
// context is done.
func (w *watchedMatrix) At(i, j int) float64 {
	if w.reads++; w.reads%1024 == 0 {
		if err := w.ctx.Err(); err != nil {
			panic(simplexStopped{err})
		}
	}
	return w.Matrix.At(i, j)
}

// T returns the transpose, read through w.
func (w *watchedMatrix) T() mat.Matrix { return mat.Transpose{Matrix: w} }

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
// (see [packing] and [lp.SolveBasis]); gonum's dense simplex is the fallback.
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

// maxDenseWork bounds the estimated work of gonum's dense simplex, which
// [lpLoad] runs only on small systems: its pivoting rule slows it down
// sharply beyond (minutes for a hundred nodes and quorums).
const maxDenseWork = 2e6

// lpLoad solves the load LP and certifies it: by the packing simplex and
// an exact solution of its final basis ([packingLoad]); failing that, by
// gonum's dense simplex and [certify], when that LP is small enough. Among
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

// denseLoad solves the load LP with gonum's simplex and certifies its
// optimum with [certify].
func denseLoad(ctx context.Context, f *set.Family, members [][]int) (*Load, error) {
	n, m := f.N, len(members)
	// Primal, in standard form: variables w (m), L, slack s (n);
	// Σ_{Q∋x} w_Q − L + s_x = 0 for each node x, Σ w_Q = 1; minimise L.
	A := mat.NewDense(n+1, m+1+n, nil)
	for q, mem := range members {
		for _, x := range mem {
			A.Set(x, q, 1)
		}
		A.Set(n, q, 1)
	}
	for x := range n {
		A.Set(x, m, -1)
		A.Set(x, m+1+x, 1)
	}
	b := make([]float64, n+1)
	b[n] = 1
	c := make([]float64, m+1+n)
	c[m] = 1
	best, x, err := simplex(ctx, c, A, b)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, errorf("load LP: %w: %w", ErrLP, err)
	}
	weights := x[:m]
	l := &Load{Value: best, Method: MethodLP}
	exactW, exactL := certify(ctx, f, members, weights)
	if exactL != nil {
		l.Exact = exactL
		l.Value, _ = exactL.Float64()
	}
	l.setStrategy(members, weights, exactW)
	return l, nil
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
// the same load and the smallest expected quorum size when it can prove
// it exactly: Σ_{Q∋x} w_Q + s_x = L for each x, Σ w = 1; minimise
// Σ w_Q |Q| (gonum's simplex), made exact by crossover and kept only if it
// is exactly feasible.
func smallestNetwork(ctx context.Context, n int, members [][]int, l *Load) {
	m := len(members)
	A2 := mat.NewDense(n+1, m+n, nil)
	for q, mem := range members {
		for _, x := range mem {
			A2.Set(x, q, 1)
		}
		A2.Set(n, q, 1)
	}
	for x := range n {
		A2.Set(x, m+x, 1)
	}
	b2 := make([]float64, n+1)
	for i := range n {
		b2[i] = l.Value * (1 + 1e-9)
	}
	b2[n] = 1
	c2 := make([]float64, m+n)
	for q, mem := range members {
		c2[q] = float64(len(mem))
	}
	_, x2, err := simplex(ctx, c2, A2, b2)
	if err != nil {
		return
	}
	w2 := x2[:m]
	if e := fixedLoadCrossover(members, w2, l.Exact, n); e != nil {
		l.setStrategy(members, w2, e)
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

// certify proves the LP's optimum exactly, or returns nils. It returns the
// exact optimal weights and the exact load.
//
// By weak LP duality, every strategy's busiest node carries at least
// min_Q y(Q) for every distribution y on the nodes, so a strategy w and a
// distribution y with max_x load_w(x) = min_Q y(Q) prove that value is the
// load. Both are recovered exactly from the floating-point optimum by
// crossover: the quorums the strategy uses (S) and the nodes it loads fully
// (T) fix the optimal vertex, whose coordinates solve small linear systems
// in exact rational arithmetic — the strategy from "every node of T carries
// L", the dual from "every quorum of S weighs t" (complementary slackness).
// When degeneracy leaves a system short of equations, rounding the floats to
// nearby fractions is tried instead. Every candidate is checked exactly
// against all nodes and quorums before it counts.
func certify(ctx context.Context, f *set.Family, members [][]int, weights []float64) ([]*big.Rat, *big.Rat) {
	n, m := f.N, len(members)
	const tol = 1e-9
	var S []int
	for q, w := range weights {
		if w > tol {
			S = append(S, q)
		}
	}
	load := make([]float64, n)
	for _, q := range S {
		for _, x := range members[q] {
			load[x] += weights[q]
		}
	}
	top := 0.0
	for _, v := range load {
		top = math.Max(top, v)
	}
	var T []int
	for x, v := range load {
		if v > top-1e-7 {
			T = append(T, x)
		}
	}
	if ctx.Err() != nil || len(S) == 0 || len(T) == 0 {
		return nil, nil
	}

	// Candidate strategies: the crossover solution, then roundings.
	var cands [][]*big.Rat
	if w := primalCrossover(members, S, T, m); w != nil {
		cands = append(cands, w)
	}
	for _, den := range []int64{1 << 10, 1 << 20, 1 << 30} {
		if w := normalised(weights, den); w != nil {
			cands = append(cands, w)
		}
	}
	var bestW []*big.Rat
	var upper *big.Rat
	for _, w := range cands {
		if u := maxLoad(members, w, n); u != nil && (upper == nil || u.Cmp(upper) < 0) {
			bestW, upper = w, u
		}
	}
	if upper == nil {
		return nil, nil
	}
	// Candidate duals: the crossover solution, then a reduced dual LP.
	if y := dualCrossover(members, S, T, n); y != nil {
		if lo := minWeight(members, y); lo != nil && lo.Cmp(upper) == 0 && certifyGame(n, members, bestW, y, upper) {
			return bestW, upper
		}
	}
	if y := reducedDual(ctx, members, S, n); y != nil {
		for _, den := range []int64{1 << 10, 1 << 20, 1 << 30} {
			yy := normalised(y, den)
			if yy == nil {
				continue
			}
			if lo := minWeight(members, yy); lo != nil && lo.Cmp(upper) == 0 && certifyGame(n, members, bestW, yy, upper) {
				return bestW, upper
			}
		}
	}
	return nil, nil
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

// fixedLoadCrossover makes the strategy w exact given the exact optimal
// load L: the quorums it uses and the nodes it loads fully fix it by "every
// full node carries L, the weights sum to 1". It returns the exact weights
// if they form a strategy whose busiest node carries exactly L, else nil.
func fixedLoadCrossover(members [][]int, w []float64, L *big.Rat, n int) []*big.Rat {
	var S []int
	for q, v := range w {
		if v > 1e-9 {
			S = append(S, q)
		}
	}
	load := make([]float64, n)
	for _, q := range S {
		for _, x := range members[q] {
			load[x] += w[q]
		}
	}
	lf, _ := L.Float64()
	var T []int
	for x, v := range load {
		if v > lf-1e-7 {
			T = append(T, x)
		}
	}
	col := map[int]int{}
	for i, q := range S {
		col[q] = i
	}
	A := newRatMatrix(len(T)+1, len(S))
	b := make([]*big.Rat, len(T)+1)
	for r, x := range T {
		for _, q := range S {
			if slices.Contains(members[q], x) {
				A[r][col[q]].SetInt64(1)
			}
		}
		b[r] = new(big.Rat).Set(L)
	}
	for c := range S {
		A[len(T)][c].SetInt64(1)
	}
	b[len(T)] = big.NewRat(1, 1)
	sol := solveExact(A, b)
	if sol == nil {
		return nil
	}
	out := make([]*big.Rat, len(w))
	for i := range out {
		out[i] = new(big.Rat)
	}
	for i, q := range S {
		out[q] = sol[i]
	}
	if u := maxLoad(members, out, n); u == nil || u.Cmp(L) != 0 {
		return nil
	}
	return out
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

// minWeight returns the lightest quorum's weight under the node
// distribution y, or nil if y is not a distribution.
func minWeight(members [][]int, y []*big.Rat) *big.Rat {
	sum := new(big.Rat)
	for _, v := range y {
		if v.Sign() < 0 {
			return nil
		}
		sum.Add(sum, v)
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		return nil
	}
	var lower *big.Rat
	for _, mem := range members {
		s := new(big.Rat)
		for _, x := range mem {
			s.Add(s, y[x])
		}
		if lower == nil || s.Cmp(lower) < 0 {
			lower = s
		}
	}
	return lower
}

// primalCrossover solves, exactly, for weights on the quorums S and a load
// L with every node of T carrying L and the weights summing to 1.
func primalCrossover(members [][]int, S, T []int, m int) []*big.Rat {
	in := incidence(members, S, T)
	return spread(crossover(len(T), len(S), func(i, j int) bool { return in[j][i] }), S, m)
}

// dualCrossover solves, exactly, for a distribution y on the nodes T and a
// value t with every quorum of S weighing t.
func dualCrossover(members [][]int, S, T []int, n int) []*big.Rat {
	in := incidence(members, S, T)
	return spread(crossover(len(S), len(T), func(i, j int) bool { return in[i][j] }), T, n)
}

// incidence returns in[i][j]: whether quorum S[i] holds node T[j].
func incidence(members [][]int, S, T []int) [][]bool {
	col := map[int]int{}
	for j, x := range T {
		col[x] = j
	}
	in := make([][]bool, len(S))
	for i, q := range S {
		in[i] = make([]bool, len(T))
		for _, x := range members[q] {
			if j, ok := col[x]; ok {
				in[i][j] = true
			}
		}
	}
	return in
}

// crossover solves, exactly, for a distribution x on k unknowns and a
// value v with Σ_{j : in(i, j)} x_j = v for each row i < rows: the square
// systems of both crossovers. It returns nil when the system is singular.
func crossover(rows, k int, in func(i, j int) bool) []*big.Rat {
	// Unknowns: x (k), v. Rows: rows, then the sum.
	A := newRatMatrix(rows+1, k+1)
	for i := range rows {
		for j := range k {
			if in(i, j) {
				A[i][j].SetInt64(1)
			}
		}
		A[i][k].SetInt64(-1)
	}
	for j := range k {
		A[rows][j].SetInt64(1)
	}
	b := make([]*big.Rat, rows+1)
	for i := range b {
		b[i] = new(big.Rat)
	}
	b[rows].SetInt64(1)
	return solveExact(A, b)
}

// spread returns a vector of size values, x[i] at ids[i] and 0 elsewhere;
// nil when x is nil.
func spread(x []*big.Rat, ids []int, size int) []*big.Rat {
	if x == nil {
		return nil
	}
	v := make([]*big.Rat, size)
	for i := range v {
		v[i] = new(big.Rat)
	}
	for i, id := range ids {
		v[id] = x[i]
	}
	return v
}

// reducedDual solves the dual LP (maximise t with y(Q) ≥ t, Σy = 1) by
// constraint generation: start from the quorums S the strategy uses, add
// the quorums the current y leaves lightest, and stop when none is lighter
// than t. Each LP has a row per quorum in play instead of one per quorum.
func reducedDual(ctx context.Context, members [][]int, S []int, n int) []float64 {
	active := append([]int(nil), S...)
	in := map[int]bool{}
	for _, q := range S {
		in[q] = true
	}
	for range 50 {
		if ctx.Err() != nil {
			return nil
		}
		r := len(active)
		A := mat.NewDense(r+1, n+1+r, nil)
		for i, q := range active {
			for _, x := range members[q] {
				A.Set(i, x, 1)
			}
			A.Set(i, n, -1)
			A.Set(i, n+1+i, -1)
		}
		for x := range n {
			A.Set(r, x, 1)
		}
		b := make([]float64, r+1)
		b[r] = 1
		c := make([]float64, n+1+r)
		c[n] = -1
		_, sol, err := simplex(ctx, c, A, b)
		if err != nil {
			return nil
		}
		y, t := sol[:n], sol[n]
		added := 0
		for q, mem := range members {
			if in[q] {
				continue
			}
			s := 0.0
			for _, x := range mem {
				s += y[x]
			}
			if s < t-1e-9 {
				active = append(active, q)
				in[q] = true
				added++
			}
		}
		if added == 0 {
			return y
		}
	}
	return nil
}

func newRatMatrix(r, c int) [][]*big.Rat {
	A := make([][]*big.Rat, r)
	for i := range A {
		A[i] = make([]*big.Rat, c)
		for j := range A[i] {
			A[i][j] = new(big.Rat)
		}
	}
	return A
}

// solveExact solves A x = b by Gauss–Jordan elimination over the
// rationals. It returns nil if the system is inconsistent or has more than
// one solution (degenerate vertices are left to the other candidates).
func solveExact(A [][]*big.Rat, b []*big.Rat) []*big.Rat {
	rows, cols := len(A), len(A[0])
	for i := range A {
		A[i] = append(A[i], b[i])
	}
	pivotCol := make([]int, 0, cols)
	r := 0
	tmp := new(big.Rat)
	for c := 0; c < cols && r < rows; c++ {
		p := -1
		for i := r; i < rows; i++ {
			if A[i][c].Sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		A[r], A[p] = A[p], A[r]
		inv := new(big.Rat).Inv(A[r][c])
		for j := c; j <= cols; j++ {
			A[r][j].Mul(A[r][j], inv)
		}
		for i := range rows {
			if i == r || A[i][c].Sign() == 0 {
				continue
			}
			factor := new(big.Rat).Set(A[i][c])
			for j := c; j <= cols; j++ {
				if A[r][j].Sign() != 0 {
					A[i][j].Sub(A[i][j], tmp.Mul(factor, A[r][j]))
				}
			}
		}
		pivotCol = append(pivotCol, c)
		r++
	}
	for i := r; i < rows; i++ {
		if A[i][cols].Sign() != 0 {
			return nil // inconsistent
		}
	}
	if len(pivotCol) < cols {
		return nil // a free variable: not a unique vertex
	}
	x := make([]*big.Rat, cols)
	for i, c := range pivotCol {
		x[c] = new(big.Rat).Set(A[i][cols])
	}
	return x
}

// normalised rounds xs to fractions with denominators at most den and
// scales them to sum to exactly 1; nil if they sum to zero.
func normalised(xs []float64, den int64) []*big.Rat {
	out := make([]*big.Rat, len(xs))
	sum := new(big.Rat)
	for i, x := range xs {
		out[i] = approx(math.Max(x, 0), den)
		sum.Add(sum, out[i])
	}
	if sum.Sign() == 0 {
		return nil
	}
	for _, r := range out {
		r.Quo(r, sum)
	}
	return out
}
