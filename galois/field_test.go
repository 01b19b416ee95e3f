package galois_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/galois"
)

// primePowers returns every prime power in 2..n, found with a sieve: an
// independent oracle for galois.PrimePower.
func primePowers(n int) map[int][2]int {
	composite := make([]bool, n+1)
	pp := map[int][2]int{}
	for p := 2; p <= n; p++ {
		if composite[p] {
			continue
		}
		for j := p * p; j <= n; j += p {
			composite[j] = true
		}
		for q, m := p, 1; q <= n; q, m = q*p, m+1 {
			pp[q] = [2]int{p, m}
		}
	}
	return pp
}

func TestPrimePower(t *testing.T) {
	const n = galois.MaxOrder + 100
	want := primePowers(n)
	for q := -2; q <= n; q++ {
		p, m, ok := galois.PrimePower(q)
		w, wok := want[q]
		if ok != wok || (ok && (p != w[0] || m != w[1])) {
			t.Fatalf("PrimePower(%d) = %d, %d, %v; want %d, %d, %v", q, p, m, ok, w[0], w[1], wok)
		}
	}
	// 6,542 primes below 2^16 and 93 higher powers p^m ≤ 2^16, m ≥ 2
	// (54 squares, 12 cubes, 6 fourth powers, ...).
	count := 0
	for q := range want {
		if q <= galois.MaxOrder {
			count++
		}
	}
	if count != 6542+93 {
		t.Errorf("%d prime powers up to 2^16, want %d", count, 6542+93)
	}
}

func TestNewErrors(t *testing.T) {
	for _, tt := range []struct {
		q            int
		below, above int
		msg          string
	}{
		{6, 5, 7, "galois: order 6 is not a prime power; the nearest prime powers are 5 and 7"},
		{10, 9, 11, "galois: order 10 is not a prime power; the nearest prime powers are 9 and 11"},
		{100, 97, 101, "galois: order 100 is not a prime power; the nearest prime powers are 97 and 101"},
		{0, 0, 2, "galois: order 0 is not a prime power: the smallest field has 2 elements"},
		{1, 0, 2, "galois: order 1 is not a prime power: the smallest field has 2 elements"},
		{-7, 0, 2, "galois: order -7 is not a prime power: the smallest field has 2 elements"},
		{65535, 65521, 65536, "galois: order 65535 is not a prime power; the nearest prime powers are 65521 and 65536"},
		{65537, 65536, 0, "galois: order 65537 exceeds the largest supported order 65536"},
	} {
		t.Run(fmt.Sprint(tt.q), func(t *testing.T) {
			f, err := galois.New(tt.q)
			if err == nil {
				t.Fatalf("New(%d) = %v, want an error", tt.q, f)
			}
			if err.Error() != tt.msg {
				t.Errorf("New(%d) error:\n got %q\nwant %q", tt.q, err, tt.msg)
			}
			var oe *galois.OrderError
			if !errors.As(err, &oe) || oe.Below != tt.below || (tt.q <= galois.MaxOrder && oe.Above != tt.above) {
				t.Errorf("New(%d) error = %#v, want Below %d, Above %d", tt.q, oe, tt.below, tt.above)
			}
		})
	}
}

// smallOrders are the prime powers up to 64, checked exhaustively.
var smallOrders = []int{2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32,
	37, 41, 43, 47, 49, 53, 59, 61, 64}

func TestSmallOrdersComplete(t *testing.T) {
	var want []int
	for q := 2; q <= 64; q++ {
		if _, _, ok := galois.PrimePower(q); ok {
			want = append(want, q)
		}
	}
	if fmt.Sprint(want) != fmt.Sprint(smallOrders) {
		t.Fatalf("prime powers ≤ 64 = %v, test list %v", want, smallOrders)
	}
}

// TestFieldAxiomsExhaustive checks every field axiom on every pair and triple
// of elements, for every q ≤ 64.
func TestFieldAxiomsExhaustive(t *testing.T) {
	for _, q := range smallOrders {
		t.Run(fmt.Sprint(q), func(t *testing.T) {
			f := galois.MustNew(q)
			for a := range q {
				if f.Add(a, 0) != a || f.Mul(a, 1) != a || f.Mul(a, 0) != 0 {
					t.Fatalf("identities fail at a = %d", a)
				}
				if f.Add(a, f.Neg(a)) != 0 || f.Sub(a, a) != 0 {
					t.Fatalf("a + (-a) = %d at a = %d", f.Add(a, f.Neg(a)), a)
				}
				if a != 0 {
					if f.Mul(a, f.Inv(a)) != 1 || f.Div(a, a) != 1 {
						t.Fatalf("a · a⁻¹ = %d at a = %d", f.Mul(a, f.Inv(a)), a)
					}
					if f.Exp(f.Log(a)) != a {
						t.Fatalf("α^log(%d) = %d", a, f.Exp(f.Log(a)))
					}
				}
				for b := range q {
					s, m := f.Add(a, b), f.Mul(a, b)
					if s < 0 || s >= q || m < 0 || m >= q {
						t.Fatalf("%d+%d = %d, %d·%d = %d out of range", a, b, s, a, b, m)
					}
					if s != f.Add(b, a) || m != f.Mul(b, a) {
						t.Fatalf("not commutative at %d, %d", a, b)
					}
					if f.Sub(s, b) != a {
						t.Fatalf("(%d+%d)-%d = %d", a, b, b, f.Sub(s, b))
					}
					if b != 0 && f.Div(m, b) != a {
						t.Fatalf("(%d·%d)/%d = %d", a, b, b, f.Div(m, b))
					}
					if a != 0 && b != 0 && m == 0 {
						t.Fatalf("zero divisors %d·%d = 0", a, b)
					}
					for c := range q {
						if f.Add(s, c) != f.Add(a, f.Add(b, c)) {
							t.Fatalf("+ not associative at %d, %d, %d", a, b, c)
						}
						if f.Mul(m, c) != f.Mul(a, f.Mul(b, c)) {
							t.Fatalf("· not associative at %d, %d, %d", a, b, c)
						}
						if f.Mul(a, f.Add(b, c)) != f.Add(m, f.Mul(a, c)) {
							t.Fatalf("not distributive at %d, %d, %d", a, b, c)
						}
					}
				}
			}
		})
	}
}

// ref is an independent model of GF(p^m) = GF(p)[x]/(poly): schoolbook
// polynomial arithmetic on digit slices, with no tables.
type ref struct {
	p, m int
	poly []int
}

func (r ref) digits(a int) []int {
	d := make([]int, r.m)
	for i := range d {
		d[i] = a % r.p
		a /= r.p
	}
	return d
}

func (r ref) value(d []int) int {
	v := 0
	for i := r.m - 1; i >= 0; i-- {
		v = v*r.p + d[i]
	}
	return v
}

func (r ref) add(a, b int) int {
	x, y := r.digits(a), r.digits(b)
	for i := range x {
		x[i] = (x[i] + y[i]) % r.p
	}
	return r.value(x)
}

func (r ref) mul(a, b int) int {
	if r.m == 1 {
		return a * b % r.p
	}
	x, y := r.digits(a), r.digits(b)
	prod := make([]int, 2*r.m-1)
	for i := range x {
		for j := range y {
			prod[i+j] = (prod[i+j] + x[i]*y[j]) % r.p
		}
	}
	for k := len(prod) - 1; k >= r.m; k-- {
		c := prod[k]
		for i := 0; i <= r.m; i++ {
			prod[k-r.m+i] = ((prod[k-r.m+i]-c*r.poly[i])%r.p + r.p) % r.p
		}
	}
	return r.value(prod[:r.m])
}

// largeOrders cover every kind of field: characteristic 2, large primes,
// odd characteristic with m ≥ 2 (Zech addition), and the extremes.
var largeOrders = []int{128, 243, 256, 343, 625, 1024, 2187, 3125, 4096, 16807, 28561,
	32768, 59049, 63001, 65521, 65536}

func TestFieldSampled(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1985)) // fixed seed: reproducible samples
	for _, q := range append(append([]int(nil), smallOrders...), largeOrders...) {
		t.Run(fmt.Sprint(q), func(t *testing.T) {
			f := galois.MustNew(q)
			p, m, _ := galois.PrimePower(q)
			if f.Char() != p || f.Degree() != m || f.Order() != q {
				t.Fatalf("Char, Degree, Order = %d, %d, %d; want %d, %d, %d", f.Char(), f.Degree(), f.Order(), p, m, q)
			}
			r := ref{p: p, m: m, poly: f.Poly()}
			if m > 1 && (len(r.poly) != m+1 || r.poly[m] != 1) {
				t.Fatalf("Poly() = %v is not monic of degree %d", r.poly, m)
			}
			n := 20000
			if q <= 64 {
				n = q * q
			}
			for i := range n {
				a, b, c := rng.IntN(q), rng.IntN(q), rng.IntN(q)
				if q <= 64 {
					a, b = i/q, i%q
				}
				if got, want := f.Add(a, b), r.add(a, b); got != want {
					t.Fatalf("Add(%d, %d) = %d, reference %d", a, b, got, want)
				}
				if got, want := f.Mul(a, b), r.mul(a, b); got != want {
					t.Fatalf("Mul(%d, %d) = %d, reference %d", a, b, got, want)
				}
				if f.Mul(a, f.Add(b, c)) != f.Add(f.Mul(a, b), f.Mul(a, c)) {
					t.Fatalf("not distributive at %d, %d, %d", a, b, c)
				}
				if f.Mul(f.Mul(a, b), c) != f.Mul(a, f.Mul(b, c)) {
					t.Fatalf("· not associative at %d, %d, %d", a, b, c)
				}
				if f.Add(f.Add(a, b), c) != f.Add(a, f.Add(b, c)) {
					t.Fatalf("+ not associative at %d, %d, %d", a, b, c)
				}
				if a != 0 && f.Mul(a, f.Inv(a)) != 1 {
					t.Fatalf("%d · Inv(%d) = %d", a, a, f.Mul(a, f.Inv(a)))
				}
				if f.Add(a, f.Neg(a)) != 0 {
					t.Fatalf("%d + Neg(%d) = %d", a, a, f.Add(a, f.Neg(a)))
				}
			}
			// α generates: α^i runs over every nonzero element once.
			seen := make([]bool, q)
			x := 1
			for i := range q - 1 {
				if seen[x] || x == 0 {
					t.Fatalf("α^%d = %d repeats", i, x)
				}
				seen[x] = true
				if f.Exp(i) != x {
					t.Fatalf("Exp(%d) = %d, want %d", i, f.Exp(i), x)
				}
				x = r.mul(x, f.Primitive())
			}
			if x != 1 {
				t.Fatalf("α^(q-1) = %d, want 1", x)
			}
		})
	}
}

// order returns the multiplicative order of a ≠ 0 by repeated
// multiplication.
func order(f *galois.Field, a int) int {
	x, k := a, 1
	for x != 1 {
		x = f.Mul(x, a)
		k++
	}
	return k
}

// gcd-based φ, independent of galois.Totient.
func phi(n int) int {
	c := 0
	for k := 1; k <= n; k++ {
		a, b := k, n
		for b != 0 {
			a, b = b, a%b
		}
		if a == 1 {
			c++
		}
	}
	return c
}

func TestPrimitiveElements(t *testing.T) {
	for q := 2; q <= 1024; q++ {
		if _, _, ok := galois.PrimePower(q); !ok {
			continue
		}
		f := galois.MustNew(q)
		count := 0
		for a := 1; a < q; a++ {
			if order(f, a) == q-1 {
				count++
			}
		}
		if count != phi(q-1) || count != galois.Totient(q-1) {
			t.Errorf("GF(%d) has %d primitive elements; φ(%d) = %d (Totient %d)", q, count, q-1, phi(q-1), galois.Totient(q-1))
		}
		if order(f, f.Primitive()) != q-1 {
			t.Errorf("GF(%d): Primitive() = %d has order %d", q, f.Primitive(), order(f, f.Primitive()))
		}
	}
}

// TestPrimitiveElementsLarge counts the primitive elements of large fields
// by the order test a^((q-1)/r) ≠ 1 for every prime r dividing q-1.
func TestPrimitiveElementsLarge(t *testing.T) {
	for _, q := range largeOrders {
		f := galois.MustNew(q)
		var primes []int
		for n, r := q-1, 2; n > 1; r++ {
			if n%r == 0 {
				primes = append(primes, r)
				for n%r == 0 {
					n /= r
				}
			}
		}
		count := 0
	next:
		for a := 1; a < q; a++ {
			for _, r := range primes {
				if f.Pow(a, (q-1)/r) == 1 {
					continue next
				}
			}
			count++
		}
		if count != galois.Totient(q-1) {
			t.Errorf("GF(%d) has %d primitive elements; φ(%d) = %d", q, count, q-1, galois.Totient(q-1))
		}
	}
}

// TestPolyIsFirst checks the documented choice of polynomial by brute force:
// no monic polynomial with a smaller base-p code has x of order q-1.
func TestPolyIsFirst(t *testing.T) {
	for _, q := range []int{4, 8, 9, 16, 25, 27, 32, 49, 64, 81, 121, 125, 128, 256} {
		f := galois.MustNew(q)
		p, m := f.Char(), f.Degree()
		poly := f.Poly()
		code := 0
		for i := m - 1; i >= 0; i-- {
			code = code*p + poly[i]
		}
		for low := 1; low <= code; low++ {
			cand := make([]int, m+1)
			cand[m] = 1
			for i, c := 0, low; i < m; i, c = i+1, c/p {
				cand[i] = c % p
			}
			r := ref{p: p, m: m, poly: cand}
			// Order of x modulo cand, if x is a unit at all.
			x, k := p, 1
			for x != 1 && x != 0 && k < q {
				x = r.mul(x, p)
				k++
			}
			primitive := x == 1 && k == q-1
			if primitive != (low == code) {
				t.Errorf("GF(%d): polynomial code %d primitive = %v; chosen code %d", q, low, primitive, code)
			}
		}
	}
}

func TestKnownFields(t *testing.T) {
	// The usual tables: x^8+x^4+x^3+x^2+1 (0x11D) is the smallest primitive
	// polynomial of degree 8 over GF(2); 3 is the least primitive root of 7.
	for q, want := range map[int]string{
		7:     "GF(7), α = 3",
		9:     "GF(9) = GF(3)[x]/(x^2 + x + 2)",
		256:   "GF(256) = GF(2)[x]/(x^8 + x^4 + x^3 + x^2 + 1)",
		65536: "GF(65536) = GF(2)[x]/(x^16 + x^5 + x^3 + x^2 + 1)",
	} {
		if got := galois.MustNew(q).String(); got != want {
			t.Errorf("GF(%d) = %q, want %q", q, got, want)
		}
	}
}

func TestPow(t *testing.T) {
	f := galois.MustNew(27)
	for a := range 27 {
		x := 1
		for e := range 60 {
			if got := f.Pow(a, e); got != x {
				t.Fatalf("Pow(%d, %d) = %d, want %d", a, e, got, x)
			}
			if a != 0 && f.Pow(a, -e) != f.Inv(x) {
				t.Fatalf("Pow(%d, %d) = %d, want %d", a, -e, f.Pow(a, -e), f.Inv(x))
			}
			x = f.Mul(x, a)
		}
	}
}

func TestEveryOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds all 6,635 fields")
	}
	for q := 2; q <= galois.MaxOrder; q++ {
		if _, _, ok := galois.PrimePower(q); ok {
			// New panics if α fails to generate the multiplicative group.
			if f := galois.MustNew(q); f.Exp(q-1) != 1 {
				t.Fatalf("GF(%d): α^(q-1) = %d", q, f.Exp(q-1))
			}
		}
	}
}

func ExampleField() {
	f := galois.MustNew(9)
	fmt.Println(f)
	a := f.Primitive() // x, the integer 3
	fmt.Println(f.Mul(a, a), f.Add(a, a), f.Inv(a))
	// Output:
	// GF(9) = GF(3)[x]/(x^2 + x + 2)
	// 7 6 4
}

// GF(4) = GF(2)[x]/(x² + x + 1): the elements 0, 1, x, x+1 are the
// integers 0..3, addition is exclusive or, and x·x = x + 1.
func Example() {
	f := galois.MustNew(4)
	fmt.Println(f)
	x := f.Primitive()
	fmt.Println(x, f.Mul(x, x), f.Add(x, f.Mul(x, x)), f.Inv(x))
	// Output:
	// GF(4) = GF(2)[x]/(x^2 + x + 1)
	// 2 3 1 3
}
