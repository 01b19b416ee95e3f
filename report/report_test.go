package report_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/report"
	"github.com/coterie-dev/coterie/set"
)

func build(t testing.TB, name string, vals map[string]any) set.System {
	t.Helper()
	spec, _ := construct.Lookup(name)
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

func analyze(t testing.TB, names []string, systems []set.System) []*report.System {
	t.Helper()
	var out []*report.System
	for i, sys := range systems {
		r, err := report.Analyze(context.Background(), names[i], sys, report.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// node is an element of the parsed page.
type node struct {
	name, class, id string
	text            strings.Builder
}

// parsePage parses the page as XML (it is written as XHTML) and returns
// the elements and every attribute value.
func parsePage(t *testing.T, page []byte) ([]*node, []string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Strict = true
	var all, stack []*node
	var attrs []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			n := &node{name: tk.Name.Local}
			for _, a := range tk.Attr {
				attrs = append(attrs, a.Value)
				switch a.Name.Local {
				case "class":
					n.class = a.Value
				case "id":
					n.id = a.Value
				}
			}
			all = append(all, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			for _, n := range stack {
				n.text.Write(tk)
			}
		}
	}
	if len(stack) != 0 {
		t.Fatal("unclosed elements")
	}
	return all, attrs
}

// TestHTML: the page parses, has every section for every system and the
// comparison, draws the systems and refers to nothing outside itself.
func TestHTML(t *testing.T) {
	names := []string{"fano", "grid 3×3", "billiard q=5"}
	systems := analyze(t, names, []set.System{
		build(t, "fpp", map[string]any{"order": 2}),
		build(t, "grid", map[string]any{"rows": 3, "cols": 3}),
		build(t, "billiard", map[string]any{"q": 5}),
	})
	var buf bytes.Buffer
	if err := report.WriteHTML(&buf, systems); err != nil {
		t.Fatal(err)
	}
	page := buf.Bytes()
	elems, attrs := parsePage(t, page)
	count := map[string]int{}
	var verdicts, domination []string
	svgs := 0
	for _, n := range elems {
		count[n.class]++
		if n.class == "verdict" {
			verdicts = append(verdicts, n.text.String())
		}
		if n.class == "domination" {
			domination = append(domination, n.text.String())
		}
		if n.name == "svg" {
			svgs++
		}
	}
	for _, sec := range []string{"system", "drawing", "verify", "metrics", "domination", "availability", "messages"} {
		if count[sec] != 3 {
			t.Errorf("%d sections %q, want one per system (3)", count[sec], sec)
		}
	}
	if count["comparison"] != 1 {
		t.Errorf("%d comparison sections, want 1", count["comparison"])
	}
	// Drawing and nines chart per system, plus the witness of each
	// dominated one.
	dominated := 0
	for _, d := range domination {
		if strings.Contains(d, "dominated; witness") {
			dominated++
		}
	}
	if svgs != 6+dominated {
		t.Errorf("%d inline SVG drawings, want %d", svgs, 6+dominated)
	}
	for i, v := range verdicts {
		if !strings.HasPrefix(v, "valid as a coterie") {
			t.Errorf("%s: verdict %q", names[i], v)
		}
	}
	// Fano is nondominated; Maekawa's grid is dominated (its witness is
	// drawn).
	if !strings.Contains(domination[0], "nondominated") || !strings.Contains(domination[1], "dominated; witness H = {") {
		t.Errorf("domination: %q", domination)
	}
	for _, bad := range []string{"http:", "https:", "//", "url(", "@import"} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("the page contains %q", bad)
		}
	}
	for _, a := range attrs {
		if strings.Contains(a, ":") && !strings.HasPrefix(a, "#") && strings.Contains(a, "/") {
			t.Errorf("attribute %q looks like a URL", a)
		}
	}
	for _, n := range elems {
		if n.name == "script" || n.name == "link" || n.name == "img" || n.name == "iframe" {
			t.Errorf("the page has a <%s>", n.name)
		}
	}
	var again bytes.Buffer
	_ = report.WriteHTML(&again, systems)
	if !bytes.Equal(page, again.Bytes()) {
		t.Error("the same report gave different bytes")
	}
}

// TestNines: the availability table of majority of 3 at p = 0.9 gives
// AV = 0.972 and 1 − AV = 0.028 (hand-computed: 0.729 + 0.243).
func TestNines(t *testing.T) {
	r := analyze(t, []string{"m3"}, []set.System{build(t, "majority", map[string]any{"n": 3})})
	var buf bytes.Buffer
	if err := report.WriteMarkdown(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| 0.9 | 0.972 | 0.028 | 1.55 | 10.2 d |") {
		t.Errorf("no row for p = 0.9 with 0.972 and 0.028:\n%s", buf.String())
	}
}

// BenchmarkReportFive is the report on five systems (Fano, PG(2,3), 4×4
// grid, billiard q = 5, majority of 5), analysis and HTML.
func BenchmarkReportFive(b *testing.B) {
	systems := []set.System{
		build(b, "fpp", map[string]any{"order": 2}),
		build(b, "fpp", map[string]any{"order": 3}),
		build(b, "grid", map[string]any{"rows": 4, "cols": 4}),
		build(b, "billiard", map[string]any{"q": 5}),
		build(b, "majority", map[string]any{"n": 5}),
	}
	names := []string{"fano", "pg3", "grid4", "billiard5", "maj5"}
	for b.Loop() {
		r := analyze(b, names, systems)
		if err := report.WriteHTML(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDisjoint: a system whose quorums 1 and 2 do not meet is INVALID, and
// the page draws the pair: quorum 1's nodes blue, quorum 2's red.
func TestDisjoint(t *testing.T) {
	f := set.NewFamily(4)
	f.Add(set.Of(0, 1), set.NoOwner)
	f.Add(set.Of(2, 3), set.NoOwner)
	f.Add(set.Of(1, 2), set.NoOwner)
	r := analyze(t, []string{"broken"}, []set.System{{Family: f}})[0]
	if r.FailDraw == nil {
		t.Fatal("no drawing of the disjoint pair")
	}
	// A small system without structure is drawn as its incidence matrix:
	// quorum 1's cells are blue, the cells of quorum 2's nodes red.
	blue, red := "#1f77b4", "#d62728"
	cells := 0
	for _, s := range r.FailDraw.Shapes {
		if s.Role != "incidence" {
			continue
		}
		cells++
		want := "#333333"
		switch {
		case s.Node == 3 || s.Node == 4:
			want = red
		case s.Quorum == 1:
			want = blue
		}
		if s.Style.Fill != want {
			t.Errorf("node %d in quorum %d filled %s, want %s", s.Node, s.Quorum, s.Style.Fill, want)
		}
	}
	if cells != 6 {
		t.Errorf("%d incidences, want 6", cells)
	}
	var buf bytes.Buffer
	if err := report.WriteHTML(&buf, []*report.System{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "INVALID as a coterie") || !strings.Contains(buf.String(), `id="system-1-disjoint"`) {
		t.Error("the page does not show the failure and its drawing")
	}
}
