package domination

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// gf is a small finite field GF(p^m) for building test planes: elements are
// 0..q-1, read as polynomials over GF(p) in base p, reduced modulo an
// irreducible monic polynomial of degree m found by brute force.
type gf struct {
	p, m, q  int
	mul, add [][]int
}

func newGF(q int) (*gf, error) {
	p, m := 0, 0
	for d := 2; d <= q; d++ {
		if q%d == 0 {
			p = d
			break
		}
	}
	for r := q; r > 1; r /= p {
		if r%p != 0 {
			return nil, fmt.Errorf("%d is not a prime power", q)
		}
		m++
	}
	g := &gf{p: p, m: m, q: q}
	digits := func(a int) []int {
		d := make([]int, m)
		for i := range m {
			d[i] = a % p
			a /= p
		}
		return d
	}
	value := func(d []int) int {
		v := 0
		for i := m - 1; i >= 0; i-- {
			v = v*p + d[i]
		}
		return v
	}
	// polyMul multiplies a and b modulo x^m + mod(x) (mod holds the low m
	// coefficients of the monic modulus).
	polyMul := func(a, b, mod []int) []int {
		prod := make([]int, 2*m)
		for i := range m {
			for j := range m {
				prod[i+j] = (prod[i+j] + a[i]*b[j]) % p
			}
		}
		for d := 2*m - 1; d >= m; d-- {
			c := prod[d]
			if c == 0 {
				continue
			}
			prod[d] = 0
			for i := range m {
				prod[d-m+i] = ((prod[d-m+i]-c*mod[i])%p + p) % p
			}
		}
		return prod[:m]
	}
	// Find a modulus with no zero divisors: irreducible.
	for c := range q {
		mod := digits(c)
		ok := true
		for a := 1; a < q && ok; a++ {
			for b := 1; b < q; b++ {
				if value(polyMul(digits(a), digits(b), mod)) == 0 {
					ok = false
					break
				}
			}
		}
		if !ok {
			continue
		}
		g.mul, g.add = make([][]int, q), make([][]int, q)
		for a := range q {
			g.mul[a], g.add[a] = make([]int, q), make([]int, q)
			for b := range q {
				g.mul[a][b] = value(polyMul(digits(a), digits(b), mod))
				da, db := digits(a), digits(b)
				for i := range m {
					da[i] = (da[i] + db[i]) % p
				}
				g.add[a][b] = value(da)
			}
		}
		return g, nil
	}
	return nil, fmt.Errorf("no irreducible polynomial for %d", q)
}

// pg returns PG(2,q).
func pg(t testing.TB, q int) *set.Family { return testsys.Plane(t, q) }

// grid returns Maekawa's r×c grid: node (i,j) is i*c+j; quorum (i,j) is row
// i together with column j.
func grid(r, c int) *set.Family {
	f := set.NewFamily(r * c)
	f.Kind = "grid"
	for i := range r {
		for j := range c {
			s := set.New(r * c)
			for x := range c {
				s.Add(i*c + x)
			}
			for y := range r {
				s.Add(y*c + j)
			}
			f.Add(s, i*c+j)
		}
	}
	return f
}

// family builds an explicit family from 0-based node lists.
func family(n, k int, qs ...[]int) *set.Family {
	f := set.NewFamily(n)
	f.K = k
	for _, q := range qs {
		f.Add(set.Of(q...), set.NoOwner)
	}
	return f
}

// uniform returns all w-subsets of n nodes as an explicit k-arbiter.
func uniform(t testing.TB, n, w, k int) *set.Family {
	t.Helper()
	g := set.NewThreshold(n, w)
	f, err := g.Enumerate(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	f.K = k
	return f
}

// join returns Kuo's join c1 ⊕x c2: the nodes of c1 except x keep their
// numbers below x, shift down by one above it, and c2's nodes follow.
func join(c1 *set.Family, x int, c2 *set.Family) *set.Family {
	n := c1.N - 1 + c2.N
	f := set.NewFamily(n)
	f.K = c1.K
	remap := func(v int) int {
		if v > x {
			return v - 1
		}
		return v
	}
	for i := range c1.Quorums {
		q1 := &c1.Quorums[i]
		if !q1.Has(x) {
			s := set.New(n)
			for v := range q1.All() {
				s.Add(remap(v))
			}
			f.Add(s, set.NoOwner)
			continue
		}
		for j := range c2.Quorums {
			s := set.New(n)
			for v := range q1.All() {
				if v != x {
					s.Add(remap(v))
				}
			}
			for v := range c2.Quorums[j].All() {
				s.Add(c1.N - 1 + v)
			}
			f.Add(s, set.NoOwner)
		}
	}
	return f
}

// randomFamily returns a random minimal family of at most m quorums over n
// nodes, each node in a quorum with probability p. It need not intersect.
func randomFamily(r *rand.Rand, n, m int, p float64) *set.Family {
	f := testsys.Family(r, n, m, p)
	f.Minimalize()
	return f
}
