package format

import (
	"errors"
	"strings"
	"testing"
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
