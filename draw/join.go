package draw

import (
	"fmt"
	"math"

	"github.com/coterie-dev/coterie/set"
)

// joinShape returns the joined node x (0-based, in the outer system) and
// the sizes of the outer and inner systems of Kuo's join, from its params.
func joinShape(f *set.Family) (x, n1, n2 int, ok bool) {
	at, ok1 := f.Params.Int("at")
	n1, ok2 := f.Params.Int("outer_n")
	n2, ok3 := f.Params.Int("inner_n")
	if !ok1 || !ok2 || !ok3 || at < 1 || at > n1 || n2 < 1 || n1+n2-1 != f.N {
		return 0, 0, 0, false
	}
	return at - 1, n1, n2, true
}

// join draws Kuo's join C1 ⊕x C2 as the outer system with node x expanded:
// the outer nodes on a circle in their original places, and in x's place a
// smaller dashed circle holding the inner system's nodes. The join numbers
// the outer nodes other than x first (those after x shifted down by one),
// then the inner nodes.
func (d *drawing) join() error {
	x, n1, n2, ok := joinShape(d.f)
	if !ok {
		return fmt.Errorf("draw: join layout: the system has no join params (at, outer_n, inner_n)")
	}
	// Nodes big enough for their numbers; each ring long enough for its
	// nodes; the joined circle clear of the outer nodes beside it.
	nr, _, _ := ringSize(d.f.N, 0, 0)
	r := max(55, float64(n2)*(2*nr+5)/(2*math.Pi)+nr+4)
	R := max(140, float64(n1)*(2*nr+6)/(2*math.Pi))
	if n1 > 1 {
		R = max(R, (r+nr+8)/(2*math.Sin(math.Pi/float64(max(n1, 2)))))
	}
	margin := 30 + r
	c := margin + R
	top := 20.0
	d.sc = &Scene{W: 2 * c, H: 2*c + top}
	d.title(fmt.Sprintf("join at node %d: outer n = %d, inner n = %d", x+1, n1, n2))
	slot := func(u int) Point {
		a := -math.Pi/2 + 2*math.Pi*float64(u)/float64(n1)
		return Point{c + R*math.Cos(a), top + c + R*math.Sin(a)}
	}
	d.sc.add(Shape{Kind: Circle, Role: "edge", X: c, Y: top + c, R: R, Style: Style{Stroke: d.c.faint, Width: 1}})
	hub := slot(x)
	d.sc.add(Shape{Kind: Circle, Role: "joined", X: hub.X, Y: hub.Y, R: r, Style: Style{Fill: d.c.paper, Stroke: d.c.ink, Width: 1, Dash: true}})
	d.sc.add(Shape{Kind: Text, Role: "label", X: hub.X, Y: hub.Y + 4, Text: fmt.Sprintf("node %d", x+1),
		Style: Style{Fill: d.c.faint, FontSize: 11, Anchor: "middle"}})
	for u := range n1 {
		if u == x {
			continue
		}
		v := u
		if u > x {
			v = u - 1
		}
		d.node(v, slot(u), nr)
	}
	for j := range n2 {
		a := -math.Pi/2 + 2*math.Pi*float64(j)/float64(n2)
		d.node(n1-1+j, Point{hub.X + (r-nr-4)*math.Cos(a), hub.Y + (r-nr-4)*math.Sin(a)}, nr)
	}
	return nil
}
