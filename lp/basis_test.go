package lp

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"
)

// SolveBasis solves random nonsingular 0/1 systems exactly: M z = 1 and
// Mᵀ y = 1 hold in rationals.
func TestSolveBasis(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	solved := 0
	for range 200 {
		k := 1 + r.IntN(25)
		rows := make([][]int, k)
		for i := range rows {
			for j := range k {
				if r.IntN(3) == 0 || i == j && r.IntN(2) == 0 {
					rows[i] = append(rows[i], j)
				}
			}
		}
		var work float64
		sol, err := SolveBasis(context.Background(), k, rows, &work, 1e12)
		if err != nil {
			continue // singular (or an empty row or column)
		}
		solved++
		for i, row := range rows {
			s := new(big.Int)
			for _, j := range row {
				s.Add(s, sol.Z[j])
			}
			if s.Cmp(sol.Det) != 0 {
				t.Fatalf("row %d of M z: %v, want %v (rows %v)", i, s, sol.Det, rows)
			}
		}
		col := make([]big.Int, k)
		for i, row := range rows {
			for _, j := range row {
				col[j].Add(&col[j], sol.Y[i])
			}
		}
		for j := range col {
			if col[j].Cmp(sol.Det) != 0 {
				t.Fatalf("column %d of Mᵀ y: %v, want %v (rows %v)", j, &col[j], sol.Det, rows)
			}
		}
	}
	if solved < 50 {
		t.Errorf("only %d of 200 random systems were nonsingular", solved)
	}
	var work float64
	if _, err := SolveBasis(context.Background(), 2, [][]int{{0, 1}, {0, 1}}, &work, 1e12); err == nil {
		t.Error("a singular matrix was solved")
	}
}
