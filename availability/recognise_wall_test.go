package availability

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
)

// TestRecogniseWallList checks that a crumbling wall written as a plain
// list, its nodes renumbered, is recognised and gets the recurrence's
// polynomial, which must equal the BDD's on the same list; and that a list
// one quorum away from a wall is not recognised.
func TestRecogniseWallList(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(13, 37))
	for _, widths := range [][]int{
		{1, 2, 3, 4},       // the triangle: every quorum has 4 nodes
		{1, 5},             // the wheel
		{2, 4, 3},          // rows not growing
		{3, 3, 3},          // equal rows
		{1, 2, 3, 3, 4, 4}, // CWlog-like
		{2, 2, 2, 2, 2, 2, 2},
	} {
		wall, err := construct.Wall(widths)
		if err != nil {
			t.Fatal(err)
		}
		f := renumber(r, wall)
		p, ok := recogniseWall(ctx, f)
		if !ok {
			t.Fatalf("wall %v renumbered: not recognised", widths)
		}
		res, err := Compute(ctx, f, Options{Method: MethodBDD})
		if err != nil || !res.Exact {
			t.Fatalf("wall %v: BDD: %v", widths, err)
		}
		if !p.Equal(res.Poly) {
			t.Fatalf("wall %v: recurrence %v, BDD %v", widths, p.A, res.Poly.A)
		}
		g := f.Clone()
		q := g.Quorums[len(g.Quorums)/2].Clone()
		v, _ := q.Min()
		q.Remove(v)
		for u := range g.N {
			if !q.Has(u) && u != v {
				q.Add(u)
				break
			}
		}
		g.Quorums[len(g.Quorums)/2] = *q
		if _, ok := recogniseWall(ctx, g); ok {
			t.Fatalf("wall %v with quorum %v: recognised", widths, q)
		}
	}
}
