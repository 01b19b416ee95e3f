package analysis_test

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// The figures of Maekawa's plane of order 3 (N = 13, K = 4), as
// `coterie info --p 0.9` prints them.
func ExampleMeasure() {
	pg3, _ := construct.ProjectivePlane(3)
	r, err := analysis.Measure(context.Background(), set.System{Family: pg3}, analysis.Options{Points: []float64{0.9}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fa := r.Families[0]
	fmt.Println("messages per entry:", fa.Messages.MaekawaLight.RatString())
	fmt.Printf("load %s (%s)\n", fa.Load.Exact.RatString(), fa.Load.Method)
	fmt.Println("resilience:", fa.Resilience.F, "witness", fa.Resilience.Witness.Len(), "nodes")
	fmt.Println("b-masking:", fa.Byzantine.Masking, "b-dissemination:", fa.Byzantine.Dissemination)
	pt := fa.Availability[0]
	fmt.Printf("AV(%g) = %.6f exact %v\n", pt.P, pt.AV, pt.Exact)
	// Output:
	// messages per entry: 9
	// load 4/13 (regular)
	// resilience: 3 witness 4 nodes
	// b-masking: 0 b-dissemination: 0
	// AV(0.9) = 0.998583 exact true
}

// The 2×3 grid of quoracle's tutorial: rows are read quorums, and the
// writes (one node of each row) are their dual, as `coterie info --reads
// 'a*b*c + d*e*f' --read-fraction 0.25 --p 0.9` gives it: writes are up
// when each row has a node up, (1 − 0.1³)² = 0.998001.
func ExampleReadWrite() {
	reads, _ := expr.Parse("a*b*c + d*e*f")
	reads, _ = reads.Bind(func(name string) (int, error) { return int(name[0] - 'a'), nil })
	sys, _ := rw.New(6, reads, nil, nil)
	w, _ := rw.ParseWorkload("0.25")
	r, err := analysis.ReadWrite(context.Background(), sys, analysis.RWOptions{Limit: 1000,
		Strategy: &rw.Options{Workload: w}, Points: []float64{0.9}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("read quorums:", r.ReadQuorums, "write quorums:", r.WriteQuorums)
	fmt.Println("resilience: reads", r.Read.F, "writes", r.Write.F)
	fmt.Println("load", r.Metrics.Load.RatString(), "capacity", r.Metrics.Capacity.RatString())
	a := r.Availability[0]
	fmt.Printf("AV(%g): reads %.6f writes %.6f\n", a.P, a.Reads, a.Writes)
	// Output:
	// read quorums: 2 write quorums: 9
	// resilience: reads 1 writes 2
	// load 3/8 capacity 8/3
	// AV(0.9): reads 0.926559 writes 0.998001
}
