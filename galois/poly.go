package galois

// Polynomials over GF(p) as coefficient slices, lowest degree first, used
// only to choose the primitive polynomial; the field itself uses tables.

// primitiveRoot returns the least primitive root mod the prime p.
func primitiveRoot(p int) int {
	if p == 2 {
		return 1
	}
	fs := primeFactors(p - 1)
next:
	for g := 2; ; g++ {
		for _, r := range fs {
			if powMod(g, (p-1)/r, p) == 1 {
				continue next
			}
		}
		return g
	}
}

// powMod returns b^e mod n for e ≥ 0.
func powMod(b, e, n int) int {
	r := 1 % n
	b %= n
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % n
		}
		b = b * b % n
	}
	return r
}

// primitivePoly returns the first monic primitive polynomial of degree m ≥ 2
// over GF(p), in the order of the base-p number c_0 + c_1·p + ... of its lower
// coefficients: the coefficients c_0..c_m.
func primitivePoly(p, m int) []int {
	q := 1
	for range m {
		q *= p
	}
	fs := primeFactors(q - 1)
	poly := make([]int, m+1)
	poly[m] = 1
	for low := 1; low < q; low++ {
		c := low
		for i := range m {
			poly[i] = c % p
			c /= p
		}
		if poly[0] == 0 {
			continue // divisible by x
		}
		if isPrimitive(poly, p, q, fs) {
			return poly
		}
	}
	panic("galois: internal error: no primitive polynomial") // one always exists
}

// isPrimitive reports whether x has multiplicative order exactly q-1 modulo
// poly, where fs are the prime factors of q-1. That makes poly primitive: if
// poly were reducible, the units of GF(p)[x]/(poly) would number fewer than
// q-1 and no element could have order q-1.
func isPrimitive(poly []int, p, q int, fs []int) bool {
	x := []int{0, 1}
	if !isOne(polyPowMod(x, q-1, poly, p)) {
		return false
	}
	for _, r := range fs {
		if isOne(polyPowMod(x, (q-1)/r, poly, p)) {
			return false
		}
	}
	return true
}

func isOne(a []int) bool {
	if len(a) == 0 || a[0] != 1 {
		return false
	}
	for _, c := range a[1:] {
		if c != 0 {
			return false
		}
	}
	return true
}

// polyMulMod returns a·b mod the monic mod, over GF(p); a and b have degree
// below deg(mod).
func polyMulMod(a, b, mod []int, p int) []int {
	m := len(mod) - 1
	r := make([]int, len(a)+len(b))
	for i, x := range a {
		if x == 0 {
			continue
		}
		for j, y := range b {
			r[i+j] = (r[i+j] + x*y) % p
		}
	}
	// Reduce from the top: c·x^k = c·x^(k-m)·(x^m - mod).
	for k := len(r) - 1; k >= m; k-- {
		c := r[k]
		if c == 0 {
			continue
		}
		for i := range m + 1 {
			r[k-m+i] = ((r[k-m+i]-c*mod[i])%p + p) % p
		}
	}
	if len(r) > m {
		r = r[:m]
	}
	return r
}

// polyPowMod returns a^e mod mod over GF(p), e ≥ 0.
func polyPowMod(a []int, e int, mod []int, p int) []int {
	r := []int{1}
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = polyMulMod(r, a, mod, p)
		}
		a = polyMulMod(a, a, mod, p)
	}
	return r
}
