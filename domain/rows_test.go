package domain

import (
	"errors"
	"testing"
)

func TestFromRows(t *testing.T) {
	rows := []Row{
		{File: "a.csv", Line: 2, Node: 0, Domain: "eu/az-a"},
		{File: "a.csv", Line: 3, Node: 1, Domain: "eu/az-b"},
		{File: "b.csv", Line: 2, Node: 2, Domain: "us/az-a"},
	}
	tr, err := FromRows(3, rows, []string{"x", "y", "z"})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := tr.Lookup("eu")
	if !ok || len(tr.Under(d)) != 2 {
		t.Fatalf("eu holds %v, want nodes 0 and 1", tr.Under(d))
	}
	if tr, err := FromRows(2, []Row{{File: "a", Line: 1, Node: 0}}, nil); tr != nil || err != nil {
		t.Fatalf("no domains: got %v, %v; want nil, nil", tr, err)
	}
}

func TestFromRowsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		rows []Row
		want RowError
	}{
		{"a node without a domain", 2, []Row{{File: "a", Line: 2, Node: 0, Domain: "r1"}, {File: "a", Line: 3, Node: 1}},
			RowError{File: "a", Line: 3}},
		{"a node without a row", 2, []Row{{File: "a", Line: 2, Node: 0, Domain: "r1"}}, RowError{}},
		{"a domain named like a node", 2, []Row{{File: "a", Line: 2, Node: 0, Domain: "r1"}, {File: "b", Line: 5, Node: 1, Domain: "7"}},
			RowError{File: "b", Line: 5}},
	} {
		_, err := FromRows(tc.n, tc.rows, nil)
		var re *RowError
		if !errors.As(err, &re) {
			t.Fatalf("%s: got %v, want a *RowError", tc.name, err)
		}
		if re.File != tc.want.File || re.Line != tc.want.Line || re.Msg == "" {
			t.Errorf("%s: got %s:%d %q, want %s:%d", tc.name, re.File, re.Line, re.Msg, tc.want.File, tc.want.Line)
		}
	}
}
