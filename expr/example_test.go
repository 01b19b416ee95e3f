package expr_test

import (
	"fmt"

	"github.com/coterie-dev/coterie/expr"
)

func ExampleParse() {
	e, err := expr.Parse("a*b*c + d*e*f")
	if err != nil {
		panic(err)
	}
	// Bind the letters to nodes 0..5.
	e, _ = e.Bind(func(name string) (int, error) { return int(name[0] - 'a'), nil })
	fmt.Println(e.Dual())
	for q := range e.Dual().MinimalQuorums() {
		fmt.Print(q, " ")
	}
	fmt.Println()
	// Output:
	// (a + b + c)*(d + e + f)
	// {0 3} {0 4} {0 5} {1 3} {1 4} {1 5} {2 3} {2 4} {2 5}
}

func ExampleParse_error() {
	_, err := expr.Parse("choose(2, a, b")
	fmt.Println(err)
	// Output: expr: column 15: expected "," or ")" in choose, found end of expression
}
