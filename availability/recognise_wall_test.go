package availability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/internal/testsys"
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
		qs := memberLists(context.Background(), f)
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

// TestWallSearchCountsEveryPass: on lists of many nodes and quorums that
// are no wall (the nucleus: more than half the quorums go through each
// core node, so candidates pass the counts), the search's budget bounds
// what it really does. Its passes over the nodes and the quorums were
// not counted: on the nucleus with r = 8 (1,730 nodes) it ran 1.7 s on
// a budget meant for a few hundredths, allocating 64 bytes per counted
// step. The bytes it allocates are an independent measure of its
// passes; counted, they stay under 8 per step.
func TestWallSearchCountsEveryPass(t *testing.T) {
	for _, r := range []int{7, 8} {
		f, err := construct.Nucleus(r)
		if err != nil {
			t.Fatal(err)
		}
		qs := memberLists(context.Background(), f)
		left := make([]bool, f.N)
		for v := range left {
			left[v] = true
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		work := wallWork
		_, ok := wallRows(qs, left, f.N, &work)
		runtime.ReadMemStats(&after)
		if ok {
			t.Fatalf("nucleus r = %d: found rows of a wall", r)
		}
		spent := int64(wallWork - work)
		if bytes := int64(after.TotalAlloc - before.TotalAlloc); bytes > 8*spent {
			t.Errorf("nucleus r = %d: %d MiB allocated for %d counted steps: passes not counted", r, bytes>>20, spent)
		}
	}
}

// TestRecognisersStop: the recognisers watch their context while they
// read a list, so a caller with a deadline is not kept waiting for the
// check of a claim on millions of quorums (a bgrid of two million took
// 15 s past a 50 ms deadline). With the context stopped after two polls,
// the check of a true claim answers false and the member lists are not
// made; with no stop both succeed.
func TestRecognisersStop(t *testing.T) {
	f, err := construct.CGrid(4, 5) // 5·4^4 = 1,280 quorums, with its claim
	if err != nil {
		t.Fatal(err)
	}
	c, ok := describe(f)
	if !ok || !c.holds(context.Background(), f) {
		t.Fatal("cgrid 4x5: its claim does not hold")
	}
	stop := &testsys.StopAfter{Context: context.Background(), Left: 2}
	if c.holds(stop, f) {
		t.Errorf("cgrid 4x5: the claim's check went on after its context stopped (%d polls)", stop.Calls)
	}
	if memberLists(context.Background(), f) == nil {
		t.Fatal("cgrid 4x5: no member lists")
	}
	stop = &testsys.StopAfter{Context: context.Background(), Left: 0}
	if memberLists(stop, f) != nil {
		t.Error("cgrid 4x5: member lists made after the context stopped")
	}
}
