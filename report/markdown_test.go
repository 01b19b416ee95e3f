package report_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/report"
	"github.com/coterie-dev/coterie/rw"
)

// hostile are texts a user may give as a name, kind or label that
// Markdown would otherwise read as HTML, a link, emphasis, a table cell
// or a new block.
var hostile = []string{
	"<img src=x onerror=alert(1)>",
	"[click](javascript:alert(1))",
	"*bold* _it_ `code` ~~gone~~ $x$",
	"a|b",
	"line\n# heading",
	`back\slash & &amp; !x #`,
}

var escaped = regexp.MustCompile(`\\([[:punct:]])`)

// unescape undoes the backslash escapes of Markdown.
func unescape(s string) string { return escaped.ReplaceAllString(s, "$1") }

// checkSafe fails on any character of out that starts a Markdown inline
// construct or raw HTML without a backslash before it, outside the
// report's own markup (headings, bold verdicts, table rules).
func checkSafe(t *testing.T, out string) {
	t.Helper()
	for i, line := range strings.Split(out, "\n") {
		body := strings.TrimLeft(line, "#")
		body = strings.TrimPrefix(strings.TrimPrefix(body, " **"), "**")
		body = strings.TrimSuffix(body, "**")
		if strings.Trim(body, "|-") == "" {
			continue
		}
		// Table pipes of the report's own are " | " around cells.
		body = strings.ReplaceAll(strings.ReplaceAll(body, " | ", "  "), "| ", " ")
		body = strings.TrimSuffix(body, " |")
		for j := 0; j < len(body); j++ {
			c := body[j]
			if c == '\\' {
				j++
				continue
			}
			if strings.IndexByte("<>[]`*_|~$&!#", c) >= 0 {
				t.Errorf("line %d: unescaped %q in %q", i+1, c, line)
				break
			}
		}
	}
}

// TestMarkdownEscapesUserText: a system whose name, kind and labels are
// hostile renders as Markdown in which each reads back as itself and no
// character of theirs is live.
func TestMarkdownEscapesUserText(t *testing.T) {
	for _, text := range hostile {
		// A file may not hold a line break in a kind or label; a name
		// (the upload's) may.
		flat := strings.ReplaceAll(text, "\n", " ")
		js := `{"format": "coterie/1", "kind": ` + jsonString(flat) + `, "n": 3,
			"labels": [` + jsonString(flat) + `, "b", "c"], "quorums": [[1, 2], [2, 3], [1, 3]]}`
		sys, err := format.ReadBytes([]byte(js), format.JSON, format.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		r, err := report.Analyze(context.Background(), text, sys, report.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := report.WriteMarkdown(&buf, []*report.System{r, r}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		checkSafe(t, out)
		if !strings.Contains(unescape(out), "\n## "+flat+"\n") {
			t.Errorf("%q: the heading does not read back as the name:\n%s", text, out)
		}
		if !strings.Contains(unescape(out), ", kind "+flat+"\n") {
			t.Errorf("%q: the kind does not read back", text)
		}
		if !strings.Contains(unescape(out), "| "+flat+" | 3 |") {
			t.Errorf("%q: the comparison row does not read back", text)
		}
	}
}

// TestRWMarkdownEscapesUserText: a read-write system's labels appear in
// its strategy table and its expressions escaped: a*b reads as a*b, not
// as emphasis.
func TestRWMarkdownEscapesUserText(t *testing.T) {
	nodes := rw.DefaultNodes(3)
	nodes[0].Label = "<img src=x onerror=alert(1)>"
	nodes[1].Label = "*b*"
	nodes[2].Label = "c|d"
	reads := expr.NewOr(expr.NewAnd(expr.Node(0), expr.Node(1)), expr.NewAnd(expr.Node(1), expr.Node(2)), expr.NewAnd(expr.Node(0), expr.Node(2)))
	sys, err := rw.New(3, reads, nil, nodes)
	if err != nil {
		t.Fatal(err)
	}
	wl, _ := rw.ParseWorkload("1/2")
	r, err := report.AnalyzeRW(context.Background(), "<script>alert(1)</script>", sys, report.RWOptions{Workload: wl})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.WriteRWMarkdown(&buf, []*report.RWSystem{r}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	checkSafe(t, out)
	back := unescape(out)
	for _, want := range []string{"## <script>alert(1)</script>\n", "<img src=x onerror=alert(1)>", "*b*", "c|d", "1*2 + 2*3 + 1*3"} {
		if !strings.Contains(back, want) {
			t.Errorf("%q does not read back from:\n%s", want, out)
		}
	}
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
