package format_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// Hostile input: every problem is a *SyntaxError with the line it is on,
// and the name of the input in its text.
func TestHostileInput(t *testing.T) {
	const head = "{\"format\": \"coterie/1\", \"n\": 3,\n"
	for _, tt := range []struct {
		name string
		f    format.Format
		in   string
		line int
		msg  string
	}{
		{"text id 2^63", format.Text, "1 2\n1 9223372036854775808\n", 2, "too large"},
		{"text id 10^30", format.Text, "1 1000000000000000000000000000000\n", 1, "too large"},
		{"text id -1", format.Text, "\n-1 2\n", 2, "negative"},
		{"text id 0", format.Text, "0\n", 1, "numbered from 1"},
		{"text n 2^63", format.Text, "# n: 9223372036854775808\n1\n", 1, "out of range"},
		{"text n 10^30", format.Text, "# n: 1000000000000000000000000000000\n1\n", 1, "out of range"},
		{"text NUL", format.Text, "1 2\n2 \x003\n", 2, "NUL"},
		{"text NUL in comment", format.Text, "1 2\n# \x00\n", 2, "NUL"},
		{"text ESC in comment", format.Text, "1 2\n\n# \x1b]0;title\x07\n", 3, "control character"},
		{"text C1 control", format.Text, "1 2\n# \u009b\n", 2, "control character"},
		{"text invalid UTF-8", format.Text, "1 2\n# caf\xe9\n", 2, "not UTF-8"},
		{"text empty quorum", format.Text, "1 2\n,\n", 2, "quorum 2 is empty"},
		{"text kind with C1", format.Text, "# kind: a\u0085b\n1\n", 1, "control character"},
		{"text label with escaped ESC", format.Text, "# labels: [\"a\", \"b\\u001b[31m\"]\n1 2\n", 1, "label 2"},
		{"text huge label", format.Text, "# labels: [\"" + strings.Repeat("x", 5000) + "\"]\n1\n", 1, "5000 bytes long"},
		{"text long token", format.Text, "1 " + strings.Repeat("7x", 5000) + "\n", 1, "is not a node id"},
		{"json NUL", format.JSON, head + "\"quorums\": [[1, 2],\x00\n[2, 3]]}", 2, "NUL"},
		{"json NUL at the top", format.JSON, head + "\x00", 2, "NUL"},
		{"json kind with newline", format.JSON, head + "\"kind\": \"x\\n2 3\", \"threshold\": 2}", 2, "control character"},
		{"json label with ESC", format.JSON, head + "\"labels\": [\"a\", \"b\",\n\"\\u001b[2J\"], \"threshold\": 2}", 3, "label 3"},
		{"json params with CR", format.JSON, head + "\"params\": {\"a\": \"x\\ry\"}, \"threshold\": 2}", 2, "control character"},
		{"json deep params", format.JSON, head + "\"params\": {\"a\": " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}, \"threshold\": 2}", 2, "nested more than"},
		{"json id 2^63", format.JSON, head + "\"quorums\": [[9223372036854775808]]}", 2, "too large"},
		{"json id 1e30", format.JSON, head + "\"quorums\": [[1e30]]}", 2, "plain whole numbers"},
		{"json n 10^30", format.JSON, "{\"format\": \"coterie/1\", \"n\": 1000000000000000000000000000000, \"threshold\": 2}", 1, "out of range"},
		{"json invalid UTF-8", format.JSON, head + "\"kind\": \"\xff\", \"threshold\": 2}", 2, "not UTF-8"},
		{"json long key", format.JSON, head + "\"" + strings.Repeat("k", 5000) + "\": 1}", 2, "unknown field"},
		{"json long tag", format.JSON, "{\"format\": \"" + strings.Repeat("t", 5000) + "\"}", 1, "unknown format tag"},
		{"csv long header", format.CSV, "quorum,node," + strings.Repeat("c", 5000) + "\n", 1, "unknown column"},
		{"csv NUL", format.CSV, "quorum,node\n1,1\n1,\x002\n", 3, "NUL"},
		{"csv quorum 2^63", format.CSV, "quorum,node\n9223372036854775808,1\n", 2, "out of range"},
		{"csv beyond n", format.CSV, "# n: 3\nquorum,node\n1,1\n2,2\n1,7\n", 5, "node 7 is beyond n = 3 (line 1)"},
		{"csv id -1", format.CSV, "quorum,node\n1,-1\n", 2, "negative"},
		{"dat id 2^63", format.Dat, "1\n9223372036854775808\n", 2, "too large"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opt := format.DefaultOptions()
			opt.Name = "in.x"
			_, err := format.ReadBytes([]byte(tt.in), tt.f, opt)
			var se *format.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is %T, want *format.SyntaxError", err, err)
			}
			if se.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("error = line %d %q, want line %d containing %q", se.Line, se.Msg, tt.line, tt.msg)
			}
			if want := fmt.Sprintf("in.x:%d: ", tt.line); !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
			if len(se.Msg) > 400 {
				t.Errorf("message is %d bytes long", len(se.Msg))
			}
			for _, c := range se.Msg {
				if c < ' ' || c == 0x7f || c >= 0x80 && c < 0xa0 || c == '\u202e' {
					t.Errorf("message %q holds the control character %U", se.Msg, c)
				}
			}
		})
	}
}

// A byte order mark at the start is skipped in every format, and CRLF line
// ends read as LF.
func TestBOMAndCRLF(t *testing.T) {
	fano := "1 2 4\n2 3 5\n3 4 6\n4 5 7\n1 5 6\n2 6 7\n1 3 7\n"
	want, err := format.ReadBytes([]byte(fano), format.Text, format.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range format.Formats() {
		var buf bytes.Buffer
		if err := format.Write(&buf, want, f, format.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
		crlf := bytes.ReplaceAll(buf.Bytes(), []byte("\n"), []byte("\r\n"))
		for name, in := range map[string][]byte{
			"BOM":       append([]byte("\ufeff"), buf.Bytes()...),
			"CRLF":      crlf,
			"BOM+CRLF":  append([]byte("\ufeff"), crlf...),
			"unchanged": buf.Bytes(),
		} {
			if (f == format.JSON || f == format.CSV) && format.Sniff(in) != f {
				t.Errorf("%s %s: sniffed as %s", f, name, format.Sniff(in))
			}
			got, err := format.ReadBytes(in, f, format.DefaultOptions())
			if err != nil {
				t.Errorf("%s %s: %v", f, name, err)
				continue
			}
			if d := sameSystem(want, got, f == format.Dat); d != "" {
				t.Errorf("%s %s: %s", f, name, d)
			}
		}
	}
	// A BOM anywhere but at the start is not white space.
	if _, err := format.ReadBytes([]byte("1 2\n\ufeff3\n"), format.Text, format.DefaultOptions()); err == nil {
		t.Error("a BOM inside a line was accepted")
	}
}

// endless is an input that never ends, repeating its pattern.
type endless struct {
	pattern []byte
	read    int64
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.pattern[(e.read+int64(i))%int64(len(e.pattern))]
	}
	e.read += int64(len(p))
	return len(p), nil
}

// An endless stream ends in an error: at once for binary zeros (/dev/zero),
// at the input limit for endless text.
func TestReadInputEndless(t *testing.T) {
	opt := format.Options{Name: "zero", MaxMemory: 64 << 20}
	zero := &endless{pattern: []byte{0}}
	_, err := format.Read(zero, format.Text, opt)
	var se *format.SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || !strings.Contains(se.Msg, "NUL") {
		t.Fatalf("reading zeros: %v, want a NUL error on line 1", err)
	}
	if zero.read > 1<<20 {
		t.Errorf("read %d bytes of zeros before stopping", zero.read)
	}

	text := &endless{pattern: []byte("1 2\n")}
	_, err = format.Read(text, format.Text, opt)
	if !errors.Is(err, set.ErrMemoryBudget) || !errors.As(err, &se) {
		t.Fatalf("reading endless text: %v, want a SyntaxError wrapping ErrMemoryBudget", err)
	}
	limit := opt.MaxMemory / format.InputShare
	if text.read > 2*limit+(1<<20) {
		t.Errorf("read %d bytes with a limit of %d", text.read, limit)
	}
	// A finite input of exactly the limit is read.
	comment := append([]byte("#"), bytes.Repeat([]byte("x"), 62)...)
	comment = append(comment, '\n')
	data := append([]byte("1 2\n"), bytes.Repeat(comment, int(limit/64)-1)...)
	data = append(data, bytes.Repeat([]byte("\n"), int(limit)-len(data))...)
	if _, err := format.Read(bytes.NewReader(data), format.Text, opt); err != nil {
		t.Errorf("an input of exactly the limit: %v", err)
	}
	if _, err := format.Read(bytes.NewReader(append(data, '\n')), format.Text, opt); !errors.Is(err, set.ErrMemoryBudget) {
		t.Errorf("an input one byte over the limit: %v", err)
	}
	if _, err := format.ReadBytes(append(data, '\n'), format.Text, opt); !errors.Is(err, set.ErrMemoryBudget) {
		t.Errorf("ReadBytes on an input one byte over the limit: %v", err)
	}
}

// pairs returns m quorums {i, i+step} over nodes up to top, one a line.
func pairs(m, top int) []byte {
	var b bytes.Buffer
	for i := range m {
		a := 1 + i%top
		c := 1 + (a+top/2)%top
		if c == a {
			c = a%top + 1
		}
		fmt.Fprintf(&b, "%d %d\n", a, c)
	}
	return b.Bytes()
}

// The budget stops reading at the line of the quorum that crossed it: the
// lines before it read within the same budget, and that line does not.
func TestBudgetLine(t *testing.T) {
	data := pairs(20000, 100000)
	for _, f := range []format.Format{format.Text, format.Dat, format.JSON, format.CSV} {
		in := data
		if f != format.Text && f != format.Dat {
			sys, err := format.ReadBytes(data, format.Text, format.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := format.Write(&buf, sys, f, format.DefaultOptions()); err != nil {
				t.Fatal(err)
			}
			in = buf.Bytes()
		}
		opt := format.Options{Base: 1, MaxMemory: int64(len(in)) * 16}
		_, err := format.ReadBytes(in, f, opt)
		var se *format.SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, set.ErrMemoryBudget) {
			t.Fatalf("%s: %v, want a SyntaxError wrapping ErrMemoryBudget", f, err)
		}
		if se.Line < 2 {
			t.Fatalf("%s: stopped at line %d", f, se.Line)
		}
		if f == format.Text || f == format.Dat {
			// Cut the file before that line: it reads (the budget charges
			// the input too, and a shorter input leaves more room).
			lines := bytes.SplitAfter(in, []byte("\n"))
			before := bytes.Join(lines[:se.Line-1], nil)
			if _, err := format.ReadBytes(before, f, opt); err != nil {
				t.Errorf("%s: the %d lines before line %d: %v", f, se.Line-1, se.Line, err)
			}
		}
		if _, err := format.ReadBytes(in, f, format.Options{Base: 1}); err != nil {
			t.Errorf("%s: without a budget: %v", f, err)
		}
	}
}

// Reading allocates in proportion to the input, not to n times the number
// of quorums, until the budget stops it: 100,000 pairs over 100,000 nodes
// would take about a gigabyte as bit sets.
func TestBudgetMemory(t *testing.T) {
	data := pairs(100000, 100000)
	const budget = 64 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := format.Read(bytes.NewReader(data), format.Text, format.Options{Name: "pairs", MaxMemory: budget})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, set.ErrMemoryBudget) {
		t.Fatalf("err = %v, want the memory budget", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > budget {
		t.Errorf("reading allocated %d bytes with a budget of %d", got, budget)
	}
	// The message says what the whole file would take, guessed from the
	// part read: more than the budget.
	if !regexp.MustCompile(`about [0-9.]+ (MiB|GiB) for the whole file`).MatchString(err.Error()) {
		t.Errorf("the message does not estimate the whole: %v", err)
	}
	t.Log(err)
}

// manyLevels returns an (h,k)-arbiter of m threshold levels in format f.
func manyLevels(f format.Format, m int) []byte {
	var b bytes.Buffer
	switch f {
	case format.JSON:
		fmt.Fprintf(&b, "{\"format\": \"coterie/1\", \"n\": 2, \"k\": %d, \"arbiters\": [\n", m)
		for h := m; h >= 1; h-- {
			sep := ","
			if h == 1 {
				sep = ""
			}
			fmt.Fprintf(&b, "{\"h\": %d, \"threshold\": 1}%s\n", h, sep)
		}
		b.WriteString("]}\n")
	case format.CSV:
		fmt.Fprintf(&b, "# n: 2\n# k: %d\nh,quorum,node\n", m)
		for h := m; h >= 1; h-- {
			fmt.Fprintf(&b, "%d,1,%d\n", h, 1+h%2)
		}
	default:
		fmt.Fprintf(&b, "# n: 2\n# k: %d\n", m)
		for h := m; h >= 1; h-- {
			fmt.Fprintf(&b, "# h: %d\n%d\n", h, 1+h%2)
		}
	}
	return b.Bytes()
}

// Many levels read in one pass, sorted by h, and a level given twice is
// caught wherever it is.
func TestManyLevels(t *testing.T) {
	const m = 20000
	for _, f := range []format.Format{format.JSON, format.Text, format.CSV} {
		sys, err := format.ReadBytes(manyLevels(f, m), f, format.DefaultOptions())
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if sys.HK == nil || len(sys.HK.Levels) != m {
			t.Fatalf("%s: not %d levels", f, m)
		}
		for i, l := range sys.HK.Levels {
			if l.H != i+1 || l.K != m {
				t.Fatalf("%s: level %d has h = %d, k = %d", f, i, l.H, l.K)
			}
		}
	}
	dup := append(manyLevels(format.Text, 100), "# h: 50\n1\n"...)
	_, err := format.ReadBytes(dup, format.Text, format.DefaultOptions())
	var se *format.SyntaxError
	if !errors.As(err, &se) || se.Line != 203 || !strings.Contains(se.Msg, "h = 50 given twice (first on line 103)") {
		t.Errorf("a level given twice: %v", err)
	}
}

// ReadInput returns the input as it was, whatever the reads return at a
// time, and finds a NUL's line across the chunks it reads into.
func TestReadInputChunks(t *testing.T) {
	data := pairs(300000, 1000) // about 2.4 MB: several chunks
	for name, r := range map[string]io.Reader{
		"whole":    bytes.NewReader(data),
		"half":     iotest.HalfReader(bytes.NewReader(data)),
		"one byte": iotest.OneByteReader(bytes.NewReader(data[:200000])),
	} {
		got, err := format.ReadInput(r, format.Options{})
		want := data
		if name == "one byte" {
			want = data[:200000]
		}
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, %v; want %d bytes", name, len(got), err, len(want))
		}
	}
	bad := bytes.Clone(data)
	at := len(bad) * 3 / 4
	at += 1 + bytes.IndexByte(bad[at:], '\n') // the start of a line deep in
	bad[at] = 0
	_, err := format.ReadInput(iotest.HalfReader(bytes.NewReader(bad)), format.Options{Name: "bad"})
	var se *format.SyntaxError
	if line := 1 + bytes.Count(bad[:at], []byte{'\n'}); !errors.As(err, &se) || se.Line != line {
		t.Errorf("NUL: %v, want line %d", err, line)
	}
}

// A file name with control characters is quoted in messages.
func TestSyntaxErrorName(t *testing.T) {
	for _, tt := range []struct {
		e    format.SyntaxError
		want string
	}{
		{format.SyntaxError{File: "a.txt", Line: 3, Msg: "bad"}, "a.txt:3: bad"},
		{format.SyntaxError{File: "a.txt", Msg: "bad"}, "a.txt: bad"},
		{format.SyntaxError{Line: 3, Msg: "bad"}, "line 3: bad"},
		{format.SyntaxError{Msg: "bad"}, "bad"},
		{format.SyntaxError{File: "a\x1b[2J\n.txt", Line: 1, Msg: "bad"}, `"a\x1b[2J\n.txt":1: bad`},
		{format.SyntaxError{File: "caf\xe9.txt", Msg: "bad"}, `"caf\xe9.txt": bad`},
		{format.SyntaxError{File: "café.txt", Msg: "bad"}, "café.txt: bad"},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%#v: %q, want %q", tt.e, got, tt.want)
		}
	}
}
