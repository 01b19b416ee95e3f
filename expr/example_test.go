package expr_test

import (
	"fmt"
	"strings"

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

// Build a system from an expression and list its minimal quorums: any two
// of three nodes, a majority; its dual, the minimal transversals, is the
// same system.
func Example() {
	e, _ := expr.Parse("choose(2, a, b, c)")
	e, _ = e.Bind(func(name string) (int, error) { return int(name[0] - 'a'), nil })
	for _, side := range []*expr.Expr{e, e.Dual()} {
		var qs []string
		for q := range side.MinimalQuorums() {
			qs = append(qs, q.String())
		}
		fmt.Println(strings.Join(qs, " "))
	}
	// Output:
	// {0 1} {0 2} {1 2}
	// {0 1} {0 2} {1 2}
}
