package availability

import (
	"errors"
	"slices"
	"testing"
)

func TestPoints(t *testing.T) {
	ps, err := Points([]float64{0.9, 0.5}, "0.5:0.8:0.1")
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0.5, 0.6, 0.7, 0.8, 0.9}; !slices.Equal(ps, want) {
		t.Errorf("got %v, want %v", ps, want)
	}
	for _, bad := range []string{"0.5:1", "a:1:0.1", "0.9:0.5:0.1", "0:1:0", "0:1:1e-9", "-0.1:1:0.1", "0:1.5:0.1"} {
		if _, err := ParseRange(bad); err == nil {
			t.Errorf("ParseRange(%q): no error", bad)
		}
	}
	if _, err := ParseRange("1"); !errors.Is(err, ErrRangeSyntax) {
		t.Errorf("ParseRange(1): %v, want ErrRangeSyntax", err)
	}
}

func TestParseMethod(t *testing.T) {
	for name, want := range map[string]Method{"": MethodAuto, "auto": MethodAuto, "bdd": MethodBDD, "brute": MethodBrute, "brute-force": MethodBrute, "estimate": MethodEstimate} {
		if m, err := ParseMethod(name); err != nil || m != want {
			t.Errorf("ParseMethod(%q) = %q, %v; want %q", name, m, err, want)
		}
	}
	if _, err := ParseMethod("threshold"); err == nil {
		t.Error("ParseMethod(threshold): no error")
	}
}
