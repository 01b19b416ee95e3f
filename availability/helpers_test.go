package availability

import (
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// family builds an explicit family over n nodes from 0-based quorums.
func family(n int, qs ...[]int) *set.Family {
	f := set.NewFamily(n)
	for _, q := range qs {
		f.Add(set.Of(q...), set.NoOwner)
	}
	return f
}

// randomFamily returns a random family over n nodes (not necessarily
// intersecting) with m quorums of density d.
func randomFamily(r *rand.Rand, n, m int, d float64) *set.Family {
	f := set.NewFamily(n)
	for range m {
		var q []int
		for v := range n {
			if r.Float64() < d {
				q = append(q, v)
			}
		}
		if len(q) == 0 {
			q = []int{r.IntN(n)}
		}
		f.Add(set.Of(q...), set.NoOwner)
	}
	return f
}

// randomIntersecting returns a random intersecting family over n nodes:
// random sets kept only if they meet every set kept so far.
func randomIntersecting(r *rand.Rand, n, tries int, d float64) *set.Family {
	f := set.NewFamily(n)
	for range tries {
		var q []int
		for v := range n {
			if r.Float64() < d {
				q = append(q, v)
			}
		}
		if len(q) == 0 {
			continue
		}
		s := set.Of(q...)
		ok := true
		for i := range f.Quorums {
			if !set.Intersects(s, &f.Quorums[i]) {
				ok = false
				break
			}
		}
		if ok {
			f.Add(s, set.NoOwner)
		}
	}
	f.Minimalize()
	return f
}

// projectivePlane builds PG(2,p) for a prime p by homogeneous coordinates
// mod p: points and lines are the normalised nonzero vectors (first nonzero
// coordinate 1), point x on line l iff x·l ≡ 0 (mod p). A stand-in for
// construct.ProjectivePlane in these tests.
func projectivePlane(t testing.TB, p int) *set.Family {
	t.Helper()
	var pts [][3]int
	for a := range p {
		for b := range p {
			for c := range p {
				v := [3]int{a, b, c}
				first := 0
				for first < 3 && v[first] == 0 {
					first++
				}
				if first < 3 && v[first] == 1 {
					pts = append(pts, v)
				}
			}
		}
	}
	n := len(pts)
	if n != p*p+p+1 {
		t.Fatalf("PG(2,%d) has %d points", p, n)
	}
	f := set.NewFamily(n)
	f.Kind = "fpp"
	f.Params = set.Params{"order": p}
	for _, l := range pts {
		q := set.New(n)
		for i, x := range pts {
			if (l[0]*x[0]+l[1]*x[1]+l[2]*x[2])%p == 0 {
				q.Add(i)
			}
		}
		f.Add(q, set.NoOwner)
	}
	f.Canonical()
	return f
}

// grid builds Maekawa's r×c grid, row-major: node i*c+j is row i column j;
// the quorum of (i, j) is row i ∪ column j.
func grid(r, c int) *set.Family {
	f := set.NewFamily(r * c)
	f.Kind = "grid"
	f.Params = set.Params{"rows": r, "cols": c}
	for i := range r {
		for j := range c {
			q := set.New(r * c)
			for k := range c {
				q.Add(i*c + k)
			}
			for k := range r {
				q.Add(k*c + j)
			}
			f.Add(q, i*c+j)
		}
	}
	f.Canonical()
	return f
}

// cube builds the (k+1)-cube k-arbiter over a^(k+1) nodes (Manabe and
// Tajima, Definition 2 example 2): node Σ x_i a^i; the quorum of (b_1..b_d)
// is the union of the slabs x_i = b_i.
func cube(a, k int) *set.Family {
	d := k + 1
	n := 1
	for range d {
		n *= a
	}
	f := set.NewFamily(n)
	f.K = k
	f.Kind = "cube"
	f.Params = set.Params{"a": a, "k": k}
	coord := func(v, i int) int {
		for range i {
			v /= a
		}
		return v % a
	}
	for b := range n {
		q := set.New(n)
		for v := range n {
			for i := range d {
				if coord(v, i) == coord(b, i) {
					q.Add(v)
					break
				}
			}
		}
		f.Add(q, set.NoOwner)
	}
	f.Canonical()
	return f
}

// joinFamilies is Kuo's join C1 ⊕x C2 (Section 4), by construct.Join: the
// nodes of C1 other than x keep their order, C2's follow.
func joinFamilies(c1 *set.Family, x int, c2 *set.Family) *set.Family {
	f, err := construct.Join(c1, c2, x, 1<<20)
	if err != nil {
		panic(err)
	}
	return f
}
