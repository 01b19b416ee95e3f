// Package testsys makes the quorum systems that tests across coterie share:
// random families from a seeded source (the same seed gives the same
// family), and the constructions tests need, failing the test rather than
// returning an error; a small tmpfs for tests of a full or read-only disk;
// and a context that is cancelled after a fixed number of polls. It is for
// tests only.
package testsys

import (
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// Family returns m random quorums over n nodes, each node in a quorum with
// probability p; a draw that comes out empty gets one random node instead.
// The quorums need not intersect, and one may contain another.
func Family(r *rand.Rand, n, m int, p float64) *set.Family {
	f := set.NewFamily(n)
	for range m {
		s := draw(r, n, p)
		if s.IsEmpty() {
			s.Add(r.IntN(n))
		}
		f.Add(s, set.NoOwner)
	}
	return f
}

// draw returns a random subset of the n nodes, each in with probability p.
func draw(r *rand.Rand, n int, p float64) *set.Set {
	s := set.New(n)
	for v := range n {
		if r.Float64() < p {
			s.Add(v)
		}
	}
	return s
}

// Intersecting returns a random intersecting family over n nodes: of tries
// random draws (each node in with probability p), those that meet every
// draw kept before are kept, and the result is minimalized.
func Intersecting(r *rand.Rand, n, tries int, p float64) *set.Family {
	f := set.NewFamily(n)
	for range tries {
		s := draw(r, n, p)
		if s.IsEmpty() {
			continue
		}
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

// Varied returns a family over n nodes with the given k in any of the
// shapes a file can hold: one time in six a threshold family (every w-subset,
// 1 ≤ w ≤ n), otherwise 1 to 20 nonempty quorums, each node in with
// probability 1/3, with owners on most quorums half of the time. It is the
// input of round-trip tests.
func Varied(r *rand.Rand, n, k int) *set.Family {
	f := &set.Family{N: n, K: k}
	if r.IntN(6) == 0 {
		f.Threshold = 1 + r.IntN(n)
		return f
	}
	owned := r.IntN(2) == 0
	for range 1 + r.IntN(20) {
		q := set.New(n)
		for q.IsEmpty() {
			for v := range n {
				if r.IntN(3) == 0 {
					q.Add(v)
				}
			}
		}
		o := set.NoOwner
		if owned && r.IntN(5) != 0 {
			o = r.IntN(n)
		}
		f.Add(q, o)
	}
	return f
}

// Plane returns the lines of the projective plane of order q, as
// [construct.ProjectivePlane] builds them, failing tb if q is not a prime
// power.
func Plane(tb testing.TB, q int) *set.Family {
	tb.Helper()
	f, err := construct.ProjectivePlane(q)
	if err != nil {
		tb.Fatalf("projective plane of order %d: %v", q, err)
	}
	return f
}

// Sparse returns a copy of f with its quorums held as node lists
// ([set.Family.Sparse]) instead of bit sets, so that a test can run the
// sparse code paths on the same quorums as the dense ones.
func Sparse(f *set.Family) *set.Family {
	g := f.Clone()
	g.Sparse = set.ListsOf(g.Quorums)
	g.Quorums = nil
	return g
}
