package domain

import (
	"bytes"
	"errors"
	"math/big"
	"strings"
	"testing"
)

func threeZones(t testing.TB) *Tree {
	t.Helper()
	tr := New(6)
	for v, p := range []string{"eu/a/r1", "eu/a/r1", "eu/a/r2", "eu/b", "us/c/r9", "us/c/r9"} {
		if err := tr.Place(v, p); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func TestTreeShape(t *testing.T) {
	tr := threeZones(t)
	if got, want := tr.Len(), 8; got != want { // eu, eu/a, eu/a/r1, eu/a/r2, eu/b, us, us/c, us/c/r9
		t.Fatalf("Len = %d, want %d", got, want)
	}
	if tr.Depth() != 3 {
		t.Fatalf("Depth = %d", tr.Depth())
	}
	eu, _ := tr.Lookup("eu")
	if got := tr.Under(eu); len(got) != 4 || got[3] != 3 {
		t.Fatalf("Under(eu) = %v", got)
	}
	var names []string
	for _, d := range tr.Above(2) {
		names = append(names, tr.Path(d))
	}
	if strings.Join(names, " ") != "eu eu/a eu/a/r2" {
		t.Fatalf("Above(2) = %v", names)
	}
	var lv []string
	for _, d := range tr.AtLevel(2) {
		lv = append(lv, tr.Path(d))
	}
	if strings.Join(lv, " ") != "eu/a eu/b us/c" {
		t.Fatalf("AtLevel(2) = %v", lv)
	}
	if err := tr.Place(0, "x"); err == nil {
		t.Fatal("placing a node twice: no error")
	}
}

func TestParsePath(t *testing.T) {
	for _, bad := range []string{"", "/a", "a/", "a//b", " a", "a /b", "a/\x01"} {
		if _, err := ParsePath(bad); err == nil {
			t.Errorf("ParsePath(%q): no error", bad)
		}
	}
	if got, err := ParsePath("eu-west/az-b/rack-7"); err != nil || len(got) != 3 {
		t.Errorf("ParsePath = %v, %v", got, err)
	}
}

func TestCheck(t *testing.T) {
	tr := New(3)
	_ = tr.Place(0, "a")
	_ = tr.Place(1, "a")
	var ne *NodeError
	if err := tr.Check(nil); !errors.As(err, &ne) || ne.Node != 2 {
		t.Fatalf("node without a domain: %v", err)
	}
	_ = tr.Place(2, "7")
	if err := tr.Check(nil); err == nil || !strings.Contains(err.Error(), "whole number") {
		t.Fatalf("numeric domain: %v", err)
	}
	tr = New(2)
	_ = tr.Place(0, "x")
	_ = tr.Place(1, "b")
	if err := tr.Check([]string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "label") {
		t.Fatalf("domain named like a node: %v", err)
	}
	if err := New(2).Check(nil); err != nil {
		t.Fatalf("no domains: %v", err)
	}
}

func TestReadCSV(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		line     int    // of the error, 0 for none
		msg      string // part of it
	}{
		{"ok", "domain,p\neu,0.999\n# c\neu/a/r1,1/2\n", 0, ""},
		{"reordered", "p,domain\n0.5,us\n", 0, ""},
		{"empty", "", 1, "empty"},
		{"bad header", "domain,q\n", 1, "unknown column"},
		{"missing column", "domain\n", 1, "domain and p"},
		{"unknown domain", "domain,p\neu,0.9\nasia,0.9\n", 3, "no node's domain"},
		{"twice", "domain,p\neu,0.9\neu,0.8\n", 3, "already given on line 2"},
		{"above one", "domain,p\neu,1.5\n", 2, "not in [0, 1]"},
		{"negative", "domain,p\neu,-0.1\n", 2, "not in [0, 1]"},
		{"nan", "domain,p\neu,NaN\n", 2, "not a number"},
		{"cells", "domain,p\neu\n", 2, "1 cells"},
		{"bad path", "domain,p\neu//a,0.5\n", 2, "empty level"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := threeZones(t)
			err := ReadCSV([]byte(tt.in), tr)
			if tt.line == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var le *LineError
			if !errors.As(err, &le) || le.Line != tt.line || !strings.Contains(le.Msg, tt.msg) {
				t.Fatalf("err = %v, want line %d with %q", err, tt.line, tt.msg)
			}
		})
	}
}

func TestRatString(t *testing.T) {
	for _, s := range []string{"0.999", "1", "0", "1/3", "0.5", "0.0001", "2/7"} {
		x, _ := new(big.Rat).SetString(s)
		got := RatString(x)
		y, err := ParseP(got)
		if err != nil || y.Cmp(x) != 0 {
			t.Errorf("RatString(%s) = %s, reads back as %v, %v", s, got, y, err)
		}
	}
	if got := RatString(big.NewRat(999, 1000)); got != "0.999" {
		t.Errorf("RatString(999/1000) = %s", got)
	}
}

// FuzzReadCSV: any input either fails with a line error or reads back
// to the same probabilities after WriteCSV.
func FuzzReadCSV(f *testing.F) {
	f.Add("domain,p\neu,0.999\neu/a/r1,1/2\n")
	f.Add("p,domain\n0.5,us\n\"us/c\",1\n")
	f.Add("domain,p\neu,NaN\n")
	f.Fuzz(func(t *testing.T, in string) {
		tr := threeZones(t)
		err := ReadCSV([]byte(in), tr)
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteCSV(&buf, tr); err != nil {
			t.Fatal(err)
		}
		back := threeZones(t)
		if err := ReadCSV(buf.Bytes(), back); err != nil {
			t.Fatalf("reading back %q: %v", buf.String(), err)
		}
		for d := range tr.Len() {
			if tr.HasP(d) != back.HasP(d) || tr.P(d).Cmp(back.P(d)) != 0 {
				t.Fatalf("domain %s: %v then %v", tr.Path(d), tr.P(d), back.P(d))
			}
		}
	})
}
