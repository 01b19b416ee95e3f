package draw

import (
	"fmt"
	"math"
)

// matrix draws the incidence matrix: a row per node, a column per quorum
// (ordered as [sortedQuorums]), a filled cell where the node is in the
// quorum. The chosen quorum's column is shaded and its cells blue;
// highlighted nodes' cells are red.
func (d *drawing) matrix() {
	f := d.f
	m := len(f.Quorums)
	cell := 800 / float64(max(f.N, m, 1))
	cell = min(max(cell, 3), 16)
	top := 30.0
	if d.sel >= 0 {
		top = 46 // room for "quorum I" under the title
	}
	size := min(11, max(7, 0.9*cell))
	// every is how many rows one label stands for: every row when the
	// cells are tall enough for a label, else every second, third, ….
	every := int(math.Ceil(1.1 * size / cell))
	left := 40.0
	for v := 0; v < f.N; v += every {
		left = math.Max(left, TextWidth(d.f.Label(v), size)+12)
	}
	cells := 0
	for i := range f.Quorums {
		cells += f.Quorums[i].Len()
	}
	// Room for every shape at once: a cell per membership, a label per
	// row, and the title, frame, column and legend.
	d.sc = &Scene{W: left + cell*float64(m) + 10, H: top + cell*float64(f.N) + 10,
		Shapes: make([]Shape, 0, cells+f.N/every+16)}
	d.title(caption(f))
	d.sc.add(Shape{Kind: Rect, Role: "frame", X: left, Y: top, W: cell * float64(m), H: cell * float64(f.N),
		Style: Style{Fill: d.c.paper, Stroke: d.c.faint, Width: 1}})
	order := sortedQuorums(f)
	for col, qi := range order {
		if d.sel == qi {
			d.sc.add(Shape{Kind: Rect, Role: "cell", X: left + cell*float64(col), Y: top, W: cell, H: cell * float64(f.N),
				Style: Style{Fill: d.c.quorumBg}, Quorum: qi + 1})
		}
	}
	var tip []byte
	for col, qi := range order {
		for v := range f.Quorums[qi].All() {
			fill := d.c.ink
			switch {
			case d.marked[v]:
				fill = d.c.highlight
			case d.sel == qi:
				fill = d.c.quorum
			}
			tip = numbered(numbered(tip[:0], "node ", v+1, ""), " in quorum ", qi+1, "")
			d.sc.add(Shape{Kind: Rect, Role: "incidence", X: left + cell*float64(col), Y: top + cell*float64(v),
				W: cell, H: cell, Style: Style{Fill: fill}, Node: v + 1, Quorum: qi + 1,
				Tip: string(tip)})
		}
	}
	for v := 0; v < f.N; v += every {
		fill := d.c.ink
		if d.marked[v] {
			fill = d.c.highlight
		}
		d.sc.add(Shape{Kind: Text, Role: "label", X: left - 4, Y: top + cell*float64(v) + cell/2 + size*0.35, Text: d.f.Label(v),
			Style: Style{Fill: fill, FontSize: size, Anchor: "end"}, Node: v + 1, Tip: d.nodeTip(v)})
	}
	if d.sel >= 0 {
		d.sc.add(Shape{Kind: Text, Role: "label", X: left, Y: top - 6, Text: fmt.Sprintf("quorum %d", d.sel+1),
			Style: Style{Fill: d.c.quorum, FontSize: 11}})
	}
}
