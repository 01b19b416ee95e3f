package analysis_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/set"
)

// The 2×3 grid read by rows (a*b*c + d*e*f) and written by columns:
// reads are up when a row is, 1 − (1 − p³)², writes when every row has a
// live node, (1 − (1 − p)³)²; both at once, counted over the 2^6 sets of
// live nodes, exactly.
func TestRWAvailabilityGrid(t *testing.T) {
	ctx := context.Background()
	sys := rwSystem(t, 6, "a*b*c + d*e*f", "")
	av, err := analysis.RWAvailability(ctx, sys, []float64{0.9}, analysis.RWAvOptions{SideOptions: analysis.SideOptions{Curve: []float64{0, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if av.Correlated || av.Reads == nil || av.Writes == nil || av.NoExact != nil || len(av.Exact) != 1 {
		t.Fatalf("%+v", av)
	}
	p := big.NewRat(9, 10)
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	pow := func(x *big.Rat, k int) *big.Rat {
		r := big.NewRat(1, 1)
		for range k {
			r.Mul(r, x)
		}
		return r
	}
	one := big.NewRat(1, 1)
	reads := new(big.Rat).Sub(one, pow(new(big.Rat).Sub(one, pow(p, 3)), 2))
	writes := pow(new(big.Rat).Sub(one, pow(q, 3)), 2)
	both := new(big.Rat)
	rows := [2]uint{0b000111, 0b111000}
	for live := range uint(1 << 6) {
		r := live&rows[0] == rows[0] || live&rows[1] == rows[1]
		w := live&rows[0] != 0 && live&rows[1] != 0
		if r && w {
			k := 0
			for v := range 6 {
				k += int(live >> v & 1)
			}
			both.Add(both, new(big.Rat).Mul(pow(p, k), pow(q, 6-k)))
		}
	}
	e := av.Exact[0]
	for _, c := range []struct {
		name      string
		got, want *big.Rat
	}{{"reads", e.Reads, reads}, {"writes", e.Writes, writes}, {"both", e.Both, both}} {
		if c.got.Cmp(c.want) != 0 {
			t.Errorf("%s: %s, want %s", c.name, c.got.RatString(), c.want.RatString())
		}
	}
	// The sides' own figures agree, and the curve runs from 0 to 1.
	if f, _ := reads.Float64(); av.Reads.Points[0].AV-f > 1e-12 || f-av.Reads.Points[0].AV > 1e-12 {
		t.Errorf("reads side %v, exact %v", av.Reads.Points[0].AV, f)
	}
	if c := av.Writes.Curve; len(c) != 2 || c[0].AV != 0 || c[1].AV != 1 {
		t.Errorf("writes curve %+v", c)
	}
	if av.ExactCurve != nil {
		t.Error("a curve of exact figures without domains")
	}

	// A side too large to list (six quorums, not read-once) is its
	// error, named.
	_, err = analysis.RWAvailability(ctx, rwSystem(t, 6, "a*b + b*c + c*d + d*e + e*f + f*a", "a*b*c*d*e*f"), []float64{0.9},
		analysis.RWAvOptions{SideOptions: analysis.SideOptions{Limit: 2}})
	var se *analysis.SideError
	if !errors.As(err, &se) || se.Side != "reads" || !errors.Is(err, set.ErrTooMany) {
		t.Errorf("6 read quorums under a limit of 2: %v", err)
	}
}
