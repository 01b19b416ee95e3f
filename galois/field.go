package galois

import (
	"fmt"
	"strings"
)

// Field is the finite field GF(q), q = p^m. Elements are the ints 0..q-1
// (see the package documentation for the encoding). A Field is immutable
// and safe for concurrent use.
//
// Methods taking elements expect them in 0..q-1; out-of-range values give
// meaningless results or panic with an index error.
type Field struct {
	q, p, m int
	alpha   int
	poly    []int // primitive polynomial, c_0..c_m with c_m = 1; nil for m = 1
	low     int   // c_0..c_{m-1} of poly as a base-p integer

	exp  []uint16 // exp[i] = α^i for 0 ≤ i < 2(q-1)
	log  []uint16 // log[a] = i with α^i = a, for a ≠ 0
	neg  []uint16 // neg[a] = -a
	zech []int32  // zech[d] = log(1 + α^d), or -1 when 1 + α^d = 0 (p odd, m ≥ 2 only)
}

// New returns GF(q). It returns an [*OrderError] naming the nearest valid
// orders if q is not a prime power or exceeds [MaxOrder].
//
// Cost: O(q·m) time and O(q) memory.
func New(q int) (*Field, error) {
	if q > MaxOrder {
		return nil, orderError(q)
	}
	p, m, ok := PrimePower(q)
	if !ok {
		return nil, orderError(q)
	}
	f := &Field{q: q, p: p, m: m}
	if m == 1 {
		f.alpha = primitiveRoot(p)
	} else {
		f.poly = primitivePoly(p, m)
		f.low = polyInt(f.poly, p)
		f.alpha = p // the polynomial x
	}
	f.tables()
	return f, nil
}

// MustNew is like [New] but panics on an error. It is meant for orders known
// to be valid, such as constants in tests.
func MustNew(q int) *Field {
	f, err := New(q)
	if err != nil {
		panic(err)
	}
	return f
}

// tables fills exp, log, neg and zech.
func (f *Field) tables() {
	q, p := f.q, f.p
	f.exp = make([]uint16, 2*(q-1))
	f.log = make([]uint16, q)
	f.neg = make([]uint16, q)
	powers := f.powers()
	seen := make([]bool, q)
	for i := range q - 1 {
		e := powers()
		if seen[e] || e == 0 {
			panic(fmt.Sprintf("galois: internal error: α = %d has order %d in GF(%d)", f.alpha, i, q))
		}
		seen[e] = true
		f.exp[i], f.exp[i+q-1] = uint16(e), uint16(e)
		f.log[e] = uint16(i)
	}
	if e := powers(); e != 1 {
		panic(fmt.Sprintf("galois: internal error: α^%d = %d in GF(%d)", q-1, e, q))
	}
	if p == 2 {
		for a := range q {
			f.neg[a] = uint16(a)
		}
		return
	}
	// In odd characteristic -1 = α^((q-1)/2).
	for i := range q - 1 {
		f.neg[f.exp[i]] = f.exp[i+(q-1)/2]
	}
	if f.m > 1 {
		f.zech = make([]int32, q-1)
		for d := range q - 1 {
			// 1 + α^d: add one to the constant coefficient.
			a := int(f.exp[d])
			s := a - a%p + (a%p+1)%p
			if s == 0 {
				f.zech[d] = -1
			} else {
				f.zech[d] = int32(f.log[s])
			}
		}
	}
}

// powers returns a function yielding 1, α, α², ... computed without tables:
// modular multiplication for a prime field, polynomial arithmetic modulo
// the primitive polynomial otherwise.
func (f *Field) powers() func() int {
	p, m, q := f.p, f.m, f.q
	e := 1
	switch {
	case m == 1:
		return func() int {
			r := e
			e = e * f.alpha % p
			return r
		}
	case p == 2:
		return func() int {
			r := e
			e <<= 1
			if e&q != 0 {
				// Clear x^m and add x^m = c_0 + ... + c_{m-1}x^{m-1} (signs vanish).
				e ^= q | f.low
			}
			return r
		}
	}
	// Digits c_0..c_{m-1} of the current power; x·e shifts them up one place
	// and replaces t·x^m by -t·(c_0 + ... + c_{m-1}x^{m-1}).
	d := make([]int, m)
	d[0] = 1
	return func() int {
		r := 0
		for i := m - 1; i >= 0; i-- {
			r = r*p + d[i]
		}
		t := d[m-1]
		copy(d[1:], d[:m-1])
		d[0] = 0
		if t != 0 {
			for i := range m {
				d[i] = (d[i] + (p-t)*f.poly[i]) % p
			}
		}
		return r
	}
}

// polyInt encodes the lower coefficients c_0..c_{m-1} of poly as a base-p
// integer.
func polyInt(poly []int, p int) int {
	r := 0
	for i := len(poly) - 2; i >= 0; i-- {
		r = r*p + poly[i]
	}
	return r
}

// Order returns q, the number of elements.
func (f *Field) Order() int { return f.q }

// Char returns the characteristic p.
func (f *Field) Char() int { return f.p }

// Degree returns m, with q = p^m.
func (f *Field) Degree() int { return f.m }

// Primitive returns α, the primitive element the logarithms are taken to.
func (f *Field) Primitive() int { return f.alpha }

// Poly returns the coefficients c_0..c_m of the primitive polynomial defining
// the field (c_m = 1), or nil for a prime field.
func (f *Field) Poly() []int { return append([]int(nil), f.poly...) }

// Add returns a + b.
func (f *Field) Add(a, b int) int {
	switch {
	case f.p == 2:
		return a ^ b
	case f.m == 1:
		if s := a + b; s < f.p {
			return s
		} else {
			return s - f.p
		}
	case a == 0:
		return b
	case b == 0:
		return a
	}
	// a + b = a·(1 + b/a) = α^(la + zech(lb - la)).
	la, lb := int(f.log[a]), int(f.log[b])
	d := lb - la
	if d < 0 {
		d += f.q - 1
	}
	z := f.zech[d]
	if z < 0 {
		return 0
	}
	return int(f.exp[la+int(z)])
}

// Neg returns -a.
func (f *Field) Neg(a int) int { return int(f.neg[a]) }

// Sub returns a - b.
func (f *Field) Sub(a, b int) int { return f.Add(a, int(f.neg[b])) }

// Mul returns a·b.
func (f *Field) Mul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	return int(f.exp[int(f.log[a])+int(f.log[b])])
}

// Inv returns 1/a. It panics if a is 0.
func (f *Field) Inv(a int) int {
	if a == 0 {
		panic("galois: inverse of 0")
	}
	return int(f.exp[(f.q-1-int(f.log[a]))%(f.q-1)])
}

// Div returns a/b. It panics if b is 0.
func (f *Field) Div(a, b int) int {
	if b == 0 {
		panic("galois: division by 0")
	}
	if a == 0 {
		return 0
	}
	return int(f.exp[int(f.log[a])+f.q-1-int(f.log[b])])
}

// Exp returns α^i for any integer i.
func (f *Field) Exp(i int) int {
	i %= f.q - 1
	if i < 0 {
		i += f.q - 1
	}
	return int(f.exp[i])
}

// Log returns the discrete logarithm of a: the i in 0..q-2 with α^i = a. It
// panics if a is 0.
func (f *Field) Log(a int) int {
	if a == 0 {
		panic("galois: logarithm of 0")
	}
	return int(f.log[a])
}

// Pow returns a^e. For e < 0 it returns (1/a)^(-e) and panics if a is 0;
// 0^0 = 1.
func (f *Field) Pow(a, e int) int {
	if a == 0 {
		switch {
		case e > 0:
			return 0
		case e == 0:
			return 1
		}
		panic("galois: negative power of 0")
	}
	n := f.q - 1
	k := int(int64(f.log[a]) * int64(e%n) % int64(n))
	if k < 0 {
		k += n
	}
	return int(f.exp[k])
}

// String describes the field, such as "GF(9) = GF(3)[x]/(x^2 + 2x + 2)" or
// "GF(7), α = 3".
func (f *Field) String() string {
	if f.m == 1 {
		return fmt.Sprintf("GF(%d), α = %d", f.q, f.alpha)
	}
	var terms []string
	for i := f.m; i >= 0; i-- {
		c := f.poly[i]
		if c == 0 {
			continue
		}
		var t string
		switch i {
		case 0:
			t = fmt.Sprint(c)
		case 1:
			t = "x"
		default:
			t = fmt.Sprintf("x^%d", i)
		}
		if c != 1 && i > 0 {
			t = fmt.Sprint(c) + t
		}
		terms = append(terms, t)
	}
	return fmt.Sprintf("GF(%d) = GF(%d)[x]/(%s)", f.q, f.p, strings.Join(terms, " + "))
}
