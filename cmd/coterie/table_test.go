package main

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// tablewriterRender is how the tables were drawn with tablewriter, the
// reference renderTable must match.
func tablewriterRender(t *testing.T, header []string, rows [][]string) string {
	t.Helper()
	var b bytes.Buffer
	tb := tablewriter.NewTable(&b,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
	)
	cells := func(ss []string) []any {
		out := make([]any, len(ss))
		for i, s := range ss {
			out[i] = escapeField(s)
		}
		return out
	}
	tb.Header(cells(header)...)
	for _, r := range rows {
		if err := tb.Append(cells(r)...); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRenderTableMatchesTablewriter(t *testing.T) {
	t.Setenv("RUNEWIDTH_EASTASIAN", "0")
	alphabet := []string{"a", "Z", "0", "9", " ", "-", "/", "…", "≥", "é", "ü", "α", "λ", "φ", "∞", "·", "—",
		"中", "文", "日", "한", "😀", "\u0301", "\t", "\n", "\x1b[1m", "\x00", "\u200b", "│", "─", "%", "\"", "\\"}
	word := func(rng *rand.Rand) string {
		var s strings.Builder
		for range rng.IntN(12) {
			s.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return s.String()
	}
	cases := []struct {
		header []string
		rows   [][]string
	}{
		{[]string{"i", "A_i"}, [][]string{{"0", "0"}, {"1", "12345678901234567890"}, {"80", "7"}}},
		{[]string{"property", "value"}, [][]string{{"load (regular)", "65/81 = 0.8025…"}, {"kind", "cube (a=3, k=3)"}}},
		{[]string{"only"}, nil},
		{[]string{"a", "b", "c"}, [][]string{{"", "", ""}, {" x ", "  ", "y  "}}},
		{[]string{"long"}, [][]string{{strings.Repeat("0123456789", 40)}}},
		{[]string{"a", "b", "c"}, [][]string{{"1"}, {"1", "2", "3"}}},
		{[]string{"a"}, [][]string{{"1", "2"}, {"3"}}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		cols := 1 + rng.IntN(4)
		h := make([]string, cols)
		for j := range h {
			h[j] = word(rng)
		}
		var rows [][]string
		for range rng.IntN(6) {
			r := make([]string, cols)
			for j := range r {
				r[j] = word(rng)
			}
			rows = append(rows, r)
		}
		cases = append(cases, struct {
			header []string
			rows   [][]string
		}{h, rows})
	}
	for i, c := range cases {
		want := tablewriterRender(t, c.header, c.rows)
		var got bytes.Buffer
		if err := renderTable(&got, c.header, c.rows); err != nil {
			t.Fatal(err)
		}
		if got.String() != want {
			t.Fatalf("case %d %q %q:\ngot\n%s\nwant (tablewriter)\n%s", i, c.header, c.rows, got.String(), want)
		}
	}
}

// The layout does not depend on the environment: tablewriter made "…"
// two columns wide when RUNEWIDTH_EASTASIAN=1 was set.
func TestRenderTableIgnoresLocale(t *testing.T) {
	t.Setenv("RUNEWIDTH_EASTASIAN", "1")
	t.Setenv("LC_ALL", "ja_JP.UTF-8")
	var got bytes.Buffer
	if err := renderTable(&got, []string{"property", "value"}, [][]string{{"load", "65/81 = 0.8025…"}, {"n", "81"}}); err != nil {
		t.Fatal(err)
	}
	want := `┌──────────┬─────────────────┐
│ property │ value           │
├──────────┼─────────────────┤
│ load     │ 65/81 = 0.8025… │
│ n        │ 81              │
└──────────┴─────────────────┘
`
	if got.String() != want {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want)
	}
}
