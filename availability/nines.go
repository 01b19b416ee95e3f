package availability

import (
	"context"
	"math"
	"math/big"
	"strconv"
)

// YearSeconds is the length of the year that downtime per year is counted
// in: 365.25 days of 86 400 seconds (the Julian year).
const YearSeconds = 365.25 * 86400

// ninesPrec is the precision, in bits, of [Polynomial.Unavailability].
const ninesPrec = 256

// DecimalRat returns x as the exact rational that its shortest decimal
// form names: 0.9 is 9/10, not the binary float nearest to it. It panics
// if x is NaN or infinite.
func DecimalRat(x float64) *big.Rat {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	if !ok {
		panic("availability: DecimalRat of " + strconv.FormatFloat(x, 'g', -1, 64))
	}
	return r
}

// Unavailability returns 1 − AV(x) = Σ (C(N,i) − A_i) x^i (1−x)^(N−i),
// with x read by [DecimalRat], summed in 256-bit floating point. Every
// term is nonnegative, so the sum keeps its relative precision however
// close AV is to 1, where 1 − AV computed in float64 would be noise or 0.
// x must be in [0, 1].
func (p *Polynomial) Unavailability(x float64) *big.Float {
	u, _ := p.UnavailabilityContext(context.Background(), x)
	return u
}

// UnavailabilityContext is [Polynomial.Unavailability] watching ctx: once
// ctx is done it returns nil and ctx's error. Its cost grows as N times
// the length of C(N, N/2): seconds at N = 10^5, minutes at 10^6.
func (p *Polynomial) UnavailabilityContext(ctx context.Context, x float64) (*big.Float, error) {
	xr := DecimalRat(x)
	yr := new(big.Rat).Sub(big.NewRat(1, 1), xr)
	xf := new(big.Float).SetPrec(ninesPrec).SetRat(xr)
	yf := new(big.Float).SetPrec(ninesPrec).SetRat(yr)
	// xp[i] = x^i; the powers of y are taken from the top down.
	xp := make([]*big.Float, p.N+1)
	xp[0] = new(big.Float).SetPrec(ninesPrec).SetInt64(1)
	for i := 1; i <= p.N; i++ {
		xp[i] = new(big.Float).SetPrec(ninesPrec).Mul(xp[i-1], xf)
	}
	// C(N, i) is taken from the top down, one row entry at a time: the
	// whole row of a million nodes would take tens of gigabytes.
	row := big.NewInt(1) // C(N, i)
	var m, d big.Int
	sum := new(big.Float).SetPrec(ninesPrec)
	ypow := new(big.Float).SetPrec(ninesPrec).SetInt64(1) // y^(N−i)
	var c big.Int
	t := new(big.Float).SetPrec(ninesPrec)
	for i := p.N; i >= 0; i-- {
		if i&0xff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if i < p.N {
			row.Mul(row, m.SetInt64(int64(i+1)))
			row.Quo(row, d.SetInt64(int64(p.N-i)))
		}
		c.Sub(row, p.A[i])
		if c.Sign() != 0 {
			t.SetInt(&c)
			t.Mul(t, xp[i])
			t.Mul(t, ypow)
			sum.Add(sum, t)
		}
		ypow.Mul(ypow, yf)
	}
	return sum, nil
}

// Nines returns −log10(u), the number of nines of an availability 1 − u
// (0.999 has three), also when u is far below the float64 range; +Inf
// for u = 0. u must not be negative.
func Nines(u *big.Float) float64 {
	if u.Sign() == 0 {
		return math.Inf(1)
	}
	mant := new(big.Float)
	exp := u.MantExp(mant) // u = mant · 2^exp, mant in [0.5, 1)
	m, _ := mant.Float64()
	return -(math.Log10(m) + float64(exp)*math.Log10(2))
}

// Downtime returns the expected time down per year, in seconds, of a
// system unavailable with probability u: u · [YearSeconds].
func Downtime(u *big.Float) float64 {
	d, _ := new(big.Float).Mul(u, big.NewFloat(YearSeconds)).Float64()
	return d
}
