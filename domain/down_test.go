package domain

import (
	"slices"
	"strings"
	"testing"
)

func TestParseDown(t *testing.T) {
	tr := New(4)
	for v, p := range []string{"eu/a", "eu/b", "us/a", "us/a"} {
		if err := tr.Place(v, p); err != nil {
			t.Fatal(err)
		}
	}
	dead, names, err := ParseDown("us/a, 1,y", 4, []string{"", "y", "", ""}, tr)
	if err != nil {
		t.Fatal(err)
	}
	if got := dead.Elements(); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("down %v, want every node", got)
	}
	if !slices.Equal(names, []string{"us/a", "1", "y"}) {
		t.Errorf("names %v", names)
	}
	for spec, want := range map[string]string{"1,,2": "an empty item", "5": "not in 1..4", "eu/c": "or a domain", "x": "is not"} {
		if _, _, err := ParseDown(spec, 4, nil, tr); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseDown(%q): %v, want %q", spec, err, want)
		}
	}
	if _, _, err := ParseDown("eu", 4, nil, nil); err == nil || strings.Contains(err.Error(), "domain") {
		t.Errorf("without domains: %v", err)
	}
}
