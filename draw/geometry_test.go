package draw_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/set"
)

// svgElem is one element of a drawing read back from its SVG: its
// attributes, its text and the text of its <title> child (the tooltip).
type svgElem struct {
	name  string
	attrs map[string]string
	text  string
	tip   string
}

func (e *svgElem) num(t *testing.T, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(e.attrs[name], 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", e.name, name, e.attrs[name], err)
	}
	return v
}

// readSVG parses an SVG drawing: the root's width and height, and every
// element below it (titles folded into their parents).
func readSVG(t *testing.T, data []byte) (w, h float64, out []*svgElem) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []*svgElem
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return w, h, out
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &svgElem{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			switch {
			case e.name == "svg":
				w, h = e.num(t, "width"), e.num(t, "height")
			case e.name != "title":
				out = append(out, e)
			}
			stack = append(stack, e)
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			top := stack[len(stack)-1]
			if top.name == "title" && len(stack) > 1 {
				stack[len(stack)-2].tip += string(tok)
			} else {
				top.text += string(tok)
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}

type rect struct{ x0, y0, x1, y1 float64 }

// textRect is the box of a text element, by draw.TextBox's estimate.
func textRect(t *testing.T, e *svgElem) rect {
	anchor := e.attrs["text-anchor"]
	s := draw.Shape{Kind: draw.Text, X: e.num(t, "x"), Y: e.num(t, "y"), Text: e.text,
		Style: draw.Style{FontSize: e.num(t, "font-size"), Anchor: anchor}}
	x0, y0, x1, y1 := draw.TextBox(&s)
	return rect{x0, y0, x1, y1}
}

const slack = 0.05 // coordinates are written with two decimals

func (a rect) overlaps(b rect) bool {
	return a.x0 < b.x1-slack && b.x0 < a.x1-slack && a.y0 < b.y1-slack && b.y0 < a.y1-slack
}

type circle struct {
	x, y, r float64
	node    int
}

func (a rect) meets(c circle) bool {
	dx := c.x - math.Max(a.x0, math.Min(c.x, a.x1))
	dy := c.y - math.Max(a.y0, math.Min(c.y, a.y1))
	return math.Hypot(dx, dy) < c.r-slack
}

// checkGeometry checks a drawing of n nodes: every node drawn once, as a
// circle with a tooltip naming it and, up to 300 nodes, its number inside;
// no two node circles overlap; no text overlaps another text or a node
// circle (a node's number lies inside its own circle and no other); and
// everything lies on the canvas.
func checkGeometry(t *testing.T, n int, matrix bool, data []byte) {
	t.Helper()
	w, h, es := readSVG(t, data)
	var circles []circle
	var texts []*svgElem
	inside := func(x, y float64) bool { return x >= -slack && y >= -slack && x <= w+slack && y <= h+slack }
	for _, e := range es {
		switch e.name {
		case "circle":
			c := circle{e.num(t, "cx"), e.num(t, "cy"), e.num(t, "r"), 0}
			if !inside(c.x-c.r, c.y-c.r) || !inside(c.x+c.r, c.y+c.r) {
				t.Errorf("circle %v sticks out of the %v × %v canvas", c, w, h)
			}
			if e.attrs["class"] == "node" {
				c.node, _ = strconv.Atoi(e.attrs["data-node"])
				if want := fmt.Sprintf("node %d", c.node); len(e.tip) < len(want) || e.tip[:len(want)] != want {
					t.Errorf("node %d's tooltip is %q", c.node, e.tip)
				}
				circles = append(circles, c)
			}
		case "text":
			texts = append(texts, e)
			b := textRect(t, e)
			if !inside(b.x0, b.y0) || !inside(b.x1, b.y1) {
				t.Errorf("text %q (%v) sticks out of the %v × %v canvas", e.text, b, w, h)
			}
		case "rect":
			x, y := e.num(t, "x"), e.num(t, "y")
			if !inside(x, y) || !inside(x+e.num(t, "width"), y+e.num(t, "height")) {
				t.Errorf("rect %v sticks out of the canvas", e.attrs)
			}
		case "line":
			if !inside(e.num(t, "x1"), e.num(t, "y1")) || !inside(e.num(t, "x2"), e.num(t, "y2")) {
				t.Errorf("line %v sticks out of the canvas", e.attrs)
			}
		}
	}
	for _, e := range es {
		if e.attrs["class"] == "incidence" {
			matrix = true
		}
	}
	if matrix {
		n = 0 // the matrix has rows, not circles
	}
	if len(circles) != n {
		t.Fatalf("%d node circles, want %d", len(circles), n)
	}
	seen := map[int]bool{}
	for i, a := range circles {
		if seen[a.node] {
			t.Errorf("node %d drawn twice", a.node)
		}
		seen[a.node] = true
		for _, b := range circles[i+1:] {
			if d := math.Hypot(a.x-b.x, a.y-b.y); d < a.r+b.r-slack {
				t.Errorf("nodes %d and %d overlap: centres %.2f apart, radii %v and %v", a.node, b.node, d, a.r, b.r)
			}
		}
	}
	numbered := map[int]bool{}
	for i, e := range texts {
		b := textRect(t, e)
		own := 0
		if e.attrs["class"] == "number" {
			own, _ = strconv.Atoi(e.attrs["data-node"])
			if e.text != strconv.Itoa(own) {
				t.Errorf("node %d numbered %q", own, e.text)
			}
			numbered[own] = true
		}
		if e.attrs["class"] == "label" && e.attrs["data-node"] != "" {
			v, _ := strconv.Atoi(e.attrs["data-node"])
			numbered[v] = true // a node's own label names it as well
		}
		for _, c := range circles {
			if c.node == own {
				// A number lies inside its circle (its box's corners
				// within the radius), or wholly outside it.
				in := true
				for _, p := range [][2]float64{{b.x0, b.y0}, {b.x1, b.y0}, {b.x0, b.y1}, {b.x1, b.y1}} {
					in = in && math.Hypot(p[0]-c.x, p[1]-c.y) <= c.r+0.5
				}
				if !in && b.meets(c) {
					t.Errorf("node %d's number %q straddles its circle", own, e.text)
				}
				continue
			}
			if b.meets(c) {
				t.Errorf("text %q (%s) covers node %d", e.text, e.attrs["class"], c.node)
			}
		}
		for _, f := range texts[i+1:] {
			if b.overlaps(textRect(t, f)) {
				t.Errorf("texts %q (%s) and %q (%s) overlap", e.text, e.attrs["class"], f.text, f.attrs["class"])
			}
		}
	}
	if n > 0 && n <= 300 && len(numbered) != n {
		t.Errorf("%d of %d nodes carry their number or label", len(numbered), n)
	}
}

// build returns the system a construction makes.
func build(t *testing.T, kind string, vals map[string]any) set.System {
	t.Helper()
	return system(t, kind, vals)
}

// TestNoOverlaps draws every kind of system at several sizes, with and
// without a chosen quorum, highlighted nodes and long labels, in both
// themes, and checks the geometry of each picture (checkGeometry).
func TestNoOverlaps(t *testing.T) {
	type tc struct {
		kind string
		vals map[string]any
	}
	cases := []tc{
		{"fpp", map[string]any{"order": 2}}, {"fpp", map[string]any{"order": 3}}, {"fpp", map[string]any{"order": 4}},
		{"fpp", map[string]any{"order": 7}}, {"fpp", map[string]any{"order": 11}},
		{"grid", map[string]any{"rows": 3, "cols": 3}}, {"grid", map[string]any{"rows": 4, "cols": 4}},
		{"grid", map[string]any{"n": 10}}, {"grid", map[string]any{"rows": 6, "cols": 9}},
		{"cgrid", map[string]any{"rows": 3, "cols": 4}}, {"bgrid", map[string]any{"cols": 4, "bands": 2}},
		{"mgrid", map[string]any{"n": 16}},
		{"billiard", map[string]any{"q": 5}}, {"billiard", map[string]any{"q": 9}},
		{"cube", map[string]any{"a": 2, "k": 1}}, {"cube", map[string]any{"a": 2, "k": 2}},
		{"cube", map[string]any{"a": 3, "k": 2}}, {"cube", map[string]any{"a": 4, "k": 2}}, {"cube", map[string]any{"a": 6, "k": 1}},
		{"tree", map[string]any{"height": 1}}, {"tree", map[string]any{"height": 2}}, {"tree", map[string]any{"height": 3}},
		{"tree", map[string]any{"height": 2, "degree": 3}},
		{"hqc", map[string]any{"levels": "3"}}, {"hqc", map[string]any{"levels": "3,3"}}, {"hqc", map[string]any{"levels": "3,3,3"}},
		{"hqc", map[string]any{"levels": "2,3,2"}},
		{"wall", map[string]any{"widths": "1,2,3"}}, {"wall", map[string]any{"widths": "2,5,3,4"}},
		{"triangle", map[string]any{"rows": 3}}, {"triangle", map[string]any{"rows": 7}},
		{"wheel", map[string]any{"n": 6}}, {"wheel", map[string]any{"n": 15}},
		{"majority", map[string]any{"n": 5}}, {"majority", map[string]any{"n": 101}},
		{"vote", map[string]any{"weights": "3,1,1,1,1"}}, {"maekawa", map[string]any{"n": 10}},
		{"byzantine", map[string]any{"n": 9, "b": 2, "masking": true}},
	}
	for _, c := range cases {
		sys := build(t, c.kind, c.vals)
		f := sys.Families()[0]
		layouts := []string{"auto"}
		if !f.IsThreshold() && len(f.Quorums) <= 300 {
			layouts = append(layouts, "matrix")
		}
		if c.kind == "fpp" && c.vals["order"].(int) > 4 {
			layouts = append(layouts, "plane") // on a circle, numbers outside past 60 nodes
		}
		for _, layout := range layouts {
			for _, variant := range []string{"plain", "quorum", "labels", "dark"} {
				name := fmt.Sprintf("%s%v/%s/%s", c.kind, c.vals, layout, variant)
				t.Run(name, func(t *testing.T) {
					o := draw.Options{Layout: layout}
					s := sys
					switch variant {
					case "quorum":
						if f.IsThreshold() && layout == "auto" {
							o.Highlight = []int{0, 2}
							break
						}
						o.ShowQuorum, o.Quorum, o.Highlight = true, len(f.Quorums)/2, []int{0, f.N - 1}
					case "labels":
						o.Labels = true
						s = withLabels(t, sys)
					case "dark":
						o.Theme = "dark"
					}
					sc, err := draw.Draw(s, o)
					if err != nil {
						t.Fatal(err)
					}
					var buf bytes.Buffer
					if err := sc.WriteSVG(&buf); err != nil {
						t.Fatal(err)
					}
					// The auto layout draws every kind by its structure,
					// but for those without one (weighted voting, Maekawa's
					// degenerate sets) and planes past order 4.
					wantMatrix := layout == "matrix" || c.kind == "vote" || c.kind == "maekawa" || (c.kind == "fpp" && layout == "auto" && c.vals["order"].(int) > 4)
					if got := bytes.Contains(buf.Bytes(), []byte(`class="incidence"`)); got != wantMatrix {
						t.Errorf("drawn as a matrix: %v, want %v", got, wantMatrix)
					}
					checkGeometry(t, sys.N(), layout == "matrix", buf.Bytes())
				})
			}
		}
	}
}

// withLabels gives sys's nodes long labels: "server-1", "server-2", ….
func withLabels(t *testing.T, sys set.System) set.System {
	t.Helper()
	f := sys.Families()[0].Clone()
	f.Labels = make([]string, f.N)
	for v := range f.N {
		f.Labels[v] = fmt.Sprintf("server-%d", v+1)
	}
	return set.System{Family: f}
}

// TestJoinNoOverlaps checks the geometry of Kuo's join at several sizes:
// the Fano plane with the 3×3 grid at node 3, PG(2,3) with the 5×5 grid,
// the 3-node majority with PG(2,5) (a small outer ring around a large
// inner one).
func TestJoinNoOverlaps(t *testing.T) {
	for _, c := range []struct {
		outer, inner map[string]any
		ok, ik       string
		at           int
	}{
		{map[string]any{"order": 2}, map[string]any{"rows": 3, "cols": 3}, "fpp", "grid", 2},
		{map[string]any{"order": 3}, map[string]any{"rows": 5, "cols": 5}, "fpp", "grid", 0},
		{map[string]any{"n": 3}, map[string]any{"order": 5}, "majority", "fpp", 1},
	} {
		outer := build(t, c.ok, c.outer).Families()[0]
		if outer.IsThreshold() {
			var err error
			if outer, err = outer.Enumerate(100); err != nil {
				t.Fatal(err)
			}
		}
		inner := build(t, c.ik, c.inner).Family
		j, err := construct.Join(outer, inner, c.at, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := draw.Draw(set.System{Family: j}, draw.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		_ = sc.WriteSVG(&buf)
		t.Run(fmt.Sprintf("%s%v+%s%v", c.ok, c.outer, c.ik, c.inner), func(t *testing.T) {
			if !bytes.Contains(buf.Bytes(), []byte(`class="joined"`)) {
				t.Fatal("not drawn as a join")
			}
			checkGeometry(t, j.N, false, buf.Bytes())
		})
	}
}

// drawn draws sys with o and reads the SVG back.
func drawn(t *testing.T, sys set.System, o draw.Options) []*svgElem {
	t.Helper()
	sc, err := draw.Draw(sys, o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := sc.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	_, _, es := readSVG(t, buf.Bytes())
	return es
}

// centres returns each node's centre, 1-based.
func centres(t *testing.T, es []*svgElem) map[int][2]float64 {
	out := map[int][2]float64{}
	for _, e := range es {
		if e.name == "circle" && e.attrs["class"] == "node" {
			v, _ := strconv.Atoi(e.attrs["data-node"])
			out[v] = [2]float64{e.num(t, "cx"), e.num(t, "cy")}
		}
	}
	return out
}

// TestTreeLayout: the binary tree of height 3 is drawn as a tree: node v's
// children 2v and 2v+1 one level lower, v centred over them, and an edge
// from v to each child.
func TestTreeLayout(t *testing.T) {
	es := drawn(t, build(t, "tree", map[string]any{"height": 3}), draw.Options{})
	pos := centres(t, es)
	if len(pos) != 15 {
		t.Fatalf("%d nodes, want 15", len(pos))
	}
	edges := map[[2][2]float64]bool{}
	for _, e := range es {
		if e.name == "line" && e.attrs["class"] == "edge" {
			edges[[2][2]float64{{e.num(t, "x1"), e.num(t, "y1")}, {e.num(t, "x2"), e.num(t, "y2")}}] = true
		}
	}
	for v := 1; v <= 7; v++ {
		l, r := pos[2*v], pos[2*v+1]
		if !near(l[1], r[1]) || l[1] <= pos[v][1] || !near(pos[v][0], (l[0]+r[0])/2) || l[0] >= r[0] {
			t.Errorf("node %d at %v is not centred over its children %v and %v", v, pos[v], l, r)
		}
		if !edges[[2][2]float64{pos[v], l}] || !edges[[2][2]float64{pos[v], r}] {
			t.Errorf("node %d: no edge to a child", v)
		}
	}
}

// TestRowsLayout: the triangle of 4 rows has row i holding nodes
// i(i−1)/2+1 … i(i+1)/2, left to right, every row centred on the same
// axis.
func TestRowsLayout(t *testing.T) {
	pos := centres(t, drawn(t, build(t, "triangle", map[string]any{"rows": 4}), draw.Options{}))
	axis := pos[1][0]
	v := 1
	for i := 1; i <= 4; i++ {
		sum := 0.0
		for j := range i {
			p := pos[v+j]
			if !near(p[1], pos[v][1]) || (j > 0 && p[0] <= pos[v+j-1][0]) {
				t.Errorf("row %d: node %d at %v", i, v+j, p)
			}
			sum += p[0]
		}
		if !near(sum/float64(i), axis) {
			t.Errorf("row %d is not centred under node 1", i)
		}
		if i > 1 && pos[v][1] <= pos[v-1][1] {
			t.Errorf("row %d is not below row %d", i, i-1)
		}
		v += i
	}
}

// TestHQCGroups: in HQC with levels 3,3 each of the three groups' boxes
// holds exactly its three nodes, and the outer box all nine.
func TestHQCGroups(t *testing.T) {
	es := drawn(t, build(t, "hqc", map[string]any{"levels": "3,3"}), draw.Options{})
	pos := centres(t, es)
	var boxes [][]int
	for _, e := range es {
		if e.name != "rect" || e.attrs["class"] != "group" {
			continue
		}
		x, y, w, h := e.num(t, "x"), e.num(t, "y"), e.num(t, "width"), e.num(t, "height")
		var in []int
		for v := 1; v <= 9; v++ {
			if p := pos[v]; p[0] > x && p[0] < x+w && p[1] > y && p[1] < y+h {
				in = append(in, v)
			}
		}
		boxes = append(boxes, in)
	}
	want := fmt.Sprint([][]int{{1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
	if fmt.Sprint(boxes) != want {
		t.Errorf("groups %v, want %v", boxes, want)
	}
}

// TestOrientation: the grid and the cube follow one rule: node 1 top left,
// node 2 to its right, node a+1 (the next row) below it.
func TestOrientation(t *testing.T) {
	for _, c := range []struct {
		kind string
		vals map[string]any
		a    int
	}{
		{"grid", map[string]any{"rows": 3, "cols": 3}, 3},
		{"cube", map[string]any{"a": 3, "k": 1}, 3},
		{"cube", map[string]any{"a": 3, "k": 2}, 3},
	} {
		pos := centres(t, drawn(t, build(t, c.kind, c.vals), draw.Options{}))
		one, two, below := pos[1], pos[2], pos[c.a+1]
		if !near(one[1], two[1]) || two[0] <= one[0] || !near(one[0], below[0]) || below[1] <= one[1] {
			t.Errorf("%s %v: node 1 %v, node 2 %v, node %d %v", c.kind, c.vals, one, two, c.a+1, below)
		}
		for v, p := range pos {
			// Node 1 is the leftmost of the top row of its layer.
			if p[0] < one[0]-slack || (near(p[0], one[0]) && p[1] < one[1]-slack && v <= c.a*c.a) {
				t.Errorf("%s %v: node %d at %v is left of or above node 1 %v", c.kind, c.vals, v, p, one)
			}
		}
	}
}

// TestLineStyles: the 21 lines of PG(2,4) each have a look of their own
// (colour and dash pattern), in both themes.
func TestLineStyles(t *testing.T) {
	for _, theme := range draw.Themes() {
		seen := map[string]int{}
		for _, e := range drawn(t, build(t, "fpp", map[string]any{"order": 4}), draw.Options{Theme: theme}) {
			if e.attrs["class"] == "line" {
				seen[e.attrs["stroke"]+"/"+e.attrs["stroke-dasharray"]]++
			}
		}
		if len(seen) != 21 {
			t.Errorf("%s: %d looks for 21 lines: %v", theme, len(seen), seen)
		}
	}
}
