package availability

import (
	"context"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
)

// Kuo's Theorem 6 against the domination package on systems too large for
// the brute-force H check: a coterie is nondominated iff AV(1/2) = 1/2;
// Theorem 7: a k-arbiter with AV(1/2) = 1/2 is a nondominated k-arbiter.
// And the top coefficients against the smallest transversals: A_{n−j} =
// C(n, j) for j below the smallest transversal size τ, and
// C(n, τ) − A_{n−τ} is the number of minimal transversals of size τ.
func TestDominationCrossCheck(t *testing.T) {
	ctx := context.Background()
	f := ok[*set.Family](t)
	fams := map[string]*set.Family{
		"fpp 4":          f(construct.ProjectivePlane(4)),
		"fpp 5":          f(construct.ProjectivePlane(5)),
		"grid 5x5":       f(construct.Grid(5, 5, 0)),
		"grid 5x6 n=27":  f(construct.Grid(5, 6, 27)),
		"billiard 7":     f(construct.Billiard(7)),
		"billiard 9":     f(construct.Billiard(9)),
		"maekawa 23":     f(construct.Maekawa(23, construct.MapMin)),
		"cube a=3 k=2":   f(construct.Cube(3, 2, 0)),
		"join fano⊕grid": f(construct.Join(f(construct.ProjectivePlane(2)), f(construct.Grid(4, 4, 0)), 3, 1<<20)),
	}
	half := big.NewRat(1, 2)
	for name, fam := range fams {
		r := mustCompute(t, fam, MethodAuto)
		avHalf := r.Poly.AtRat(half).Cmp(half) == 0
		coterie := fam.Clone()
		coterie.K = 1
		d, err := domination.Decide(ctx, coterie)
		if err != nil {
			t.Fatal(err)
		}
		if avHalf != d.Nondominated {
			t.Errorf("%s: AV(1/2) = 1/2 is %v, but nondominated coterie is %v", name, avHalf, d.Nondominated)
		}
		if fam.K > 1 && avHalf {
			dk, err := domination.Decide(ctx, fam)
			if err != nil {
				t.Fatal(err)
			}
			if !dk.Nondominated {
				t.Errorf("%s: AV(1/2) = 1/2 but the %d-arbiter is dominated (Theorem 7)", name, fam.K)
			}
		}
		tc, err := domination.CountTransversals(ctx, fam)
		if err != nil {
			t.Fatal(err)
		}
		n, tau := fam.N, tc.Smallest
		row := binomialRow(n)
		for j := 0; j < tau; j++ {
			if r.Poly.A[n-j].Cmp(row[j]) != 0 {
				t.Errorf("%s: A_%d = %v, want C(%d,%d) (no transversal of %d nodes)", name, n-j, r.Poly.A[n-j], n, j, j)
			}
		}
		got := new(big.Int).Sub(row[tau], r.Poly.A[n-tau])
		if got.Cmp(tc.BySize[tau]) != 0 {
			t.Errorf("%s: C(n,τ) − A_{n−τ} = %v, minimal transversals of size τ = %d: %v", name, got, tau, tc.BySize[tau])
		}
	}
}
