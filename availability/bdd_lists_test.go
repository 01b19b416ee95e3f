package availability

import (
	"context"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// TestBDDLongListsWithinSmallBudget builds, by apply, the diagrams of
// long lists whose diagram is small (the CWlog wall of 30 nodes, 40,106
// quorums, 53 nodes in the natural order; the binary tree of height 4,
// 65,535 quorums, under the chain order) within a node budget far below
// the nodes the construction makes in all: the budget bounds the nodes
// alive, not the garbage. The coefficients must be the recurrences'.
func TestBDDLongListsWithinSmallBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two diagrams of lists of 40,000 and 65,000 quorums")
	}
	ctx := context.Background()
	wall, err := construct.CWlog(30)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := construct.Tree(2, 4)
	if err != nil {
		t.Fatal(err)
	}
	wallPoly, err := WallPolynomial(ctx, construct.CWlogWidths(30))
	if err != nil {
		t.Fatal(err)
	}
	treePoly, err := TreePolynomial(ctx, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		f      *set.Family
		order  []int
		budget int
		want   *Polynomial
	}{
		{"wall30 natural", wall, naturalOrder(wall.N), 4096, wallPoly},
		{"tree4 chain", tree, chainOrder(ctx, tree), 8192, treePoly},
	} {
		d, steps, _, err := buildBDD(ctx, tt.f, BDDOptions{Order: tt.order, Budget: tt.budget, apply: true}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if steps <= tt.budget {
			t.Fatalf("%s: %d steps: the list is too short to show anything", tt.name, steps)
		}
		p, err := d.Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Equal(tt.want) {
			t.Fatalf("%s: BDD %v, recurrence %v", tt.name, p.A, tt.want.A)
		}
	}
}

// TestLevelLists checks the quorums as level lists against the lists made
// one by one: each sorted, all there once, and neighbours in the order
// described (decreasing bit strings, level 0 the most significant).
func TestLevelLists(t *testing.T) {
	for _, n := range []int{5, 64, 65, 130} {
		f := set.NewFamily(n)
		for i := range 3 * n {
			q := set.New(n)
			for v := range n {
				if (v*7+i*i)%5 < 2 || v == i%n {
					q.Add(v)
				}
			}
			f.Add(q, set.NoOwner)
			if i%4 == 0 {
				f.Add(q.Clone(), set.NoOwner) // a repeat
			}
		}
		level := make([]int32, n)
		for v := range level {
			level[v] = int32((v*3 + 1) % n) // a permutation: 3 does not divide n
		}
		var want [][]int32
		for i := range f.Quorums {
			var l []int32
			for v := range f.Quorums[i].All() {
				l = append(l, level[v])
			}
			slices.Sort(l)
			if !slices.ContainsFunc(want, func(o []int32) bool { return slices.Equal(o, l) }) {
				want = append(want, l)
			}
		}
		got := levelLists(f, level)
		if len(got) != len(want) {
			t.Fatalf("n = %d: %d lists, want %d", n, len(got), len(want))
		}
		for _, l := range want {
			if !slices.ContainsFunc(got, func(o []int32) bool { return slices.Equal(o, l) }) {
				t.Fatalf("n = %d: list %v missing", n, l)
			}
		}
		key := func(l []int32) []bool {
			b := make([]bool, n)
			for _, x := range l {
				b[x] = true
			}
			return b
		}
		for i := 1; i < len(got); i++ {
			a, b := key(got[i-1]), key(got[i])
			k := 0
			for k < n && a[k] == b[k] {
				k++
			}
			if k == n || !a[k] {
				t.Fatalf("n = %d: %v before %v", n, got[i-1], got[i])
			}
		}
	}
}
