package availability

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Threshold returns the polynomial of the system of all w-subsets of n
// nodes (majority, uniform k-arbiters): A_i = C(n, i) for i ≥ w, else 0, so
// AV(p) is the binomial tail P[Bin(n, p) ≥ w] (Kuo 2001, Section 5: the
// uniform k-arbiter with w = ⌈(kN+1)/(k+1)⌉). Cost: C(n, w), then n − w
// big-integer multiplications by small numbers, milliseconds for
// n = 10,001; the coefficients take about Σ log2 C(n, i) bits
// ([ThresholdBytes]), some 60 GB for a majority of 10^6 nodes.
func Threshold(n, w int) *Polynomial {
	p, _ := ThresholdContext(context.Background(), n, w, 0)
	return p
}

// ThresholdContext is [Threshold] watching ctx, and refusing, with an
// error wrapping [set.ErrMemoryBudget], coefficients that would take more
// than maxBytes (0: no limit) by [ThresholdBytes].
func ThresholdContext(ctx context.Context, n, w int, maxBytes int64) (*Polynomial, error) {
	w = max(w, 0)
	if maxBytes > 0 {
		if need := ThresholdBytes(n, w); need > maxBytes {
			return nil, fmt.Errorf("availability: the coefficients of the %d-of-%d threshold take about %d MiB, more than the memory budget of %d MiB: %w",
				w, n, need>>20, maxBytes>>20, set.ErrMemoryBudget)
		}
	}
	p := &Polynomial{N: n, A: make([]*big.Int, n+1)}
	for i := range min(w, n+1) {
		p.A[i] = new(big.Int)
	}
	if w > n {
		return p, ctx.Err()
	}
	c, err := set.BinomialContext(ctx, n, w)
	if err != nil {
		return nil, err
	}
	var m, d big.Int
	for i := w; i <= n; i++ {
		if i > w {
			if i&0xff == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			c.Mul(c, m.SetInt64(int64(n-i+1)))
			c.Quo(c, d.SetInt64(int64(i)))
		}
		p.A[i] = new(big.Int).Set(c)
	}
	return p, ctx.Err()
}

// ThresholdBytes estimates the bytes of [Threshold]'s coefficients:
// log2 C(n, i) bits for each i ≥ w (by the log-gamma function), plus a
// big.Int's header each.
func ThresholdBytes(n, w int) int64 {
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	bytes := 0.0
	for i := max(w, 0); i <= n; i++ {
		bits := (lg(n) - lg(i) - lg(n-i)) / math.Ln2
		bytes += bits/8 + 40
	}
	return int64(min(bytes, math.MaxInt64/2))
}

// allSubsets reports whether f is every w-subset of its nodes for one w,
// and returns that w: t's threshold when f is a threshold family (t is
// its typed form's [quorum.Thresholder], nil for any other family),
// otherwise whether its list holds them all ([isAllSubsets]).
func allSubsets(f *set.Family, t quorum.Thresholder) (int, bool) {
	if t != nil {
		return t.Threshold(), true
	}
	return isAllSubsets(f)
}

// isAllSubsets reports whether the explicit family f lists every w-subset
// of its nodes for one w, and returns that w.
func isAllSubsets(f *set.Family) (int, bool) {
	if len(f.Quorums) == 0 {
		return 0, false
	}
	w := f.Quorums[0].Len()
	want := set.Binomial(f.N, w)
	if !want.IsInt64() || want.Int64() != int64(len(f.Quorums)) {
		// Repeats could make up the number; then the count of distinct
		// quorums falls short and the test below fails anyway.
		if want.Cmp(big.NewInt(int64(len(f.Quorums)))) > 0 {
			return 0, false
		}
	}
	seen := make(map[string]bool, len(f.Quorums))
	for i := range f.Quorums {
		q := &f.Quorums[i]
		if q.Len() != w {
			return 0, false
		}
		if m, ok := q.Max(); !ok || m >= f.N {
			return 0, false
		}
		seen[q.String()] = true
	}
	if !want.IsInt64() || int64(len(seen)) != want.Int64() {
		return 0, false
	}
	return w, true
}

// Product returns the polynomial of the slab system over the grid
// [a_1] × … × [a_d]: a live set contains a quorum iff, in every dimension j,
// some slab {x : x_j = b} is all up. Its quorums are the unions of one slab
// per dimension: for d = 2 Maekawa's grid (a full row and a full column),
// for d = k+1 and all a_j = a the (k+1)-cube k-arbiter of Manabe and
// Tajima. Inclusion–exclusion over the sets B_j of full slabs in each
// dimension depends only on their sizes s_j, and their union has
// n − Π(a_j − s_j) nodes, so
//
//	A_i = Σ_{1≤s_j≤a_j} Π_j (−1)^{s_j+1} C(a_j, s_j) · C(n−u, i−u),  u = n − Π(a_j − s_j).
//
// Terms with the same u are merged first. Cost: Π a_j small terms, then
// one binomial row per distinct u.
func Product(dims ...int) *Polynomial {
	n := 1
	for _, a := range dims {
		n *= a
	}
	// coef[u] = signed sum of Π C(a_j, s_j) over the s with union size u.
	coef := map[int]*big.Int{}
	s := make([]int, len(dims))
	for j := range s {
		s[j] = 1
	}
	for {
		rest := 1
		c := big.NewInt(1)
		neg := false
		for j, a := range dims {
			rest *= a - s[j]
			c.Mul(c, new(big.Int).Binomial(int64(a), int64(s[j])))
			if s[j]%2 == 0 {
				neg = !neg
			}
		}
		if neg {
			c.Neg(c)
		}
		u := n - rest
		if coef[u] == nil {
			coef[u] = new(big.Int)
		}
		coef[u].Add(coef[u], c)
		j := 0
		for j < len(s) && s[j] == dims[j] {
			s[j] = 1
			j++
		}
		if j == len(s) {
			break
		}
		s[j]++
	}
	us := make([]int, 0, len(coef))
	for u := range coef {
		us = append(us, u)
	}
	slices.Sort(us)
	p := NewPolynomial(n)
	var t big.Int
	for _, u := range us {
		c := coef[u]
		if c.Sign() == 0 {
			continue
		}
		row := binomialRow(n - u)
		for i := u; i <= n; i++ {
			t.Mul(c, row[i-u])
			p.A[i].Add(p.A[i], &t)
		}
	}
	return p
}

// productFamily returns the quorums of [Product] over dims with node
// Σ x_j·(a_1⋯a_{j−1}) (the first coordinate varies fastest), one quorum per
// choice of slabs, as a set of strings for comparison; nil once ctx is
// done (it takes n²·d steps, seconds for n in the ten thousands).
func productQuorums(ctx context.Context, dims []int) (n int, qs map[string]bool) {
	n = 1
	for _, a := range dims {
		n *= a
	}
	coord := func(v, j int) int {
		for _, a := range dims[:j] {
			v /= a
		}
		return v % dims[j]
	}
	qs = make(map[string]bool, n)
	q := set.New(n)
	for b := range n { // b encodes the slab choice (b_1..b_d) the same way
		if b%64 == 0 && ctx.Err() != nil {
			return n, nil
		}
		q.Clear()
		for v := range n {
			for j := range dims {
				if coord(v, j) == coord(b, j) {
					q.Add(v)
					break
				}
			}
		}
		qs[q.String()] = true
	}
	return n, qs
}

// productDims returns dims such that f is exactly the slab system of
// [Product] in the numbering of productQuorums, trying first the
// dimensions of the slab system the file's construction claims to be (a
// [quorum.SlabGrid]: Maekawa's full grid, the (k+1)-cube) and then every
// factorisation of n into 2 factors or into equal factors whose sizes and
// count fit. The quorums are always compared in full: the claim alone is
// never trusted.
func productDims(ctx context.Context, f *set.Family) ([]int, bool) {
	if len(f.Quorums) == 0 || len(f.Quorums) > 1<<16 {
		return nil, false
	}
	n := f.N
	size := f.Quorums[0].Len()
	var cands [][]int
	if d, ok := claimedSlabs(f); ok {
		cands = append(cands, d)
		if r := slices.Clone(d); len(r) == 2 && r[0] != r[1] {
			slices.Reverse(r)
			cands = append(cands, r)
		}
	}
	for r := 1; r <= n; r++ {
		if n%r == 0 {
			cands = append(cands, []int{r, n / r})
		}
	}
	for d := 3; 1<<d <= n; d++ {
		a := 2
		for pow(a, d) < n {
			a++
		}
		if pow(a, d) == n {
			dims := make([]int, d)
			for j := range dims {
				dims[j] = a
			}
			cands = append(cands, dims)
		}
	}
	for _, dims := range cands {
		rest := 1
		for _, a := range dims {
			rest *= a - 1
		}
		if pow1(dims) != n || n-rest != size || len(f.Quorums) < n {
			continue
		}
		if sameQuorums(ctx, f, dims) {
			return dims, true
		}
	}
	return nil, false
}

// pow returns a^d, or a number above 1<<30 (more than any node count)
// when a^d is larger; it never overflows, even with a 32-bit int.
func pow(a, d int) int {
	r := 1
	for range d {
		if r > (1<<30)/a {
			return 1<<30 + 1
		}
		r *= a
	}
	return r
}

func pow1(dims []int) int {
	r := 1
	for _, a := range dims {
		r *= a
	}
	return r
}

// sameQuorums reports whether f's distinct quorums are exactly those of the
// product over dims; false once ctx is done.
func sameQuorums(ctx context.Context, f *set.Family, dims []int) bool {
	_, want := productQuorums(ctx, dims)
	if want == nil {
		return false
	}
	got := make(map[string]bool, len(f.Quorums))
	for i := range f.Quorums {
		k := f.Quorums[i].String()
		if !want[k] {
			return false
		}
		got[k] = true
	}
	return len(got) == len(want)
}

// claimedSlabs returns the dimensions of the slab system that f's
// construction claims to be, if it claims one.
func claimedSlabs(f *set.Family) ([]int, bool) {
	sys, ok := construct.Claimed(f)
	if !ok {
		return nil, false
	}
	s, ok := sys.(quorum.SlabGrid)
	if !ok {
		return nil, false
	}
	return s.SlabDims(), true
}

// paramInt returns an integer parameter of f, or 0.
func paramInt(f *set.Family, name string) int {
	v, _ := f.Params.Int(name)
	return v
}

// Compose returns the polynomial of Kuo's join C3 = C1 ⊕x C2 (Section 4)
// from the outer system's two restrictions at x and the inner polynomial:
// g1 counts the subsets S of U1∖{x} with S ∪ {x} containing a quorum of C1,
// g0 those containing a quorum of C1 without x (both over n1−1 nodes), and
// inner is C2's polynomial over n2 nodes. Since C3's live set contains a
// quorum iff it contains one of C1 with x read as "C2 has a live quorum"
// (Corollary 5), and that event depends on disjoint nodes,
//
//	A3(t) = G1(t)·A2(t) + G0(t)·((1+t)^{n2} − A2(t)).
//
// With polynomials read as AV at a common p this is exactly Corollary 5:
// AV3(p) = p'·AV(g1) + (1−p')·AV(g0) with p' = AV2(p).
func Compose(g1, g0, inner *Polynomial) (*Polynomial, error) {
	if g1.N != g0.N {
		return nil, fmt.Errorf("availability: compose: restrictions over %d and %d nodes", g1.N, g0.N)
	}
	n := g1.N + inner.N
	row := binomialRow(inner.N)
	miss := make([]*big.Int, inner.N+1) // (1+t)^{n2} − A2
	for i := range miss {
		miss[i] = new(big.Int).Sub(row[i], inner.A[i])
	}
	p := NewPolynomial(n)
	var t big.Int
	for i, a := range g1.A {
		for j := range inner.A {
			if a.Sign() != 0 && inner.A[j].Sign() != 0 {
				t.Mul(a, inner.A[j])
				p.A[i+j].Add(p.A[i+j], &t)
			}
			if b := g0.A[i]; b.Sign() != 0 && miss[j].Sign() != 0 {
				t.Mul(b, miss[j])
				p.A[i+j].Add(p.A[i+j], &t)
			}
		}
	}
	return p, nil
}

// Restrict returns the two restrictions of f at node x as families over the
// other n−1 nodes (renumbered: nodes above x move down by one): g1 = {Q ∖
// {x}} for every quorum Q (x up), g0 = {Q : x ∉ Q} (x down). g0 may be
// empty. An implicit family is listed first; one with too many quorums to
// list gives nil, nil. A threshold family's quorums are its C(n, w)
// w-subsets.
func Restrict(f *set.Family, x int) (g1, g0 *set.Family) {
	f, err := explicitFamily(context.Background(), f)
	if err != nil {
		return nil, nil
	}
	n := f.N - 1
	g1, g0 = set.NewFamily(n), set.NewFamily(n)
	g1.K, g0.K = f.K, f.K
	for _, q := range f.All() {
		s := set.New(n)
		for v := range q.All() {
			switch {
			case v < x:
				s.Add(v)
			case v > x:
				s.Add(v - 1)
			}
		}
		if q.Has(x) {
			g1.Add(s, set.NoOwner)
		} else {
			g0.Add(s.Clone(), set.NoOwner)
			g1.Add(s, set.NoOwner)
		}
	}
	return g1, g0
}
