package verify

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// randomBig returns m random quorums over n nodes, each node in a quorum
// with probability num/den, with some repeats and owners.
func randomBig(rng *rand.Rand, n, m, num, den int, owners bool) *set.Family {
	f := set.NewFamily(n)
	for i := range m {
		var q set.Set
		if i > 0 && rng.IntN(6) == 0 {
			q.Copy(&f.Quorums[rng.IntN(i)])
		}
		for q.IsEmpty() {
			for v := range n {
				if rng.IntN(den) < num {
					q.Add(v)
				}
			}
		}
		owner := set.NoOwner
		if owners {
			owner = rng.IntN(n)
		}
		f.Add(&q, owner)
	}
	return f
}

// pigeonhole never claims an intersection that brute force refutes.
func TestPigeonholeSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 2))
	fired := 0
	for trial := 0; trial < 300; trial++ {
		k := 1 + rng.IntN(3)
		f := randomBig(rng, 3+rng.IntN(10), 2+rng.IntN(12), 3+rng.IntN(2), 5, false)
		if !pigeonhole(f, k) {
			continue
		}
		fired++
		w, err := bruteDisjoint(context.Background(), f, k+1, nil)
		if err != nil || w != nil {
			t.Fatalf("pigeonhole says every %d quorums of %v meet; brute force: %v, %v", k+1, f.Quorums, w, err)
		}
	}
	if fired < 20 {
		t.Fatalf("pigeonhole fired %d times: the test checks too little", fired)
	}
}

// findContainedBig (by set.Family.Redundant) gives the pair the quorum by
// quorum search gives, owners and repeats included.
func TestFindContainedBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 3))
	for trial := 0; trial < 300; trial++ {
		f := randomBig(rng, 2+rng.IntN(28), 2+rng.IntN(40), 1+rng.IntN(3), 4, trial%2 == 0)
		i, j, err := findContained(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		bi, bj, err := findContainedBig(context.Background(), f)
		if err != nil || bi != i || bj != j {
			t.Fatalf("%v owners %v: big (%d, %d) %v, want (%d, %d)", f.Quorums, f.Owners, bi, bj, err, i, j)
		}
	}
}
