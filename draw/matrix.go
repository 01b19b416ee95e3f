package draw

import "fmt"

// matrix draws the incidence matrix: a row per node, a column per quorum
// (ordered as [sortedQuorums]), a filled cell where the node is in the
// quorum. The chosen quorum's column is shaded and its cells blue;
// highlighted nodes' cells are red.
func (d *drawing) matrix() {
	f := d.f
	m := len(f.Quorums)
	cell := 800 / float64(max(f.N, m, 1))
	cell = min(max(cell, 3), 16)
	left, top := 40.0, 30.0
	if d.opts.Labels {
		left = 70
	}
	d.sc = &Scene{W: left + cell*float64(m) + 10, H: top + cell*float64(f.N) + 10}
	d.title(caption(f))
	d.sc.add(Shape{Kind: Rect, Role: "frame", X: left, Y: top, W: cell * float64(m), H: cell * float64(f.N),
		Style: Style{Fill: colPaper, Stroke: colFaint, Width: 1}})
	order := sortedQuorums(f)
	for col, qi := range order {
		if d.sel == qi {
			d.sc.add(Shape{Kind: Rect, Role: "cell", X: left + cell*float64(col), Y: top, W: cell, H: cell * float64(f.N),
				Style: Style{Fill: colQuorumBg}, Quorum: qi + 1})
		}
	}
	for col, qi := range order {
		for v := range f.Quorums[qi].All() {
			fill := colInk
			switch {
			case d.marked[v]:
				fill = colHighlight
			case d.sel == qi:
				fill = colQuorum
			}
			d.sc.add(Shape{Kind: Rect, Role: "incidence", X: left + cell*float64(col), Y: top + cell*float64(v),
				W: cell, H: cell, Style: Style{Fill: fill}, Node: v + 1, Quorum: qi + 1})
		}
	}
	if d.opts.Labels || f.N <= 40 {
		fs := min(cell, 11)
		for v := range f.N {
			fill := colInk
			if d.marked[v] {
				fill = colHighlight
			}
			d.sc.add(Shape{Kind: Text, Role: "label", X: left - 4, Y: top + cell*(float64(v)+0.8), Text: d.f.Label(v),
				Style: Style{Fill: fill, FontSize: fs, Anchor: "end"}, Node: v + 1})
		}
	}
	if d.sel >= 0 {
		d.sc.add(Shape{Kind: Text, Role: "label", X: left, Y: top - 4, Text: fmt.Sprintf("quorum %d", d.sel+1),
			Style: Style{Fill: colQuorum, FontSize: 11}})
	}
}
