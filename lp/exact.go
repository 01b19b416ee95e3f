package lp

import (
	"context"
	"math/big"
	"slices"
)

// Kind is a constraint's sense.
type Kind int

const (
	Eq Kind = iota // a·x = b
	Le             // a·x ≤ b
)

// Exact is an exact linear program in rationals,
//
//	minimise c·x subject to A x (= or ≤) b, x ≥ 0, with b ≥ 0,
//
// solved by the two-phase simplex method on a dense tableau that keeps the
// columns of the starting basis (one slack or artificial per row), so that
// B⁻¹ is always at hand: columns can be added between solves (column
// generation) and the dual values read off. Pivoting is Dantzig's rule,
// falling back to Bland's (which cannot cycle) after a run of degenerate
// pivots.
type Exact struct {
	m     int
	rhs   []*big.Rat
	tab   [][]*big.Rat // m rows; column j of B⁻¹A
	cost  []*big.Rat   // phase-2 cost per column
	art   []bool       // artificial columns never re-enter in phase 2
	id    []int        // id[r]: the starting-basis column of row r
	basis []int        // basis[r]: the column basic in row r
	phase int          // 1 while artificials may be positive, then 2
	kinds []Kind
	b     []*big.Rat // the right-hand side as given
	orig  [][]Entry  // column j as given (nil for an artificial)
}

var ratZero = new(big.Rat)

// NewExact returns the program with the given rows (kind and right-hand side,
// b ≥ 0) and no structural columns yet.
func NewExact(kinds []Kind, b []*big.Rat) *Exact {
	m := len(kinds)
	p := &Exact{m: m, rhs: make([]*big.Rat, m), tab: make([][]*big.Rat, m), id: make([]int, m), basis: make([]int, m), phase: 1}
	for r := range m {
		p.rhs[r] = new(big.Rat).Set(b[r])
	}
	p.kinds, p.b = slices.Clone(kinds), slices.Clone(p.rhs)
	for r := range p.b {
		p.b[r] = new(big.Rat).Set(p.b[r])
	}
	for r := range m {
		col := make([]*big.Rat, m)
		col[r] = big.NewRat(1, 1)
		// A ≤ row with b ≥ 0 starts feasible on its slack; an equality
		// row starts on an artificial, which phase 1 drives to zero.
		j := p.appendColumn(col, ratZero, kinds[r] == Eq)
		p.id[r], p.basis[r] = j, j
		if kinds[r] == Le {
			p.orig[j] = []Entry{{Row: r, Val: ratOne}}
		}
	}
	return p
}

// appendColumn adds a column already expressed in the current basis
// (tableau entries t, nil meaning 0) with phase-2 cost c.
func (p *Exact) appendColumn(t []*big.Rat, c *big.Rat, artificial bool) int {
	for r := range p.m {
		v := t[r]
		if v != nil && v.Sign() == 0 {
			v = nil
		}
		p.tab[r] = append(p.tab[r], v)
	}
	p.cost = append(p.cost, new(big.Rat).Set(c))
	p.art = append(p.art, artificial)
	p.orig = append(p.orig, nil)
	return len(p.cost) - 1
}

// AddColumn adds a structural column with original entries a (a[r] for
// row r, nil meaning 0) and cost c, and returns its index.
func (p *Exact) AddColumn(a []*big.Rat, c *big.Rat) int {
	// Tableau column = B⁻¹ a; B⁻¹'s column r is the tableau column id[r].
	t := make([]*big.Rat, p.m)
	var prod big.Rat
	for r, ar := range a {
		if ar == nil || ar.Sign() == 0 {
			continue
		}
		for i := range p.m {
			bi := p.tab[i][p.id[r]]
			if bi == nil {
				continue
			}
			if t[i] == nil {
				t[i] = new(big.Rat)
			}
			t[i].Add(t[i], prod.Mul(bi, ar))
		}
	}
	j := p.appendColumn(t, c, false)
	for r, ar := range a {
		if ar != nil && ar.Sign() != 0 {
			p.orig[j] = append(p.orig[j], Entry{Row: r, Val: ar})
		}
	}
	return j
}

// phaseCost is column j's cost in the current phase.
func (p *Exact) phaseCost(j int) *big.Rat {
	if p.phase == 1 {
		if p.art[j] {
			return ratOne
		}
		return ratZero
	}
	return p.cost[j]
}

var ratOne = big.NewRat(1, 1)

// Duals returns y = c_B B⁻¹ for the current phase: reduced cost of a
// column a with cost c is c − y·a.
func (p *Exact) Duals() []*big.Rat {
	y := make([]*big.Rat, p.m)
	var prod big.Rat
	for r := range p.m {
		y[r] = new(big.Rat)
		for i := range p.m {
			cb := p.phaseCost(p.basis[i])
			if cb.Sign() == 0 || p.tab[i][p.id[r]] == nil {
				continue
			}
			y[r].Add(y[r], prod.Mul(cb, p.tab[i][p.id[r]]))
		}
	}
	return y
}

// Objective returns the current phase's objective value.
func (p *Exact) Objective() *big.Rat {
	z := new(big.Rat)
	var prod big.Rat
	for i := range p.m {
		if c := p.phaseCost(p.basis[i]); c.Sign() != 0 {
			z.Add(z, prod.Mul(c, p.rhs[i]))
		}
	}
	return z
}

// Optimise runs the simplex method in the current phase until no column
// improves. It returns false if the program is unbounded (which the
// programs built here never are).
func (p *Exact) Optimise(ctx context.Context) (bool, error) {
	isBasic := make([]bool, len(p.cost))
	for _, j := range p.basis {
		isBasic[j] = true
	}
	degenerate := 0
	var prod, best, ratio, bestRatio big.Rat
	var red []*big.Rat
	for iter := 0; ; iter++ {
		if iter%64 == 63 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		bland := degenerate > 20
		// Reduced costs d_j = c_j − Σ_i c_B(i) t_ij, row by row: only the
		// rows whose basic column costs something contribute.
		for len(red) < len(p.cost) {
			red = append(red, new(big.Rat))
		}
		for j := range p.cost {
			red[j].Set(p.phaseCost(j))
		}
		for i := range p.m {
			cb := p.phaseCost(p.basis[i])
			if cb.Sign() == 0 {
				continue
			}
			for j, t := range p.tab[i] {
				if t != nil {
					red[j].Sub(red[j], prod.Mul(cb, t))
				}
			}
		}
		enter := -1
		for j := range p.cost {
			if isBasic[j] || (p.phase == 2 && p.art[j]) {
				continue
			}
			d := red[j]
			if d.Sign() < 0 && (enter < 0 || (!bland && d.Cmp(&best) < 0)) {
				enter = j
				best.Set(d)
				if bland {
					break
				}
			}
		}
		if enter < 0 {
			return true, nil
		}
		leave := -1
		for i := range p.m {
			t := p.tab[i][enter]
			if t == nil || t.Sign() <= 0 {
				continue
			}
			ratio.Quo(p.rhs[i], t)
			if leave < 0 {
				leave = i
				bestRatio.Set(&ratio)
				continue
			}
			if c := ratio.Cmp(&bestRatio); c < 0 || c == 0 && p.basis[i] < p.basis[leave] {
				leave = i
				bestRatio.Set(&ratio)
			}
		}
		if leave < 0 {
			return false, nil
		}
		if bestRatio.Sign() == 0 {
			degenerate++
		} else {
			degenerate = 0
		}
		isBasic[p.basis[leave]] = false
		isBasic[enter] = true
		p.pivot(leave, enter)
	}
}

// pivot makes column j basic in row r.
func (p *Exact) pivot(r, j int) {
	inv := new(big.Rat).Inv(p.tab[r][j])
	row := p.tab[r]
	for k, v := range row {
		if v != nil {
			row[k] = new(big.Rat).Mul(v, inv)
		}
	}
	p.rhs[r] = new(big.Rat).Mul(p.rhs[r], inv)
	var prod big.Rat
	for i := range p.m {
		if i == r {
			continue
		}
		f := p.tab[i][j]
		if f == nil {
			continue
		}
		f = new(big.Rat).Set(f)
		ti := p.tab[i]
		for k, v := range row {
			if v == nil {
				continue
			}
			prod.Mul(f, v)
			if ti[k] == nil {
				ti[k] = new(big.Rat).Neg(&prod)
			} else {
				ti[k].Sub(ti[k], &prod)
				if ti[k].Sign() == 0 {
					ti[k] = nil
				}
			}
		}
		p.rhs[i] = new(big.Rat).Sub(p.rhs[i], prod.Mul(f, p.rhs[r]))
	}
	p.basis[r] = j
}

// EndPhase1 moves to phase 2 once the artificials are all zero: it pivots
// every artificial still basic (at level zero) out of the basis where some
// structural or slack column can replace it.
func (p *Exact) EndPhase1() {
	for r := range p.m {
		if !p.art[p.basis[r]] {
			continue
		}
		for j := range p.cost {
			if !p.art[j] && p.tab[r][j] != nil && !p.isBasic(j) {
				p.pivot(r, j)
				break
			}
		}
	}
	p.phase = 2
}

func (p *Exact) isBasic(j int) bool {
	for _, b := range p.basis {
		if b == j {
			return true
		}
	}
	return false
}

// Value returns the current value of column j.
func (p *Exact) Value(j int) *big.Rat {
	for r, b := range p.basis {
		if b == j {
			return p.rhs[r]
		}
	}
	return ratZero
}

// Install makes the given basis current: fbasis[r] lists the columns of a
// basis found elsewhere (by [Float]), numbered as there; a
// number below m is row r's starting column, and exact maps the others to
// this program's columns. It pivots each into a row whose starting column
// is not wanted, then checks that the basis is primal feasible with every
// artificial at zero, and moves to phase 2. It returns false (the program
// is then unusable) when the basis is singular or infeasible in exact
// arithmetic.
func (p *Exact) Install(fbasis []int, exact map[int]int) bool {
	want := make([]bool, len(p.cost))
	for _, fj := range fbasis {
		if fj < p.m {
			want[fj] = true
		} else {
			want[exact[fj]] = true
		}
	}
	// Pivot the wanted columns in, sparsest column first, each into the
	// free row with the fewest nonzeros (counted once: a cheap Markowitz
	// rule that keeps the rationals small).
	rowCount := make([]int, p.m)
	for i := range p.m {
		for _, v := range p.tab[i] {
			if v != nil {
				rowCount[i]++
			}
		}
	}
	type todoCol struct{ j, count int }
	var todo []todoCol
	for _, fj := range fbasis {
		if fj < p.m {
			continue
		}
		j, c := exact[fj], 0
		for i := range p.m {
			if p.tab[i][j] != nil {
				c++
			}
		}
		todo = append(todo, todoCol{j, c})
	}
	slices.SortStableFunc(todo, func(a, b todoCol) int { return a.count - b.count })
	for _, t := range todo {
		row := -1
		for i := range p.m {
			if b := p.basis[i]; b >= p.m || want[b] || p.tab[i][t.j] == nil {
				continue
			}
			if row < 0 || rowCount[i] < rowCount[row] {
				row = i
			}
		}
		if row < 0 {
			return false
		}
		p.pivot(row, t.j)
	}
	for i := range p.m {
		if p.rhs[i].Sign() < 0 || p.art[p.basis[i]] && p.rhs[i].Sign() != 0 {
			return false
		}
	}
	p.EndPhase1()
	return true
}

// Phase is 1 while artificial columns may be positive, then 2.
func (p *Exact) Phase() int { return p.phase }

// Columns is the number of columns, the starting basis's (one per row,
// numbered as the rows) included.
func (p *Exact) Columns() int { return len(p.cost) }

// Certify proves the current basis optimal with [Certify], on the program
// as given (the artificial columns left out, which must be zero), with the
// duals y (nil: computed here; a caller that has just read [Exact.Duals]
// passes them), and returns the optimal value and the value of every
// column; nils when the program is still in phase 1 or the proof fails.
func (p *Exact) Certify(y []*big.Rat) (*big.Rat, []*big.Rat) {
	if p.phase != 2 {
		return nil, nil
	}
	if y == nil {
		y = p.Duals()
	}
	all := make([]*big.Rat, len(p.cost))
	for j := range all {
		all[j] = ratZero
	}
	for r, b := range p.basis {
		all[b] = p.rhs[r]
	}
	prog := &Program{Kinds: p.kinds, B: p.b, C: make([]*big.Rat, 0, len(p.cost)), Cols: make([][]Entry, 0, len(p.cost))}
	x := make([]*big.Rat, 0, len(p.cost))
	for j := range p.cost {
		if p.art[j] {
			if all[j].Sign() != 0 {
				return nil, nil
			}
			continue
		}
		prog.C = append(prog.C, p.cost[j])
		prog.Cols = append(prog.Cols, p.orig[j])
		x = append(x, all[j])
	}
	v := Certify(prog, x, y)
	if v == nil {
		return nil, nil
	}
	return v, all
}
