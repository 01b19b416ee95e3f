package construct_test

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// oneBased formats a quorum with the 1-based node numbers users see.
func oneBased(q *set.Set) []int {
	var out []int
	for v := range q.All() {
		out = append(out, v+1)
	}
	return out
}

func ExampleProjectivePlane() {
	f, _ := construct.ProjectivePlane(2) // the Fano plane, Maekawa's K = 3
	for i := range f.Quorums {
		fmt.Printf("S_%d = %v\n", f.Owners[i]+1, oneBased(&f.Quorums[i]))
	}
	// Output:
	// S_1 = [1 2 3]
	// S_2 = [2 4 6]
	// S_3 = [3 4 7]
	// S_4 = [1 4 5]
	// S_5 = [2 5 7]
	// S_6 = [3 5 6]
	// S_7 = [1 6 7]
}

func ExampleMaekawa() {
	// N = 5 is not q²+q+1: Method 1 degenerates the Fano plane.
	f, _ := construct.Maekawa(5, construct.MapMin)
	for i := range f.Quorums {
		fmt.Printf("S_%d = %v\n", i+1, oneBased(&f.Quorums[i]))
	}
	fmt.Println(f.Params)
	// Output:
	// S_1 = [1 2 3]
	// S_2 = [2 4]
	// S_3 = [3 4 5]
	// S_4 = [1 4 5]
	// S_5 = [2 5]
	// map[map:min n:5 order:2]
}

func ExampleGrid() {
	// Eight nodes in rows of three: the last row is short, and each set is
	// its owner's row and column.
	f, _ := construct.Grid(3, 3, 8)
	for i := range f.Quorums {
		fmt.Printf("S_%d = %v\n", i+1, oneBased(&f.Quorums[i]))
	}
	// Seven: node 7 alone in the last row has column 0 for its set, which
	// lies inside the row and column of nodes 1 and 4, so they take it too.
	g, _ := construct.Grid(3, 3, 7)
	fmt.Println("n = 7:", oneBased(&g.Quorums[0]), oneBased(&g.Quorums[3]), oneBased(&g.Quorums[6]))
	// Output:
	// S_1 = [1 2 3 4 7]
	// S_2 = [1 2 3 5 8]
	// S_3 = [1 2 3 6]
	// S_4 = [1 4 5 6 7]
	// S_5 = [2 4 5 6 8]
	// S_6 = [3 4 5 6]
	// S_7 = [1 4 7 8]
	// S_8 = [2 5 7 8]
	// n = 7: [1 4 7] [1 4 7] [1 4 7]
}

func ExampleDegenerate() {
	// Maekawa's own map on the plane of order 3 keeps nodes 1..10.
	plane, _ := construct.ProjectivePlane(3)
	ten, _ := construct.Degenerate(context.Background(), plane, 10, construct.MapPaper)
	total := 0
	for i := range ten.Quorums {
		total += ten.Quorums[i].Len()
	}
	fmt.Printf("%d sets, %.1f messages per entry\n", len(ten.Quorums), 3*(float64(total)/10-1))
	// Output:
	// 10 sets, 8.1 messages per entry
}
