package availability

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// chainOrder gives the order of the greedy sequence it describes, taken
// quorum by quorum over the whole list at every step (as it was first
// written, quadratic in the quorums).
func TestChainOrderLinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(20)
		f := set.NewFamily(n)
		for range 1 + rng.IntN(60) {
			var q set.Set
			for q.IsEmpty() {
				for v := range n {
					if rng.IntN(4) == 0 {
						q.Add(v)
					}
				}
			}
			f.Add(&q, set.NoOwner)
		}
		if got, want := chainOrder(context.Background(), f), chainOrderQuadratic(f); !slices.Equal(got, want) {
			t.Fatalf("%v: order %v, want %v", f.Quorums, got, want)
		}
	}
}

func chainOrderQuadratic(f *set.Family) []int {
	n := f.N
	placed := make([]bool, n)
	used := make([]bool, len(f.Quorums))
	var order []int
	qs := make([][]int, len(f.Quorums))
	// old[i] counts the placed nodes of quorum i, kept up to date through
	// the quorums of each node, so that a step costs one pass over the
	// quorums rather than over all their nodes.
	old := make([]int, len(qs))
	of := make([][]int32, n)
	for i := range f.Quorums {
		qs[i] = f.Quorums[i].Elements()
		for _, v := range qs[i] {
			of[v] = append(of[v], int32(i))
		}
	}
	for range qs {
		bi, bOld, bNew := -1, -1, 0
		for i, q := range qs {
			if used[i] {
				continue
			}
			nw := len(q) - old[i]
			if bi < 0 || old[i] > bOld || old[i] == bOld && nw < bNew {
				bi, bOld, bNew = i, old[i], nw
			}
		}
		if bi < 0 {
			break
		}
		used[bi] = true
		for _, v := range qs[bi] {
			if !placed[v] {
				placed[v] = true
				order = append(order, v)
				for _, j := range of[v] {
					old[j]++
				}
			}
		}
	}
	for v := range n {
		if !placed[v] {
			order = append(order, v)
		}
	}
	return order
}
