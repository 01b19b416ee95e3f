package galois

import "fmt"

// MaxOrder is the largest field order New accepts: 2^16, so that elements
// and logarithms fit the 16-bit tables.
const MaxOrder = 1 << 16

// PrimePower reports whether q = p^m for a prime p and m ≥ 1, and returns p
// and m. It returns ok = false for q < 2.
func PrimePower(q int) (p, m int, ok bool) {
	if q < 2 {
		return 0, 0, false
	}
	p = smallestFactor(q)
	for r := q; r > 1; r /= p {
		if r%p != 0 {
			return 0, 0, false
		}
		m++
	}
	return p, m, true
}

// smallestFactor returns the smallest prime factor of n ≥ 2.
func smallestFactor(n int) int {
	if n%2 == 0 {
		return 2
	}
	for d := 3; d*d <= n; d += 2 {
		if n%d == 0 {
			return d
		}
	}
	return n
}

// primeFactors returns the distinct prime factors of n ≥ 1 in increasing
// order.
func primeFactors(n int) []int {
	var fs []int
	for n > 1 {
		d := smallestFactor(n)
		fs = append(fs, d)
		for n%d == 0 {
			n /= d
		}
	}
	return fs
}

// Totient returns Euler's φ(n), the number of integers in 1..n coprime to n,
// for n ≥ 1. GF(q) has Totient(q-1) primitive elements.
func Totient(n int) int {
	t := n
	for _, p := range primeFactors(n) {
		t = t / p * (p - 1)
	}
	return t
}

// NearestPrimePowers returns the largest prime power below q and the
// smallest above it; either is 0 when there is none (nothing below 2).
// q itself is never returned.
func NearestPrimePowers(q int) (below, above int) {
	for b := q - 1; b >= 2; b-- {
		if _, _, ok := PrimePower(b); ok {
			below = b
			break
		}
	}
	// A prime lies between q and 2q (Bertrand), so this loop is short.
	for a := max(q+1, 2); ; a++ {
		if _, _, ok := PrimePower(a); ok {
			return below, a
		}
	}
}

// OrderError is returned by [New] for an order that is not a prime power or
// is out of range. Below and Above are the nearest valid orders (0 if none).
type OrderError struct {
	Q            int
	Below, Above int
}

func (e *OrderError) Error() string {
	switch {
	case e.Q > MaxOrder:
		return fmt.Sprintf("galois: order %d exceeds the largest supported order %d", e.Q, MaxOrder)
	case e.Q < 2:
		return fmt.Sprintf("galois: order %d is not a prime power: the smallest field has 2 elements", e.Q)
	case e.Above > MaxOrder:
		return fmt.Sprintf("galois: order %d is not a prime power; the nearest supported order is %d", e.Q, e.Below)
	default:
		return fmt.Sprintf("galois: order %d is not a prime power; the nearest prime powers are %d and %d",
			e.Q, e.Below, e.Above)
	}
}

func orderError(q int) *OrderError {
	e := &OrderError{Q: q}
	if q > MaxOrder {
		e.Below, _ = NearestPrimePowers(MaxOrder + 1)
		return e
	}
	e.Below, e.Above = NearestPrimePowers(q)
	return e
}
