package availability

import (
	"bufio"
	"context"
	"math/big"
	"math/bits"
	"os"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// pg8Golden reads testdata/pg8.txt, the polynomial of PG(2,8) that
// PlanePolynomial computed (an hour of CPU, so stored).
func pg8Golden(t testing.TB) *Polynomial {
	t.Helper()
	f, err := os.Open("testdata/pg8.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := &Polynomial{N: 73}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		a, ok := new(big.Int).SetString(line, 10)
		if !ok {
			t.Fatalf("pg8.txt: bad line %q", line)
		}
		p.A = append(p.A, a)
	}
	if len(p.A) != 74 {
		t.Fatalf("pg8.txt has %d coefficients, want 74", len(p.A))
	}
	return p
}

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
	var lines [][2]uint64
	for i := range f.Quorums {
		var w [2]uint64
		for v := range f.Quorums[i].All() {
			w[v/64] |= 1 << (v % 64)
		}
		lines = append(lines, w)
	}
	or := func(a, b [2]uint64) [2]uint64 { return [2]uint64{a[0] | b[0], a[1] | b[1]} }
	size := func(a [2]uint64) int { return bits.OnesCount64(a[0]) + bits.OnesCount64(a[1]) }
	signed := make([]int64, n+1)
	m := len(lines)
	for a := range m {
		signed[size(lines[a])]++
		for b := a + 1; b < m; b++ {
			ab := or(lines[a], lines[b])
			signed[size(ab)]--
			for c := b + 1; c < m; c++ {
				abc := or(ab, lines[c])
				signed[size(abc)]++
				for d := c + 1; d < m; d++ {
					signed[size(or(abc, lines[d]))]--
				}
			}
		}
	}
	rows := make([][]*big.Int, n+1)
	for i := range rows {
		rows[i] = binomialRow(i)
	}
	for i := 0; i <= 34; i++ {
		want := new(big.Int)
		for u := 0; u <= i; u++ {
			if signed[u] != 0 {
				want.Add(want, new(big.Int).Mul(big.NewInt(signed[u]), rows[n-u][i-u]))
			}
		}
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
	strict := false
	for i := 0; i <= n; i++ {
		s := new(big.Int).Add(golden.A[i], golden.A[n-i])
		switch s.Cmp(rows[n][i]) {
		case 1:
			t.Fatalf("A_%d + A_%d > C(73,%d)", i, n-i, i)
		case -1:
			strict = true
		}
		if i < n {
			l := new(big.Int).Mul(golden.A[i+1], rows[n][i])
			r := new(big.Int).Mul(golden.A[i], rows[n][i+1])
			if l.Cmp(r) < 0 {
				t.Errorf("fraction decreases from %d to %d", i, i+1)
			}
		}
	}
	if !strict {
		t.Error("PG(2,8) looks nondominated")
	}
	for _, x := range []float64{0.5, 0.6, 0.7} {
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
