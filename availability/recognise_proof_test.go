package availability

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// listsOf is f's quorums as member lists, as the recognisers read them.
func listsOf(f *set.Family) [][]int32 { return memberLists(context.Background(), f) }

// mutations returns lists one change away from qs: a quorum dropped, one
// repeated in place of another, one with a node added, one with a node
// taken out, one swapped for a random set of its size, one swapped for a
// random set of any size, and two quorums' nodes exchanged one for one.
func mutations(r *rand.Rand, n int, qs [][]int32) [][][]int32 {
	clone := func() [][]int32 {
		out := make([][]int32, len(qs))
		for i, q := range qs {
			out[i] = slices.Clone(q)
		}
		return out
	}
	randomSet := func(k int) []int32 {
		p := r.Perm(n)[:k]
		q := make([]int32, k)
		for i, v := range p {
			q[i] = int32(v)
		}
		slices.Sort(q)
		return q
	}
	var out [][][]int32
	i, j := r.IntN(len(qs)), r.IntN(len(qs))
	g := clone()
	out = append(out, append(g[:i:i], g[i+1:]...))
	if i != j {
		g = clone()
		g[i] = slices.Clone(g[j])
		out = append(out, g)
	}
	if len(qs[i]) < n {
		g = clone()
		for {
			v := int32(r.IntN(n))
			if !slices.Contains(g[i], v) {
				g[i] = append(g[i], v)
				slices.Sort(g[i])
				break
			}
		}
		out = append(out, g)
	}
	if len(qs[i]) > 1 {
		g = clone()
		k := r.IntN(len(g[i]))
		g[i] = append(g[i][:k:k], g[i][k+1:]...)
		out = append(out, g)
	}
	g = clone()
	g[i] = randomSet(len(qs[i]))
	out = append(out, g)
	g = clone()
	g[i] = randomSet(1 + r.IntN(n))
	out = append(out, g)
	g = clone()
	a, b := r.IntN(len(g[i])), r.IntN(len(g[j]))
	if i != j && !slices.Contains(g[i], g[j][b]) && !slices.Contains(g[j], g[i][a]) {
		g[i][a], g[j][b] = g[j][b], g[i][a]
		slices.Sort(g[i])
		slices.Sort(g[j])
		out = append(out, g)
	}
	return out
}

// familyOf is the family over n nodes of the member lists qs.
func familyOf(n int, qs [][]int32) *set.Family {
	f := set.NewFamily(n)
	for _, q := range qs {
		s := set.New(n)
		for _, v := range q {
			s.Add(int(v))
		}
		f.Add(s, set.NoOwner)
	}
	return f
}

// TestWallHoldsAgreesWithPredicate checks the one-pass proof of
// [wallHolds] against the check of [catalogue.holds] on the wall's own
// predicate (a minimality test by removal of each node of each quorum),
// on walls and on lists one change away from them.
func TestWallHoldsAgreesWithPredicate(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for _, widths := range [][]int{{1, 2}, {1, 2, 3, 4}, {1, 5}, {2, 4, 3}, {3, 3, 3}, {1, 2, 3, 3, 4}, {2, 2, 2, 2, 2}, {4, 2}} {
		wall, err := construct.Wall(widths)
		if err != nil {
			t.Fatal(err)
		}
		sys, err := construct.NewWallSystem(widths)
		if err != nil {
			t.Fatal(err)
		}
		count, _ := sys.QuorumCount()
		c := catalogue{live: sys.HasQuorum, count: count}
		var rows [][]int
		k := 0
		for _, w := range widths {
			var row []int
			for range w {
				row = append(row, k)
				k++
			}
			rows = append(rows, row)
		}
		qs := listsOf(wall)
		if !wallHolds(wall.N, qs, rows) {
			t.Fatalf("wall %v: its own quorums refused", widths)
		}
		refused := 0
		for range 60 {
			for _, g := range mutations(r, wall.N, qs) {
				want := c.holds(context.Background(), familyOf(wall.N, g))
				if got := wallHolds(wall.N, g, rows); got != want {
					t.Fatalf("wall %v, quorums %v: wallHolds %v, predicate %v", widths, g, got, want)
				}
				if !want {
					refused++
				}
			}
		}
		if refused == 0 {
			t.Fatalf("wall %v: no change refused", widths)
		}
	}
}

// TestTreeHoldsAgreesWithPredicate is [TestWallHoldsAgreesWithPredicate]
// for the tree quorums and [treeHolds].
func TestTreeHoldsAgreesWithPredicate(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 9))
	for _, dh := range [][2]int{{2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {4, 1}, {4, 2}, {5, 1}} {
		d, h := dh[0], dh[1]
		tree, err := construct.Tree(d, h)
		if err != nil {
			t.Fatal(err)
		}
		sys, err := construct.NewTreeSystem(d, h)
		if err != nil {
			t.Fatal(err)
		}
		c := catalogue{live: sys.HasQuorum, count: construct.TreeCount(d, h)}
		label := make([]int, tree.N)
		for v := range label {
			label[v] = v
		}
		qs := listsOf(tree)
		if !treeHolds(tree.N, qs, label, d, h) {
			t.Fatalf("tree %v: its own quorums refused", dh)
		}
		refused := 0
		for range 30 {
			for _, g := range mutations(r, tree.N, qs) {
				want := c.holds(context.Background(), familyOf(tree.N, g))
				if got := treeHolds(tree.N, g, label, d, h); got != want {
					t.Fatalf("tree %v, quorums %v: treeHolds %v, predicate %v", dh, g, got, want)
				}
				if !want {
					refused++
				}
			}
		}
		if refused == 0 {
			t.Fatalf("tree %v: no change refused", dh)
		}
	}
}
