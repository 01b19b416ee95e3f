package domination

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// bruteModule reports whether some node set M (2 ≤ |M| < the nodes in
// use) splits f's list as findJoin asks: the quorums meeting M are every
// R ∪ G of their parts, each with a part outside M; over every subset.
func bruteModule(f *set.Family) bool {
	qs := masks(f)
	var sup uint32
	for _, q := range qs {
		sup |= q
	}
	for m := sup; m != 0; m = (m - 1) & sup {
		if bits.OnesCount32(m) < 2 || m == sup {
			continue
		}
		rs, gs, pairs := map[uint32]bool{}, map[uint32]bool{}, map[[2]uint32]bool{}
		ok := true
		for _, q := range qs {
			if q&m == 0 {
				continue
			}
			if q&^m == 0 {
				ok = false
				break
			}
			rs[q&^m], gs[q&m], pairs[[2]uint32{q &^ m, q & m}] = true, true, true
		}
		if ok && len(rs) > 0 && len(pairs) == len(rs)*len(gs) {
			return true
		}
	}
	return false
}

// noJoin never rules out a list that has a join's node set (checked over
// every subset of the nodes), and rules out grids and projective planes,
// which have none.
func TestNoJoinBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 21))
	pieces := joinPieces(t)
	ruled, modules := 0, 0
	for i := range 1000 {
		var f *set.Family
		switch i % 3 {
		case 0:
			f = randomFamily(r, 3+r.IntN(7), 2+r.IntN(14), 0.2+0.5*r.Float64())
		case 1:
			outer := pieces[r.IntN(len(pieces))]
			f = join(outer, r.IntN(outer.N), pieces[r.IntN(len(pieces)-1)])
		default:
			// a join, then one quorum changed: near misses
			outer := pieces[r.IntN(len(pieces))]
			f = join(outer, r.IntN(outer.N), pieces[r.IntN(len(pieces)-1)])
			q := &f.Quorums[r.IntN(len(f.Quorums))]
			v := r.IntN(f.N)
			if q.Has(v) && q.Len() > 1 {
				q.Remove(v)
			} else {
				q.Add(v)
			}
			f.Minimalize()
		}
		if f.N > 13 || len(f.Quorums) < 3 {
			continue
		}
		has := bruteModule(f)
		if has {
			modules++
		}
		no := noJoinAllWays(t, f)
		if no {
			ruled++
		}
		if no && has {
			t.Fatalf("case %d: %v has a join's node set, and noJoin rules it out", i, f)
		}
	}
	t.Logf("%d lists ruled out, %d with a join's node set", ruled, modules)
	if ruled < 100 || modules < 100 {
		t.Fatalf("%d lists ruled out, %d with a join's node set: the test hardly tests", ruled, modules)
	}
	for _, f := range []*set.Family{grid(7, 7), grid(8, 8), grid(3, 4), pg(t, 2), pg(t, 5)} {
		if !noJoinAllWays(t, f) {
			t.Errorf("%v: not ruled out", f)
		}
	}
}

// noJoinAllWays is noJoin on f with the pairs counted from the lists of
// quorums through each node, and by popcounts of the quorums' bitsets;
// the two must agree, and the automatic choice with them.
func noJoinAllWays(t *testing.T, f *set.Family) bool {
	t.Helper()
	var got [3]bool
	for i, by := range []pairCounting{pairsByLists, pairsByWords, pairsAuto} {
		j := newJoinFinder(f)
		j.pairsBy = by
		got[i] = j.noJoin(support(f), 1<<30)
	}
	if got[0] != got[1] || got[0] != got[2] {
		t.Fatalf("%v: noJoin by lists %v, by words %v, by its own choice %v", f, got[0], got[1], got[2])
	}
	return got[0]
}
