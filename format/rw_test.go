package format

import (
	"errors"
	"strings"
	"testing"
)

func TestReadRW(t *testing.T) {
	f, err := ReadRW([]byte(`{"format": "coterie/1", "labels": ["a", "b", "c", "d"],
 "reads": [["a", "b"], [3, 4]],
 "writes": "(a + b)*(c + d)"}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.N != 4 || len(f.ReadList.Quorums) != 2 || f.WriteList != nil {
		t.Fatalf("got n = %d, reads %v, write list %v", f.N, f.ReadList, f.WriteList)
	}
	if got := f.Writes.String(); got != "(a + b)*(c + d)" {
		t.Errorf("writes = %q", got)
	}
	if f.Writes.Args[1].Args[0].Node != 2 {
		t.Errorf("c bound to node %d, want 2 (0-based)", f.Writes.Args[1].Args[0].Node)
	}
	// Thresholds need n.
	f, err = ReadRW([]byte(`{"n": 5, "reads": {"threshold": 3}}`))
	if err != nil || !f.ReadList.IsThreshold() || f.ReadList.Threshold != 3 {
		t.Fatalf("threshold: %+v, %v", f, err)
	}
}

func TestReadRWErrors(t *testing.T) {
	for _, tt := range []struct {
		in   string
		line int
		msg  string
	}{
		{"{\"n\": 3,\n \"reads\": \"1*2 +\"}", 2, "column 6"},
		{"{\"n\": 3,\n \"reads\": [[1, 4]]}", 2, "node 4 is not in 1..3"},
		{"{\"n\": 3,\n \"reads\": [[1, 1]]}", 2, "appears twice"},
		{"{\"n\": 3,\n\n \"rides\": [[1]]}", 3, "unknown field"},
		{"{\"n\": 3, \"reads\": 7}", 1, "must be an expression string"},
		{"{\"labels\": [\"a\"], \"n\": 1, \"reads\": \"a + b\"}", 1, "unknown node b"},
		{"{\"reads\": [[1], []]}", 1, "quorum 2 is empty"},
		{"{\"reads\": [[1]],\n", 2, ""},
	} {
		_, err := ReadRW([]byte(tt.in))
		var fe *Error
		if !errors.As(err, &fe) || fe.Line != tt.line || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("ReadRW(%q) = %v, want line %d with %q", tt.in, err, tt.line, tt.msg)
		}
	}
}

func TestReadNodes(t *testing.T) {
	resolve := func(name string) (int, bool) {
		if len(name) == 1 && name[0] >= 'a' && name[0] <= 'f' {
			return int(name[0] - 'a'), true
		}
		return 0, false
	}
	rows, err := ReadNodes([]byte("# the tutorial's nodes\nnode,capacity,latency,p\na,1000,0.5,0.9\nb,,2,\n"), resolve)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Capacity.RatString() != "1000" || rows[0].Latency.RatString() != "1/2" ||
		rows[0].P.RatString() != "9/10" || rows[1].Capacity != nil || rows[1].Line != 4 {
		t.Fatalf("rows = %+v", rows)
	}
	for _, tt := range []struct {
		in   string
		line int
		msg  string
	}{
		{"node,capacity\na,1\nb,-1\n", 3, "not a positive number"},
		{"node,capacity\na,0\n", 2, "not a positive number"},
		{"node,latency\nz,1\n", 2, "unknown node z"},
		{"node,p\na,1.5\n", 2, "probability"},
		{"node,speed\na,1\n", 1, "unknown column"},
		{"capacity\n1\n", 1, "no \"node\" column"},
		{"node,capacity\na,1\na,2\n", 3, "already described on line 2"},
		{"node,capacity\na,1,2\n", 2, "3 cells"},
		{"", 1, "empty"},
	} {
		_, err := ReadNodes([]byte(tt.in), resolve)
		var fe *Error
		if !errors.As(err, &fe) || fe.Line != tt.line || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("ReadNodes(%q) = %v, want line %d with %q", tt.in, err, tt.line, tt.msg)
		}
	}
}

func FuzzReadRW(f *testing.F) {
	f.Add([]byte(`{"n": 3, "reads": "1*2 + 3"}`))
	f.Add([]byte(`{"reads": [["a", "b"]], "writes": {"threshold": 1}}`))
	f.Add([]byte("# reads\n1 2\n# writes: 1 + 2\n"))
	f.Add([]byte("node,capacity,p\na,1,0.5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// None of the read-write readers may panic.
		_, _ = ReadRW(data)
		_, _ = ReadRWText(data)
		_, _ = ReadNodes(data, func(name string) (int, bool) { return len(name) % 3, name != "" })
	})
}

func TestReadRWText(t *testing.T) {
	in := `# n: 6
# labels: ["a", "b", "c", "d", "e", "f"]
# reads
a b c
4,5,6
# writes: (a + b + c)*(d + e + f)
`
	if !IsRWText([]byte(in)) || IsRWText([]byte("1 2\n# comment\n")) {
		t.Fatal("IsRWText")
	}
	f, err := ReadRWText([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if f.N != 6 || len(f.ReadList.Quorums) != 2 || f.Writes.String() != "(a + b + c)*(d + e + f)" || f.ReadList.Quorums[1].String() != "{3 4 5}" {
		t.Fatalf("got n %d reads %v writes %s", f.N, f.ReadList, f.Writes)
	}
	for _, tt := range []struct {
		in   string
		line int
		msg  string
	}{
		{"# reads\n1 2\n\n1 1\n", 4, "appears twice"},
		{"1 2\n# reads\n1\n", 1, "outside"},
		{"# n: 2\n# reads\n1 3\n", 2, "node 3 is not in 1..2"},
		{"# reads: 1 + \n", 1, "column 4"},
		{"# reads\n1\n# reads\n2\n", 3, "second reads"},
		{"# reads\n0 1\n", 2, "not in 1..n"},
	} {
		_, err := ReadRWText([]byte(tt.in))
		var fe *Error
		if !errors.As(err, &fe) || fe.Line != tt.line || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("ReadRWText(%q) = %v, want line %d with %q", tt.in, err, tt.line, tt.msg)
		}
	}
}

// ReadRWAny reads both forms of one system alike.
func TestReadRWAny(t *testing.T) {
	js := []byte(`{"n": 3, "reads": "1*2 + 3"}`)
	txt := []byte("# n: 3\n# reads: 1*2 + 3\n")
	for _, data := range [][]byte{js, txt} {
		if !IsRWAny(data) {
			t.Fatalf("%q is not recognised as a read-write system", data)
		}
		f, err := ReadRWAny(data)
		if err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		if f.N != 3 || f.Reads == nil || f.Reads.String() != "1*2 + 3" {
			t.Errorf("%q: n = %d, reads %v", data, f.N, f.Reads)
		}
	}
	if IsRWAny([]byte("1 2\n2 3\n")) {
		t.Error("a plain quorum list is taken for a read-write system")
	}
}
