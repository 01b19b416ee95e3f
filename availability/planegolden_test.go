package availability

import (
	"bufio"
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
