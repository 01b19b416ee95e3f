package availability_test

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/set"
)

// TestUnavailability checks 1 − AV against hand-computed values.
func TestUnavailability(t *testing.T) {
	for _, tt := range []struct {
		name  string
		poly  *availability.Polynomial
		p     float64
		want  string // 1 − AV, exactly
		nines float64
	}{
		// Majority of 3 at p = 0.9: AV = p³ + 3p²(1−p) = 0.729 + 0.243
		// = 0.972, so 1 − AV = 0.028.
		{"majority of 3", availability.Threshold(3, 2), 0.9, "0.028", -math.Log10(0.028)},
		// One node: 1 − AV = 1 − p.
		{"one node", availability.Threshold(1, 1), 0.999, "0.001", 3},
		// All of 5 nodes at p = 0.5: 1 − 1/32 = 31/32.
		{"all of 5", availability.Threshold(5, 5), 0.5, "0.96875", -math.Log10(0.96875)},
		// Majority of 3 at p = 0.99999: 3(1−p)² − 2(1−p)³ = 3e-10 − 2e-15,
		// beyond float64 rounding of 1 − AV.
		{"majority of 3, five nines", availability.Threshold(3, 2), 0.99999, "2.99998e-10", -math.Log10(2.99998e-10)},
		{"always up", availability.Threshold(3, 2), 1, "0", math.Inf(1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := tt.poly.Unavailability(tt.p)
			want, _ := new(big.Float).SetPrec(256).SetString(tt.want)
			diff := new(big.Float).Sub(u, want)
			diff.Abs(diff)
			if tol := new(big.Float).Mul(want, big.NewFloat(1e-60)); diff.Cmp(tol) > 0 {
				t.Errorf("1 − AV(%v) = %s, want %s", tt.p, u.Text('g', 30), tt.want)
			}
			got := availability.Nines(u)
			if math.IsInf(tt.nines, 1) != math.IsInf(got, 1) || (!math.IsInf(got, 1) && math.Abs(got-tt.nines) > 1e-12) {
				t.Errorf("nines = %v, want %v", got, tt.nines)
			}
		})
	}
}

// TestNinesTiny: the count of nines works below float64's range.
func TestNinesTiny(t *testing.T) {
	u, _ := new(big.Float).SetPrec(256).SetString("1e-400")
	if got := availability.Nines(u); math.Abs(got-400) > 1e-9 {
		t.Errorf("nines of 1e-400 = %v, want 400", got)
	}
}

// TestDowntime: 1 − AV = 0.001 is 31 557.6 seconds (8.77 hours) a year.
func TestDowntime(t *testing.T) {
	u := availability.Threshold(1, 1).Unavailability(0.999)
	if got := availability.Downtime(u); math.Abs(got-31557.6) > 1e-6 {
		t.Errorf("downtime = %v s, want 31557.6", got)
	}
}

// TestUnavailabilityMatchesAtRat cross-checks the float sum against the
// exact rational 1 − AtRat on a non-threshold polynomial (a 3×3 product).
func TestUnavailabilityMatchesAtRat(t *testing.T) {
	poly := availability.Product(3, 3)
	for _, p := range []float64{0.1, 0.5, 0.9, 0.999} {
		exact := new(big.Rat).Sub(big.NewRat(1, 1), poly.AtRat(availability.DecimalRat(p)))
		want := new(big.Float).SetPrec(256).SetRat(exact)
		got := poly.Unavailability(p)
		diff := new(big.Float).Sub(got, want)
		diff.Abs(diff)
		if diff.Cmp(new(big.Float).Mul(want, big.NewFloat(1e-60))) > 0 {
			t.Errorf("p = %v: %s, want %s", p, got.Text('g', 20), want.Text('g', 20))
		}
	}
}

// TestResultUnavailability: at an exact point of an exact result, 1 − AV
// comes from the polynomial, with the digits a float64 AV has lost (the
// majority of 3 at p = 0.99999: 3e-10 − 2e-15); under per-node
// probabilities or an estimate it is 1 − AV.
func TestResultUnavailability(t *testing.T) {
	r, err := availability.Compute(context.Background(), set.NewThreshold(3, 2), availability.Options{})
	if err != nil || !r.Exact {
		t.Fatalf("Compute: %v, exact %v", err, r != nil && r.Exact)
	}
	pts, err := r.Evaluate(context.Background(), []float64{0.99999}, availability.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := new(big.Float).SetPrec(256).SetString("2.99998e-10")
	u := r.Unavailability(pts[0], true)
	if d, _ := new(big.Float).Sub(u, want).Float64(); math.Abs(d) > 1e-25 {
		t.Errorf("uniform: 1 − AV = %s, want 2.99998e-10", u.Text('g', 20))
	}
	// Per node, the float64 AV is all there is: 1 − AV loses the
	// digits below 1e-16.
	u = r.Unavailability(pts[0], false)
	if f, _ := u.Float64(); f != 1-pts[0].AV {
		t.Errorf("per node: 1 − AV = %v, want %v", f, 1-pts[0].AV)
	}
	est := availability.Point{P: 0.5, AV: 1.0000000001}
	if u := r.Unavailability(est, true); u.Sign() != 0 {
		t.Errorf("an estimate above 1: 1 − AV = %v, want 0", u)
	}
}
