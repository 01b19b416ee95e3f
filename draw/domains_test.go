package draw_test

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/set"
)

// tree places node v (0-based) in paths[v].
func tree(t *testing.T, paths ...string) *domain.Tree {
	t.Helper()
	tr := domain.New(len(paths))
	for v, p := range paths {
		if err := tr.Place(v, p); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// zones9 is the worked example of docs/domains.md: nodes 1–3 in zone-a,
// 4–6 in zone-b, 7–9 in zone-c.
func zones9(t *testing.T) *domain.Tree {
	return tree(t, "zone-a", "zone-a", "zone-a", "zone-b", "zone-b", "zone-b", "zone-c", "zone-c", "zone-c")
}

// drawSVG draws sys and returns the SVG's elements, checking that a
// second drawing gives the same bytes.
func drawSVG(t *testing.T, sys set.System, o draw.Options) []elem {
	t.Helper()
	var a, b bytes.Buffer
	for _, buf := range []*bytes.Buffer{&a, &b} {
		sc, err := draw.Draw(sys, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := sc.WriteSVG(buf); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two drawings differ")
	}
	return parseSVG(t, a.Bytes())
}

type disc struct{ x, y, r float64 }

// checkDomains checks the domains of a drawing against tr whichever way
// they are drawn, and returns "boxes", "rings" or "matrix".
func checkDomains(t *testing.T, es []elem, tr *domain.Tree) string {
	t.Helper()
	nodes := map[int]disc{}
	for _, e := range filter(es, "circle", "node") {
		nodes[e.i("data-node")-1] = disc{e.f(t, "cx"), e.f(t, "cy"), e.f(t, "r")}
	}
	rects := map[string][]elem{}
	var rings []elem
	for _, e := range es {
		if e.attrs["class"] != "domain" {
			continue
		}
		switch e.name {
		case "rect":
			rects[e.attrs["data-domain"]] = append(rects[e.attrs["data-domain"]], e)
		case "circle":
			rings = append(rings, e)
		default:
			t.Errorf("a domain drawn as <%s>", e.name)
		}
	}
	switch {
	case len(nodes) == 0: // the matrix: bars beside the rows
		checkMatrixDomains(t, es, rects, tr)
		return "matrix"
	case len(rings) > 0:
		if len(rects) > 0 {
			t.Error("both boxes and rings")
		}
		// Each node wears exactly the rings of the domains above it,
		// innermost closest, around its own circle.
		got := map[int][]elem{}
		for _, e := range rings {
			got[e.i("data-node")-1] = append(got[e.i("data-node")-1], e)
		}
		for v, c := range nodes {
			above := tr.Above(v)
			rs := got[v]
			if len(rs) != len(above) {
				t.Fatalf("node %d: %d rings, %d domains above it", v+1, len(rs), len(above))
			}
			slices.SortFunc(rs, func(a, b elem) int { return int(math.Copysign(1, b.f(t, "r")-a.f(t, "r"))) })
			for i, e := range rs { // outermost first, like above
				if e.attrs["data-domain"] != tr.Path(above[i]) {
					t.Errorf("node %d: ring %d is %q, want %q", v+1, i, e.attrs["data-domain"], tr.Path(above[i]))
				}
				if !near(e.f(t, "cx"), c.x) || !near(e.f(t, "cy"), c.y) || e.f(t, "r") <= c.r {
					t.Errorf("node %d: ring %q is not around its circle", v+1, e.attrs["data-domain"])
				}
			}
		}
		for d := range tr.Len() {
			if len(filterDomain(es, "text", "legend", tr.Path(d))) != 1 {
				t.Errorf("the legend does not name domain %q once", tr.Path(d))
			}
		}
		return "rings"
	}
	// Boxes: one per domain, holding exactly its nodes' circles, inside
	// the box of the domain above it.
	box := map[int][4]float64{}
	for d := range tr.Len() {
		rs := rects[tr.Path(d)]
		if len(rs) != 1 {
			t.Fatalf("domain %q: %d boxes", tr.Path(d), len(rs))
		}
		x, y := rs[0].f(t, "x"), rs[0].f(t, "y")
		b := [4]float64{x, y, x + rs[0].f(t, "width"), y + rs[0].f(t, "height")}
		box[d] = b
		under := tr.Under(d)
		for v, c := range nodes {
			inside := c.x-c.r >= b[0] && c.x+c.r <= b[2] && c.y-c.r >= b[1] && c.y+c.r <= b[3]
			meets := c.x+c.r > b[0] && c.x-c.r < b[2] && c.y+c.r > b[1] && c.y-c.r < b[3]
			switch mine := slices.Contains(under, v); {
			case mine && !inside:
				t.Errorf("domain %q: node %d's circle is not inside its box", tr.Path(d), v+1)
			case !mine && meets:
				t.Errorf("domain %q: node %d's circle meets its box", tr.Path(d), v+1)
			}
		}
		labels := filterDomain(es, "text", "domain-label", tr.Path(d))
		if len(labels) != 1 || labels[0].text != tr.Path(d)[strings.LastIndex(tr.Path(d), "/")+1:] {
			t.Errorf("domain %q: labels %v", tr.Path(d), labels)
		}
	}
	for d := range tr.Len() {
		if p := tr.Parent(d); p >= 0 {
			c, o := box[d], box[p]
			if !(c[0] > o[0] && c[1] > o[1] && c[2] < o[2] && c[3] < o[3]) {
				t.Errorf("the box of %q is not inside that of %q", tr.Path(d), tr.Path(p))
			}
		}
	}
	return "boxes"
}

// checkMatrixDomains checks the bars beside the matrix's rows: at each
// level, every node's row is covered by exactly one bar, that of its
// domain at that level.
func checkMatrixDomains(t *testing.T, es []elem, rects map[string][]elem, tr *domain.Tree) {
	t.Helper()
	frame := filter(es, "rect", "frame")[0]
	top := frame.f(t, "y")
	cell := frame.f(t, "height") / float64(tr.N())
	cover := map[[2]int][]string{} // (level, node) → domains whose bar covers the row
	for path, rs := range rects {
		d, ok := tr.Lookup(path)
		if !ok {
			t.Fatalf("a bar for %q, no such domain", path)
		}
		for _, e := range rs {
			lo := int(math.Round((e.f(t, "y") - top) / cell))
			hi := int(math.Round((e.f(t, "y") + e.f(t, "height") - top) / cell))
			for v := lo; v < hi; v++ {
				cover[[2]int{tr.Level(d), v}] = append(cover[[2]int{tr.Level(d), v}], path)
			}
		}
	}
	for v := range tr.N() {
		for i, d := range tr.Above(v) {
			if got := cover[[2]int{i + 1, v}]; len(got) != 1 || got[0] != tr.Path(d) {
				t.Errorf("node %d, level %d: bars %v, want [%s]", v+1, i+1, got, tr.Path(d))
			}
		}
	}
}

// filterDomain returns the elements of a class that carry a domain.
func filterDomain(es []elem, name, class, path string) []elem {
	var out []elem
	for _, e := range filter(es, name, class) {
		if e.attrs["data-domain"] == path {
			out = append(out, e)
		}
	}
	return out
}

// TestDomainsEveryLayout draws systems of every layout with domains and
// checks them: boxes where the layout keeps the domains apart (the grid
// with a zone per row, hqc with a zone per group, nested regions and
// zones over a wall's rows), rings where it scatters them, bars beside
// the matrix.
func TestDomainsEveryLayout(t *testing.T) {
	nested := tree(t, "eu/a", "eu/a", "eu/a", "eu/b", "eu/b", "eu/b", "us/c", "us/c", "us/c")
	columns := tree(t, "x", "y", "z", "x", "y", "z", "x", "y", "z")
	scattered := tree(t, "x", "y", "x", "y", "x", "y", "x", "y", "x")
	for _, c := range []struct {
		name   string
		sys    set.System
		layout string
		tr     *domain.Tree
		want   string
	}{
		{"grid by rows", system(t, "grid", map[string]any{"rows": 3, "cols": 3}), "", zones9(t), "boxes"},
		{"grid by columns", system(t, "grid", map[string]any{"rows": 3, "cols": 3}), "", columns, "boxes"},
		{"grid nested", system(t, "grid", map[string]any{"rows": 3, "cols": 3}), "", nested, "rings"}, // no room between the rows
		{"grid scattered", system(t, "grid", map[string]any{"rows": 3, "cols": 3}), "", scattered, "rings"},
		{"hqc", system(t, "hqc", map[string]any{"levels": "3,3"}), "", zones9(t), "boxes"},
		{"hqc nested", system(t, "hqc", map[string]any{"levels": "3,3"}), "", nested, "boxes"},
		{"majority", system(t, "majority", map[string]any{"n": 9}), "", zones9(t), ""},
		{"fano", system(t, "fpp", map[string]any{"order": 2}), "", tree(t, "eu/a", "eu/a", "eu/b", "us/c", "us/c", "us/d", "us/d"), "rings"},
		{"matrix", system(t, "grid", map[string]any{"rows": 3, "cols": 3}), "matrix", nested, "matrix"},
		{"matrix scattered", system(t, "grid", map[string]any{"rows": 3, "cols": 3}), "matrix", scattered, "matrix"},
		{"triangle", system(t, "triangle", map[string]any{"rows": 3}), "", tree(t, "top", "mid", "mid", "low", "low", "low"), "boxes"},
		{"tree", system(t, "tree", map[string]any{"degree": 2, "height": 1}), "", tree(t, "root", "leaves", "leaves"), ""},
		{"billiard", system(t, "billiard", map[string]any{"q": 3}), "", tree(t, "a", "a", "b", "b"), ""},
		{"cube", system(t, "cube", map[string]any{"a": 2, "k": 1}), "", tree(t, "a", "a", "b", "b"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			es := drawSVG(t, c.sys, draw.Options{Layout: c.layout, Domains: c.tr})
			got := checkDomains(t, es, c.tr)
			if c.want != "" && got != c.want {
				t.Errorf("drawn as %s, want %s", got, c.want)
			}
		})
	}
}

// TestDown checks failures: the failed nodes grey, every line of a
// quorum that holds a failed node grey and every other in colour, and
// the legend's count of survivors, against the quorums themselves.
func TestDown(t *testing.T) {
	const grey = "#bbbbbb"
	fano := system(t, "fpp", map[string]any{"order": 2})
	f := fano.Family
	for _, down := range [][]int{{2}, {0, 1}, {3, 4, 5}} {
		t.Run(fmt.Sprint(down), func(t *testing.T) {
			es := drawSVG(t, fano, draw.Options{Down: down})
			for _, e := range filter(es, "circle", "node") {
				isDown := slices.Contains(down, e.i("data-node")-1)
				if (e.attrs["fill"] == grey) != isDown || (e.attrs["stroke"] == grey) != isDown {
					t.Errorf("node %d (down %v): fill %s stroke %s", e.i("data-node"), isDown, e.attrs["fill"], e.attrs["stroke"])
				}
			}
			live := 0
			lines := 0
			for _, e := range es {
				if e.attrs["class"] != "line" {
					continue
				}
				lines++
				q := &f.Quorums[e.i("data-quorum")-1]
				dead := slices.ContainsFunc(down, q.Has)
				if (e.attrs["stroke"] == grey) != dead {
					t.Errorf("quorum %v (dead %v): stroke %s", q, dead, e.attrs["stroke"])
				}
			}
			if lines != 7 {
				t.Fatalf("%d lines", lines)
			}
			for i := range f.Quorums {
				if !slices.ContainsFunc(down, f.Quorums[i].Has) {
					live++
				}
			}
			want := fmt.Sprintf("%d of 7 quorums survive; the dead ones are grey", live)
			if live == 0 {
				want = "no quorum survives: all 7 are dead (grey)"
			}
			if !hasText(es, "legend", want) {
				t.Errorf("no legend %q", want)
			}
		})
	}

	// The matrix: the cells of dead quorums grey, the others ink.
	grid := system(t, "grid", map[string]any{"rows": 3, "cols": 3})
	es := drawSVG(t, grid, draw.Options{Layout: "matrix", Down: []int{4}})
	for _, e := range filter(es, "rect", "incidence") {
		dead := grid.Family.Quorums[e.i("data-quorum")-1].Has(4)
		if (e.attrs["fill"] == grey) != dead {
			t.Errorf("cell of node %d in quorum %d: fill %s", e.i("data-node"), e.i("data-quorum"), e.attrs["fill"])
		}
	}

	// A zone of the 3×3 grid down: no quorum survives, and the title says
	// so; the zone's box is grey and dashed, the others are not.
	tr := zones9(t)
	a, _ := tr.Lookup("zone-a")
	es = drawSVG(t, grid, draw.Options{Domains: tr, Down: tr.Under(a), DownDomains: []int{a}, DownNames: []string{"zone-a"}})
	title := filter(es, "text", "title")[0]
	if title.text != "grid: n = 9, 9 quorums; with zone-a down, no quorum survives" {
		t.Errorf("title %q", title.text)
	}
	for _, e := range filter(es, "rect", "domain") {
		down := e.attrs["data-domain"] == "zone-a"
		if (e.attrs["stroke"] == grey && e.attrs["stroke-dasharray"] != "") != down {
			t.Errorf("box of %s: stroke %s dash %q", e.attrs["data-domain"], e.attrs["stroke"], e.attrs["stroke-dasharray"])
		}
	}
	if !hasText(es, "legend", "down: zone-a") {
		t.Error("the legend does not name zone-a")
	}

	// HQC 3×3 survives a zone: 3 × 3 of its 27 quorums avoid zone a.
	es = drawSVG(t, system(t, "hqc", map[string]any{"levels": "3,3"}), draw.Options{Domains: tr, Down: tr.Under(a), DownDomains: []int{a}})
	if !hasText(es, "legend", "9 of 27 quorums survive; the dead ones are grey") || !hasText(es, "legend", "down: zone-a") {
		t.Error("hqc with zone-a down: legend")
	}

	// A threshold system: live nodes against the threshold.
	maj := system(t, "majority", map[string]any{"n": 9})
	if es := drawSVG(t, maj, draw.Options{Down: []int{0, 1, 2, 3}}); !hasText(es, "legend", "5 of 9 nodes live: quorums survive (any 5)") {
		t.Error("majority of 9, 4 down")
	}
	if es := drawSVG(t, maj, draw.Options{Down: []int{0, 1, 2, 3, 4}}); !hasText(es, "legend", "no quorum survives: 4 of 9 nodes live, 5 needed") {
		t.Error("majority of 9, 5 down")
	}

	// Bad options are errors.
	if _, err := draw.Draw(grid, draw.Options{Down: []int{9}}); err == nil {
		t.Error("node 10 of 9 down: no error")
	}
	if _, err := draw.Draw(fano, draw.Options{Domains: tr}); err == nil {
		t.Error("domains over 9 nodes for 7: no error")
	}
}

func hasText(es []elem, class, text string) bool {
	for _, e := range filter(es, "text", class) {
		if e.text == text {
			return true
		}
	}
	return false
}
