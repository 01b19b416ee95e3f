package format

import (
	"math/big"
	"slices"
	"testing"
)

func TestParseProbs(t *testing.T) {
	ps, err := ParseProbs("0.5, 1,0")
	if err != nil || !slices.Equal(ps, []float64{0.5, 1, 0}) {
		t.Errorf("got %v, %v", ps, err)
	}
	for _, bad := range []string{"", "1.5", "-0.1", "a", "0.5,,0.6", "NaN"} {
		if _, err := ParseProbs(bad); err == nil {
			t.Errorf("ParseProbs(%q): no error", bad)
		}
	}
}

func TestParseSeconds(t *testing.T) {
	for in, want := range map[string]*big.Rat{"7/2": big.NewRat(7, 2), "0.5": big.NewRat(1, 2), "500ms": big.NewRat(1, 2), "2m": big.NewRat(120, 1), " 3.5s ": big.NewRat(7, 2)} {
		if r, err := ParseSeconds(in); err != nil || r.Cmp(want) != 0 {
			t.Errorf("ParseSeconds(%q) = %v, %v; want %v", in, r, err, want)
		}
	}
	for _, bad := range []string{"-1", "-2s", "soon", ""} {
		if _, err := ParseSeconds(bad); err == nil {
			t.Errorf("ParseSeconds(%q): no error", bad)
		}
	}
}

func TestParseNodeList(t *testing.T) {
	got, err := ParseNodeList("3, b,1,3", 3, []string{"a", "b", ""})
	if err != nil || !slices.Equal(got, []int{2, 1, 0}) {
		t.Errorf("got %v, %v; want [2 1 0]", got, err)
	}
	if got, err := ParseNodeList(" ", 3, nil); got != nil || err != nil {
		t.Errorf("empty list: %v, %v", got, err)
	}
	for _, bad := range []string{"0", "4", "c", "1,,2"} {
		if _, err := ParseNodeList(bad, 3, []string{"a", "b", ""}); err == nil {
			t.Errorf("ParseNodeList(%q): no error", bad)
		}
	}
}

func TestParseNodes(t *testing.T) {
	got, err := ParseNodes("2 3,2", 3)
	if err != nil || !slices.Equal(got, []int{1, 2}) {
		t.Errorf("got %v, %v; want [1 2]", got, err)
	}
	for _, bad := range []string{"", " , ", "0", "4", "x"} {
		if _, err := ParseNodes(bad, 3); err == nil {
			t.Errorf("ParseNodes(%q): no error", bad)
		}
	}
}
