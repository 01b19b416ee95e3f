package availability

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// Polynomial is the availability polynomial of a system over N nodes,
// written in the basis p^i (1−p)^(N−i): A[i] is the number of i-node subsets
// of the N nodes that contain a quorum, so AV(p) = Σ A[i] p^i (1−p)^(N−i)
// (Kuo 2001, Section 5). len(A) is N+1 and 0 ≤ A[i] ≤ C(N, i).
//
// A Polynomial is not modified once built: share it freely.
type Polynomial struct {
	N int
	A []*big.Int
}

// NewPolynomial returns the polynomial over n nodes with all coefficients 0.
func NewPolynomial(n int) *Polynomial {
	p := &Polynomial{N: n, A: make([]*big.Int, n+1)}
	for i := range p.A {
		p.A[i] = new(big.Int)
	}
	return p
}

// Equal reports whether p and q have the same N and coefficients.
func (p *Polynomial) Equal(q *Polynomial) bool {
	if p.N != q.N || len(p.A) != len(q.A) {
		return false
	}
	for i := range p.A {
		if p.A[i].Cmp(q.A[i]) != 0 {
			return false
		}
	}
	return true
}

// Strings returns the coefficients as decimal strings, A[0] first, as the
// JSON report holds them.
func (p *Polynomial) Strings() []string {
	out := make([]string, len(p.A))
	for i, a := range p.A {
		out[i] = a.String()
	}
	return out
}

// String formats p for debugging as "n=3 [0 0 3 1]".
func (p *Polynomial) String() string {
	return fmt.Sprintf("n=%d [%s]", p.N, strings.Join(p.Strings(), " "))
}

// Fractions returns f[i] = A[i] / C(N, i) as float64: the probability that a
// uniformly random i-subset contains a quorum. AV(p) is the mixture of these
// by the binomial distribution, which is how [Polynomial.At] evaluates it
// without overflow or cancellation.
func (p *Polynomial) Fractions() []float64 {
	f := make([]float64, len(p.A))
	// The fractions below the first coefficient that is not 0 are 0:
	// C(N, i) starts there (a single quorum of all N nodes costs one
	// step, not N growing products).
	first := 0
	for first < len(p.A) && p.A[first].Sign() == 0 {
		first++
	}
	if first == len(p.A) {
		return f
	}
	c := set.Binomial(p.N, first) // C(N, i)
	var num, den big.Float
	num.SetPrec(64)
	den.SetPrec(64)
	for i := first; i < len(p.A); i++ {
		a := p.A[i]
		if i > first {
			c.Mul(c, big.NewInt(int64(p.N-i+1)))
			c.Quo(c, big.NewInt(int64(i)))
		}
		switch {
		case a.Sign() == 0:
		case a.Cmp(c) == 0:
			f[i] = 1
		default:
			num.SetInt(a)
			den.SetInt(c)
			f[i], _ = new(big.Float).SetPrec(64).Quo(&num, &den).Float64()
		}
	}
	return f
}

// At returns AV(x) for 0 ≤ x ≤ 1 in float64. It evaluates the binomial
// mixture Σ f[i]·b(i; N, x) of [Polynomial.Fractions], with the binomial
// weights computed by a ratio recurrence from the mode and normalised to sum
// to 1, so the relative error is about N·2⁻⁵³ whatever the size of the
// coefficients. For many points use [Polynomial.Evaluator].
func (p *Polynomial) At(x float64) float64 {
	return p.Evaluator()(x)
}

// Evaluator returns a function computing AV(x) like [Polynomial.At], with
// the exact-to-float conversion of the coefficients done once.
func (p *Polynomial) Evaluator() func(x float64) float64 {
	f := p.Fractions()
	return func(x float64) float64 { return mixture(f, x) }
}

// mixture returns Σ f[i]·b(i; n, x) with n = len(f)−1.
func mixture(f []float64, x float64) float64 {
	n := len(f) - 1
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case x <= 0:
		return f[0]
	case x >= 1:
		return f[n]
	}
	w := binomialWeights(n, x)
	s := 0.0
	for i, v := range f {
		s += v * w[i]
	}
	return s
}

// binomialWeights returns b(i; n, x) for i = 0..n, 0 < x < 1, computed by
// the ratio b(i+1)/b(i) = (n−i)/(i+1) · x/(1−x) outward from the mode and
// normalised: no factorials, no overflow; terms far in the tails underflow
// to 0, which is below float64 resolution of the sum anyway.
func binomialWeights(n int, x float64) []float64 {
	w := make([]float64, n+1)
	mode := int(math.Floor(float64(n+1) * x))
	if mode > n {
		mode = n
	}
	r := x / (1 - x)
	w[mode] = 1
	for i := mode; i < n; i++ {
		w[i+1] = w[i] * float64(n-i) / float64(i+1) * r
	}
	for i := mode; i > 0; i-- {
		w[i-1] = w[i] * float64(i) / float64(n-i+1) / r
	}
	s := 0.0
	for _, v := range w {
		s += v
	}
	for i := range w {
		w[i] /= s
	}
	return w
}

// AtRat returns AV(x) exactly for a rational x. Its cost grows with N² big
// multiplications; it is meant for tests and small systems (Kuo's
// Theorem 6/7 test AV(1/2) = 1/2 exactly).
func (p *Polynomial) AtRat(x *big.Rat) *big.Rat {
	one := big.NewRat(1, 1)
	y := new(big.Rat).Sub(one, x)
	// pow[i] = x^i, ypow[i] = y^i
	pow := make([]*big.Rat, p.N+1)
	ypow := make([]*big.Rat, p.N+1)
	pow[0], ypow[0] = big.NewRat(1, 1), big.NewRat(1, 1)
	for i := 1; i <= p.N; i++ {
		pow[i] = new(big.Rat).Mul(pow[i-1], x)
		ypow[i] = new(big.Rat).Mul(ypow[i-1], y)
	}
	sum := new(big.Rat)
	var t big.Rat
	for i, a := range p.A {
		if a.Sign() == 0 {
			continue
		}
		t.SetInt(a)
		t.Mul(&t, pow[i])
		t.Mul(&t, ypow[p.N-i])
		sum.Add(sum, &t)
	}
	return sum
}

// Total returns Σ A[i], the number of subsets of the nodes that contain a
// quorum; AV(1/2) = Total / 2^N.
func (p *Polynomial) Total() *big.Int {
	s := new(big.Int)
	for _, a := range p.A {
		s.Add(s, a)
	}
	return s
}

// binomialRow returns C(n, 0..n).
func binomialRow(n int) []*big.Int {
	row := make([]*big.Int, n+1)
	row[0] = big.NewInt(1)
	for i := 1; i <= n; i++ {
		row[i] = new(big.Int).Mul(row[i-1], big.NewInt(int64(n-i+1)))
		row[i].Quo(row[i], big.NewInt(int64(i)))
	}
	return row
}

// Complement returns the polynomial of the dual count: B[i] = C(N,i) −
// A[N−i], the number of i-subsets whose complement contains no quorum, that
// is the i-subsets meeting every quorum (transversals).
func (p *Polynomial) Complement() *Polynomial {
	row := binomialRow(p.N)
	q := NewPolynomial(p.N)
	for i := range q.A {
		q.A[i].Sub(row[i], p.A[p.N-i])
	}
	return q
}
