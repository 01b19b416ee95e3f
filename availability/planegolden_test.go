package availability

import (
	"bufio"
	"context"
	"math/big"
	"math/bits"
	"os"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// planeGolden reads testdata/NAME, a stored availability polynomial over n
// nodes: one coefficient a line, '#' comments.
func planeGolden(t testing.TB, name string, n int) *Polynomial {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := &Polynomial{N: n}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		a, ok := new(big.Int).SetString(line, 10)
		if !ok {
			t.Fatalf("%s: bad line %q", name, line)
		}
		p.A = append(p.A, a)
	}
	if len(p.A) != n+1 {
		t.Fatalf("%s has %d coefficients, want %d", name, len(p.A), n+1)
	}
	return p
}

// inclusionExclusion4 returns the coefficients A_0..A_upto of f (at most
// 128 nodes) by inclusion–exclusion over sets of one to four quorums: exact
// for every i below the size of the smallest union of five quorums.
func inclusionExclusion4(f *set.Family, upto int) []*big.Int {
	n := f.N
	lines := make([][2]uint64, len(f.Quorums))
	for i := range f.Quorums {
		for v := range f.Quorums[i].All() {
			lines[i][v/64] |= 1 << (v % 64)
		}
	}
	or := func(a, b [2]uint64) [2]uint64 { return [2]uint64{a[0] | b[0], a[1] | b[1]} }
	size := func(a [2]uint64) int { return bits.OnesCount64(a[0]) + bits.OnesCount64(a[1]) }
	// signed[u] = Σ over sets F of 1..4 quorums with |∪F| = u of (−1)^{|F|+1}.
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
	out := make([]*big.Int, upto+1)
	for i := range out {
		want := new(big.Int)
		for u := 0; u <= i; u++ {
			if signed[u] != 0 {
				want.Add(want, new(big.Int).Mul(big.NewInt(signed[u]), binomialRow(n - u)[i-u]))
			}
		}
		out[i] = want
	}
	return out
}

// checkPlaneGoldenShape checks what every plane's polynomial must satisfy
// (rows are the binomial rows up to n): Peleg–Wool's A_i + A_{n−i} ≤
// C(n, i), strictly for some i since every plane of order at least 3 is
// dominated (its projective triangles are blocking sets containing no
// line); fractions A_i / C(n, i) that never decrease; and Monte Carlo
// estimates at the points xs.
func checkPlaneGoldenShape(t *testing.T, f *set.Family, golden *Polynomial, rows [][]*big.Int, xs []float64) {
	t.Helper()
	n := f.N
	strict := false
	for i := 0; i <= n; i++ {
		s := new(big.Int).Add(golden.A[i], golden.A[n-i])
		switch s.Cmp(rows[n][i]) {
		case 1:
			t.Fatalf("A_%d + A_%d > C(%d,%d)", i, n-i, n, i)
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
		t.Errorf("the plane of %d points looks nondominated", n)
	}
	for _, x := range xs {
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
