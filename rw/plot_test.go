package rw

import (
	"bytes"
	"context"
	"math/big"
	"strings"
	"testing"
)

func TestLoadCurve(t *testing.T) {
	// The 2×3 grid's optimal load: reads cost 1/2 a node (two rows),
	// writes 1/3 (three disjoint columns). At read fraction f the load is
	// max over a row/column pairing; the tutorial gives 1/3 at 0, 3/8 at
	// 1/4 and 1/2 at 1.
	s := grid(t, nil)
	fr := []*big.Rat{rat("0"), rat("1/4"), rat("1")}
	load, capacity, err := s.LoadCurve(context.Background(), fr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"1/3", "3/8", "1/2"} {
		wantRat(t, "load at "+fr[i].RatString(), load[i], want)
		if new(big.Rat).Mul(load[i], capacity[i]).Cmp(ratOne) != 0 {
			t.Errorf("capacity %v is not 1/load %v", capacity[i], load[i])
		}
	}
}

func TestPlotCurves(t *testing.T) {
	curves := []Curve{{Label: "grid", Fraction: []float64{0, 0.5, 1}, Value: []float64{0.33, 0.41, 0.5}}}
	var a, b bytes.Buffer
	if err := PlotCurves(&a, "svg", "load", "load", curves); err != nil {
		t.Fatal(err)
	}
	if err := PlotCurves(&b, "svg", "load", "load", curves); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || !strings.Contains(a.String(), "<svg") || !strings.Contains(a.String(), "grid") {
		t.Error("the SVG is not deterministic or lacks the legend")
	}
	if err := PlotCurves(&a, "gif", "", "", curves); err == nil {
		t.Error("gif accepted")
	}
}
