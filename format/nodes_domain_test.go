package format

import (
	"errors"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/domain"
)

func TestReadNodesDomains(t *testing.T) {
	resolve := func(name string) (int, bool) {
		if len(name) == 1 && name[0] >= 'a' && name[0] <= 'f' {
			return int(name[0] - 'a'), true
		}
		return 0, false
	}
	rows, err := ReadNodes([]byte("node,domain\na,eu/az-a/r1\nb,\"eu/az-b\"\n"), resolve)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Domain != "eu/az-a/r1" || rows[1].Domain != "eu/az-b" || rows[0].DomainLevels != nil {
		t.Fatalf("rows = %+v", rows)
	}
	rows, err = ReadNodes([]byte("node,region,zone,rack\na,eu,az-a,r1\nb,eu,az-b,\n"), resolve)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Domain != "eu/az-a/r1" || rows[1].Domain != "eu/az-b" || strings.Join(rows[0].DomainLevels, ",") != "region,zone,rack" {
		t.Fatalf("rows = %+v", rows)
	}
	for _, tt := range []struct {
		in   string
		line int
		msg  string
	}{
		{"node,domain\na,eu//r1\n", 2, "empty level"},
		{"node,domain\na,/eu\n", 2, "empty level"},
		{"node,domain,zone\na,eu,b\n", 1, "not both"},
		{"node,region,zone,rack\na,eu,,r1\n", 2, "without a zone"},
	} {
		_, err := ReadNodes([]byte(tt.in), resolve)
		var fe *Error
		if !errors.As(err, &fe) || fe.Line != tt.line || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("ReadNodes(%q) = %v, want line %d with %q", tt.in, err, tt.line, tt.msg)
		}
	}
}

func TestReadRWDomains(t *testing.T) {
	f, err := ReadRW([]byte(`{"n": 3, "labels": ["a", "b", "c"], "reads": "choose(2, a, b, c)",
"nodes": [{"node": "a", "domain": "eu/z1"}, {"node": 2, "domain": "eu/z2", "p": "0.9"}, {"node": 3, "domain": "us"}],
"domains": [{"domain": "eu", "p": 0.999}, {"domain": "us", "p": "1/2"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Nodes) != 3 || f.Nodes[0].Node != 0 || f.Nodes[1].Domain != "eu/z2" || f.Nodes[1].P.RatString() != "9/10" {
		t.Fatalf("nodes = %+v", f.Nodes)
	}
	if len(f.Domains) != 2 || f.Domains[0].P.RatString() != "999/1000" || f.Domains[1].P.RatString() != "1/2" {
		t.Fatalf("domains = %+v", f.Domains)
	}
	for _, tt := range []struct{ in, msg string }{
		{`{"n": 2, "reads": "1*2", "nodes": [{"node": 3, "domain": "a"}]}`, "unknown node 3"},
		{`{"n": 2, "reads": "1*2", "nodes": [{"node": 1, "domain": "a//b"}]}`, "empty level"},
		{`{"n": 2, "reads": "1*2", "nodes": [{"node": 1, "rack": "a"}]}`, "unknown field"},
		{`{"n": 2, "reads": "1*2", "domains": [{"domain": "a", "p": "NaN"}]}`, "not a number"},
		{`{"n": 2, "reads": "1*2", "domains": [{"domain": "a"}]}`, "no \"p\""},
		{`{"n": 2, "reads": "1*2", "nodes": {"node": 1}}`, "list of objects"},
	} {
		_, err := ReadRW([]byte(tt.in))
		var fe *Error
		if !errors.As(err, &fe) || fe.Line < 1 || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("ReadRW(%s) = %v, want %q", tt.in, err, tt.msg)
		}
	}
}

// FuzzReadRWDomains: the "nodes" and "domains" of a read-write file never
// make the reader panic, and every error names a line.
func FuzzReadRWDomains(f *testing.F) {
	f.Add([]byte(`{"n": 3, "reads": "choose(2, 1, 2, 3)", "nodes": [{"node": 1, "domain": "eu/a"}], "domains": [{"domain": "eu", "p": 0.9}]}`))
	f.Add([]byte(`{"reads": [["a", "b"]], "nodes": [{"node": "a", "domain": "x", "p": "1/3"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ReadRW(data)
		var fe *Error
		if err != nil && (!errors.As(err, &fe) || fe.Line < 1) {
			t.Fatalf("error without a line: %v", err)
		}
	})
}

// FuzzReadNodesDomains: a nodes file with domain columns never makes the
// reader panic; every error names a line, and every domain it returns is
// a valid path.
func FuzzReadNodesDomains(f *testing.F) {
	f.Add([]byte("node,domain\na,eu/az-a/r1\nb,eu/az-b\n"))
	f.Add([]byte("node,region,zone,rack\na,eu,az-a,r1\nb,eu,,r2\n"))
	f.Add([]byte("node,domain,zone\na,x,y\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ReadNodes(data, func(name string) (int, bool) { return len(name) % 5, name != "" })
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) || fe.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		for _, r := range rows {
			if r.Domain == "" {
				continue
			}
			if _, err := domain.ParsePath(r.Domain); err != nil {
				t.Fatalf("row %d: domain %q: %v", r.Line, r.Domain, err)
			}
		}
	})
}
