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
	checkPlaneGoldenShape(t, f, golden, rows, []float64{0.3, 0.5, 0.7})
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
