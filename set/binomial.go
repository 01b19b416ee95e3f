package set

import (
	"context"
	"math/big"
)

// binomialDirect is the k below which [Binomial] uses big.Int.Binomial,
// whose k steps each multiply and divide the growing result: quadratic in
// the result's length, which is fast for small k and slow past a few
// thousand (C(10^6, 5·10^5) took minutes).
const binomialDirect = 64

// Binomial returns C(n, k), the number of k-subsets of n elements, exactly
// (0 when k < 0 or k > n). Past small k it multiplies the prime powers
// of C(n, k) (Legendre's formula: the exponent of p is the number of
// carries when adding k and n−k in base p, Kummer 1852) in a balanced
// product tree: C(10^6, 5·10^5), of a million bits, in a fraction of a
// second. It takes about n bytes for the sieve of the primes up to n.
func Binomial(n, k int) *big.Int {
	c, _ := BinomialContext(context.Background(), n, k)
	return c
}

// BinomialContext is [Binomial] watching ctx: once ctx is done it returns
// nil and ctx's error.
func BinomialContext(ctx context.Context, n, k int) (*big.Int, error) {
	if k < 0 || k > n {
		return new(big.Int), ctx.Err()
	}
	k = min(k, n-k)
	if k < binomialDirect {
		return new(big.Int).Binomial(int64(n), int64(k)), ctx.Err()
	}
	composite := make([]bool, n+1)
	var factors []*big.Int
	acc := uint64(1)
	for p := 2; p <= n; p++ {
		if p&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if composite[p] {
			continue
		}
		for q := p * p; q <= n && q > 0; q += p {
			composite[q] = true
		}
		// Legendre: the exponent of p in n!/(k!(n−k)!).
		e := 0
		for pp := p; ; pp *= p {
			e += n/pp - k/pp - (n-k)/pp
			if pp > n/p {
				break
			}
		}
		for ; e > 0; e-- {
			if acc > (1<<63)/uint64(p) {
				factors = append(factors, new(big.Int).SetUint64(acc))
				acc = 1
			}
			acc *= uint64(p)
		}
	}
	if acc > 1 {
		factors = append(factors, new(big.Int).SetUint64(acc))
	}
	// Multiply neighbours, level by level: the operands of each product
	// have about the same length, so Karatsuba does its best.
	for len(factors) > 1 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next := factors[:0]
		for i := 0; i < len(factors); i += 2 {
			if i+1 == len(factors) {
				next = append(next, factors[i])
				break
			}
			next = append(next, factors[i].Mul(factors[i], factors[i+1]))
		}
		factors = next
	}
	if len(factors) == 0 {
		return big.NewInt(1), nil
	}
	return factors[0], nil
}
