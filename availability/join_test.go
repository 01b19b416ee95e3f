package availability

import (
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// The fingerprint sieve never rules out a range that the exact check
// accepts, on joins of random systems and on random families, so that
// findJoin finds what the exact check alone would.
func TestJoinSieveKeepsEveryJoin(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 17))
	joins := 0
	for it := range 60 {
		c1 := randomIntersecting(r, 3+r.IntN(4), 6, 0.5)
		c2 := randomIntersecting(r, 2+r.IntN(4), 6, 0.5)
		// The junction: a node of some quorum of the outer system.
		q := c1.Quorums[r.IntN(len(c1.Quorums))].Elements()
		f := joinFamilies(c1, q[r.IntN(len(q))], c2)
		if it%3 == 0 {
			f = randomFamily(r, 2+r.IntN(9), 1+r.IntN(10), 0.4)
		}
		sieve := newJoinSieve(f)
		for lo := 0; lo < f.N; lo++ {
			for hi := lo + 2; hi < f.N+1 && hi-lo < f.N; hi++ {
				if _, ok := splitAt(f, lo, hi); ok {
					joins++
					if !sieve.maybe(lo, hi) {
						t.Fatalf("case %d: the sieve rules out [%d, %d), a join of %v", it, lo, hi, f)
					}
				}
			}
		}
	}
	if joins < 30 {
		t.Errorf("only %d ranges split exactly", joins)
	}
}

// TestFindJoinParams: a join too large for the search over every range of
// nodes is found from the parameters construct.Join records (the inner
// system's size, then the junction), and only then.
func TestFindJoinParams(t *testing.T) {
	outer, err := construct.Grid(8, 8, 0)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := construct.Grid(6, 6, 0)
	if err != nil {
		t.Fatal(err)
	}
	f, err := construct.Join(outer, inner, 9, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	work := 0
	for i := range f.Quorums {
		work += f.Quorums[i].Len()
	}
	if f.N*f.N*work <= 50_000_000 {
		t.Fatalf("the join is small enough for the range search (%d)", f.N*f.N*work)
	}
	s, ok := findJoin(f)
	if !ok || len(s.inner) != inner.N || s.outer.N != outer.N || len(s.in.Quorums) != len(inner.Quorums) {
		t.Fatalf("findJoin with params %v: %v", f.Params, ok)
	}
	for _, params := range []set.Params{
		nil,
		{"inner_n": 35, "at": 10},  // a size that does not split
		{"n2": 36, "junction": 10}, // keys construct.Join does not write
	} {
		g := f.Clone()
		g.Params = params
		if _, ok := findJoin(g); ok {
			t.Errorf("findJoin with params %v: found a join", params)
		}
	}
	// A file's decoded parameters may be whole float64s.
	g := f.Clone()
	g.Params = set.Params{"inner_n": 36.0, "at": 10.0}
	if _, ok := findJoin(g); !ok {
		t.Error("findJoin with float64 params: no join")
	}
}
