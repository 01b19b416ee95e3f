package domination

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// subsetsOf returns every w-subset of nodes as a family over n nodes.
func subsetsOf(n int, nodes []int, w int) *set.Family {
	f := set.NewFamily(n)
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == w {
			f.Add(set.Of(cur...), set.NoOwner)
			return
		}
		for i := start; i < len(nodes); i++ {
			rec(i+1, append(cur, nodes[i]))
		}
	}
	rec(0, nil)
	return f
}

// A threshold written out (on part of the universe) is counted by the
// closed form, and the count is what enumerating the minimal transversals
// one by one gives; a list missing one subset is not taken for one.
func TestCountTransversalsThresholdList(t *testing.T) {
	nodes := []int{0, 2, 3, 5, 6, 7}
	for w := 1; w <= len(nodes); w++ {
		whole := subsetsOf(9, nodes, w)
		missing := subsetsOf(9, nodes, w)
		missing.Quorums = missing.Quorums[1:]
		for _, f := range []*set.Family{whole, missing} {
			if len(f.Quorums) == 0 {
				continue
			}
			c, err := CountTransversalsOpt(context.Background(), f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			bySize := map[int]int64{}
			var total int64
			for tr, err := range MinimalTransversals(context.Background(), f, Options{}) {
				if err != nil {
					t.Fatal(err)
				}
				bySize[tr.Len()]++
				total++
			}
			if c.Total.Int64() != total || len(c.BySize) != len(bySize) {
				t.Fatalf("w=%d, %d quorums: count %v %v, enumeration %d %v", w, len(f.Quorums), c.Total, c.BySize, total, bySize)
			}
			for size, k := range bySize {
				if c.BySize[size] == nil || c.BySize[size].Int64() != k {
					t.Fatalf("w=%d, %d quorums: size %d counted %v, enumerated %d", w, len(f.Quorums), size, c.BySize[size], k)
				}
			}
		}
	}
}

// The smallest transversal of a threshold written out is found by the
// closed form and is as small as the search finds on the same list with
// one quorum repeated (which the closed form does not take).
func TestMinTransversalThresholdList(t *testing.T) {
	nodes := []int{1, 2, 4, 5, 8}
	for w := 1; w <= len(nodes); w++ {
		f := subsetsOf(10, nodes, w)
		got, lower, err := MinTransversalBounded(context.Background(), f, 0)
		if err != nil || got.Len() != lower || got.Len() != len(nodes)-w+1 {
			t.Fatalf("w=%d: %v, lower %d, %v; want %d nodes", w, got, lower, err, len(nodes)-w+1)
		}
		for i := range f.Quorums {
			if !set.Intersects(got, &f.Quorums[i]) {
				t.Fatalf("w=%d: %v misses quorum %v", w, got, &f.Quorums[i])
			}
		}
		g := subsetsOf(10, nodes, w)
		g.Add(&g.Quorums[0], set.NoOwner)
		searched, _, err := MinTransversalBounded(context.Background(), g, 0)
		if err != nil || searched.Len() != got.Len() {
			t.Fatalf("w=%d: the search finds %v, %v; the closed form %v", w, searched, err, got)
		}
	}
}
