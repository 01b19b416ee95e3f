package draw_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/set"
)

// Build a system and draw it: the Fano plane as the classic triangle with
// its inscribed circle, one shape per node (7) and per line (7), written
// as SVG under its title.
func Example() {
	f, _ := construct.ProjectivePlane(2)
	sc, _ := draw.Draw(set.System{Family: f}, draw.Options{Labels: true})
	roles := map[string]int{}
	for _, sh := range sc.Shapes {
		roles[sh.Role]++
	}
	fmt.Println("nodes", roles["node"], "lines", roles["line"])
	var svg bytes.Buffer
	_ = sc.WriteSVG(&svg)
	fmt.Println(strings.Contains(svg.String(), "<title>"+sc.Title+"</title>"), sc.Title)
	// Output:
	// nodes 7 lines 7
	// true fpp: n = 7, 7 quorums
}

// A chart of two availability curves, AV(p) = p for one node and
// 3p² − 2p³ for the majority of three, written as SVG.
func ExampleChart() {
	c := &draw.Chart{
		Title: "Availability",
		X:     draw.Axis{Label: "p", Include: []float64{0, 1}},
		Y:     draw.Axis{Label: "AV(p)", Include: []float64{0, 1}},
		Grid:  true,
	}
	one := draw.Series{Label: "one node"}
	maj := draw.Series{Label: "majority of 3"}
	for i := 0; i <= 10; i++ {
		p := float64(i) / 10
		one.X, one.Y = append(one.X, p), append(one.Y, p)
		maj.X, maj.Y = append(maj.X, p), append(maj.Y, 3*p*p-2*p*p*p)
	}
	c.Series = []draw.Series{one, maj}
	var svg bytes.Buffer
	if err := c.Write(&svg, "svg"); err != nil {
		panic(err)
	}
	fmt.Println(strings.Contains(svg.String(), "majority of 3"))
	// Output: true
}
