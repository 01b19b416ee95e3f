package measure

import (
	"math"
	"math/big"
)

// approx returns the fraction closest to x whose denominator is at most
// maxDen, by the continued-fraction expansion of x (best rational
// approximation). x must be finite and non-negative.
func approx(x float64, maxDen int64) *big.Rat {
	if x <= 0 || math.IsNaN(x) {
		return new(big.Rat)
	}
	// Convergents h/k of the expansion: h_i = a_i h_{i-1} + h_{i-2}.
	h0, h1 := int64(0), int64(1)
	k0, k1 := int64(1), int64(0)
	y := x
	for range 64 {
		a := math.Floor(y)
		if a > math.MaxInt64/4 {
			break
		}
		ai := int64(a)
		h2, k2 := ai*h1+h0, ai*k1+k0
		if k2 > maxDen || h2 < 0 || k2 < 0 {
			break
		}
		h0, h1, k0, k1 = h1, h2, k1, k2
		frac := y - a
		if frac < 1e-12 {
			break
		}
		y = 1 / frac
	}
	if k1 == 0 {
		return new(big.Rat).SetInt64(int64(math.Round(x)))
	}
	return big.NewRat(h1, k1)
}
