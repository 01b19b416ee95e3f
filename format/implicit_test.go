package format_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// implicitOptions reads implicit files as coterie's commands do.
var implicitOptions = format.Options{Base: 1, Name: "f", Implicit: construct.Implicit}

// An implicit family goes through JSON, text and CSV unchanged, and each
// written file reads back to the same bytes in every other format.
func TestImplicitRoundTrip(t *testing.T) {
	cases := []struct {
		kind   string
		params set.Params
	}{
		{"tree", set.Params{"degree": 2, "height": 10}},
		{"hqc", set.Params{"levels": "3,3,3,3,3"}},
		{"wall", set.Params{"cwlog": true, "n": 1000}},
		{"wall", set.Params{"widths": "1,2,5"}},
		{"triangle", set.Params{"rows": 40}},
		{"vote", set.Params{"weights": "3,2,2,1,1", "threshold": 6}},
	}
	for _, c := range cases {
		f, err := construct.Implicit(c.kind, c.params)
		if err != nil {
			t.Fatal(err)
		}
		f.Labels = make([]string, f.N)
		for i := range f.Labels {
			f.Labels[i] = "n," + strings.Repeat("x", i%3)
		}
		want := map[format.Format][]byte{}
		for _, ff := range []format.Format{format.JSON, format.Text, format.CSV} {
			var b bytes.Buffer
			if err := format.Write(&b, set.System{Family: f}, ff, format.DefaultOptions()); err != nil {
				t.Fatalf("%s %s: %v", c.kind, ff, err)
			}
			if bytes.Contains(b.Bytes(), []byte("quorums")) {
				t.Errorf("%s %s: the implicit form lists quorums:\n%s", c.kind, ff, b.Bytes())
			}
			want[ff] = b.Bytes()
		}
		for from, data := range want {
			sys, err := format.ReadBytes(data, from, implicitOptions)
			if err != nil {
				t.Fatalf("%s: reading %s: %v\n%s", c.kind, from, err, data)
			}
			g := sys.Family
			if !g.IsImplicit() || g.N != f.N || g.Kind != f.Kind || len(g.Labels) != f.N {
				t.Fatalf("%s: read from %s: %v", c.kind, from, g)
			}
			for to, w := range want {
				var b bytes.Buffer
				if err := format.Write(&b, sys, to, format.DefaultOptions()); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b.Bytes(), w) {
					t.Errorf("%s: %s → %s:\n%s\nwant\n%s", c.kind, from, to, b.Bytes(), w)
				}
			}
		}
		var b bytes.Buffer
		if err := format.Write(&b, set.System{Family: f}, format.Dat, format.DefaultOptions()); err == nil || !strings.Contains(err.Error(), "implicit") {
			t.Errorf("%s: .dat: %v, want a refusal naming the implicit form", c.kind, err)
		}
	}
}

// Hostile implicit files are refused at the line that is wrong.
func TestImplicitHostile(t *testing.T) {
	cases := []struct {
		name string
		f    format.Format
		data string
		line int
		msg  string
	}{
		{"unknown kind", format.JSON, "{\"format\": \"coterie/1\",\n\"kind\": \"fractal\",\n\"n\": 3,\n\"implicit\": true}", 2, `unknown kind "fractal"`},
		{"not implicit", format.JSON, "{\"format\": \"coterie/1\",\n\"kind\": \"fpp\", \"params\": {\"order\": 2},\n\"n\": 7,\n\"implicit\": true}", 2, "cannot be stored implicitly"},
		{"no kind", format.JSON, "{\"format\": \"coterie/1\",\n\"n\": 3,\n\"implicit\": true}", 3, "needs the kind"},
		{"bad param", format.JSON, "{\"format\": \"coterie/1\",\n\"kind\": \"tree\",\n\"params\": {\"degree\": 1, \"height\": 2},\n\"n\": 7,\n\"implicit\": true}", 3, "degree = 1 is out of range"},
		{"bad widths", format.JSON, "{\"format\": \"coterie/1\",\n\"kind\": \"wall\",\n\"params\": {\"widths\": \"1,1\"},\n\"n\": 2,\n\"implicit\": true}", 3, "row 2 has width 1"},
		{"wrong n", format.JSON, "{\"format\": \"coterie/1\",\n\"kind\": \"tree\",\n\"params\": {\"height\": 2},\n\"n\": 8,\n\"implicit\": true}", 4, "has 7 nodes"},
		{"and quorums", format.JSON, "{\"format\": \"coterie/1\", \"kind\": \"tree\", \"params\": {\"height\": 1}, \"n\": 3,\n\"implicit\": true,\n\"quorums\": [[1, 2]]}", 2, "and quorums"},
		{"and threshold", format.JSON, "{\"format\": \"coterie/1\", \"kind\": \"tree\", \"params\": {\"height\": 1}, \"n\": 3,\n\"threshold\": 2,\n\"implicit\": true}", 3, "and quorums, threshold"},
		{"not a bool", format.JSON, "{\"format\": \"coterie/1\", \"kind\": \"tree\", \"n\": 3,\n\"implicit\": \"yes\"}", 2, "want true or false"},
		{"arbiters", format.JSON, "{\"format\": \"coterie/1\", \"kind\": \"tree\", \"params\": {\"height\": 1}, \"n\": 3, \"k\": 2,\n\"implicit\": true,\n\"arbiters\": [{\"h\": 1, \"threshold\": 2}]}", 2, "no \"arbiters\""},
		{"text and quorums", format.Text, "# kind: tree\n# params: {\"height\": 1}\n# n: 3\n1 2\n# implicit: true\n", 5, "and quorums"},
		{"text twice", format.Text, "# kind: tree\n# implicit: true\n# implicit: true\n", 3, "given twice"},
		{"text bad params", format.Text, "# kind: hqc\n# params: {\"levels\": \"3,0\"}\n# n: 3\n# implicit: true\n", 2, "levels"},
		{"text no n", format.Text, "# kind: tree\n# params: {\"height\": 1}\n# implicit: true\n", 3, "needs n"},
		{"csv and rows", format.CSV, "# kind: tree\n# params: {\"height\": 1}\n# n: 3\n# implicit: true\nquorum,node\n1,1\n1,2\n", 4, "and quorums"},
	}
	for _, c := range cases {
		_, err := format.ReadBytes([]byte(c.data), c.f, implicitOptions)
		var se *format.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v, want a syntax error", c.name, err)
			continue
		}
		if se.File != "f" || se.Line != c.line || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%s: %v, want f:%d: …%s…", c.name, err, c.line, c.msg)
		}
	}
}

// Without Options.Implicit a reader is not ready for a family without
// quorums, and an implicit file is refused.
func TestImplicitUnchecked(t *testing.T) {
	data := "{\"format\": \"coterie/1\", \"kind\": \"tree\", \"params\": {\"height\": 2}, \"n\": 7,\n\"implicit\": true}"
	_, err := format.ReadBytes([]byte(data), format.JSON, format.DefaultOptions())
	var se *format.SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || !strings.Contains(se.Msg, "does not take implicit families") {
		t.Fatalf("%v, want a refusal at line 2", err)
	}
}
