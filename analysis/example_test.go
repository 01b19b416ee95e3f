package analysis_test

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/construct"
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
