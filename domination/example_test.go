package domination_test

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
)

func ExampleDecide() {
	// Maekawa's 2×2 grid: quorum (i,j) is row i plus column j.
	f := set.NewFamily(4)
	for _, q := range [][]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}} {
		f.Add(set.Of(q...), set.NoOwner)
	}
	r, _ := domination.Decide(context.Background(), f)
	fmt.Println(r.Nondominated, r.Witness.Len())
	// Output: false 2
}

func ExampleThresholdDominated() {
	for _, n := range []int{9, 10} {
		dom, _ := domination.ThresholdDominated(n, n/2+1, 1)
		fmt.Printf("majority of %d dominated: %v\n", n, dom)
	}
	// Output:
	// majority of 9 dominated: false
	// majority of 10 dominated: true
}

func ExampleCountTransversals() {
	// The Fano plane: its minimal transversals are its 7 lines.
	f := set.NewFamily(7)
	for _, q := range [][]int{{0, 1, 2}, {0, 3, 4}, {0, 5, 6}, {1, 3, 5}, {1, 4, 6}, {2, 3, 6}, {2, 4, 5}} {
		f.Add(set.Of(q...), set.NoOwner)
	}
	c, _ := domination.CountTransversals(context.Background(), f)
	fmt.Println(c.Total, c.BySize[3], c.Smallest)
	// Output: 7 7 3
}

// Build a system and decide whether it is dominated: the majority of four
// nodes (every 3-subset) is, since {1,2} meets every quorum and holds none,
// while the majority of three nodes is not.
func Example() {
	for _, n := range []int{3, 4} {
		f, _ := set.NewThreshold(n, n/2+1).Enumerate(100)
		r, _ := domination.Decide(context.Background(), f)
		fmt.Printf("majority of %d: nondominated %v", n, r.Nondominated)
		if !r.Nondominated {
			fmt.Printf(", witness of %d nodes", r.Witness.Len())
		}
		fmt.Println()
	}
	// Output:
	// majority of 3: nondominated true
	// majority of 4: nondominated false, witness of 2 nodes
}
