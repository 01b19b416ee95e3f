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

// The fair systems of the catalogue (every quorum of c nodes, every node in
// as many quorums) have load c/n (Naor and Wool, SIAM J. Comput. 1998: a
// fair system's load is its quorum size over n): HQC Π(⌊g/2⌋+1)/g — (2/3)^l for groups
// of three, Kumar's n^−0.37; the B-grid (bands·rows + cols − 1)/n; the
// M-Grid (2ts − t²)/s² with t = ⌈√(b+1)⌉; the grid protocol (r + c − 1)/rc;
// Malkhi and Reiter's threshold ⌈(n+2b+1)/2⌉/n. Each against the LP.
func TestCatalogueFairLoads(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		f    func() (*set.Family, error)
		want *big.Rat
	}{
		{func() (*set.Family, error) { return construct.HQC([]int{3, 3}) }, big.NewRat(4, 9)},
		{func() (*set.Family, error) { return construct.HQC([]int{3, 3, 3}) }, big.NewRat(8, 27)},
		{func() (*set.Family, error) { return construct.HQC([]int{5, 3}) }, big.NewRat(3*2, 15)},
		{func() (*set.Family, error) { return construct.BGrid(3, 2, 2) }, big.NewRat(2*2+3-1, 12)},
		{func() (*set.Family, error) { return construct.BGrid(2, 3, 2) }, big.NewRat(3*2+2-1, 12)},
		{func() (*set.Family, error) { return construct.MGrid(16, 1) }, big.NewRat(2*2*4-4, 16)},
		{func() (*set.Family, error) { return construct.MGrid(25, 0) }, big.NewRat(2*5-1, 25)},
		{func() (*set.Family, error) { return construct.CGrid(3, 4) }, big.NewRat(3+4-1, 12)},
		{func() (*set.Family, error) { return construct.Byzantine(9, 2, true) }, big.NewRat(7, 9)},
	} {
		f, err := tt.f()
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(f.Kind, f.Params), func(t *testing.T) {
			l, err := LoadOf(ctx, f, LoadOptions{})
			if err != nil || l.Exact == nil || l.Exact.Cmp(tt.want) != 0 {
				t.Fatalf("load %v, %v; want %v", l, err, tt.want)
			}
			if f.IsThreshold() {
				return
			}
			lp, err := lpLoad(ctx, f, LoadOptions{})
			if err != nil || lp.Exact == nil || lp.Exact.Cmp(tt.want) != 0 {
				t.Fatalf("LP %v, %v; want %v", lp, err, tt.want)
			}
		})
	}
}
