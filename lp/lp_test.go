package lp

import (
	"context"
	"math/big"
	"testing"
)

func r(a, b int64) *big.Rat { return big.NewRat(a, b) }

// gameProgram is a 2×2 zero-sum game with payoffs 1, 3 / 2, 1: minimise L
// with w1 + w2 = 1 and each column's payoff ≤ L (L ≥ 0 here, as every
// payoff is positive). Its value is 5/3 at w = (2/3, 1/3).
func gameProgram() *Program {
	// Columns: w1, w2, L. Rows: w1 + w2 = 1; 1w1 + 3w2 − L ≤ 0; 2w1 + 1w2 − L ≤ 0.
	return &Program{
		Kinds: []Kind{Eq, Le, Le},
		B:     []*big.Rat{r(1, 1), nil, nil},
		C:     []*big.Rat{nil, nil, r(1, 1)},
		Cols: [][]Entry{
			{{0, r(1, 1)}, {1, r(1, 1)}, {2, r(2, 1)}},
			{{0, r(1, 1)}, {1, r(3, 1)}, {2, r(1, 1)}},
			{{1, r(-1, 1)}, {2, r(-1, 1)}},
		},
	}
}

// bruteGame is min over w1 in steps of 1/den of max(w1 + 3(1−w1), 2w1 + (1−w1)).
func bruteGame(den int64) *big.Rat {
	var best *big.Rat
	for k := int64(0); k <= den; k++ {
		w1 := r(k, den)
		w2 := new(big.Rat).Sub(r(1, 1), w1)
		a := new(big.Rat).Add(w1, new(big.Rat).Mul(r(3, 1), w2))
		b := new(big.Rat).Add(new(big.Rat).Mul(r(2, 1), w1), w2)
		if b.Cmp(a) > 0 {
			a = b
		}
		if best == nil || a.Cmp(best) < 0 {
			best = a
		}
	}
	return best
}

func TestExactSolvesAndCertifies(t *testing.T) {
	p := gameProgram()
	e := NewExact(p.Kinds, []*big.Rat{r(1, 1), r(0, 1), r(0, 1)})
	for j, col := range p.Cols {
		a := make([]*big.Rat, 3)
		for _, en := range col {
			a[en.Row] = en.Val
		}
		c := p.C[j]
		if c == nil {
			c = r(0, 1)
		}
		e.AddColumn(a, c)
	}
	ctx := context.Background()
	if _, err := e.Optimise(ctx); err != nil {
		t.Fatal(err)
	}
	if e.Objective().Sign() != 0 {
		t.Fatalf("phase 1 ends at %v", e.Objective())
	}
	if v, _ := e.Certify(nil); v != nil {
		t.Fatal("certified in phase 1")
	}
	e.EndPhase1()
	if _, err := e.Optimise(ctx); err != nil {
		t.Fatal(err)
	}
	v, x := e.Certify(nil)
	// The optimum is at w1 = 2/3 (both columns pay 5/3); a grid with
	// 3 | den reaches it exactly, and no grid point does better.
	if want := bruteGame(300); v == nil || v.Cmp(want) != 0 {
		t.Fatalf("certified %v, brute force %v", v, want)
	}
	if x[3].Cmp(r(2, 3)) != 0 || x[4].Cmp(r(1, 3)) != 0 {
		t.Fatalf("w = %v, %v", x[3], x[4])
	}
}

// TestCertifyRefuses checks the integral program (proved in integers) and
// the same with an unused column of fractional entries (proved in
// rationals) against the same pairs.
func TestCertifyRefuses(t *testing.T) {
	p := gameProgram()
	t.Run("integral", func(t *testing.T) { certifyCases(t, p, nil) })
	q := gameProgram()
	q.Cols = append(q.Cols, []Entry{{1, r(1, 2)}, {2, r(7, 3)}})
	q.C = append(q.C, r(1, 1))
	t.Run("rational", func(t *testing.T) { certifyCases(t, q, r(0, 1)) })
}

func certifyCases(t *testing.T, p *Program, extra *big.Rat) {
	ext := func(x []*big.Rat) []*big.Rat {
		if extra == nil || len(x) < 3 {
			return x
		}
		return append(x[:len(x):len(x)], extra)
	}
	x := ext([]*big.Rat{r(2, 3), r(1, 3), r(5, 3)})
	y := []*big.Rat{r(5, 3), r(-1, 3), r(-2, 3)}
	if v := Certify(p, x, y); v == nil || v.Cmp(r(5, 3)) != 0 {
		t.Fatalf("optimal pair: %v", v)
	}
	for name, xy := range map[string][2][]*big.Rat{
		"primal infeasible": {ext([]*big.Rat{r(2, 3), r(1, 3), r(3, 2)}), y},
		"negative x":        {ext([]*big.Rat{r(4, 3), r(-1, 3), r(5, 3)}), y},
		"dual infeasible":   {x, {r(2, 1), r(-1, 3), r(-2, 3)}},
		"dual wrong sign":   {x, {r(5, 3), r(1, 3), r(-2, 3)}},
		"gap":               {ext([]*big.Rat{r(1, 2), r(1, 2), r(2, 1)}), y},
		"short":             {x[:2], y},
	} {
		if v := Certify(p, xy[0], xy[1]); v != nil {
			t.Errorf("%s: certified %v", name, v)
		}
	}
}
