package format

import (
	"bytes"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// WriteRW's files read back as the same system, in JSON and text; a
// derived side is left out, and labels an expression cannot hold give way
// to node numbers.
func TestWriteRWRoundTrip(t *testing.T) {
	in, err := ReadRW([]byte(`{"labels": ["a", "b", "c", "d"], "reads": [["a", "b"], [3, 4]], "writes": "(a + b)*(c + d)"}`))
	if err != nil {
		t.Fatal(err)
	}
	sys := &RWSystem{N: in.N, Labels: in.Labels, Reads: RWSide{List: in.ReadList}, Writes: RWSide{Expr: in.Writes}}
	for _, f := range []Format{JSON, Text} {
		var buf bytes.Buffer
		if err := WriteRW(&buf, sys, f); err != nil {
			t.Fatal(err)
		}
		back, err := ReadRWAny(buf.Bytes())
		if err != nil {
			t.Fatalf("%s: reading back %s: %v", f, buf.Bytes(), err)
		}
		if back.N != 4 || strings.Join(back.Labels, ",") != "a,b,c,d" {
			t.Errorf("%s: n %d, labels %v", f, back.N, back.Labels)
		}
		if back.ReadList == nil || !set.SameQuorums(back.ReadList, in.ReadList) {
			t.Errorf("%s: reads %v, want %v", f, back.ReadList, in.ReadList)
		}
		if back.Writes == nil || back.Writes.String() != "(a + b)*(c + d)" {
			t.Errorf("%s: writes %v", f, back.Writes)
		}
	}

	// Writes derived: left out. Labels with a space: numbers in the
	// expression, the labels kept as labels.
	sys = &RWSystem{N: 4, Labels: []string{"a", "b", "c d", "e"}, Reads: RWSide{Expr: in.Writes}, Writes: RWSide{Derived: true}}
	var buf bytes.Buffer
	if err := WriteRW(&buf, sys, JSON); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, `"writes"`) || !strings.Contains(out, `"reads": "(1 + 2)*(3 + 4)"`) {
		t.Errorf("derived writes or numbered reads wrong:\n%s", out)
	}
	if err := WriteRW(&buf, sys, CSV); err == nil {
		t.Error("a read-write system written as CSV")
	}
}
