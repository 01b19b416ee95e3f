package rw

import (
	"context"
	"math/big"
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
