package availability_test

import (
	"context"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
)

// Kuo's uniform 2-arbiter over 7 nodes (quorums of 5): the coefficients
// and AV(0.85) (the paper prints 0.8663, a misprint).
func ExampleCompute() {
	f, _ := construct.Uniform(7, 2)
	r, _ := availability.Compute(context.Background(), f, availability.Options{})
	fmt.Println(r.Method, r.Poly.Strings())
	fmt.Printf("%.10f\n", r.Poly.At(0.85))
	// Output:
	// threshold [0 0 0 0 0 21 7 1]
	// 0.9262348398
}

// The Fano plane is nondominated: AV(1/2) = 1/2 (Kuo's Theorem 6).
func ExamplePolynomial_AtRat() {
	f, _ := construct.ProjectivePlane(2)
	r, _ := availability.Compute(context.Background(), f, availability.Options{})
	fmt.Println(r.Method, r.Poly.AtRat(big.NewRat(1, 2)))
	// Output: projective-plane 1/2
}

// Build a system, compute its availability polynomial, evaluate it: the
// triangle coterie {1,2}, {2,3}, {1,3} is up when at least two of its
// three nodes are, so AV(p) = 3p²(1−p) + p³ and AV(0.9) = 0.972.
func Example() {
	f, _ := construct.Majority(3)
	r, _ := availability.Compute(context.Background(), f, availability.Options{})
	fmt.Println(r.Exact, r.Poly.Strings())
	fmt.Printf("%.3f\n", r.Poly.At(0.9))
	// Output:
	// true [0 0 3 1]
	// 0.972
}
