package report_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/report"
	"github.com/coterie-dev/coterie/set"
)

// Build a system, analyse it and write the report: the Fano plane is a
// coterie, nondominated, and so up with probability exactly 1/2 when each
// node is (Kuo's Theorem 6); its load is 3/7, a line of three of the seven
// nodes.
func Example() {
	f, _ := construct.ProjectivePlane(2)
	sys := set.System{Family: f}
	r, err := report.Analyze(context.Background(), "fano", sys, report.Options{Points: []float64{0.5}})
	if err != nil {
		panic(err)
	}
	fmt.Println(report.Verdict(sys, r.Verify))
	fmt.Println("nondominated:", r.Domination.Nondominated)
	fmt.Println("load:", r.Families[0].Load.Exact.RatString())
	fmt.Println("AV(0.5):", report.AVText(r.Table[0]), "exact:", r.AvExact)
	var md bytes.Buffer
	_ = report.WriteMarkdown(&md, []*report.System{r})
	fmt.Println(strings.SplitN(md.String(), "\n", 2)[0])
	// Output:
	// valid as a coterie (n = 7, 7 quorums)
	// nondominated: true
	// load: 3/7
	// AV(0.5): 0.5 exact: true
	// # Quorum systems
}
