package availability

import (
	"context"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// pg8Golden reads testdata/pg8.txt, the polynomial of PG(2,8) that
// PlanePolynomial computed (22 minutes, so stored).
func pg8Golden(t testing.TB) *Polynomial { return planeGolden(t, "pg8.txt", 73) }

// The stored PG(2,8) polynomial passes checks that do not need the sweep:
// inclusion–exclusion over up to four lines at the bottom (exact for
// i ≤ 34, since five distinct lines cover at least 5·9 − 10 = 35 points);
// at the top, A_i + A_{73−i} = C(73, i) for i ≥ 62, because the
// complement of an i-set with no line is a blocking set of 73 − i ≤ 11
// points, and by Bruen every blocking set with fewer than q + √q + 1 ≈
// 11.8 points contains a line; the transversal search's proved
// coefficients; monotone fractions; Monte Carlo in the middle.
func TestPG8Golden(t *testing.T) {
	golden := pg8Golden(t)
	f := ok[*set.Family](t)(construct.ProjectivePlane(8))
	n := f.N
	rows := make([][]*big.Int, n+1)
	for i := range rows {
		rows[i] = binomialRow(i)
	}
	for i, want := range inclusionExclusion4(f, 34) {
		if golden.A[i].Cmp(want) != 0 {
			t.Errorf("A_%d = %v, inclusion–exclusion gives %v", i, golden.A[i], want)
		}
	}
	if golden.A[9].Int64() != 73 || golden.A[10].Int64() != 73*64 {
		t.Errorf("A_9 = %v, A_10 = %v, want 73 and 73·64", golden.A[9], golden.A[10])
	}
	for i := 62; i <= n; i++ {
		s := new(big.Int).Add(golden.A[i], golden.A[n-i])
		if s.Cmp(rows[n][i]) != 0 {
			t.Errorf("A_%d + A_%d = %v, want C(73,%d) = %v", i, n-i, s, i, rows[n][i])
		}
	}
	pp := NewPartial(context.Background(), f)
	for i := range pp.Known {
		if pp.Known[i] && golden.A[i].Cmp(pp.A[i]) != 0 {
			t.Errorf("A_%d = %v, the partial count proves %v", i, golden.A[i], pp.A[i])
		}
	}
	checkPlaneGoldenShape(t, f, golden, rows, []float64{0.5, 0.6, 0.7})
}
