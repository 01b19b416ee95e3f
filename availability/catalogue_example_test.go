package availability_test

import (
	"context"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/availability"
)

// The wheel over 5 nodes is the wall of widths 1 and 4; being
// nondominated, its availability at p = 1/2 is exactly 1/2 (Kuo's
// Theorem 6).
func ExampleWallPolynomial() {
	p, _ := availability.WallPolynomial(context.Background(), []int{1, 4})
	fmt.Println(p)
	fmt.Println(p.AtRat(big.NewRat(1, 2)))
	// Output:
	// n=5 [0 0 4 6 5 1]
	// 1/2
}
