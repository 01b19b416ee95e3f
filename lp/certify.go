package lp

import "math/big"

// Entry is one nonzero of a sparse column: the row and the value.
type Entry struct {
	Row int
	Val *big.Rat
}

// Program is a linear program in the form of the package (see the
// package comment), stored by sparse columns: minimise C·x subject to
// Σ_j Cols[j] x_j (Kinds[r]) B[r] for each row r, x ≥ 0. A nil entry of
// B or C is zero.
type Program struct {
	Kinds []Kind
	B     []*big.Rat
	C     []*big.Rat
	Cols  [][]Entry
}

// Certify proves x optimal for p, exactly, with the dual solution y: x ≥ 0
// satisfies every row, y is dual feasible (Aᵀy ≤ c, y_r ≤ 0 on ≤ rows),
// and c·x = b·y, so that by weak duality no feasible point costs less. It
// returns that common value, or nil when any condition fails (a nil entry
// of x or y is zero). It is the one proof of optimality of the module:
// every exact result of a linear program (loads, capacities, strategies)
// is returned only once it has passed here.
func Certify(p *Program, x, y []*big.Rat) *big.Rat {
	m := len(p.Kinds)
	if len(x) != len(p.Cols) || len(y) != m || len(p.B) != m || len(p.C) != len(p.Cols) {
		return nil
	}
	if v, ok := certifyInt(p, x, y); ok {
		return v
	}
	sign := func(v *big.Rat) int {
		if v == nil {
			return 0
		}
		return v.Sign()
	}
	var prod big.Rat
	// Primal: x ≥ 0 and the rows.
	ax := make([]big.Rat, m)
	cx := new(big.Rat)
	for j, col := range p.Cols {
		s := sign(x[j])
		if s < 0 {
			return nil
		}
		if s == 0 {
			continue
		}
		for _, e := range col {
			ax[e.Row].Add(&ax[e.Row], prod.Mul(e.Val, x[j]))
		}
		if p.C[j] != nil {
			cx.Add(cx, prod.Mul(p.C[j], x[j]))
		}
	}
	by := new(big.Rat)
	for r := range m {
		b := p.B[r]
		if b == nil {
			b = new(big.Rat)
		}
		c := ax[r].Cmp(b)
		switch p.Kinds[r] {
		case Eq:
			if c != 0 {
				return nil
			}
		case Le:
			if c > 0 || sign(y[r]) > 0 {
				return nil
			}
		default:
			return nil
		}
		if sign(y[r]) != 0 {
			by.Add(by, prod.Mul(b, y[r]))
		}
	}
	// Dual: every column's reduced cost c_j − y·A_j ≥ 0.
	var ya big.Rat
	for j, col := range p.Cols {
		ya.SetInt64(0)
		for _, e := range col {
			if sign(y[e.Row]) != 0 {
				ya.Add(&ya, prod.Mul(e.Val, y[e.Row]))
			}
		}
		c := p.C[j]
		if c == nil {
			c = new(big.Rat)
		}
		if ya.Cmp(c) > 0 {
			return nil
		}
	}
	if cx.Cmp(by) != 0 {
		return nil
	}
	return cx
}

// certifyInt is Certify in integers, for a program whose entries, b and c
// are all integers: x = X/dx and y = Y/dy over the least common
// denominators, and every check is made on X and Y scaled (A X against
// dx·b, Aᵀ Y against dy·c, dy·c·X against dx·b·Y), with no normalisation
// of fractions on the way. ok is false when the program is not integral
// (Certify then works in rationals); otherwise v is Certify's answer.
func certifyInt(p *Program, x, y []*big.Rat) (v *big.Rat, ok bool) {
	integral := func(v *big.Rat) bool { return v == nil || v.IsInt() }
	for _, v := range p.B {
		if !integral(v) {
			return nil, false
		}
	}
	for j, col := range p.Cols {
		if !integral(p.C[j]) {
			return nil, false
		}
		for _, e := range col {
			if !e.Val.IsInt() {
				return nil, false
			}
		}
	}
	m := len(p.Kinds)
	// Common denominators and the scaled numerators.
	scale := func(v []*big.Rat) ([]*big.Int, *big.Int) {
		d := big.NewInt(1)
		var g big.Int
		for _, r := range v {
			if r == nil || r.Sign() == 0 || r.Denom().Cmp(d) == 0 {
				continue
			}
			g.GCD(nil, nil, d, r.Denom())
			d.Mul(d, g.Quo(r.Denom(), &g))
		}
		n := make([]*big.Int, len(v))
		for i, r := range v {
			if r == nil || r.Sign() == 0 {
				continue
			}
			n[i] = new(big.Int).Mul(r.Num(), g.Quo(d, r.Denom()))
		}
		return n, d
	}
	X, dx := scale(x)
	Y, dy := scale(y)
	num := func(v *big.Rat) *big.Int {
		if v == nil {
			return new(big.Int)
		}
		return v.Num()
	}
	var prod, t big.Int
	ax := make([]big.Int, m)
	cx := new(big.Int)
	for j, col := range p.Cols {
		if X[j] == nil {
			continue
		}
		if X[j].Sign() < 0 {
			return nil, true
		}
		for _, e := range col {
			ax[e.Row].Add(&ax[e.Row], prod.Mul(e.Val.Num(), X[j]))
		}
		cx.Add(cx, prod.Mul(num(p.C[j]), X[j]))
	}
	by := new(big.Int)
	for r := range m {
		b := num(p.B[r])
		c := ax[r].Cmp(t.Mul(b, dx))
		ys := 0
		if Y[r] != nil {
			ys = Y[r].Sign()
		}
		switch p.Kinds[r] {
		case Eq:
			if c != 0 {
				return nil, true
			}
		case Le:
			if c > 0 || ys > 0 {
				return nil, true
			}
		default:
			return nil, true
		}
		if ys != 0 {
			by.Add(by, prod.Mul(b, Y[r]))
		}
	}
	var ya big.Int
	for j, col := range p.Cols {
		ya.SetInt64(0)
		for _, e := range col {
			if Y[e.Row] != nil {
				ya.Add(&ya, prod.Mul(e.Val.Num(), Y[e.Row]))
			}
		}
		if ya.Cmp(t.Mul(num(p.C[j]), dy)) > 0 {
			return nil, true
		}
	}
	// c·x = cx/dx and b·y = by/dy.
	if prod.Mul(cx, dy).Cmp(t.Mul(by, dx)) != 0 {
		return nil, true
	}
	return new(big.Rat).SetFrac(cx, dx), true
}
