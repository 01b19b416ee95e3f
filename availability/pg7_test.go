package availability

import (
	"context"
	"math/big"
	"os"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// pg7Golden reads testdata/pg7.txt, the polynomial of PG(2,7) that
// PlanePolynomial computed (minutes of work, so stored).
func pg7Golden(t testing.TB) *Polynomial { return planeGolden(t, "pg7.txt", 57) }

// The stored PG(2,7) polynomial passes every check that does not need the
// sweep: inclusion–exclusion over up to four lines (exact for i ≤ 29, since
// r distinct lines cover at least r·8 − C(r,2) points), the transversal
// search at the top, Peleg–Wool, monotone fractions, and Monte Carlo in the
// middle (TestPG7Columns proves every coefficient by a second count).
func TestPG7Golden(t *testing.T) {
	golden := pg7Golden(t)
	f := ok[*set.Family](t)(construct.ProjectivePlane(7))
	n := f.N
	rows := make([][]*big.Int, n+1)
	for i := range rows {
		rows[i] = binomialRow(i)
	}
	for i, want := range inclusionExclusion4(f, 29) {
		if golden.A[i].Cmp(want) != 0 {
			t.Errorf("A_%d = %v, inclusion–exclusion gives %v", i, golden.A[i], want)
		}
	}
	// The top: transversal counts, as far as the search goes.
	pp := NewPartial(context.Background(), f)
	lo, hi := pp.KnownRange()
	t.Logf("partial: A_0..A_%d and A_%d..A_%d proved", lo-1, hi+1, n)
	if hi > n-9 {
		t.Errorf("transversal search proved only A_%d..A_%d", hi+1, n)
	}
	for i := hi + 1; i <= n; i++ {
		if golden.A[i].Cmp(pp.A[i]) != 0 {
			t.Errorf("A_%d = %v, transversal count gives %v", i, golden.A[i], pp.A[i])
		}
	}
	// Peleg–Wool: A_i + A_{n−i} ≤ C(n, i), strictly for some i since
	// PG(2,7) is dominated (its projective triangles are 12-point blocking
	// sets containing no line); fractions A_i / C(n, i) never decrease.
	strict := false
	for i := 0; i <= n; i++ {
		s := new(big.Int).Add(golden.A[i], golden.A[n-i])
		switch s.Cmp(rows[n][i]) {
		case 1:
			t.Fatalf("A_%d + A_%d > C(57,%d)", i, n-i, i)
		case -1:
			strict = true
		}
		if i < n {
			// A_{i+1}·C(n,i) ≥ A_i·C(n,i+1)
			l := new(big.Int).Mul(golden.A[i+1], rows[n][i])
			r := new(big.Int).Mul(golden.A[i], rows[n][i+1])
			if l.Cmp(r) < 0 {
				t.Errorf("fraction decreases from %d to %d", i, i+1)
			}
		}
	}
	if !strict {
		t.Error("PG(2,7) looks nondominated")
	}
	// The middle: Monte Carlo at three points.
	for _, x := range []float64{0.3, 0.5, 0.7} {
		vec := make([]float64, n)
		for v := range vec {
			vec[v] = x
		}
		e, err := EstimateAV(context.Background(), f, vec, 1<<18, 7)
		if err != nil {
			t.Fatal(err)
		}
		if av := golden.At(x); av < e.Lo-0.003 || av > e.Hi+0.003 {
			t.Errorf("AV(%v) = %v, estimate %v [%v, %v]", x, av, e.Value, e.Lo, e.Hi)
		}
	}
}

// TestPG7 recomputes the PG(2,7) polynomial (a minute of CPU on two cores,
// about 3 GB); it runs only with COTERIE_LONG=1.
func TestPG7(t *testing.T) {
	if os.Getenv("COTERIE_LONG") == "" {
		t.Skip("set COTERIE_LONG=1 to recompute PG(2,7) (minutes)")
	}
	p, err := PlanePolynomial(context.Background(), 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Equal(pg7Golden(t)) {
		t.Errorf("PG(2,7): %v", p)
	}
}
