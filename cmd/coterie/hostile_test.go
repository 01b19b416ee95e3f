package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/internal/testsys"
)

var hostileTimeout = flag.Duration("hostile-timeout", 5*time.Second, "the --timeout of each run of the hostile-input suite")

// coterieBinary returns the command the scripts run: the test binary,
// installed as "coterie" on $PATH by TestMain.
func coterieBinary(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("coterie")
	if err != nil {
		t.Fatalf("the coterie command is not on $PATH: %v", err)
	}
	return bin
}

// outcome is what running the built command did.
type outcome struct {
	code           int
	stdout, stderr string
	maxRSS         int64 // bytes
	took           time.Duration
}

// runCoterie runs the built command in dir with args and stdin, and kills
// it if it outlives limit (a hang is then reported, not waited for).
func runHostile(t *testing.T, dir string, stdin []byte, limit time.Duration, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, coterieBinary(t), args...)
	cmd.Dir = dir
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	o := outcome{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("coterie %s: still running after %v, killed", strings.Join(args, " "), limit)
	case errors.As(err, &ee):
		o.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("coterie %s: %v", strings.Join(args, " "), err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		o.maxRSS = int64(ru.Maxrss) << 10 // KiB on Linux
	}
	return o
}

const fanoText = "1 2 4\n2 3 5\n3 4 6\n4 5 7\n1 5 6\n2 6 7\n1 3 7\n"

// hostileCase is one input of the suite.
type hostileCase struct {
	name string
	file string // the input's name in dir; "-" for stdin
	data []byte // the file's content, or stdin's
	// ok: the input is valid and every command succeeds (exit 0); dup: it
	// is valid but some command may find a property broken (exit 0 or 1,
	// verify 1); otherwise the command exits 2 with an error that starts
	// with want (a regular expression; $F is the input's name).
	ok, dup bool
	want    string
	setup   func(t *testing.T, dir string) string // makes a special input, returns its path
	maxRSS  int64
	only    string   // if not "", the one command the case is for
	skip    []string // commands the case is not for
}

// hostileCases are the inputs of the suite; big is 10^5 tiny quorums over
// up to 10^5 nodes (too many bit sets for the budget), many the same over
// up to 1000 nodes.
func hostileCases(big, many []byte) []hostileCase {
	json := func(body string) []byte {
		return []byte("{\"format\": \"coterie/1\", \"n\": 7,\n" + body + "}\n")
	}
	return []hostileCase{
		{name: "empty", file: "in.txt", data: nil, want: `^\$F: no quorums`},
		{name: "comments only", file: "in.txt", data: []byte("# a comment\n\n  # another, indented\n"), want: `^\$F: no quorums`},
		{name: "BOM", file: "in.txt", data: append([]byte("\ufeff"), fanoText...), ok: true},
		{name: "BOM JSON", file: "in.json", data: append([]byte("\ufeff"), json(`"quorums": [[1, 2, 4], [2, 3, 5], [3, 4, 6], [4, 5, 7], [1, 5, 6], [2, 6, 7], [1, 3, 7]]`)...), ok: true},
		{name: "CRLF", file: "in.txt", data: []byte(strings.ReplaceAll(fanoText, "\n", "\r\n")), ok: true},
		{name: "id 0", file: "in.txt", data: []byte("1 2 4\n0 3 5\n"), want: `^\$F:2: node id 0: nodes are numbered from 1`},
		{name: "id -1", file: "in.txt", data: []byte("1 2 4\n\n-1 3\n"), want: `^\$F:3: node id -1 is negative`},
		{name: "id 2^63", file: "in.txt", data: []byte("1 2 4\n9223372036854775808 3\n"), want: `^\$F:2: node id 9223372036854775808 is too large`},
		{name: "id 10^30", file: "in.json", data: json(`"quorums": [[1, 2],` + "\n" + `[1000000000000000000000000000000]]`), want: `^\$F:3: node id 1000000000000000000000000000000 is too large`},
		{name: "n 2^63", file: "in.json", data: []byte("{\"format\": \"coterie/1\",\n\"n\": 9223372036854775808, \"threshold\": 2}"), want: `^\$F:2: n = 9223372036854775808 is out of range`},
		{name: "non-numeric", file: "in.txt", data: []byte("1 2 4\n2 x 5\n"), want: `^\$F:2: "x" is not a node id`},
		{name: "NUL", file: "in.txt", data: []byte("1 2 4\n2 3\x00 5\n"), want: `^\$F:2: a NUL byte`},
		{name: "NUL in JSON", file: "in.json", data: json("\"quorums\": [[1, 2, 4],\n\x00[2, 3, 5]]"), want: `^\$F:3: a NUL byte`},
		{name: "invalid UTF-8", file: "in.txt", data: []byte(fanoText + "# caf\xe9\n"), want: `^\$F:8: byte 0xe9 is not UTF-8`},
		{name: "duplicate node", file: "in.txt", data: []byte("1 2 4\n2 3 3\n"), want: `^\$F:2: node 3 appears twice`},
		{name: "duplicate quorum", file: "in.txt", data: []byte(fanoText + "1 2 4\n"), dup: true},
		{name: "empty quorum", file: "in.json", data: json("\"quorums\": [[1, 2, 4],\n[]]"), want: `^\$F:3: quorum 2 is empty`},
		{name: "n smaller than ids", file: "in.txt", data: []byte("# n: 3\n1 2\n1 5\n"), want: `^\$F:3: node 5 is beyond n = 3`},
		// Too wide for bit sets within the budget: held as node lists,
		// which verify and convert take; the others refuse.
		{name: "1e5 tiny quorums", file: "in.txt", data: big, want: `^\$F: 100000 quorums over node ids up to 100000 are held as node lists; .* needs them as bit sets, .*--max-memory`, maxRSS: 128 << 20, skip: []string{"verify", "convert"}},
		{name: "1e5 tiny quorums verified", file: "in.txt", data: big, dup: true, maxRSS: 128 << 20, only: "verify"},
		{name: "1e5 tiny quorums converted", file: "in.txt", data: big, ok: true, maxRSS: 128 << 20, only: "convert"},
		{name: "1e5 tiny quorums read", file: "in.dat", data: many, ok: true, maxRSS: 128 << 20, only: "convert"},
		{name: "deep nesting", file: "in.json", data: json("\"params\": {\"a\": " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "},\n\"threshold\": 4"), want: `^\$F:2: values nested more than`},
		{name: "trailing garbage", file: "in.json", data: append(json(`"threshold": 4`), "\n]]garbage"...), want: `^\$F:4: unexpected data after the end`},
		{name: "trailing garbage text", file: "in.txt", data: []byte(fanoText + "1 3 7 }\n"), want: `^\$F:8: "}" is not a node id`},
		{name: "huge label", file: "in.json", data: json("\"labels\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\",\n\"" + strings.Repeat("g", 1<<20) + "\"], \"threshold\": 4"), want: `^\$F:3: label 7 is 1048576 bytes long`},
		{name: "control characters", file: "in.json", data: json("\"kind\": \"x\\n2 3\\u001b]0;pwned\\u0007\",\n\"threshold\": 4"), want: `^\$F:2: kind "x\\n2 3\\x1b\]0;pwned\\a" holds the control character`},
		{name: "raw control characters", file: "in.txt", data: []byte(fanoText + "# \x1b[2J\n"), want: `^\$F:8: control character '\\x1b'`},
		{name: "formula-like labels", file: "in.json", data: json(`"labels": ["=1+1", "+2", "-3", "@SUM(A1)", "=HYPERLINK(\"x\")", "b", "c"], "quorums": [[1, 2, 4], [2, 3, 5], [3, 4, 6], [4, 5, 7], [1, 5, 6], [2, 6, 7], [1, 3, 7]]`), ok: true},
		{name: "directory", setup: func(t *testing.T, dir string) string {
			if err := os.Mkdir(filepath.Join(dir, "d.txt"), 0o755); err != nil {
				t.Fatal(err)
			}
			return "d.txt"
		}, want: `^\$F: cannot read: is a directory`},
		{name: "missing file", setup: func(*testing.T, string) string { return "no-such-file.txt" }, want: `^\$F: cannot read: no such file`},
		{name: "unreadable file", setup: func(t *testing.T, dir string) string {
			if os.Geteuid() == 0 {
				t.Skip("root reads a file of mode 0000; the I/O error case covers a file that cannot be read")
			}
			p := filepath.Join(dir, "locked.txt")
			if err := os.WriteFile(p, []byte(fanoText), 0o000); err != nil {
				t.Fatal(err)
			}
			return "locked.txt"
		}, want: `^\$F: cannot read: permission denied`},
		{name: "read error", setup: func(t *testing.T, dir string) string {
			// Reading a process's own memory from address 0 fails with
			// EIO: a file that opens and cannot be read, even by root.
			if _, err := os.Stat("/proc/self/mem"); err != nil {
				t.Skip("no /proc/self/mem")
			}
			return "/proc/self/mem"
		}, want: `^\$F: cannot read: input/output error`},
		{name: "stdin", file: "-", data: []byte(fanoText), ok: true},
		{name: "stdin error", file: "-", data: []byte("1 2\n\n1 two\n"), want: `^stdin:3: "two" is not a node id`},
	}
}

// hostileCommands are the reading commands, each with the arguments that
// read in (and write -o out where the command writes a file).
var hostileCommands = []struct {
	name string
	args func(in, other string) []string // other: a second input
}{
	{"verify", func(in, other string) []string { return []string{"verify", in} }},
	{"info", func(in, other string) []string { return []string{"info", in} }},
	{"domination", func(in, other string) []string { return []string{"domination", in} }},
	{"availability", func(in, other string) []string { return []string{"availability", in, "--p", "0.9"} }},
	{"transversals", func(in, other string) []string { return []string{"transversals", in, "--count"} }},
	{"convert", func(in, other string) []string { return []string{"convert", in, "-o", "out.csv"} }},
	{"compare", func(in, other string) []string { return []string{"compare", in, other} }},
	{"simulate", func(in, other string) []string {
		return []string{"simulate", in, "--protocol", "maekawa", "--entries", "20"}
	}},
	{"join", func(in, other string) []string { return []string{"join", in, other, "--at", "1", "-o", "out.json"} }},
	{"degenerate", func(in, other string) []string { return []string{"degenerate", in, "--n", "6", "-o", "out.json"} }},
}

// bigInput returns m quorums {a, b} over nodes up to top, one a line.
func bigInput(m, top int) []byte {
	var b bytes.Buffer
	for i := range m {
		a := 1 + i%top
		fmt.Fprintf(&b, "%d %d\n", a, 1+(a+top/2)%top)
	}
	return b.Bytes()
}

// Every reading command on every hostile input, through the built command:
// valid input succeeds; bad input exits 2 with "FILE:LINE: what" (or
// "FILE: what" when no line is to blame), creates no output file, and never
// panics; memory stays bounded.
func TestHostileInput(t *testing.T) {
	big, many := bigInput(100000, 100000), bigInput(100000, 1000)
	var mu sync.Mutex
	var slowest outcome
	slowestRun := ""
	t.Cleanup(func() {
		t.Logf("slowest run: %v, coterie %s", slowest.took.Round(time.Millisecond), slowestRun)
	})
	stdin := func(in []byte, c hostileCase) []byte {
		if c.file == "-" {
			return in
		}
		return nil
	}
	for _, c := range hostileCases(big, many) {
		for _, cmd := range hostileCommands {
			if c.only != "" && c.only != cmd.name || slices.Contains(c.skip, cmd.name) {
				continue
			}
			t.Run(c.name+"/"+cmd.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				path := c.file
				if c.setup != nil {
					path = c.setup(t, dir)
				} else if c.file != "-" {
					if err := os.WriteFile(filepath.Join(dir, c.file), c.data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				other := path
				if path == "-" {
					// Standard input can be read once: the second input
					// of compare and join is a file.
					other = "fano.txt"
					if err := os.WriteFile(filepath.Join(dir, other), []byte(fanoText), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				args := append(cmd.args(path, other), "--timeout", hostileTimeout.String(), "--max-memory", "256MiB")
				o := runHostile(t, dir, stdin(c.data, c), 30*time.Second, args...)
				mu.Lock()
				if o.took > slowest.took {
					slowest, slowestRun = o, strings.Join(args, " ")
				}
				mu.Unlock()
				if strings.Contains(o.stderr, "panic") || strings.Contains(o.stderr, "goroutine ") {
					t.Fatalf("coterie %s crashed:\n%s", strings.Join(args, " "), o.stderr)
				}
				if c.maxRSS > 0 {
					t.Logf("peak memory %.1f MiB", float64(o.maxRSS)/(1<<20))
				}
				// os/exec starts the child sharing this process's memory
				// until exec (CLONE_VM), and Linux counts that in the
				// child's peak: a test binary bigger than the limit (under
				// -race, say) raises the floor of what can be seen.
				limit := max(c.maxRSS, selfMaxRSS())
				if c.maxRSS > 0 && (o.maxRSS <= 0 || o.maxRSS > limit) {
					t.Errorf("peak memory %d MiB, want at most %d MiB", o.maxRSS>>20, c.maxRSS>>20)
				}
				switch {
				case c.ok:
					if o.code != 0 {
						t.Fatalf("exit %d on a valid input:\n%s", o.code, o.stderr)
					}
				case c.dup:
					// Not an input error: verify finds minimality broken;
					// the others read it.
					if cmd.name == "verify" && o.code != exitFailed || o.code == exitError {
						t.Fatalf("exit %d on a repeated quorum:\n%s", o.code, o.stderr)
					}
				default:
					if o.code != 2 {
						t.Fatalf("exit %d, want 2; stderr:\n%s", o.code, o.stderr)
					}
					name := path
					if path == "-" {
						name = "stdin"
					}
					re := regexp.MustCompile(strings.ReplaceAll(c.want, `\$F`, regexp.QuoteMeta(name)))
					if !re.MatchString(o.stderr) {
						t.Errorf("stderr %q does not match %q", short(o.stderr), re)
					}
					if n := strings.Count(o.stderr, "\n"); n != 1 {
						t.Errorf("%d lines on stderr, want one:\n%s", n, short(o.stderr))
					}
					if o.stdout != "" {
						t.Errorf("output on stdout: %q", short(o.stdout))
					}
					entries, err := os.ReadDir(dir)
					if err != nil {
						t.Fatal(err)
					}
					for _, e := range entries {
						if n := e.Name(); n != path && n != filepath.Base(path) && n != other {
							t.Errorf("the failed command left %s behind", n)
						}
					}
				}
			})
		}
	}
}

func short(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// A read that waits for ever (a FIFO with no writer, standard input left
// open) ends at --timeout, without a crash.
func TestReadAbandoned(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "in.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	t.Run("fifo", func(t *testing.T) {
		t.Parallel()
		o := runHostile(t, dir, nil, 30*time.Second, "verify", "in.txt", "--timeout", "1s")
		checkTimedOut(t, o)
	})
	t.Run("stdin", func(t *testing.T) {
		t.Parallel()
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		defer w.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, coterieBinary(t), "info", "-", "--timeout", "1s")
		cmd.Stdin = r
		var errb bytes.Buffer
		cmd.Stderr = &errb
		start := time.Now()
		err = cmd.Run()
		if ctx.Err() != nil {
			t.Fatal("still reading after 30 s, killed")
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("err = %v, want an exit status", err)
		}
		checkTimedOut(t, outcome{code: ee.ExitCode(), stderr: errb.String(), took: time.Since(start)})
	})
}

func checkTimedOut(t *testing.T, o outcome) {
	t.Helper()
	t.Logf("stopped after %v", o.took.Round(time.Millisecond))
	if o.code != 124 && o.code != exitError {
		t.Errorf("exit %d, want the --timeout status", o.code)
	}
	if !strings.Contains(o.stderr, "--timeout") || strings.Contains(o.stderr, "panic") {
		t.Errorf("stderr: %q", o.stderr)
	}
}

// A cancelled context (Ctrl-C, SIGTERM) abandons a read that waits: a FIFO
// nobody writes to, standard input that never ends.
func TestReadCancelled(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "in.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Release the reads left waiting.
		w.Close()
		r.Close()
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{{"verify", fifo}, {"info", "-"}, {"convert", fifo, "-o", filepath.Join(dir, "out.json")}} {
		var out, errb bytes.Buffer
		code := run(ctx, args, &streams{in: r, out: &out, err: &errb})
		if code == exitOK || !strings.Contains(errb.String(), "interrupted") || out.Len() > 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out.String(), errb.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("out.json: %v, want no such file", err)
	}
}

// selfMaxRSS is the peak resident memory of this test process, in bytes.
func selfMaxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) << 10 // KiB on Linux
}

// The read-write commands read their files as the coterie readers do: a
// FIFO nobody writes to is given up at --timeout (exit 124 within a
// second of it), and a file over the input's share of --max-memory is
// refused before it is read.
func TestHostileReadWriteReader(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "in.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{
		{"strategy", "in.txt", "--read-fraction", "0.5"},
		{"info", "in.txt", "--read-fraction", "0.5"},
		{"compare", "in.txt", "--read-fraction", "0.5"},
		{"quorums", "in.txt", "--side", "writes"},
	} {
		o := runHostile(t, dir, nil, 10*time.Second, append(args, "--timeout", "1s")...)
		if o.code != 124 || o.took > 2*time.Second {
			t.Errorf("coterie %s on a FIFO: exit %d after %v; want 124 within a second of --timeout 1s (%s)", strings.Join(args, " "), o.code, o.took.Round(time.Millisecond), short(o.stderr))
		}
	}
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, bigInput(200000, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	o := runHostile(t, dir, nil, 10*time.Second, "strategy", "big.txt", "--read-fraction", "0.5", "--max-memory", "1MiB")
	if o.code != 2 || !strings.Contains(o.stderr, "--max-memory") {
		t.Errorf("strategy on a file over the budget: exit %d, %s; want exit 2 naming --max-memory", o.code, short(o.stderr))
	}
}

// A hard-linked output on a nearly full file system: the write fails, and
// both names still hold the old content.
func TestHostileHardLinkFullDisk(t *testing.T) {
	dir := testsys.MountTmpfs(t, "size=64k")
	h1, h2 := filepath.Join(dir, "h1.txt"), filepath.Join(dir, "h2.txt")
	old := bytes.Repeat([]byte("1 2 3\n"), 8192/6)
	if err := os.WriteFile(h1, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(h1, h2); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	// PG(2,19) as text is about 33 kB: it fits once, not twice.
	o := runHostile(t, dir, nil, 30*time.Second, "generate", "fpp", "--order", "19", "-o", "h1.txt")
	if o.code != 2 || !strings.Contains(o.stderr, "no space left on device") {
		t.Errorf("exit %d, %s; want 2, no space left", o.code, short(o.stderr))
	}
	for _, p := range []string{h1, h2} {
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, old) {
			t.Errorf("%s: %d bytes, %v; want the old %d bytes", filepath.Base(p), len(got), err, len(old))
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("files left: %v", names)
	}
}
