package verify

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// bruteContained is findContained's definition, pair by pair: the first
// quorum j in order that holds another quorum i (an equal one only if it
// comes earlier and the two have no different owners), and the first such
// i.
func bruteContained(f *set.Family) (int, int) {
	for j := range f.Quorums {
		for i := range f.Quorums {
			p, q := &f.Quorums[i], &f.Quorums[j]
			if i == j || !set.Subset(p, q) {
				continue
			}
			if p.Len() == q.Len() {
				if i > j {
					continue
				}
				if oi, oj := f.Owner(i), f.Owner(j); oi != set.NoOwner && oj != set.NoOwner && oi != oj {
					continue
				}
			}
			return i, j
		}
	}
	return -1, -1
}

// plantedFamily returns m random quorums of lo..hi of n nodes (each node
// drawn with replacement until the size is reached), then plants, at
// random positions, nested copies: a quorum with nodes taken out (it lies
// in the original), a quorum with nodes added (it holds the original), or
// a plain repeat. With owners, some repeats get a different owner.
func plantedFamily(rng *rand.Rand, n, m, lo, hi, plants int, owners bool) *set.Family {
	qs := make([]set.Set, m)
	for i := range qs {
		size := lo + rng.IntN(hi-lo+1)
		for qs[i].Len() < size {
			qs[i].Add(rng.IntN(n))
		}
	}
	for range plants {
		from, to := rng.IntN(m), rng.IntN(m)
		if from == to {
			continue
		}
		qs[to].Copy(&qs[from])
		switch rng.IntN(3) {
		case 0:
			for range 1 + rng.IntN(4) {
				if v, ok := qs[to].Next(rng.IntN(n)); ok && qs[to].Len() > 1 {
					qs[to].Remove(v)
				}
			}
		case 1:
			for range 1 + rng.IntN(4) {
				qs[to].Add(rng.IntN(n))
			}
		}
	}
	f := set.NewFamily(n)
	for i := range qs {
		owner := set.NoOwner
		if owners {
			owner = rng.IntN(3) // few owners: repeats often share one, sometimes not
		}
		f.Add(&qs[i], owner)
	}
	return f
}

// findContained reports the pair brute force reports, on many small
// families (the quorum-by-quorum search) and on lists of 4,096 and more
// (set.Family.Redundant: blocks, probes or sizes, then the first pair),
// with sizes mixed, repeats, owners, and nested quorums planted anywhere.
func TestFindContainedBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 7))
	for trial := range 400 {
		n := 2 + rng.IntN(30)
		lo := 1 + rng.IntN(n)
		hi := lo + rng.IntN(n-lo+1)
		f := plantedFamily(rng, n, 2+rng.IntN(40), lo, hi, rng.IntN(3), trial%3 == 0)
		i, j, err := findContained(context.Background(), f)
		if bi, bj := bruteContained(f); err != nil || i != bi || j != bj {
			t.Fatalf("trial %d: %v owners %v: (%d, %d) %v, brute force (%d, %d)", trial, f.Quorums, f.Owners, i, j, err, bi, bj)
		}
	}
	if testing.Short() {
		t.Skip("the big lists take a few seconds")
	}
	for trial, c := range []struct{ n, m, lo, hi, plants int }{
		{60, 4500, 31, 38, 0}, // dense, narrow sizes: minimal
		{60, 4500, 31, 38, 1}, // one nested or repeated pair
		{60, 5000, 28, 40, 3}, // a few
		{200, 4200, 101, 120, 1},
		{200, 4200, 101, 120, 0},
		{40, 6000, 3, 12, 2}, // sparse quorums
	} {
		f := plantedFamily(rng, c.n, c.m, c.lo, c.hi, c.plants, trial == 2)
		i, j, err := findContained(context.Background(), f)
		if bi, bj := bruteContained(f); err != nil || i != bi || j != bj {
			t.Fatalf("case %+v: (%d, %d) %v, brute force (%d, %d)", c, i, j, err, bi, bj)
		}
	}
}

// The projective-plane check names the first quorum i, in order, that
// meets a later one in two nodes or more, and the first such j, with the
// nodes they share: whether the pair is among the first rows it compares
// directly or is found by the node → quorums table.
func TestPlaneCheckWitnessBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 8))
	for trial := range 300 {
		n := 3 + rng.IntN(20)
		f := set.NewFamily(n)
		m := 2 + rng.IntN(30)
		for range m {
			var q set.Set
			// A node in every quorum keeps every pair meeting; the rest
			// meet again only now and then, late in the list or not at all.
			q.Add(0)
			for range rng.IntN(3) {
				q.Add(1 + rng.IntN(n-1))
			}
			f.Add(&q, set.NoOwner)
		}
		c := planeCheck(context.Background(), f, construct.Form(f), nil, true)
		wi, wj := -1, -1
	find:
		for i := range m {
			for j := i + 1; j < m; j++ {
				if set.IntersectionLen(&f.Quorums[i], &f.Quorums[j]) >= 2 {
					wi, wj = i, j
					break find
				}
			}
		}
		if wi < 0 {
			if !c.OK {
				t.Fatalf("trial %d: %v: %+v, but every two quorums meet once", trial, f.Quorums, c)
			}
			continue
		}
		if c.OK || c.Witness == nil || c.Witness.Quorums[0] != wi || c.Witness.Quorums[1] != wj {
			t.Fatalf("trial %d: %v: %+v, want quorums (%d, %d)", trial, f.Quorums, c.Witness, wi, wj)
		}
		var common set.Set
		common.Intersect(&f.Quorums[wi], &f.Quorums[wj])
		if got := c.Witness.Nodes; len(got) != common.Len() {
			t.Fatalf("trial %d: common nodes %v, want %v", trial, got, common.Elements())
		}
	}
}
