package draw_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"flag"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// elem is one parsed SVG element with its attributes.
type elem struct {
	name  string
	attrs map[string]string
	text  string // a <text>'s own characters (not its <title>'s)
}

func (e elem) f(t *testing.T, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(e.attrs[name], 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", e.name, name, e.attrs[name], err)
	}
	return v
}

func (e elem) i(name string) int {
	v, _ := strconv.Atoi(e.attrs[name])
	return v
}

// points parses a points attribute.
func (e elem) points(t *testing.T) []draw.Point {
	t.Helper()
	var pts []draw.Point
	for _, f := range bytes.Fields([]byte(e.attrs["points"])) {
		xy := bytes.Split(f, []byte(","))
		x, err1 := strconv.ParseFloat(string(xy[0]), 64)
		y, err2 := strconv.ParseFloat(string(xy[1]), 64)
		if len(xy) != 2 || err1 != nil || err2 != nil {
			t.Fatalf("bad points %q", e.attrs["points"])
		}
		pts = append(pts, draw.Point{X: x, Y: y})
	}
	return pts
}

// parseSVG parses an SVG document with encoding/xml and returns its
// elements in order.
func parseSVG(t *testing.T, data []byte) []elem {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var out []elem
	inText := false // in a <text>, outside its <title>
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return out
			}
			t.Fatalf("SVG does not parse: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			e := elem{name: se.Name.Local, attrs: map[string]string{}}
			for _, a := range se.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			out = append(out, e)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				out[len(out)-1].text += string(tok)
			}
		}
	}
}

func filter(es []elem, name, class string) []elem {
	var out []elem
	for _, e := range es {
		if e.name == name && e.attrs["class"] == class {
			out = append(out, e)
		}
	}
	return out
}

// svgOf draws sys and checks it against the golden file (rewritten with
// -update); it returns the parsed elements.
func svgOf(t *testing.T, sys set.System, o draw.Options, golden string) []elem {
	t.Helper()
	sc, err := draw.Draw(sys, o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := sc.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	sc2, _ := draw.Draw(sys, o)
	_ = sc2.WriteSVG(&again)
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two drawings of the same system differ")
	}
	path := filepath.Join("testdata", golden)
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("%s differs from the golden file (go test ./draw -update rewrites it)", golden)
	}
	return parseSVG(t, buf.Bytes())
}

func nodeCentres(t *testing.T, es []elem) map[int]draw.Point {
	t.Helper()
	pos := map[int]draw.Point{}
	for _, e := range filter(es, "circle", "node") {
		pos[e.i("data-node")-1] = draw.Point{X: e.f(t, "cx"), Y: e.f(t, "cy")}
	}
	return pos
}

const eps = 0.02 // coordinates are written with two decimals

func near(a, b float64) bool { return math.Abs(a-b) <= eps }

// onSegment reports whether p lies on the segment ab.
func onSegment(p, a, b draw.Point) bool {
	cross := (b.X-a.X)*(p.Y-a.Y) - (b.Y-a.Y)*(p.X-a.X)
	l := math.Hypot(b.X-a.X, b.Y-a.Y)
	if math.Abs(cross)/l > 0.05 {
		return false
	}
	dot := (p.X-a.X)*(b.X-a.X) + (p.Y-a.Y)*(b.Y-a.Y)
	return dot >= -0.05 && dot <= l*l+0.05
}

func system(t testing.TB, name string, vals map[string]any) set.System {
	t.Helper()
	spec, ok := construct.Lookup(name)
	if !ok {
		t.Fatalf("no construction %q", name)
	}
	args, err := construct.NewArgs(spec, vals)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := spec.Build(args)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestFano checks the classic picture of the Fano plane: 7 points, six
// straight lines and one circle, each line passing through exactly its
// three points and no other.
func TestFano(t *testing.T) {
	sys := system(t, "fpp", map[string]any{"order": 2})
	checkFano(t, sys.Family, svgOf(t, sys, draw.Options{}, "fano.svg"))
}

// TestMaekawaFig1 draws Maekawa's Fig. 1(b), the sets S_1..S_7 for K = 3
// as the paper prints them (the repository's testdata): the auto layout
// recognises the Fano plane and draws it as such.
func TestMaekawaFig1(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "maekawa-fig1-k3.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := format.ReadBytes(data, format.Text, format.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	sc, err := draw.Draw(sys, draw.Options{Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_ = sc.WriteSVG(&buf)
	checkFano(t, sys.Family, parseSVG(t, buf.Bytes()))
}

// checkFano checks a drawing of the Fano plane f.
func checkFano(t *testing.T, f *set.Family, es []elem) {
	t.Helper()
	pos := nodeCentres(t, es)
	if len(pos) != 7 {
		t.Fatalf("%d node circles, want 7", len(pos))
	}
	segs, circles := filter(es, "line", "line"), filter(es, "circle", "line")
	if len(segs) != 6 || len(circles) != 1 {
		t.Fatalf("%d straight lines and %d circles, want 6 and 1", len(segs), len(circles))
	}
	seen := map[int]bool{}
	check := func(qi int, on func(p draw.Point) bool) {
		if seen[qi] {
			t.Errorf("line %d drawn twice", qi+1)
		}
		seen[qi] = true
		for v, p := range pos {
			if on(p) != f.Quorums[qi].Has(v) {
				t.Errorf("line %d %v: node %d on it = %v", qi+1, f.Quorums[qi].Elements(), v+1, on(p))
			}
		}
	}
	for _, e := range segs {
		a := draw.Point{X: e.f(t, "x1"), Y: e.f(t, "y1")}
		b := draw.Point{X: e.f(t, "x2"), Y: e.f(t, "y2")}
		check(e.i("data-quorum")-1, func(p draw.Point) bool { return onSegment(p, a, b) })
	}
	c := circles[0]
	cx, cy, r := c.f(t, "cx"), c.f(t, "cy"), c.f(t, "r")
	check(c.i("data-quorum")-1, func(p draw.Point) bool { return math.Abs(math.Hypot(p.X-cx, p.Y-cy)-r) < 0.05 })
	// The three points off the circle and the centre form the triangle:
	// the corners are 120° apart around the circle's centre.
	var far int
	for _, p := range pos {
		if d := math.Hypot(p.X-cx, p.Y-cy); d > r+1 {
			far++
			if !near(d, 2*r) {
				t.Errorf("corner at distance %v from the centre, want twice the circle's radius %v", d, 2*r)
			}
		}
	}
	if far != 3 {
		t.Errorf("%d corners, want 3", far)
	}
}

// TestGrid checks the 3×3 grid: nine points on the lattice, and quorum 5
// (node 5's, the centre) drawn as its full row and column.
func TestGrid(t *testing.T) {
	sys := system(t, "grid", map[string]any{"rows": 3, "cols": 3})
	f := sys.Family
	qi := slices.Index(f.Owners, 4) // the centre node's quorum
	es := svgOf(t, sys, draw.Options{ShowQuorum: true, Quorum: qi}, "grid3.svg")
	pos := nodeCentres(t, es)
	if len(pos) != 9 {
		t.Fatalf("%d nodes, want 9", len(pos))
	}
	x0, y0 := pos[0].X, pos[0].Y
	step := pos[1].X - x0
	if step <= 0 {
		t.Fatalf("node 2 is not right of node 1: %v %v", pos[0], pos[1])
	}
	for v, p := range pos {
		if !near(p.X, x0+step*float64(v%3)) || !near(p.Y, y0+step*float64(v/3)) {
			t.Errorf("node %d at %v, want row %d column %d of the lattice", v+1, p, v/3+1, v%3+1)
		}
	}
	lines := filter(es, "line", "quorum-line")
	if len(lines) != 2 {
		t.Fatalf("%d quorum lines, want the row and the column", len(lines))
	}
	covered := set.New(9)
	for _, e := range lines {
		a := draw.Point{X: e.f(t, "x1"), Y: e.f(t, "y1")}
		b := draw.Point{X: e.f(t, "x2"), Y: e.f(t, "y2")}
		for v, p := range pos {
			if onSegment(p, a, b) {
				covered.Add(v)
			}
		}
	}
	if !set.Equal(covered, &f.Quorums[qi]) {
		t.Errorf("the thick lines cover %v, want the quorum %v", covered, f.Quorums[qi].Elements())
	}
	for _, e := range filter(es, "circle", "node") {
		v := e.i("data-node") - 1
		if blue := e.attrs["fill"] != "#ffffff"; blue != f.Quorums[qi].Has(v) {
			t.Errorf("node %d filled %s", v+1, e.attrs["fill"])
		}
	}
}

// TestBilliard checks the board for q = 5: 25 cells, a node in each of the
// 12 cells with i+j odd, and 12 paths, each a chain of diagonal steps
// through exactly the cells of its quorum.
func TestBilliard(t *testing.T) {
	sys := system(t, "billiard", map[string]any{"q": 5})
	f := sys.Family
	es := svgOf(t, sys, draw.Options{}, "billiard5.svg")
	cells := filter(es, "rect", "cell")
	if len(cells) != 25 {
		t.Fatalf("%d cells, want 25", len(cells))
	}
	side := cells[0].f(t, "width")
	x0, y0 := cells[0].f(t, "x"), cells[0].f(t, "y")
	pos := nodeCentres(t, es)
	if len(pos) != 12 {
		t.Fatalf("%d sites, want 12", len(pos))
	}
	for v, p := range pos {
		// Proposition 2: site n = v+1 is in row i = 1 + (2n − j)/q,
		// column j = 2n mod q (q for 0).
		n := v + 1
		j := (2 * n) % 5
		if j == 0 {
			j = 5
		}
		i := 1 + (2*n-j)/5
		if !near(p.X, x0+side*(float64(j)-0.5)) || !near(p.Y, y0+side*(float64(i)-0.5)) {
			t.Errorf("site %d at %v, want the centre of cell (%d, %d)", n, p, i, j)
		}
	}
	paths := filter(es, "polyline", "path")
	if len(paths) != 12 {
		t.Fatalf("%d paths, want 12", len(paths))
	}
	for _, e := range paths {
		qi := e.i("data-quorum") - 1
		pts := e.points(t)
		visited := set.New(12)
		for k, p := range pts {
			for v, c := range pos {
				if near(p.X, c.X) && near(p.Y, c.Y) {
					visited.Add(v)
				}
			}
			if k > 0 && (!near(math.Abs(p.X-pts[k-1].X), side) || !near(math.Abs(p.Y-pts[k-1].Y), side)) {
				t.Errorf("path %d: step %d is not diagonal", qi+1, k)
			}
		}
		if len(pts) != 5 || !set.Equal(visited, &f.Quorums[qi]) {
			t.Errorf("path %d visits %v (%d points), want quorum %v", qi+1, visited, len(pts), f.Quorums[qi].Elements())
		}
	}
}

// TestBilliardPaperPath checks the path drawn for S_11 at q = 9 against
// the paper's worked example: {23,19,15,11} ∪ {16,21,26} ∪ {22,18}, in
// this order.
func TestBilliardPaperPath(t *testing.T) {
	sys := system(t, "billiard", map[string]any{"q": 9})
	f := sys.Family
	qi := slices.Index(f.Owners, 10)
	sc, err := draw.Draw(sys, draw.Options{ShowQuorum: true, Quorum: qi})
	if err != nil {
		t.Fatal(err)
	}
	centre := map[draw.Point]int{}
	var path []draw.Point
	for _, s := range sc.Shapes {
		if s.Role == "node" {
			centre[draw.Point{X: s.X, Y: s.Y}] = s.Node
		}
		if s.Role == "path" {
			path = s.Pts
		}
	}
	var got []int
	for _, p := range path {
		got = append(got, centre[p])
	}
	want := []int{23, 19, 15, 11, 16, 21, 26, 22, 18}
	if !slices.Equal(got, want) {
		t.Errorf("S_11 drawn through %v, want %v", got, want)
	}
}

// TestWitness draws the 3×3 grid, which is dominated, with the witness H
// of domination.Decide highlighted: exactly H's nodes are red.
func TestWitness(t *testing.T) {
	sys := system(t, "grid", map[string]any{"rows": 3, "cols": 3})
	res, err := domination.Decide(context.Background(), sys.Family)
	if err != nil {
		t.Fatal(err)
	}
	if res.Witness == nil {
		t.Fatal("the 3×3 grid is dominated (Maekawa's grids are), but no witness")
	}
	h := res.Witness.Elements()
	es := svgOf(t, sys, draw.Options{Highlight: h, Labels: true}, "grid3-witness.svg")
	red := set.New(9)
	for _, e := range filter(es, "circle", "node") {
		if e.attrs["fill"] == "#d62728" {
			red.Add(e.i("data-node") - 1)
		}
	}
	if !set.Equal(red, res.Witness) {
		t.Errorf("red nodes %v, want the witness %v", red, res.Witness)
	}
	// Without labels of their own, the nodes' numbers are their labels,
	// written inside the circles.
	if n := len(filter(es, "text", "number")); n != 9 {
		t.Errorf("%d numbers, want 9", n)
	}
}

// TestCube checks the 3-cube 2-arbiter with a = 2 (8 nodes): 12 edges of
// the cube, each joining two tuples one apart in one coordinate.
func TestCube(t *testing.T) {
	sys := system(t, "cube", map[string]any{"a": 2, "k": 2})
	sc, err := draw.Draw(sys, draw.Options{ShowQuorum: true, Quorum: 0})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_ = sc.WriteSVG(&buf)
	es := parseSVG(t, buf.Bytes())
	if n := len(filter(es, "circle", "node")); n != 8 {
		t.Errorf("%d nodes, want 8", n)
	}
	if n := len(filter(es, "line", "edge")); n != 12 {
		t.Errorf("%d edges, want the cube's 12", n)
	}
	// Quorum 1 is the union of the three faces through one corner (a = 2:
	// every node but the opposite corner): 9 of the 12 edges lie in it.
	if n := len(filter(es, "line", "quorum-line")); n != 9 {
		t.Errorf("%d quorum lines, want 9", n)
	}
}

// TestMatrix checks the incidence matrix of PG(2,3): one filled cell per
// incidence, (q+1)·n = 52, in the row of its node.
func TestMatrix(t *testing.T) {
	sys := system(t, "fpp", map[string]any{"order": 3})
	sc, err := draw.Draw(sys, draw.Options{Layout: "matrix"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_ = sc.WriteSVG(&buf)
	es := parseSVG(t, buf.Bytes())
	inc := filter(es, "rect", "incidence")
	if len(inc) != 52 {
		t.Fatalf("%d incidences, want 52", len(inc))
	}
	h := inc[0].f(t, "height")
	for _, e := range inc {
		v, qi := e.i("data-node")-1, e.i("data-quorum")-1
		if !sys.Family.Quorums[qi].Has(v) {
			t.Errorf("cell for node %d in quorum %d, which does not hold it", v+1, qi+1)
		}
		row := (e.f(t, "y") - inc[0].f(t, "y")) / h
		if !near(row, float64(v)-float64(inc[0].i("data-node")-1)) {
			t.Errorf("node %d's cell in row %v", v+1, row)
		}
	}
}

// TestErrors: bad options give errors, not pictures or panics.
func TestErrors(t *testing.T) {
	fano := system(t, "fpp", map[string]any{"order": 2})
	grid := system(t, "grid", map[string]any{"rows": 3, "cols": 3})
	for _, tt := range []struct {
		name string
		sys  set.System
		o    draw.Options
	}{
		{"unknown layout", fano, draw.Options{Layout: "spiral"}},
		{"quorum out of range", fano, draw.Options{ShowQuorum: true, Quorum: 7}},
		{"node out of range", fano, draw.Options{Highlight: []int{7}}},
		{"billiard of a plane", fano, draw.Options{Layout: "billiard"}},
		{"plane of a grid", grid, draw.Options{Layout: "plane"}},
		{"cube of a grid", grid, draw.Options{Layout: "cube"}},
		{"grid of a plane", fano, draw.Options{Layout: "grid"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := draw.Draw(tt.sys, tt.o); err == nil {
				t.Error("no error")
			}
		})
	}
}

// TestRaster renders PNG and PDF twice: the same bytes, a decodable PNG of
// twice the scene's size (and of the size asked with WritePNGScale), a
// PDF header.
func TestRaster(t *testing.T) {
	sys := system(t, "billiard", map[string]any{"q": 5})
	sc, err := draw.Draw(sys, draw.Options{ShowQuorum: true, Quorum: 2, Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	var p1, p2, d1, d2 bytes.Buffer
	for _, w := range []func() error{
		func() error { return sc.WritePNG(&p1) }, func() error { return sc.WritePNG(&p2) },
		func() error { return sc.WritePDF(&d1) }, func() error { return sc.WritePDF(&d2) },
	} {
		if err := w(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(p1.Bytes(), p2.Bytes()) || !bytes.Equal(d1.Bytes(), d2.Bytes()) {
		t.Error("the same scene gave different bytes")
	}
	img, err := png.Decode(bytes.NewReader(p1.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); math.Abs(float64(w)-sc.W*2) > 1 {
		t.Errorf("PNG is %d pixels wide, want %v", w, sc.W*2)
	}
	var p3 bytes.Buffer
	if err := sc.WritePNGScale(&p3, 1); err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(&p3); err != nil || math.Abs(float64(img.Bounds().Dx())-sc.W) > 1 {
		t.Errorf("PNG at scale 1: %v, err %v; want %v pixels wide", img.Bounds(), err, sc.W)
	}
	if err := sc.WritePNGScale(io.Discard, 0); err == nil {
		t.Error("scale 0: no error")
	}
	if !bytes.HasPrefix(d1.Bytes(), []byte("%PDF-")) || !bytes.Contains(d1.Bytes(), []byte("D:20000101000000")) {
		t.Error("PDF header or fixed date missing")
	}
}

func BenchmarkDrawPG16(b *testing.B) {
	sys := system(b, "fpp", map[string]any{"order": 16})
	for _, layout := range []string{"matrix", "plane"} {
		b.Run(layout+"/png", func(b *testing.B) {
			for b.Loop() {
				sc, err := draw.Draw(sys, draw.Options{Layout: layout, ShowQuorum: true, Quorum: 0})
				if err != nil {
					b.Fatal(err)
				}
				if err := sc.WritePNG(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(layout, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sc, err := draw.Draw(sys, draw.Options{Layout: layout, ShowQuorum: true, Quorum: 0})
				if err != nil {
					b.Fatal(err)
				}
				var buf bytes.Buffer
				if err := sc.WriteSVG(&buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestThreshold: majority of 101 is drawn as 101 nodes on a circle without
// listing its C(101, 51) quorums.
func TestThreshold(t *testing.T) {
	sys := system(t, "majority", map[string]any{"n": 101})
	sc, err := draw.Draw(sys, draw.Options{Highlight: []int{0, 50}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_ = sc.WriteSVG(&buf)
	es := parseSVG(t, buf.Bytes())
	pos := nodeCentres(t, es)
	if len(pos) != 101 {
		t.Fatalf("%d nodes, want 101", len(pos))
	}
	ring := filter(es, "circle", "edge")[0]
	cx, cy, r := ring.f(t, "cx"), ring.f(t, "cy"), ring.f(t, "r")
	for v, p := range pos {
		if math.Abs(math.Hypot(p.X-cx, p.Y-cy)-r) > 0.05 {
			t.Errorf("node %d is off the circle", v+1)
		}
	}
	if _, err := draw.Draw(sys, draw.Options{ShowQuorum: true, Quorum: 0}); err == nil {
		t.Error("--quorum on a threshold system: no error")
	}
	if _, err := draw.Draw(sys, draw.Options{Layout: "matrix"}); err == nil {
		t.Error("the matrix of C(101, 51) quorums: no error")
	}
}

// TestJoin draws the Fano plane joined with the 3×3 grid at node 3: the
// six other outer nodes on the outer circle in their own places, the nine
// grid nodes inside the dashed circle that stands where node 3 was.
func TestJoin(t *testing.T) {
	fano := system(t, "fpp", map[string]any{"order": 2}).Family
	grid := system(t, "grid", map[string]any{"rows": 3, "cols": 3}).Family
	j, err := construct.Join(fano, grid, 2, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := draw.Draw(set.System{Family: j}, draw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_ = sc.WriteSVG(&buf)
	es := parseSVG(t, buf.Bytes())
	pos := nodeCentres(t, es)
	if len(pos) != 15 {
		t.Fatalf("%d nodes, want 6 + 9", len(pos))
	}
	ring := filter(es, "circle", "edge")[0]
	hub := filter(es, "circle", "joined")[0]
	cx, cy, R := ring.f(t, "cx"), ring.f(t, "cy"), ring.f(t, "r")
	hx, hy, r := hub.f(t, "cx"), hub.f(t, "cy"), hub.f(t, "r")
	// Node 3's place: the third of seven slots from the top, clockwise.
	a := -math.Pi/2 + 2*math.Pi*2/7
	if !near(hx, cx+R*math.Cos(a)) || !near(hy, cy+R*math.Sin(a)) {
		t.Errorf("the joined circle is at (%v, %v), not in node 3's place", hx, hy)
	}
	for v, p := range pos {
		inner := v >= 6
		if in := math.Hypot(p.X-hx, p.Y-hy) < r; in != inner {
			t.Errorf("node %d inside the joined circle = %v", v+1, in)
		}
		if !inner {
			// Join node v is outer node v (v < 2) or v+1 (after node 3).
			u := v
			if v >= 2 {
				u = v + 1
			}
			b := -math.Pi/2 + 2*math.Pi*float64(u)/7
			if !near(p.X, cx+R*math.Cos(b)) || !near(p.Y, cy+R*math.Sin(b)) {
				t.Errorf("node %d is not in outer node %d's place", v+1, u+1)
			}
		}
	}
}

// TestAnySystem: every layout on random small systems (and on systems
// whose params lie about their shape) gives a drawing or an error, never
// a panic; auto always draws.
func TestAnySystem(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	kinds := []struct {
		kind   string
		params set.Params
	}{
		{"", nil},
		{"grid", set.Params{"rows": 3, "cols": 3}},
		{"grid", set.Params{"rows": 0, "cols": -1}},
		{"billiard", set.Params{"q": 5}},
		{"cube", set.Params{"a": 2, "k": 2}},
		{"join", set.Params{"at": 2, "outer_n": 3, "inner_n": 3}},
		{"join", set.Params{"at": 9, "outer_n": 3, "inner_n": 3}},
		{"fpp", set.Params{"order": 2.0}},
	}
	for i := range 300 {
		n := 1 + rng.IntN(14)
		f := set.NewFamily(n)
		k := kinds[i%len(kinds)]
		f.Kind, f.Params = k.kind, k.params
		for range 1 + rng.IntN(12) {
			q := set.New(n)
			for v := range n {
				if rng.IntN(3) == 0 {
					q.Add(v)
				}
			}
			if q.IsEmpty() {
				q.Add(rng.IntN(n))
			}
			f.Add(q, set.NoOwner)
		}
		sys := set.System{Family: f}
		for _, layout := range draw.Layouts() {
			o := draw.Options{Layout: layout, ShowQuorum: rng.IntN(2) == 0, Quorum: rng.IntN(len(f.Quorums)), Labels: true,
				Highlight: []int{rng.IntN(n)}}
			sc, err := draw.Draw(sys, o)
			if layout == "auto" && err != nil {
				t.Errorf("auto on %v: %v", f, err)
			}
			if err == nil {
				var buf bytes.Buffer
				if err := sc.WriteSVG(&buf); err != nil {
					t.Fatal(err)
				}
				parseSVG(t, buf.Bytes())
			}
		}
	}
}
