package rw_test

import (
	"context"
	"fmt"
	"math/big"

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

// Build a read-write system and compute its resilience and optimal load:
// reads from either of two pairs, a*b + c*d, and writes (the dual) to one
// node of each pair. Stopping the reads takes a failure in each pair, and
// stopping the writes a whole pair: both survive one failure. Every quorum
// holds half the nodes, so no strategy loads a node less than 1/2, and the
// uniform one reaches it.
func Example() {
	reads, _ := expr.Parse("a*b + c*d")
	reads, _ = reads.Bind(func(name string) (int, error) { return int(name[0] - 'a'), nil })
	s, _ := rw.New(4, reads, nil, nil)
	r, _ := s.ReadResilience(context.Background())
	w, _ := s.WriteResilience(context.Background())
	fmt.Println("resilience: reads", r.F, "writes", w.F)
	_, m, _ := s.Optimal(context.Background(), rw.Options{Workload: rw.Fixed(big.NewRat(1, 2))})
	fmt.Println("load at half reads:", m.Load.RatString())
	// Output:
	// resilience: reads 1 writes 1
	// load at half reads: 1/2
}
