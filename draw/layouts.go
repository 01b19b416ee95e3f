package draw

import (
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/set"
)

// maxRow bounds the nodes side by side in the tree, hqc and rows layouts:
// past it the auto layout falls back to the matrix.
const maxRow = 400

// treeShape returns the degree and height of a tree system (Agrawal and
// El Abbadi) over its complete tree, numbered breadth first.
func treeShape(f *set.Family) (degree, height int, ok bool) {
	degree, ok1 := f.Params.Int("degree")
	height, ok2 := f.Params.Int("height")
	if !ok1 || !ok2 || degree < 2 || height < 0 || height > 20 {
		return 0, 0, false
	}
	n, leaves := 0, 1
	for range height + 1 {
		n += leaves
		if leaves > maxRow || n > f.N {
			return 0, 0, false
		}
		leaves *= degree
	}
	return degree, height, n == f.N
}

// tree draws a tree system as its tree: the root on top, each level a row,
// the leaves 28 apart and every inner node centred over its children, with
// the edges between a node and its children; edges between two nodes of
// the chosen quorum are drawn thick.
func (d *drawing) tree() error {
	deg, h, ok := treeShape(d.f)
	if !ok {
		return errors.New("draw: tree layout: the system is not a tree system (params degree and height over a complete tree)")
	}
	const r, levelStep, margin = 10.0, 60.0, 30.0
	step := d.spacing(2*r + 8)
	top := margin + 14
	n := d.f.N
	leaves := 1
	for range h {
		leaves *= deg
	}
	firstLeaf := n - leaves
	d.sc = &Scene{W: 2*margin + float64(leaves-1)*step, H: top + margin + float64(h)*levelStep}
	d.title(caption(d.f))
	pos := make([]Point, n)
	for v := n - 1; v >= 0; v-- {
		if v >= firstLeaf {
			pos[v] = Point{margin + float64(v-firstLeaf)*step, 0}
		} else {
			first, last := v*deg+1, v*deg+deg
			pos[v] = Point{(pos[first].X + pos[last].X) / 2, 0}
		}
	}
	level, start, width := 0, 0, 1
	for v := range n {
		if v == start+width {
			level, start, width = level+1, start+width, width*deg
		}
		pos[v].Y = top + float64(level)*levelStep
	}
	for v := 1; v < n; v++ {
		p := (v - 1) / deg
		st := Style{Stroke: d.c.faint, Width: 1.5}
		role := "edge"
		if d.inQuorum(v) && d.inQuorum(p) {
			st, role = Style{Stroke: d.c.quorum, Width: 4}, "quorum-line"
		}
		s := Shape{Kind: Line, Role: role, Pts: []Point{pos[p], pos[v]}, Style: st}
		if role == "quorum-line" {
			s.Quorum = d.sel + 1
		}
		d.sc.add(s)
	}
	for v := range n {
		d.node(v, pos[v], r)
	}
	return nil
}

// hqcShape returns the group sizes of a hierarchical quorum consensus
// system (Kumar), from the top level down.
func hqcShape(f *set.Family) ([]int, bool) {
	levels, ok := f.Params.Ints("levels")
	if !ok || len(levels) == 0 {
		return nil, false
	}
	n := 1
	for _, g := range levels {
		if g < 1 || n*g > maxRow {
			return nil, false
		}
		n *= g
	}
	return levels, n == f.N
}

// hqc draws hierarchical quorum consensus as nested groups: the nodes in a
// row, and around every group of every level a rounded box, the boxes of
// a level inside those of the level above; a group's box is thick when the
// chosen quorum holds a majority of it. Groups are 8 units apart for each
// level they separate.
func (d *drawing) hqc() error {
	levels, ok := hqcShape(d.f)
	if !ok {
		return errors.New("draw: hqc layout: the system is not hierarchical quorum consensus (param levels)")
	}
	const r, margin = 10.0, 24.0
	step := d.spacing(2*r + 6)
	L := len(levels)
	pad := func(depth int) float64 { return 6 + 7*float64(L-depth) } // box margin around a depth's groups
	top := margin + 14 + pad(0)
	n := d.f.N
	// size[j] is the number of nodes in a group at depth j (depth 0: all).
	size := make([]int, L+1)
	size[0] = n
	for j, g := range levels {
		size[j+1] = size[j] / g
	}
	xs := make([]float64, n)
	x := margin + pad(0)
	for v := range n {
		if v > 0 {
			x += step
			for j := 1; j < L; j++ {
				if v%size[j] == 0 {
					x += 8 * float64(L-j)
				}
			}
		}
		xs[v] = x
	}
	cy := top + r
	d.sc = &Scene{W: x + pad(0) + margin, H: cy + r + pad(0) + margin}
	d.title(caption(d.f))
	// has[v] is whether node v is in the chosen quorum; a group is in it
	// when a majority of its subgroups are.
	var in func(depth, lo int) bool
	in = func(depth, lo int) bool {
		if depth == L {
			return d.inQuorum(lo)
		}
		c := 0
		for i := range levels[depth] {
			if in(depth+1, lo+i*size[depth+1]) {
				c++
			}
		}
		return c > levels[depth]/2
	}
	for depth := range L {
		p := pad(depth)
		for lo := 0; lo < n; lo += size[depth] {
			hi := lo + size[depth] - 1
			st := Style{Stroke: d.c.faint, Width: 1.2}
			role := "group"
			s := Shape{Kind: Rect, X: xs[lo] - r - p, Y: cy - r - p, W: xs[hi] - xs[lo] + 2*(r+p), H: 2 * (r + p),
				Tip: fmt.Sprintf("group of nodes %d–%d: a majority of its %d parts", lo+1, hi+1, levels[depth])}
			if d.quorum != nil && in(depth, lo) {
				st, role = Style{Stroke: d.c.quorum, Width: 2.5}, "quorum-line"
				s.Quorum = d.sel + 1
			}
			s.Role, s.Style = role, st
			d.sc.add(s)
		}
	}
	for v := range n {
		d.node(v, Point{xs[v], cy}, r)
	}
	return nil
}

// rowWidths returns the widths of the rows of a crumbling wall, the
// triangle (1, 2, …, d) or the wheel (1, n − 1), top row first.
//
// The construction gives the widths ([layoutOf]); any other family is read
// by its param widths.
func rowWidths(f *set.Family) ([]int, bool) {
	var widths []int
	if lay, ok := layoutOf(f); ok && lay.Name == "rows" {
		widths = lay.Dims
	} else if widths, ok = f.Params.Ints("widths"); !ok {
		return nil, false
	}
	sum := 0
	for _, w := range widths {
		if w < 1 || w > maxRow {
			return nil, false
		}
		sum += w
	}
	return widths, sum == f.N
}

// rows draws a crumbling wall as its rows, each centred under the one
// above, node 1 on top; a row the chosen quorum holds entirely is
// underlined thick.
func (d *drawing) rows() error {
	widths, ok := rowWidths(d.f)
	if !ok {
		return errors.New("draw: rows layout: the system is not a crumbling wall (params widths, rows for the triangle, n for the wheel)")
	}
	const r, rowStep, margin = 10.0, 44.0, 30.0
	step := d.spacing(30)
	top := margin + 14
	wide := 0
	for _, w := range widths {
		wide = max(wide, w)
	}
	d.sc = &Scene{W: 2*margin + step*float64(wide-1), H: top + margin + rowStep*float64(len(widths)-1)}
	d.title(caption(d.f))
	mid := d.sc.W / 2
	v := 0
	for i, w := range widths {
		y := top + rowStep*float64(i)
		x0 := mid - step*float64(w-1)/2
		full := d.quorum != nil
		for j := range w {
			full = full && d.inQuorum(v+j)
		}
		if w > 1 {
			st := Style{Stroke: d.c.faint, Width: 1.5}
			s := Shape{Kind: Line, Role: "edge", Pts: []Point{{x0, y}, {x0 + step*float64(w-1), y}}, Style: st}
			if full {
				s.Role, s.Style, s.Quorum = "quorum-line", Style{Stroke: d.c.quorum, Width: 4}, d.sel+1
			}
			d.sc.add(s)
		}
		for j := range w {
			d.node(v, Point{x0 + step*float64(j), y}, r)
			v++
		}
	}
	return nil
}
