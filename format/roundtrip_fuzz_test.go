package format_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// hostile are kinds and labels that broke or could break a writer: line
// breaks that add a quorum to a text file, escape sequences, formula
// prefixes, quotes, commas, header look-alikes, separators.
var hostile = []string{
	"x\n2 3", "\x1b[31mred\x1b[0m", "\x1b]8;;http://e.x\x07link\x1b]8;;\x07", "a\rb", "bell\a",
	"=1+1", "+x", "-1", "@SUM(A1)", "\tx", "'quoted", "''", `"q"`, `"`, "x,y", ",=cmd()",
	"# n: 99", "#", " spaced ", "", "\u2028", "\u0085", "\u009b31m", "\x7f", "ü€😀", `back\slash`,
	"\x00nul", "}{", "[1]", "null",
}

// hostileSystem is a random system (by seed) whose kind, labels and
// params hold the strings given.
func hostileSystem(seed uint64, kind, label, key, value string) set.System {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	sys := randomSystem(r)
	kind = strings.ToValidUTF8(kind, "\uFFFD")
	label = strings.ToValidUTF8(label, "\uFFFD")
	key = strings.ToValidUTF8(key, "\uFFFD")
	value = strings.ToValidUTF8(value, "\uFFFD")
	var labels []string
	if seed%3 != 0 {
		labels = make([]string, sys.N())
		for i := range labels {
			labels[i] = hostile[(seed+uint64(i))%uint64(len(hostile))]
			if i == 0 {
				labels[i] = label
			}
		}
	}
	params := set.Params{key: value, "n": 3}
	if kind == "" {
		params = nil // params belong to a kind
	}
	for _, f := range sys.Families() {
		f.Kind, f.Labels, f.Params = kind, labels, params
	}
	if sys.HK != nil {
		sys.HK.Kind, sys.HK.Labels, sys.HK.Params = kind, labels, params
	}
	return sys
}

// clean reports whether no string of sys holds a control character, which
// a reader may refuse.
func clean(sys set.System) bool {
	ok := func(s string) bool {
		for _, r := range s {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
				return false
			}
		}
		return true
	}
	all := append([]string{sys.Kind()}, sys.Labels()...)
	for _, f := range sys.Families() {
		for k, v := range f.Params {
			all = append(all, k)
			if s, isStr := v.(string); isStr {
				all = append(all, s)
			}
		}
	}
	for _, s := range all {
		if !ok(s) {
			return false
		}
	}
	return true
}

// FuzzWriteRead writes a random system with hostile kinds, labels and
// params in every format and reads it back: the result is the same system
// (the .dat format keeps the quorums only), or, for strings with control
// characters, a refusal with a format error — never a different system.
// The JSON written never holds a raw control character.
func FuzzWriteRead(f *testing.F) {
	for i, h := range hostile {
		f.Add(uint64(i), h, hostile[(i+1)%len(hostile)], h, h)
	}
	f.Add(uint64(99), "kind", "a\xffb", "k\x80", "v")
	f.Fuzz(checkWriteRead)
}

func checkWriteRead(t *testing.T, seed uint64, kind, label, key, value string) {
	{
		sys := hostileSystem(seed, kind, label, key, value)
		if err := sys.Validate(); err != nil {
			return
		}
		for _, ft := range format.Formats() {
			var buf bytes.Buffer
			if err := format.Write(&buf, sys, ft, format.DefaultOptions()); err != nil {
				if ft == format.Dat {
					continue // thresholds and (h,k)-arbiters have no .dat form
				}
				t.Fatalf("%s: write: %v", ft, err)
			}
			for _, c := range buf.Bytes() {
				if c < 0x20 && c != '\n' || c == 0x7f {
					t.Fatalf("%s: raw control byte 0x%02x written:\n%q", ft, c, buf.Bytes())
				}
			}
			if bytes.Contains(buf.Bytes(), []byte("\u0085")) || bytes.Contains(buf.Bytes(), []byte("\u009b")) {
				t.Fatalf("%s: raw C1 control written:\n%q", ft, buf.Bytes())
			}
			back, err := format.ReadBytes(buf.Bytes(), ft, format.DefaultOptions())
			if err != nil {
				if _, ok := err.(*format.Error); ok && !clean(sys) {
					continue // a reader may refuse control characters
				}
				t.Fatalf("%s: reading back: %v\n%s", ft, err, buf.Bytes())
			}
			if d := sameSystem(sys, back, ft == format.Dat); d != "" {
				t.Fatalf("%s: round trip: %s\n%s", ft, d, buf.Bytes())
			}
		}
	}
}

// TestCSVLabelsNeutralised checks the CSV header against formula
// injection: no cell a spreadsheet would split off starts with = + - @.
func TestCSVLabelsNeutralised(t *testing.T) {
	sys := set.System{Family: &set.Family{N: 4, K: 1, Kind: "x,=cmd()",
		Labels: []string{"=1+1", "-1", "@a,=b", "'q"}}}
	q := set.New(4)
	q.Add(0)
	q.Add(1)
	sys.Family.Add(q, set.NoOwner)
	var buf bytes.Buffer
	if err := format.Write(&buf, sys, format.CSV, format.DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		for _, cell := range strings.Split(line, ",") {
			c := strings.TrimLeft(strings.TrimSpace(cell), `"`)
			if c != "" && strings.ContainsRune("=+-@", rune(c[0])) {
				t.Errorf("cell %q of line %q starts like a formula", cell, line)
			}
		}
	}
	back, err := format.ReadBytes(buf.Bytes(), format.CSV, format.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if d := sameSystem(sys, back, false); d != "" {
		t.Errorf("round trip: %s\n%s", d, buf.Bytes())
	}
}

// TestHeaderValueBackwardCompatible checks that a plain kind is still
// written and read as it is, and an old unquoted header still reads.
func TestHeaderValueBackwardCompatible(t *testing.T) {
	sys, err := format.ReadBytes([]byte("# kind: my plane (v2)\n1 2\n"), format.Text, format.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if sys.Kind() != "my plane (v2)" {
		t.Errorf("kind %q", sys.Kind())
	}
	var buf bytes.Buffer
	if err := format.Write(&buf, sys, format.Text, format.DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "# kind: my plane (v2)\n") {
		t.Errorf("a plain kind was rewritten:\n%s", buf.String())
	}
	if _, err := format.ReadBytes([]byte("# kind: \"open\n1 2\n"), format.Text, format.DefaultOptions()); err == nil {
		t.Error("a kind with an unterminated JSON string was accepted")
	}
}

// TestKindNewlineKeepsQuorums is the text file that gained a quorum: a
// kind holding a line break must not add one. The file reads back as the
// same system, or (if the reader refuses control characters) not at all.
func TestKindNewlineKeepsQuorums(t *testing.T) {
	q := set.New(3)
	q.Add(0)
	q.Add(1)
	f := &set.Family{N: 3, K: 1, Kind: "x\n2 3\x1b[31m"}
	f.Add(q, set.NoOwner)
	sys := set.System{Family: f}
	for _, ft := range []format.Format{format.JSON, format.Text, format.CSV} {
		var buf bytes.Buffer
		if err := format.Write(&buf, sys, ft, format.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
		if bytes.Count(buf.Bytes(), []byte(`\n2 3`)) != 1 || bytes.ContainsRune(buf.Bytes(), 0x1b) {
			t.Errorf("%s: the kind is not escaped:\n%s", ft, buf.Bytes())
		}
		back, err := format.ReadBytes(buf.Bytes(), ft, format.DefaultOptions())
		if err != nil {
			if _, ok := err.(*format.Error); !ok {
				t.Fatalf("%s: %v", ft, err)
			}
			continue
		}
		if len(back.Family.Quorums) != 1 || back.Kind() != f.Kind {
			t.Errorf("%s: %d quorums, kind %q:\n%s", ft, len(back.Family.Quorums), back.Kind(), buf.Bytes())
		}
	}
}

// A kind read from a text or CSV header, whatever bytes it holds, writes
// back to a file that reads as the same kind and writes the same bytes.
func TestHeaderKindStable(t *testing.T) {
	for _, kind := range []string{"a\xffb", "a\xff\x1bb", "\ufffd", `"x"`, "x,y", " lead", "tab\there", "a\x7f\u0085"} {
		for _, ft := range []format.Format{format.Text, format.CSV} {
			in := "# kind: " + kind + "\n1 2\n"
			if ft == format.CSV {
				in = "# kind: " + kind + "\nquorum,node\n1,1\n1,2\n"
			}
			sys, err := format.ReadBytes([]byte(in), ft, format.DefaultOptions())
			if err != nil {
				continue // a reader may refuse it
			}
			var first, second bytes.Buffer
			if err := format.Write(&first, sys, ft, format.DefaultOptions()); err != nil {
				t.Fatal(err)
			}
			back, err := format.ReadBytes(first.Bytes(), ft, format.DefaultOptions())
			if err != nil {
				t.Fatalf("%s %q: reading back: %v\n%s", ft, kind, err, first.Bytes())
			}
			if back.Kind() != sys.Kind() {
				t.Errorf("%s %q: read %q, then %q", ft, kind, sys.Kind(), back.Kind())
			}
			format.Write(&second, back, ft, format.DefaultOptions())
			if !bytes.Equal(first.Bytes(), second.Bytes()) {
				t.Errorf("%s %q: the second write differs:\n%s\n%s", ft, kind, first.Bytes(), second.Bytes())
			}
		}
	}
}
