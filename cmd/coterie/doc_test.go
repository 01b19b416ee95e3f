package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The documentation is tested: every example in README.md and docs/*.md
// that shows a command with its prompt ("$ coterie …", in a fenced block)
// runs, in the order of its page and in one folder per page, and prints
// what the page shows. Markers in HTML comments just before a block:
//
//	<!-- doc: setup CMD; CMD -->  commands run first, not shown (making input files)
//	<!-- doc: abridged -->        the block shows part of the output: each line
//	                              shown appears, in order; a table row matches a
//	                              row holding its cells in order; "..." skips
//	<!-- doc: exit N -->          the last command exits N (default 0)
//	<!-- doc: skip -->            not run (a server, a long run)
//
// Blocks of commands without prompts run too when every line is a coterie
// command without placeholders (words in capitals such as FILE): each must
// exit 0.
func TestDocs(t *testing.T) {
	if _, err := exec.LookPath("coterie"); err != nil {
		t.Skipf("the coterie command is not on PATH: %v", err)
	}
	pages, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	pages = append([]string{filepath.Join("..", "..", "README.md")}, pages...)
	start := time.Now()
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if elsewhere[filepath.Base(page)] {
			continue
		}
		t.Run(filepath.Base(page), func(t *testing.T) {
			dir := t.TempDir()
			for _, b := range docBlocks(string(data)) {
				b.run(t, dir, filepath.Base(page))
			}
		})
	}
	t.Logf("documentation examples ran in %v", time.Since(start).Round(time.Millisecond))
}

// elsewhere are the pages whose examples another test runs: docs/systems.md
// shows each configuration, command and output in blocks of their own, run
// by testdata/script/docs_systems.txtar and held to the page by
// TestSystemsDoc.
var elsewhere = map[string]bool{"systems.md": true}

// docBlock is one fenced block of a page, with its markers.
type docBlock struct {
	line     int // of the opening fence
	text     []string
	setup    []string
	abridged bool
	exit     int
	skip     bool
}

var docMarker = regexp.MustCompile(`^<!-- doc: (setup|abridged|exit|skip)\s*(.*?)\s*-->$`)

func docBlocks(page string) []docBlock {
	var out []docBlock
	var pending docBlock
	lines := strings.Split(page, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if m := docMarker.FindStringSubmatch(l); m != nil {
			switch m[1] {
			case "setup":
				for _, c := range strings.Split(m[2], ";") {
					pending.setup = append(pending.setup, strings.TrimSpace(c))
				}
			case "abridged":
				pending.abridged = true
			case "exit":
				pending.exit = int(m[2][0] - '0')
			case "skip":
				pending.skip = true
			}
			continue
		}
		if !strings.HasPrefix(l, "```") {
			continue
		}
		b := pending
		pending = docBlock{}
		b.line = i + 1
		for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
			b.text = append(b.text, lines[i])
		}
		out = append(out, b)
	}
	return out
}

var placeholder = regexp.MustCompile(`\b[A-Z][A-Z_]{2,}\b|\.\.\.|…`)

func (b docBlock) run(t *testing.T, dir, page string) {
	t.Helper()
	where := func() string { return page + ":" + itoa(b.line) }
	if b.skip {
		return
	}
	for _, c := range b.setup {
		if _, code := shell(t, dir, c); code != 0 {
			t.Fatalf("%s: setup %q exits %d", where(), c, code)
		}
	}
	prompted := len(b.text) > 0 && strings.HasPrefix(b.text[0], "$ ")
	if !prompted {
		// A block of commands: each runs, if it can as written.
		for _, l := range b.text {
			cmd, _, _ := strings.Cut(l, "#")
			cmd = strings.TrimSpace(cmd)
			if !strings.HasPrefix(cmd, "coterie ") {
				return // not a block of commands
			}
			if placeholder.MatchString(cmd) || strings.Contains(cmd, "serve") {
				return
			}
		}
		for _, l := range b.text {
			cmd, _, _ := strings.Cut(l, "#")
			if out, code := shell(t, dir, strings.TrimSpace(cmd)); code != 0 {
				t.Errorf("%s: %s exits %d:\n%s", where(), strings.TrimSpace(cmd), code, out)
			}
		}
		return
	}
	// Prompted: commands with the output shown under each.
	var cmd string
	var shown []string
	flush := func(last bool) {
		if cmd == "" || strings.HasPrefix(cmd, "coterie serve") {
			return // a server runs until stopped
		}
		out, code := shell(t, dir, cmd)
		want := 0
		if last {
			want = b.exit
		}
		if code != want {
			t.Errorf("%s: %s exits %d, want %d:\n%s", where(), cmd, code, want, out)
			return
		}
		if b.abridged {
			if missing := docSubset(shown, out); missing != "" {
				t.Errorf("%s: %s: the page shows\n  %s\nwhich is not in the output:\n%s", where(), cmd, missing, out)
			}
			return
		}
		got := strings.TrimRight(out, "\n")
		if w := strings.TrimRight(strings.Join(shown, "\n"), "\n"); got != w {
			t.Errorf("%s: %s prints\n%s\nthe page shows\n%s", where(), cmd, got, w)
		}
	}
	for i, l := range b.text {
		if strings.HasPrefix(l, "$ ") {
			flush(false)
			c, _, _ := strings.Cut(l[2:], "  #")
			cmd, shown = strings.TrimSpace(c), nil
			if i == len(b.text)-1 {
				break
			}
			continue
		}
		shown = append(shown, l)
	}
	flush(true)
}

// shell runs a command line as sh does, in dir, and returns what it
// printed (stdout then stderr) and its exit status.
func shell(t *testing.T, dir, line string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "COLUMNS=", "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s: still running after a minute", line)
	}
	code := 0
	if err != nil {
		code = cmd.ProcessState.ExitCode()
	}
	return out.String() + errb.String(), code
}

// docSubset returns the first line shown that the output lacks: each
// line shown must appear in order; a table row matches an output row
// that holds its cells in order; "..." (or "…") lines match anything.
func docSubset(shown []string, out string) string {
	lines := strings.Split(out, "\n")
	at := 0
	for _, s := range shown {
		st := strings.TrimSpace(s)
		if st == "" || st == "..." || st == "…" {
			continue
		}
		found := false
		for ; at < len(lines); at++ {
			if lineMatches(st, strings.TrimSpace(lines[at])) {
				found = true
				at++
				break
			}
		}
		if !found {
			return s
		}
	}
	return ""
}

func lineMatches(shown, got string) bool {
	if !strings.HasPrefix(shown, "│") {
		return shown == got || strings.HasSuffix(shown, "...") && strings.HasPrefix(got, strings.TrimSuffix(shown, "..."))
	}
	if !strings.HasPrefix(got, "│") {
		return false
	}
	cells := func(s string) []string {
		var out []string
		for _, c := range strings.Split(strings.Trim(s, "│"), "│") {
			out = append(out, strings.TrimSpace(c))
		}
		return out
	}
	want, have := cells(shown), cells(got)
	j := 0
	for _, c := range have {
		if j < len(want) && c == want[j] {
			j++
		}
	}
	return j == len(want)
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		if i /= 10; i == 0 {
			return string(b[n:])
		}
	}
}

// The subset check of abridged examples: rows by their cells in order,
// lines in order, "..." for anything.
func TestDocSubset(t *testing.T) {
	out := "┌───┬───┬───┐\n│ a │ b │ c │\n│ 1 │ 2 │ 3 │\n└───┴───┴───┘\nnote: x\n"
	for _, c := range []struct {
		shown []string
		ok    bool
	}{
		{[]string{"│ a │ c │", "│ 1 │ 3 │"}, true},
		{[]string{"│ a │ c │", "...", "note: x"}, true},
		{[]string{"│ c │ a │"}, false},
		{[]string{"│ 1 │ 3 │", "│ a │ c │"}, false},
		{[]string{"note: y"}, false},
		{[]string{"note: ..."}, true},
	} {
		if got := docSubset(c.shown, out) == ""; got != c.ok {
			t.Errorf("docSubset(%q) = %v, want %v", c.shown, got, c.ok)
		}
	}
}
