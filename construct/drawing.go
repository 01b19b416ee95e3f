package construct

import (
	"math"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Drawn returns the construction that f's kind and params name, over f's
// nodes, as a [quorum.Described] that implements [quorum.Drawer] when the
// construction knows the layout that shows it; ok is false when the
// library has no construction of f's kind. Like [Claimed] it is the
// file's claim, read from the params alone: it places nodes, and a
// consumer checks on f's quorums what it relies on.
func Drawn(f *set.Family) (quorum.Described, bool) {
	layout := joinLayout
	if f.Kind != joinKind {
		spec, ok := Lookup(f.Kind)
		if !ok {
			return nil, false
		}
		layout = spec.Layout
	}
	d := described{kind: f.Kind, params: f.Params}
	if layout == nil {
		return d, true
	}
	return drawn{d, f.N, layout}, true
}

// described is a construction named by a kind and params.
type described struct {
	kind   string
	params set.Params
}

// Kind returns the construction's kind.
func (d described) Kind() string { return d.kind }

// Params returns the params as given.
func (d described) Params() set.Params { return d.params }

// drawn is a construction with a layout, over n nodes.
type drawn struct {
	described
	n      int
	layout func(p set.Params, n int) (quorum.Layout, bool)
}

// DrawLayout returns the construction's layout for its params and nodes.
func (d drawn) DrawLayout() (quorum.Layout, bool) { return d.layout(d.params, d.n) }

// named is a layout that reads its own params: only its name.
func named(name string) func(set.Params, int) (quorum.Layout, bool) {
	return func(set.Params, int) (quorum.Layout, bool) { return quorum.Layout{Name: name}, true }
}

// gridLayout is the "grid" layout of rows × cols nodes, node i in row
// i / cols: n must fill the last row at least in part.
func gridLayout(rows, cols, n int) (quorum.Layout, bool) {
	if rows < 1 || cols < 1 || n > rows*cols || n <= (rows-1)*cols {
		return quorum.Layout{}, false
	}
	return quorum.Layout{Name: "grid", Dims: []int{rows, cols}}, true
}

// rowsCols is the layout of the grids whose params are rows and cols:
// Maekawa's grid and Cheung's grid protocol.
func rowsCols(p set.Params, n int) (quorum.Layout, bool) {
	rows, ok1 := p.Int("rows")
	cols, ok2 := p.Int("cols")
	if !ok1 || !ok2 {
		return quorum.Layout{}, false
	}
	return gridLayout(rows, cols, n)
}

// bgridLayout is the B-grid as its bands × band-rows rows.
func bgridLayout(p set.Params, n int) (quorum.Layout, bool) {
	cols, ok1 := p.Int("cols")
	bands, ok2 := p.Int("bands")
	br, ok3 := p.Int("band-rows")
	if !ok1 || !ok2 || !ok3 || bands <= 0 || br <= 0 {
		return quorum.Layout{}, false
	}
	return gridLayout(bands*br, cols, n)
}

// mgridLayout is the M-grid as the √n × √n square.
func mgridLayout(p set.Params, n int) (quorum.Layout, bool) {
	m, ok := p.Int("n")
	side := int(math.Round(math.Sqrt(float64(m))))
	if !ok || side*side != m {
		return quorum.Layout{}, false
	}
	return gridLayout(side, side, n)
}

// wallLayout is a crumbling wall as its rows, from the widths param.
func wallLayout(p set.Params, _ int) (quorum.Layout, bool) {
	widths, ok := p.Ints("widths")
	if !ok {
		return quorum.Layout{}, false
	}
	return quorum.Layout{Name: "rows", Dims: widths}, true
}

// triangleLayout is the triangle as its rows 1, 2, …, d.
func triangleLayout(p set.Params, _ int) (quorum.Layout, bool) {
	d, ok := p.Int("rows")
	if !ok || d < 1 || d > maxTriangleRows {
		return quorum.Layout{}, false
	}
	widths := make([]int, d)
	for i := range widths {
		widths[i] = i + 1
	}
	return quorum.Layout{Name: "rows", Dims: widths}, true
}

// wheelLayout is the wheel as its hub over its rim.
func wheelLayout(p set.Params, _ int) (quorum.Layout, bool) {
	n, ok := p.Int("n")
	if !ok || n < 2 {
		return quorum.Layout{}, false
	}
	return quorum.Layout{Name: "rows", Dims: []int{1, n - 1}}, true
}
