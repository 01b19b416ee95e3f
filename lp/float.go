package lp

import (
	"context"
	"math"
)

// Float is the floating-point twin of [Exact]: the same tableau, columns and
// rules in float64, used to find an optimal basis quickly; Exact then takes
// that basis and proves it (or corrects it) in exact arithmetic.
type Float struct {
	m     int
	rhs   []float64
	tab   [][]float64
	cost  []float64
	art   []bool
	id    []int
	basis []int
	phase int
}

// Eps is the tolerance of the floating-point simplex; its answers are
// only a starting point for the exact one.
const Eps = 1e-9

// NewFloat returns the program with the given rows and no structural
// columns yet, as [NewExact].
func NewFloat(kinds []Kind, b []float64) *Float {
	m := len(kinds)
	p := &Float{m: m, rhs: append([]float64(nil), b...), tab: make([][]float64, m), id: make([]int, m), basis: make([]int, m), phase: 1}
	for r := range m {
		col := make([]float64, m)
		col[r] = 1
		j := p.appendColumn(col, 0, kinds[r] == Eq)
		p.id[r], p.basis[r] = j, j
	}
	return p
}

func (p *Float) appendColumn(t []float64, c float64, artificial bool) int {
	for r := range p.m {
		p.tab[r] = append(p.tab[r], t[r])
	}
	p.cost = append(p.cost, c)
	p.art = append(p.art, artificial)
	return len(p.cost) - 1
}

// AddColumn adds a structural column with original entries a and cost c,
// and returns its index.
func (p *Float) AddColumn(a []float64, c float64) int {
	t := make([]float64, p.m)
	for r, ar := range a {
		if ar == 0 {
			continue
		}
		for i := range p.m {
			t[i] += p.tab[i][p.id[r]] * ar
		}
	}
	return p.appendColumn(t, c, false)
}

func (p *Float) phaseCost(j int) float64 {
	if p.phase == 1 {
		if p.art[j] {
			return 1
		}
		return 0
	}
	return p.cost[j]
}

// Duals returns y = c_B B⁻¹ for the current phase.
func (p *Float) Duals() []float64 {
	y := make([]float64, p.m)
	for r := range p.m {
		for i := range p.m {
			y[r] += p.phaseCost(p.basis[i]) * p.tab[i][p.id[r]]
		}
	}
	return y
}

// Objective returns the current phase's objective value.
func (p *Float) Objective() float64 {
	z := 0.0
	for i := range p.m {
		z += p.phaseCost(p.basis[i]) * p.rhs[i]
	}
	return z
}

// Optimise returns false when the method stalls (unbounded, or too many
// pivots); the caller then solves exactly from scratch.
func (p *Float) Optimise(ctx context.Context) (bool, error) {
	isBasic := make([]bool, len(p.cost))
	for _, j := range p.basis {
		isBasic[j] = true
	}
	degenerate := 0
	var d []float64
	for iter := 0; ; iter++ {
		if iter%64 == 63 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		if iter > 50*(p.m+len(p.cost)) {
			return false, nil
		}
		bland := degenerate > 20
		// Reduced costs d = c − c_B·T, row by row: only the rows whose
		// basic column costs something contribute.
		if cap(d) < len(p.cost) {
			d = make([]float64, len(p.cost))
		}
		d = d[:len(p.cost)]
		for j := range d {
			d[j] = p.phaseCost(j)
		}
		for i := range p.m {
			if cb := p.phaseCost(p.basis[i]); cb != 0 {
				for j, t := range p.tab[i] {
					if t != 0 {
						d[j] -= cb * t
					}
				}
			}
		}
		enter, best := -1, -Eps
		for j := range p.cost {
			if isBasic[j] || (p.phase == 2 && p.art[j]) {
				continue
			}
			if d := d[j]; d < best {
				enter, best = j, d
				if bland {
					break
				}
			}
		}
		if enter < 0 {
			return true, nil
		}
		leave, bestRatio := -1, math.Inf(1)
		for i := range p.m {
			t := p.tab[i][enter]
			if t <= Eps {
				continue
			}
			ratio := p.rhs[i] / t
			if ratio < bestRatio-Eps || (ratio <= bestRatio+Eps && leave >= 0 && p.basis[i] < p.basis[leave]) {
				leave, bestRatio = i, ratio
			}
		}
		if leave < 0 {
			return false, nil
		}
		if bestRatio <= Eps {
			degenerate++
		} else {
			degenerate = 0
		}
		isBasic[p.basis[leave]] = false
		isBasic[enter] = true
		p.pivot(leave, enter)
	}
}

func (p *Float) pivot(r, j int) {
	inv := 1 / p.tab[r][j]
	row := p.tab[r]
	for k := range row {
		row[k] *= inv
	}
	row[j] = 1
	p.rhs[r] *= inv
	for i := range p.m {
		if i == r {
			continue
		}
		f := p.tab[i][j]
		if f == 0 {
			continue
		}
		ti := p.tab[i]
		for k, v := range row {
			if v != 0 {
				ti[k] -= f * v
			}
		}
		ti[j] = 0
		p.rhs[i] -= f * p.rhs[r]
		if math.Abs(p.rhs[i]) < Eps {
			p.rhs[i] = 0
		}
	}
	p.basis[r] = j
}

// EndPhase1 moves to phase 2, pivoting out the artificials still basic
// where a column can replace them.
func (p *Float) EndPhase1() {
	isBasic := make([]bool, len(p.cost))
	for _, j := range p.basis {
		isBasic[j] = true
	}
	for r := range p.m {
		if !p.art[p.basis[r]] {
			continue
		}
		for j := range p.cost {
			if !p.art[j] && !isBasic[j] && math.Abs(p.tab[r][j]) > Eps {
				isBasic[p.basis[r]] = false
				isBasic[j] = true
				p.pivot(r, j)
				break
			}
		}
	}
	p.phase = 2
}

// Phase is 1 while artificial columns may be positive, then 2.
func (p *Float) Phase() int { return p.phase }

// Basis returns a copy of the basic columns, row by row: the form
// [Exact.Install] takes.
func (p *Float) Basis() []int { return append([]int(nil), p.basis...) }
