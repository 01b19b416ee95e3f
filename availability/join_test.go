package availability

import (
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// TestFindJoinParams: a join too large for the search over every range of
// nodes is found from the parameters construct.Join records (the inner
// system's size, then the junction), and only then.
func TestFindJoinParams(t *testing.T) {
	outer, err := construct.Grid(8, 8, 0)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := construct.Grid(6, 6, 0)
	if err != nil {
		t.Fatal(err)
	}
	f, err := construct.Join(outer, inner, 9, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	work := 0
	for i := range f.Quorums {
		work += f.Quorums[i].Len()
	}
	if f.N*f.N*work <= 50_000_000 {
		t.Fatalf("the join is small enough for the range search (%d)", f.N*f.N*work)
	}
	s, ok := findJoin(f)
	if !ok || len(s.inner) != inner.N || s.outer.N != outer.N || len(s.in.Quorums) != len(inner.Quorums) {
		t.Fatalf("findJoin with params %v: %v", f.Params, ok)
	}
	for _, params := range []set.Params{
		nil,
		{"inner_n": 35, "at": 10},  // a size that does not split
		{"n2": 36, "junction": 10}, // keys construct.Join does not write
	} {
		g := f.Clone()
		g.Params = params
		if _, ok := findJoin(g); ok {
			t.Errorf("findJoin with params %v: found a join", params)
		}
	}
	// A file's decoded parameters may be whole float64s.
	g := f.Clone()
	g.Params = set.Params{"inner_n": 36.0, "at": 10.0}
	if _, ok := findJoin(g); !ok {
		t.Error("findJoin with float64 params: no join")
	}
}
