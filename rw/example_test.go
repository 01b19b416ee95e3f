package rw_test

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/rw"
)

// The 2×3 grid of quoracle's tutorial: rows are read quorums, and the
// writes (one node of each row) are their dual.
func ExampleSystem_Optimal() {
	reads, _ := expr.Parse("a*b*c + d*e*f")
	reads, _ = reads.Bind(func(name string) (int, error) { return int(name[0] - 'a'), nil })
	s, _ := rw.New(6, reads, nil, nil)
	w, _ := rw.ParseWorkload("0.25")
	st, m, _ := s.Optimal(context.Background(), rw.Options{Workload: w})
	fmt.Println("load", m.Load.RatString(), "capacity", m.Capacity.RatString())
	for _, c := range st.Reads {
		fmt.Println("read", c.Quorum, c.P.RatString())
	}
	// Output:
	// load 3/8 capacity 8/3
	// read {0 1 2} 1/2
	// read {3 4 5} 1/2
}
