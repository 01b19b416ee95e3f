package availability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

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
		f := relabelled(r, tree)
		bdd := checkRecognised(t, fmt.Sprintf("tree %v", dh), f, 0, recogniseTree)
		auto, err := Compute(ctx, f, Options{})
		if err != nil || auto.Method != MethodRecurrence || !auto.Poly.Equal(bdd) {
			t.Fatalf("tree %v: auto gave %v by %s", dh, err, auto.Method)
		}
	}
}

// checkRecognised checks that recognise finds f, a construction's family
// relabelled, with the polynomial the BDD computes on f; and that f with
// quorum i swapped for another set of its size (as many quorums, not the
// construction) is not recognised. It returns the BDD's polynomial.
func checkRecognised(t *testing.T, name string, f *set.Family, i int, recognise func(context.Context, *set.Family) (*Polynomial, bool)) *Polynomial {
	t.Helper()
	ctx := context.Background()
	p, ok := recognise(ctx, f)
	if !ok {
		t.Fatalf("%s relabelled: not recognised", name)
	}
	res, err := Compute(ctx, f, Options{Method: MethodBDD})
	if err != nil || !res.Exact {
		t.Fatalf("%s: BDD: %v", name, err)
	}
	if !p.Equal(res.Poly) {
		t.Fatalf("%s: recurrence %v, BDD %v", name, p.A, res.Poly.A)
	}
	g := f.Clone()
	q := g.Quorums[i].Clone()
	v, _ := q.Min()
	q.Remove(v)
	for u := range g.N {
		if !q.Has(u) && u != v {
			q.Add(u)
			break
		}
	}
	g.Quorums[i] = *q
	if _, ok := recognise(ctx, g); ok {
		t.Fatalf("%s with quorum %v: recognised", name, q)
	}
	return res.Poly
}
