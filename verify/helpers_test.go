package verify

import (
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// digits returns the base-a digits x_1..x_d of node v (x_1 least
// significant), the paper's coordinates of a node of the d-cube.
func digits(v, a, d int) []int {
	x := make([]int, d)
	for i := range d {
		x[i] = v % a
		v /= a
	}
	return x
}

func pow(a, e int) int {
	r := 1
	for range e {
		r *= a
	}
	return r
}

// cubeArbiter returns the (k+1)-cube k-arbiter over a^(k+1) nodes (Manabe
// and Tajima, Section 2.3): quorum b is the union of the hyperplanes
// x_i = b_i.
func cubeArbiter(a, k int) *set.Family {
	return cubeHKLevel(a, k, 1, k)
}

// cubeHKLevel returns level h of the (k+1)-cube (h,k)-arbiter (Section
// 3.3): with z = ⌊(1+k)/(1+k/h)⌋, quorum b is the union over j = 0..k+1-z
// of the subcubes x_{j+1..j+z} = b_{j+1..j+z}. For z = 1 it is the k-arbiter.
// The z argument overrides the formula when positive (as cubeArbiter does).
func cubeHKLevel(a, k, h, _ int) *set.Family {
	d := k + 1
	z := (1 + k) * h / (h + k)
	if h == k && k == 0 {
		z = 1
	}
	n := pow(a, d)
	fam := set.NewFamily(n)
	fam.K = k
	coords := make([][]int, n)
	for v := range n {
		coords[v] = digits(v, a, d)
	}
	for bv := range n {
		b := coords[bv]
		s := set.New(n)
		for v := range n {
			x := coords[v]
			for j := 0; j <= d-z; j++ {
				if slices.Equal(x[j:j+z], b[j:j+z]) {
					s.Add(v)
					break
				}
			}
		}
		fam.Add(s, set.NoOwner)
	}
	return fam
}

// cubeHK returns the whole (k+1)-cube (h,k)-arbiter.
func cubeHK(a, k int) *set.HK {
	hk := &set.HK{N: pow(a, k+1), K: k, Kind: "cube"}
	for h := 1; h <= k; h++ {
		hk.AddLevel(h, cubeHKLevel(a, k, h, 0))
	}
	return hk
}

// fromLists builds a family over n nodes from 1-based node lists, as the
// papers print them.
func fromLists(n, k int, lists ...[]int) *set.Family {
	f := set.NewFamily(n)
	f.K = k
	for _, l := range lists {
		s := set.New(n)
		for _, v := range l {
			s.Add(v - 1)
		}
		f.Add(s, set.NoOwner)
	}
	return f
}

// checkDisjointWitness fails unless w is t' = min(m, t) distinct increasing
// positions of f whose quorums have an empty intersection.
func checkDisjointWitness(tb testing.TB, f *set.Family, t int, w []int) {
	tb.Helper()
	want := min(t, len(f.Quorums))
	if len(w) != want {
		tb.Fatalf("witness %v has %d quorums, want %d", w, len(w), want)
	}
	for i, q := range w {
		if q < 0 || q >= len(f.Quorums) || (i > 0 && w[i-1] >= q) {
			tb.Fatalf("witness %v is not increasing positions in 0..%d", w, len(f.Quorums)-1)
		}
	}
	var acc set.Set
	acc.Copy(&f.Quorums[w[0]])
	for _, q := range w[1:] {
		acc.Intersect(&acc, &f.Quorums[q])
	}
	if !acc.IsEmpty() {
		tb.Fatalf("witness %v: the quorums share %v", w, acc.String())
	}
}
