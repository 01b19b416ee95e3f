package measure

import (
	"context"
	"errors"
	"math"
	"math/big"

	"github.com/coterie-dev/coterie/lp"
)

// errPackingWork reports that the packing simplex ran out of its work.
var errPackingWork = lp.ErrWork

// packing is the load LP in its packing form,
//
//	maximise Σ_Q z_Q subject to Σ_{Q∋x} z_Q ≤ 1 for every node x, z ≥ 0,
//
// whose optimum ν is 1/L (a strategy is z/ν) and whose dual — minimise
// Σ_x y_x subject to y(Q) ≥ 1 for every quorum, y ≥ 0 — is the fractional
// transversal. It is solved by the revised simplex method in floating point,
// starting from the all-slack basis (feasible: b ≈ 1), with B⁻¹ kept dense,
// by columns, and updated in product form: each pivot touches only the
// columns of B⁻¹ with an entry in the leaving row, and only the rows where
// the entering column is nonzero. The incidence matrix enters only through
// the quorums' member lists, so a pivot costs far less than a tableau's
// rows × columns. The answer is only a basis: [packing.prove] solves it
// exactly ([lp.SolveBasis]) and checks it.
type packing struct {
	n, m    int
	members [][]int // quorum -> nodes
	// head[r] is the variable basic in row r: q < m a quorum, m+x the slack
	// of node x.
	head []int
	pos  []int     // variable -> row, or -1 when nonbasic
	binv []float64 // B⁻¹ by columns: binv[c*n+i] = (B⁻¹)_{i,c}
	b    []float64 // right-hand side: 1, perturbed (see newPacking)
	xb   []float64 // basic values, by row
	pi   []float64 // duals c_B B⁻¹, by node
	work float64   // floating-point operations spent, roughly
	// costTol is the reduced cost a variable needs to enter.
	costTol float64
}

func newPacking(n int, members [][]int) *packing {
	m := len(members)
	p := &packing{n: n, m: m, members: members,
		head: make([]int, n), pos: make([]int, m+n),
		binv: make([]float64, n*n), b: make([]float64, n), xb: make([]float64, n), pi: make([]float64, n), costTol: packCostTol}
	for j := range p.pos {
		p.pos[j] = -1
	}
	// The load LP is highly degenerate (every right-hand side is 1): ties
	// in the ratio test, broken by rounding, can leave basic variables
	// that are zero in exact arithmetic slightly negative. Perturbing each
	// right-hand side by a different tiny amount breaks the ties; a basis
	// optimal for the perturbed program is optimal for the original one
	// once its vertex stays feasible, which the exact check confirms.
	for x := range n {
		p.head[x], p.pos[m+x] = m+x, x
		p.binv[x*n+x] = 1
		frac := math.Mod(float64(x+1)*0.6180339887498949, 1)
		p.b[x] = 1 + 1e-7*(0.5+frac)
		p.xb[x] = p.b[x]
	}
	return p
}

// Tolerances of the floating-point method; its basis is checked exactly.
const (
	packPivotTol = 1e-9
	packCostTol  = 1e-9
)

// solve runs the simplex method to an optimal basis, within maxWork
// floating-point operations (errPackingWork past them) and watching ctx.
// Entering: the largest reduced cost (Dantzig), or after a run of
// degenerate pivots the first improving variable (Bland, which cannot
// cycle). Leaving: the smallest ratio, ties to the largest pivot (or, under
// Bland, the smallest variable).
func (p *packing) solve(ctx context.Context, maxWork float64) error {
	n, m := p.n, p.m
	alpha := make([]float64, n)
	nz := make([]int, 0, n)
	degenerate := 0
	fresh := false // the values and duals were just recomputed from B⁻¹
	for iter := 0; ; iter++ {
		if iter%32 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if p.work > maxWork {
			return errPackingWork
		}
		if iter%256 == 255 {
			p.refresh()
			fresh = true
		}
		bland := degenerate > 50
		// Pricing, in variable order (quorums, then slacks): d_Q = 1 − π(Q),
		// and −π_x for node x's slack.
		enter, best := -1, p.costTol
		for j := range m + n {
			if p.pos[j] >= 0 {
				continue
			}
			d := 0.0
			if j < m {
				d = 1
				for _, x := range p.members[j] {
					d -= p.pi[x]
				}
			} else {
				d = -p.pi[j-m]
			}
			if d > best {
				enter, best = j, d
				if bland {
					break
				}
			}
		}
		p.work += float64(n + len(p.members)*8)
		if enter < 0 {
			if fresh {
				return nil
			}
			// Optimal by the updated duals: check with recomputed ones.
			p.refresh()
			fresh = true
			continue
		}
		fresh = false
		// The entering column in the current basis: α = B⁻¹ a.
		clear(alpha)
		if enter < m {
			for _, x := range p.members[enter] {
				col := p.binv[x*n : x*n+n]
				for i, v := range col {
					alpha[i] += v
				}
			}
			p.work += float64(n * len(p.members[enter]))
		} else {
			copy(alpha, p.binv[(enter-m)*n:(enter-m)*n+n])
		}
		nz = nz[:0]
		leave, ratio := -1, math.Inf(1)
		for i, a := range alpha {
			if a == 0 {
				continue
			}
			nz = append(nz, i)
			if a <= packPivotTol {
				continue
			}
			r := p.xb[i] / a
			switch {
			case leave < 0 || r < ratio-1e-12:
				leave, ratio = i, r
			case r <= ratio+1e-12:
				if bland && p.head[i] < p.head[leave] || !bland && a > alpha[leave] {
					leave, ratio = i, r
				}
			}
		}
		if leave < 0 {
			return errors.New("measure: packing simplex: unbounded") // impossible: every quorum has a node
		}
		if ratio <= 1e-12 {
			degenerate++
		} else {
			degenerate = 0
		}
		p.pivot(leave, enter, alpha, nz, best)
	}
}

// pivot makes variable j basic in row r; alpha is its column in the
// current basis (nonzero in rows nz) and d its reduced cost.
func (p *packing) pivot(r, j int, alpha []float64, nz []int, d float64) {
	n := p.n
	ar := alpha[r]
	theta := p.xb[r] / ar
	for _, i := range nz {
		p.xb[i] -= theta * alpha[i]
	}
	p.xb[r] = theta
	// Row r of B⁻¹ becomes row r / α_r, every other row i loses α_i times
	// it; the duals gain d times the new row r.
	for c := range n {
		col := p.binv[c*n : c*n+n]
		v := col[r]
		if v == 0 {
			continue
		}
		v /= ar
		for _, i := range nz {
			col[i] -= alpha[i] * v
		}
		col[r] = v
		p.pi[c] += d * v
	}
	p.work += float64(n * (1 + len(nz)/4))
	p.pos[p.head[r]] = -1
	p.head[r], p.pos[j] = j, r
}

// refresh recomputes the basic values and the duals from B⁻¹, clearing
// the rounding the updates accumulate.
func (p *packing) refresh() {
	n, m := p.n, p.m
	clear(p.xb)
	for c := range n {
		col := p.binv[c*n : c*n+n]
		for i, v := range col {
			p.xb[i] += v * p.b[c]
		}
		s := 0.0
		for i, v := range col {
			if p.head[i] < m {
				s += v
			}
		}
		p.pi[c] = s
	}
	p.work += float64(2 * n * n)
}

// reinvert computes B⁻¹ afresh from the basic columns (Gauss–Jordan
// elimination with partial pivoting on the structural part, the slacks
// being unit columns), then the basic values and duals: the rounding of
// many product-form updates is gone. It returns false if the basis is
// numerically singular.
func (p *packing) reinvert() bool {
	n, m := p.n, p.m
	// B = [e_x for basic slacks x | a_Q for basic quorums Q], with the
	// column of row r being head[r]. Solve B X = I column block by
	// Gauss–Jordan on the augmented [B | I], by rows.
	a := make([]float64, n*2*n)
	for r, j := range p.head {
		if j >= m {
			a[(j-m)*2*n+r] = 1
			continue
		}
		for _, x := range p.members[j] {
			a[x*2*n+r] = 1
		}
	}
	for i := range n {
		a[i*2*n+n+i] = 1
	}
	w := 2 * n
	for c := range n {
		piv, big := -1, 0.0
		for i := c; i < n; i++ {
			if v := math.Abs(a[i*w+c]); v > big {
				piv, big = i, v
			}
		}
		if big < 1e-12 {
			return false
		}
		if piv != c {
			rc, rp := a[c*w:c*w+w], a[piv*w:piv*w+w]
			for j := range rc {
				rc[j], rp[j] = rp[j], rc[j]
			}
		}
		rc := a[c*w : c*w+w]
		inv := 1 / rc[c]
		for j := c; j < w; j++ {
			rc[j] *= inv
		}
		for i := range n {
			if i == c {
				continue
			}
			ri := a[i*w : i*w+w]
			f := ri[c]
			if f == 0 {
				continue
			}
			for j := c; j < w; j++ {
				if rc[j] != 0 {
					ri[j] -= f * rc[j]
				}
			}
		}
	}
	p.work += float64(n) * float64(n) * float64(n)
	// Row r of X = B⁻¹ is row r of the right half.
	for r := range n {
		for c := range n {
			p.binv[c*n+r] = a[r*w+n+c]
		}
	}
	p.refresh()
	return true
}

// basis returns the quorums basic in the final basis and the nodes whose
// slack is nonbasic (tight), as many of each: the square system that
// fixes the optimal vertex.
func (p *packing) basis() (quorums, nodes []int) {
	for q := range p.m {
		if p.pos[q] >= 0 {
			quorums = append(quorums, q)
		}
	}
	for x := range p.n {
		if p.pos[p.m+x] < 0 {
			nodes = append(nodes, x)
		}
	}
	return quorums, nodes
}

// packingLoad computes the load by the packing simplex and proves it: the
// final basis fixes a vertex z of the packing LP and a dual y, both solved
// exactly ([lp.SolveBasis]); when z ≥ 0 loads no node above 1, y ≥ 0 weighs
// every quorum at least 1, and Σz = Σy, LP duality makes 1/Σz the load,
// reached by the strategy z/Σz. It returns nil (and no error) when the
// floating-point basis does not survive the exact check.
func packingLoad(ctx context.Context, n int, members [][]int, maxWork float64) (*Load, error) {
	p := newPacking(n, members)
	for attempt := 0; ; attempt++ {
		if err := p.solve(ctx, maxWork); err != nil {
			return nil, err
		}
		l, err := p.prove(ctx, maxWork)
		if l != nil || err != nil || attempt == 2 {
			return l, err
		}
		// The floating-point basis failed the exact check: start again
		// from it, with B⁻¹ recomputed and a finer tolerance.
		if !p.reinvert() {
			return nil, nil
		}
		p.costTol /= 1000
	}
}

// prove solves the current basis exactly and checks it, returning the
// load it proves, or nil; errPackingWork if the exact solution would take
// the work past maxWork.
func (p *packing) prove(ctx context.Context, maxWork float64) (*Load, error) {
	n, members := p.n, p.members
	S, T := p.basis()
	if len(S) != len(T) {
		return nil, nil
	}
	row := make([]int, n)
	for i := range row {
		row[i] = -1
	}
	for i, x := range T {
		row[x] = i
	}
	rows := make([][]int, len(T))
	for j, q := range S {
		for _, x := range members[q] {
			if i := row[x]; i >= 0 {
				rows[i] = append(rows[i], j)
			}
		}
	}
	sol, err := lp.SolveBasis(ctx, len(S), rows, &p.work, maxWork)
	if errors.Is(err, lp.ErrSingular) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// The proof: z = Z/Det and y = Y/Det are optimal for the packing LP
	// (maximise Σz subject to M z ≤ 1, z ≥ 0) by [lp.Certify].
	z := make([]*big.Int, len(members))
	sumZ := new(big.Int)
	for j, q := range S {
		z[q] = sol.Z[j]
		sumZ.Add(sumZ, sol.Z[j])
	}
	if sumZ.Sign() <= 0 || certifyPacking(n, members, S, T, sol) == nil {
		return nil, nil
	}
	l := &Load{Exact: new(big.Rat).SetFrac(sol.Det, sumZ), Method: MethodLP}
	l.Value, _ = l.Exact.Float64()
	net := new(big.Rat)
	for q, v := range z {
		if v == nil || v.Sign() == 0 {
			continue
		}
		e := new(big.Rat).SetFrac(v, sumZ)
		f, _ := e.Float64()
		l.Strategy = append(l.Strategy, Weight{Quorum: q, W: f, Exact: e})
		net.Add(net, new(big.Rat).Mul(e, big.NewRat(int64(len(members[q])), 1)))
	}
	l.NetworkLoadExact = net
	l.NetworkLoad, _ = net.Float64()
	return l, nil
}

// certifyPacking proves the packing LP's optimum z = Z/Det (on the
// quorums S) and its dual y = Y/Det (on the nodes T) with [lp.Certify], in
// the form minimise −Σz subject to M z ≤ 1, z ≥ 0, whose dual is −y. It
// returns Σz, or nil.
func certifyPacking(n int, members [][]int, S, T []int, sol *lp.BasisSolution) *big.Rat {
	one, minusOne := big.NewRat(1, 1), big.NewRat(-1, 1)
	m := len(members)
	prog := &lp.Program{Kinds: make([]lp.Kind, n), B: make([]*big.Rat, n), C: make([]*big.Rat, m), Cols: make([][]lp.Entry, m)}
	for x := range n {
		prog.Kinds[x], prog.B[x] = lp.Le, one
	}
	total := 0
	for _, mem := range members {
		total += len(mem)
	}
	flat := make([]lp.Entry, total) // one allocation for every column
	for q, mem := range members {
		prog.C[q] = minusOne
		col := flat[:len(mem):len(mem)]
		flat = flat[len(mem):]
		for i, x := range mem {
			col[i] = lp.Entry{Row: x, Val: one}
		}
		prog.Cols[q] = col
	}
	xs := make([]*big.Rat, m)
	for j, q := range S {
		xs[q] = new(big.Rat).SetFrac(sol.Z[j], sol.Det)
	}
	ys := make([]*big.Rat, n)
	for i, x := range T {
		ys[x] = new(big.Rat).SetFrac(new(big.Int).Neg(sol.Y[i]), sol.Det)
	}
	v := lp.Certify(prog, xs, ys)
	if v == nil {
		return nil
	}
	return v.Neg(v)
}
