package availability

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// TestRecogniseWallList checks that a crumbling wall written as a plain
// list, its nodes renumbered, is recognised and gets the recurrence's
// polynomial, which must equal the BDD's on the same list; and that a list
// one quorum away from a wall is not recognised.
func TestRecogniseWallList(t *testing.T) {
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
		checkRecognised(t, fmt.Sprintf("wall %v", widths), relabelled(r, wall), len(wall.Quorums)/2, recogniseWall)
	}
}

// TestWallSearchCost checks that the search for a wall's rows gives up on
// lists that are no wall after a few passes over them, counted in node
// visits, where it used to go down level after level: a projective plane
// passes the local test at every node (each node's S is itself), and only
// the count of the quorums meeting the top row stops it at once.
func TestWallSearchCost(t *testing.T) {
	for _, c := range []struct {
		name string
		make func() (*set.Family, error)
	}{
		{"PG(2,4)", func() (*set.Family, error) { return construct.ProjectivePlane(4) }},
		{"PG(2,5)", func() (*set.Family, error) { return construct.ProjectivePlane(5) }},
		{"grid 10x10", func() (*set.Family, error) { return construct.Grid(10, 10, 0) }},
		{"billiard 9", func() (*set.Family, error) { return construct.Billiard(9) }},
		{"wall 1,2,3,3,4,4", func() (*set.Family, error) { return construct.Wall([]int{1, 2, 3, 3, 4, 4}) }},
		{"wall 2x7", func() (*set.Family, error) { return construct.Wall([]int{2, 2, 2, 2, 2, 2, 2}) }},
	} {
		f, err := c.make()
		if err != nil {
			t.Fatal(err)
		}
		qs := memberLists(f)
		pass := 0
		for _, q := range qs {
			pass += len(q)
		}
		left := make([]bool, f.N)
		for v := range left {
			left[v] = true
		}
		work := wallWork
		rows, ok := wallRows(qs, left, f.N, &work)
		if spent := wallWork - work; spent > 4*pass {
			t.Errorf("%s: the search visited %d nodes, more than 4 passes over the list (%d)", c.name, spent, 4*pass)
		}
		if wall := strings.HasPrefix(c.name, "wall"); ok != wall {
			t.Errorf("%s: rows found %v (%v)", c.name, ok, rows)
		}
	}
}
