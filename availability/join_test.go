package availability

import (
	"math/rand/v2"
	"testing"
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
