package measure

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// The closed forms against the general LP on the constructed families, and
// the published values: Naor and Wool's 2/(h+2) for the binary tree; the
// wheel's (n−1)/(2n−3) and the triangle's 2/(d+1).
func TestCatalogueLoads(t *testing.T) {
	ctx := context.Background()
	type tc struct {
		f    *set.Family
		want *big.Rat
	}
	must := func(f *set.Family, err error) *set.Family {
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	var cases []tc
	for h := 0; h <= 3; h++ {
		cases = append(cases, tc{must(construct.Tree(2, h)), big.NewRat(2, int64(h+2))})
	}
	cases = append(cases, tc{must(construct.Tree(3, 2)), big.NewRat(3, 7)}, tc{must(construct.Tree(4, 1)), big.NewRat(4, 7)})
	for n := 3; n <= 8; n++ {
		cases = append(cases, tc{must(construct.Wheel(n)), big.NewRat(int64(n-1), int64(2*n-3))})
	}
	for d := 1; d <= 6; d++ {
		cases = append(cases, tc{must(construct.Triangle(d)), big.NewRat(2, int64(d+1))})
	}
	for _, w := range [][]int{{1, 4, 4}, {2, 3}, {1, 2, 2, 2, 2}, {3, 3, 5}} {
		l, ok := WallLoad(w)
		if !ok {
			t.Fatalf("WallLoad(%v) not ok", w)
		}
		cases = append(cases, tc{must(construct.Wall(w)), l})
	}
	cases = append(cases, tc{must(construct.CWlog(20)), nil})
	for _, c := range cases {
		t.Run(fmt.Sprint(c.f.Kind, c.f.Params), func(t *testing.T) {
			got, err := LoadOf(ctx, c.f, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			lp, err := lpLoad(ctx, c.f, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Exact == nil || lp.Exact == nil || got.Exact.Cmp(lp.Exact) != 0 {
				t.Fatalf("load %v (%s), LP %v", got.Exact, got.Method, lp.Exact)
			}
			if c.want != nil && got.Exact.Cmp(c.want) != 0 {
				t.Fatalf("load %v, want %v", got.Exact, c.want)
			}
			if len(c.f.Quorums) > 1 && got.Method != MethodClosedForm && got.Method != "regular" {
				t.Errorf("method %s", got.Method)
			}
		})
	}
}

// A wall whose widths shrink can need a strategy the balanced one is not;
// the closed form declines and the LP decides. The bound stays a lower
// bound.
func TestWallLoadDeclines(t *testing.T) {
	w := []int{1, 100, 100, 2}
	if _, ok := WallLoad(w); ok {
		t.Fatalf("WallLoad(%v) ok", w)
	}
	w = []int{1, 6, 6, 2}
	f, err := construct.Wall(w)
	if err != nil {
		t.Fatal(err)
	}
	bound, _ := WallLoad(w)
	lp, err := LoadOf(context.Background(), f, LoadOptions{})
	if err != nil || lp.Exact == nil || lp.Exact.Cmp(bound) < 0 {
		t.Fatalf("LP %v (%v) below the bound %v", lp, err, bound)
	}
}

// A family claiming to be a tree but missing a quorum is not given the
// tree's load by its kind.
func TestCatalogueLoadImpostor(t *testing.T) {
	f, err := construct.Tree(2, 2)
	if err != nil {
		t.Fatal(err)
	}
	g := f.Clone()
	g.Quorums = g.Quorums[1:]
	if l := catalogueLoad(g); l != nil {
		t.Fatalf("impostor certified: %v", l.Exact)
	}
}
