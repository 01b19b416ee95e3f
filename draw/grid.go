package draw

import (
	"errors"
	"fmt"
	"math"

	"github.com/coterie-dev/coterie/set"
)

// gridShape returns the rows and columns of a grid system (Maekawa's
// Method 2): node i sits in row i / cols, column i mod cols.
//
// Cheung's grid protocol (cgrid), the B-grid (bgrid, bands × band-rows
// rows) and the M-grid (mgrid, √n × √n) number their nodes the same way:
// their constructions give their rows and columns ([layoutOf]); any other
// family is read by its params rows and cols.
func gridShape(f *set.Family) (rows, cols int, ok bool) {
	if lay, ok := layoutOf(f); ok && lay.Name == "grid" && len(lay.Dims) == 2 {
		rows, cols := lay.Dims[0], lay.Dims[1]
		return rows, cols, rows >= 1 && cols >= 1 && f.N <= rows*cols && f.N > (rows-1)*cols
	}
	rows, ok1 := f.Params.Int("rows")
	cols, ok2 := f.Params.Int("cols")
	if !ok1 || !ok2 || rows < 1 || cols < 1 || f.N > rows*cols || f.N <= (rows-1)*cols {
		return 0, 0, false
	}
	return rows, cols, true
}

// lattice draws nodes at pos with faint edges between the pairs in edges,
// and thick edges for the lines (node lists) that lie in the chosen
// quorum.
func (d *drawing) lattice(pos []Point, edges [][2]int, lines [][]int, r float64) {
	for _, e := range edges {
		d.sc.add(Shape{Kind: Line, Role: "edge", Pts: []Point{pos[e[0]], pos[e[1]]}, Style: Style{Stroke: d.c.faint, Width: 1}})
	}
	if d.quorum != nil {
		for _, l := range lines {
			in := len(l) > 1
			for _, v := range l {
				in = in && d.quorum.Has(v)
			}
			if in {
				d.sc.add(Shape{Kind: Line, Role: "quorum-line", Pts: []Point{pos[l[0]], pos[l[len(l)-1]]},
					Style: Style{Stroke: d.c.quorum, Width: 4}, Quorum: d.sel + 1})
			}
		}
	}
	for v, p := range pos {
		d.node(v, p, r)
	}
}

// grid draws a grid system: nodes at their lattice positions, 50 units
// apart, node 1 top left, with the chosen quorum's full rows and columns
// drawn thick.
func (d *drawing) grid() error {
	rows, cols, ok := gridShape(d.f)
	if !ok {
		return errors.New("draw: grid layout: the system has no grid shape (params rows and cols)")
	}
	const step, margin = 50.0, 40.0
	top := margin + 10
	d.sc = &Scene{W: 2*margin + step*float64(cols-1), H: top + margin + step*float64(rows-1)}
	d.title(caption(d.f))
	n := d.f.N
	pos := make([]Point, n)
	for v := range n {
		pos[v] = Point{margin + step*float64(v%cols), top + step*float64(v/cols)}
	}
	var edges [][2]int
	var lines [][]int
	for r := range rows {
		var l []int
		for v := r * cols; v < min(n, (r+1)*cols); v++ {
			if len(l) > 0 {
				edges = append(edges, [2]int{v - 1, v})
			}
			l = append(l, v)
		}
		lines = append(lines, l)
	}
	for c := range cols {
		var l []int
		for v := c; v < n; v += cols {
			if len(l) > 0 {
				edges = append(edges, [2]int{v - cols, v})
			}
			l = append(l, v)
		}
		lines = append(lines, l)
	}
	d.lattice(pos, edges, lines, 10)
	return nil
}

// cubeShape returns the side a and the k of a (k+1)-cube k-arbiter over
// exactly a^(k+1) nodes with k ≤ 2, the sizes drawn as a lattice.
func cubeShape(f *set.Family) (a, k int, ok bool) {
	a, ok1 := f.Params.Int("a")
	k, ok2 := f.Params.Int("k")
	if !ok1 || !ok2 || a < 2 || k < 1 || k > 2 {
		return 0, 0, false
	}
	n := 1
	for range k + 1 {
		n *= a
	}
	return a, k, n == f.N
}

// cube draws the (k+1)-cube k-arbiter of Manabe and Tajima for k ≤ 2: node
// t is the tuple (x_1, ..., x_{k+1}) with t = Σ x_i·a^(i−1), drawn as the
// grid is, node 1 top left: x_1 across, x_2 down, and for k = 2 x_3 in
// depth, each layer moved right and up by step/a from the one before, so
// that no two nodes of different layers meet (they stay at least step·√2/a
// apart). Edges join tuples one apart in one coordinate; the chosen
// quorum's lattice lines are drawn thick.
func (d *drawing) cube() error {
	a, k, ok := cubeShape(d.f)
	if !ok {
		return fmt.Errorf("draw: cube layout: the system is not a (k+1)-cube k-arbiter over a^(k+1) nodes with k ≤ 2")
	}
	step, margin := 60.0, 40.0
	depth := 0.0
	if k == 2 {
		step = math.Max(math.Max(75, 26*float64(a)), 0.8*float64(a)*d.spacing(0))
		depth = step / float64(a)
	}
	side := step * float64(a-1)
	lift := depth * float64(a-1)
	top := margin + 10
	d.sc = &Scene{W: 2*margin + side + lift, H: top + margin + side + lift}
	d.title(caption(d.f))
	n := d.f.N
	dim := k + 1
	coord := func(t, i int) int {
		for range i {
			t /= a
		}
		return t % a
	}
	pos := make([]Point, n)
	for t := range n {
		x1, x2 := float64(coord(t, 0)), float64(coord(t, 1))
		x3 := 0.0
		if dim == 3 {
			x3 = float64(coord(t, 2))
		}
		pos[t] = Point{margin + step*x1 + depth*x3, top + lift + step*x2 - depth*x3}
	}
	var edges [][2]int
	var lines [][]int
	stride := 1
	for i := range dim {
		for t := range n {
			if coord(t, i) > 0 {
				edges = append(edges, [2]int{t - stride, t})
			} else {
				l := make([]int, a)
				for x := range a {
					l[x] = t + x*stride
				}
				lines = append(lines, l)
			}
		}
		stride *= a
	}
	d.lattice(pos, edges, lines, 10)
	return nil
}
