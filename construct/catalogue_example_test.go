package construct_test

import (
	"fmt"

	"github.com/coterie-dev/coterie/construct"
)

// The triangle of three rows: a full row and one node of every row below.
func ExampleTriangle() {
	f, _ := construct.Triangle(3)
	for i := range f.Quorums {
		var q []int
		for v := range f.Quorums[i].All() {
			q = append(q, v+1) // nodes are 1-based outside Go
		}
		fmt.Println(q)
	}
	// Output:
	// [1 2 4]
	// [1 2 5]
	// [1 2 6]
	// [1 3 4]
	// [1 3 5]
	// [1 3 6]
	// [2 3 4]
	// [2 3 5]
	// [2 3 6]
	// [4 5 6]
}

// Malkhi and Reiter's threshold masking system for b = 2 needs 9 nodes.
func ExampleByzantine() {
	_, err := construct.Byzantine(8, 2, true)
	fmt.Println(err)
	f, _ := construct.Byzantine(9, 2, true)
	fmt.Println(f.Threshold, f.Count())
	// Output:
	// construct: byzantine: a b-masking system needs n ≥ 4b+1 = 9 nodes; n = 8 is too small for b = 2
	// 7 36
}
