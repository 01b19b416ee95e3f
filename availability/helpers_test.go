package availability

import (
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/internal/testsys"
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
func randomFamily(r *rand.Rand, n, m int, d float64) *set.Family { return testsys.Family(r, n, m, d) }

// randomIntersecting returns a random intersecting family over n nodes.
func randomIntersecting(r *rand.Rand, n, tries int, d float64) *set.Family {
	return testsys.Intersecting(r, n, tries, d)
}

// projectivePlane returns PG(2,p).
func projectivePlane(t testing.TB, p int) *set.Family { return testsys.Plane(t, p) }

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
