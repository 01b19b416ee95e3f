package availability

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// renumber returns f with its nodes renumbered by a random permutation and
// its quorums shuffled, and without kind or params: a plain list.
func renumber(r *rand.Rand, f *set.Family) *set.Family {
	perm := r.Perm(f.N)
	g := set.NewFamily(f.N)
	for _, i := range r.Perm(len(f.Quorums)) {
		s := set.New(f.N)
		for v := range f.Quorums[i].All() {
			s.Add(perm[v])
		}
		g.Add(s, set.NoOwner)
	}
	return g
}

// TestRecogniseTreeList checks that a tree written as a plain list, its
// nodes renumbered, is recognised and gets the recurrence's polynomial,
// which must equal the BDD's on the same list; and that a list one quorum
// away from a tree is not recognised.
func TestRecogniseTreeList(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(11, 31))
	for _, dh := range [][2]int{{2, 2}, {2, 3}, {3, 1}, {3, 2}, {4, 1}, {2, 4}} {
		tree, err := construct.Tree(dh[0], dh[1])
		if err != nil {
			t.Fatal(err)
		}
		f := renumber(r, tree)
		p, ok := recogniseTree(ctx, f)
		if !ok {
			t.Fatalf("tree %v renumbered: not recognised", dh)
		}
		res, err := Compute(ctx, f, Options{Method: MethodBDD})
		if err != nil || !res.Exact {
			t.Fatalf("tree %v: BDD: %v", dh, err)
		}
		if !p.Equal(res.Poly) {
			t.Fatalf("tree %v: recurrence %v, BDD %v", dh, p.A, res.Poly.A)
		}
		auto, err := Compute(ctx, f, Options{})
		if err != nil || auto.Method != MethodRecurrence || !auto.Poly.Equal(res.Poly) {
			t.Fatalf("tree %v: auto gave %v by %s", dh, err, auto.Method)
		}
		// One quorum swapped for another set of its size: as many
		// quorums, not the tree.
		g := f.Clone()
		q := g.Quorums[0].Clone()
		v, _ := q.Min()
		q.Remove(v)
		for u := range g.N {
			if !q.Has(u) && u != v {
				q.Add(u)
				break
			}
		}
		g.Quorums[0] = *q
		if _, ok := recogniseTree(ctx, g); ok {
			t.Fatalf("tree %v with quorum %v: recognised", dh, q)
		}
	}
}
