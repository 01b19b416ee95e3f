package construct

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/coterie-dev/coterie/set"
)

// JoinCount returns the number of quorums of outer ⊕x inner as [Join] forms
// them, before repeats are merged: the outer quorums without x, plus those
// with x times the inner quorums. Threshold families are counted, not
// enumerated, but exactly: C(n, w) for n near 10^5 takes seconds, and
// [Join] itself only counts up to its limit. x is 0-based; JoinCount panics
// if it is out of range.
func JoinCount(outer, inner *set.Family, x int) *big.Int {
	if x < 0 || x >= outer.N {
		panic(fmt.Sprintf("construct: node %d out of range 0..%d", x, outer.N-1))
	}
	var with, without *big.Int
	if outer.IsThreshold() {
		// Of the w-subsets of n nodes, C(n−1, w−1) hold x and C(n−1, w)
		// do not.
		n, w := outer.N, outer.Threshold
		with = set.Binomial(n-1, w-1)
		without = set.Binomial(n-1, w)
	} else {
		t := outerWith(outer, x)
		with, without = big.NewInt(int64(t)), big.NewInt(int64(len(outer.Quorums)-t))
	}
	c := new(big.Int).Mul(with, inner.Count())
	return c.Add(c, without)
}

// outerWith counts the quorums of an explicit family that contain x.
func outerWith(f *set.Family, x int) int {
	t := 0
	for i := range f.Quorums {
		if f.Quorums[i].Has(x) {
			t++
		}
	}
	return t
}

// binomialAtMost returns C(n, k), and false instead if it exceeds limit.
// It stops as soon as a partial product does, so huge binomials cost
// nothing: C(n−k+i, i) grows with i.
func binomialAtMost(n, k, limit int64) (int64, bool) {
	if k < 0 || k > n {
		return 0, true
	}
	k = min(k, n-k)
	c := uint64(1)
	for i := int64(1); i <= k; i++ {
		// c·(n−k+i)/i is the integer C(n−k+i, i).
		hi, lo := bits.Mul64(c, uint64(n-k+i))
		if hi >= uint64(i) {
			return 0, false // the quotient needs more than 64 bits
		}
		c, _ = bits.Div64(hi, lo, uint64(i))
		if c > uint64(limit) {
			return 0, false
		}
	}
	if c > uint64(limit) {
		return 0, false // C(n, 0) = 1 > limit = 0
	}
	return int64(c), true
}

// log10Binomial approximates log10 C(n, k) with the log-gamma function.
func log10Binomial(n, k int64) float64 {
	lg := func(x int64) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	return (lg(n) - lg(k) - lg(n-k)) / math.Ln10
}

// familyCountAtMost returns the number of quorums of f, and false instead
// if it exceeds limit.
func familyCountAtMost(f *set.Family, limit int64) (int64, bool) {
	if f.IsThreshold() {
		return binomialAtMost(int64(f.N), int64(f.Threshold), limit)
	}
	return int64(len(f.Quorums)), int64(len(f.Quorums)) <= limit
}

// joinCountAtMost returns JoinCount when it is at most limit, without
// computing huge binomials; otherwise false and a description of the count:
// exact when it fits in an int64, else "about 1.2e+345".
func joinCountAtMost(outer, inner *set.Family, x int, limit int64) (int64, bool, string) {
	const big64 = math.MaxInt64
	var with, without, c2 int64
	var okW, okWo bool
	if outer.IsThreshold() {
		n, w := int64(outer.N), int64(outer.Threshold)
		with, okW = binomialAtMost(n-1, w-1, big64)
		without, okWo = binomialAtMost(n-1, w, big64)
	} else {
		t := outerWith(outer, x)
		with, without, okW, okWo = int64(t), int64(len(outer.Quorums)-t), true, true
	}
	c2, okI := familyCountAtMost(inner, big64)
	if okW && okWo && okI {
		hi, lo := bits.Mul64(uint64(with), uint64(c2))
		sum, carry := bits.Add64(lo, uint64(without), 0)
		if hi == 0 && carry == 0 && sum <= big64 {
			return int64(sum), int64(sum) <= limit, fmt.Sprint(sum)
		}
	}
	// Too large for an int64: estimate log10 of with·c2 + without.
	l10 := func(v int64, ok bool, n, k int64) float64 {
		if ok {
			return math.Log10(float64(v))
		}
		return log10Binomial(n, k)
	}
	var a, b float64
	if outer.IsThreshold() {
		n, w := int64(outer.N), int64(outer.Threshold)
		a, b = l10(with, okW, n-1, w-1), l10(without, okWo, n-1, w)
	} else {
		a, b = math.Log10(float64(with)), math.Log10(float64(without))
	}
	a += l10(c2, okI, int64(inner.N), int64(inner.Threshold))
	hi, lo := max(a, b), min(a, b)
	l := hi + math.Log10(1+math.Pow(10, lo-hi))
	e := math.Floor(l)
	return 0, false, fmt.Sprintf("about %.1fe+%d", math.Pow(10, l-e), int64(e))
}

// JoinLimitError is returned (wrapping [set.ErrTooMany]) by [Join] when the
// join would have more quorums than its limit. Count is the number of
// quorums in decimal, or "about 1.2e+345" beyond 64 bits.
type JoinLimitError struct {
	Count string
	Limit int
}

// Error says how many quorums the join would have and the limit.
func (e *JoinLimitError) Error() string {
	return fmt.Sprintf("construct: join: the join has %s quorums, more than the limit of %d", e.Count, e.Limit)
}

// Unwrap returns [set.ErrTooMany].
func (e *JoinLimitError) Unwrap() error { return set.ErrTooMany }

// Join returns Kuo's k-arbiter join C1 ⊕x C2 of outer = C1 and inner = C2
// (Y.-C. Kuo, "k-Arbiter join operation", JISE 2001, Section 4): node x of
// the outer system becomes a logical node standing for any quorum of the
// inner one, so the quorums are
//
//	(Q1 − {x}) ∪ Q2  for Q1 ∈ C1 with x ∈ Q1 and Q2 ∈ C2   (Type-I)
//	Q1               for Q1 ∈ C1 with x ∉ Q1                (Type-II)
//
// over the universe (U1 − {x}) ∪ U2. If C1 and C2 are k-arbiters so is the
// join (Theorem 3), and it is nondominated iff both are (Corollary 4).
//
// Numbering: x is 0-based here (the command line's --at is 1-based). The
// outer nodes other than x keep their order as nodes 0..n1−2 (node i < x
// stays i, node i > x becomes i−1), and inner node j becomes n1−1+j, so the
// result has n1−1+n2 nodes.
//
// Labels: the result always has labels, so that each node says where it
// came from. An outer node keeps its label, or gets its 1-based number in
// the outer system as one. Inner nodes keep the inner system's labels when
// it has them and none equals a kept outer label; otherwise inner node j is
// labelled "X.L", where X is the label (or number) of x and L the inner
// node's label (or 1-based number): joining two unlabelled systems at node 4
// gives labels 1, 2, 3, 5, ..., 4.1, 4.2, ....
//
// Metadata: Kind is "join"; Params holds "at" (x, 1-based), "outer_n" (n1)
// and "inner_n" (n2), "outer_kind" and "inner_kind" when the inputs have a
// Kind, "at_label" when the outer system has labels, and "outer_threshold"
// or "inner_threshold" when an input was a threshold family. With these the
// inputs can be recovered from the result, as Kuo's Corollary 5 needs (the
// availability of the join is the outer system's, with node x up with
// probability the inner system's availability): the inner quorums are the Type-I
// quorums' nodes ≥ n1−1, and the outer quorums are the Type-II quorums and
// the Type-I quorums' nodes < n1−1 with x put back. The result has no owners
// (a Type-I quorum comes from two quorums, so ownership does not carry
// over), K of the inputs, and canonical order; equal quorums (possible only if an input repeats one) are merged.
//
// Errors: x out of range or in no quorum of outer, different k, an input
// that is a level of an (h,k)-arbiter, or a malformed input. Threshold
// inputs are enumerated; Join refuses with a [*JoinLimitError] when the
// result would have more than limit quorums (counted without computing
// binomials beyond the limit), and wrapping [set.ErrTooMany] when they
// would take more than 1 GiB.
func Join(outer, inner *set.Family, x, limit int) (f *set.Family, err error) {
	return JoinContext(context.Background(), outer, inner, x, limit)
}

// JoinContext is [Join] watching ctx: once ctx is done it stops building
// and returns ctx's error.
func JoinContext(ctx context.Context, outer, inner *set.Family, x, limit int) (f *set.Family, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if outer == nil || inner == nil {
		return nil, errorf("join", "nil system")
	}
	if err := outer.Validate(); err != nil {
		return nil, errorf("join", "outer system: %w", err)
	}
	if err := inner.Validate(); err != nil {
		return nil, errorf("join", "inner system: %w", err)
	}
	if outer.H != 0 || inner.H != 0 {
		return nil, errorf("join", "the join takes coteries and k-arbiters, not levels of an (h,k)-arbiter")
	}
	if outer.K != inner.K {
		return nil, errorf("join", "the outer system has k = %d but the inner one k = %d; both must be k-arbiters for the same k",
			outer.K, inner.K)
	}
	if x < 0 || x >= outer.N {
		return nil, errorf("join", "node %d is not a node of the outer system (1..%d)", x+1, outer.N)
	}
	n1, n2 := outer.N, inner.N
	n3 := n1 - 1 + n2
	if n3 > set.MaxNodes {
		return nil, errorf("join", "the join would have %d nodes, more than %d", n3, set.MaxNodes)
	}
	if !outer.IsThreshold() && outerWith(outer, x) == 0 {
		return nil, errorf("join", "node %d (%s) is in no quorum of the outer system, so the join would not use the inner one",
			x+1, outer.Label(x))
	}
	if !inner.IsThreshold() && len(inner.Quorums) == 0 {
		return nil, errorf("join", "the inner system has no quorums")
	}
	count, ok, text := joinCountAtMost(outer, inner, x, int64(max(limit, 0)))
	if !ok {
		return nil, &JoinLimitError{Count: text, Limit: limit}
	}
	if mib := float64(count) * float64((n3+63)/64*8) / (1 << 20); mib > maxExplicitBytes>>20 {
		return nil, errorf("join", "the join's %d quorums over %d nodes need %.0f MiB, more than %d MiB: %w",
			count, n3, mib, maxExplicitBytes>>20, set.ErrTooMany)
	}
	// The count bounds both inputs' (each has at least one quorum), so
	// enumerating a threshold input within limit cannot fail.
	c1, c2 := outer, inner
	if outer.IsThreshold() {
		if c1, err = outer.EnumerateContext(ctx, limit); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, errorf("join", "outer system: %w", err)
		}
	}
	if inner.IsThreshold() {
		if c2, err = inner.EnumerateContext(ctx, limit); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, errorf("join", "inner system: %w", err)
		}
	}

	shifted := make([]set.Set, len(c2.Quorums))
	for j := range c2.Quorums {
		s := &shifted[j]
		s.Grow(n3)
		for v := range c2.Quorums[j].All() {
			s.Add(n1 - 1 + v)
		}
	}
	f = set.NewFamily(n3)
	f.K = outer.K
	var r set.Set
	made := 0
	for i := range c1.Quorums {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r.Clear()
		r.Grow(n3)
		hasX := false
		for v := range c1.Quorums[i].All() {
			switch {
			case v < x:
				r.Add(v)
			case v > x:
				r.Add(v - 1)
			default:
				hasX = true
			}
		}
		if !hasX {
			f.Add(&r, set.NoOwner) // Type-II
			continue
		}
		for j := range shifted {
			if made++; made&4095 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			q := set.New(n3)
			q.Union(&r, &shifted[j]) // Type-I
			f.Quorums = append(f.Quorums, *q)
		}
	}
	f.Canonical()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.Kind = joinKind
	f.Labels = joinLabels(outer, inner, x)
	f.Params = set.Params{"at": x + 1, "outer_n": n1, "inner_n": n2}
	if outer.Kind != "" {
		f.Params["outer_kind"] = outer.Kind
	}
	if inner.Kind != "" {
		f.Params["inner_kind"] = inner.Kind
	}
	if outer.Labels != nil {
		f.Params["at_label"] = outer.Labels[x]
	}
	if outer.IsThreshold() {
		f.Params["outer_threshold"] = outer.Threshold
	}
	if inner.IsThreshold() {
		f.Params["inner_threshold"] = inner.Threshold
	}
	return f, nil
}

// joinLabels returns the labels of outer ⊕x inner, as [Join] documents.
func joinLabels(outer, inner *set.Family, x int) []string {
	labels := make([]string, 0, outer.N-1+inner.N)
	kept := make(map[string]bool, outer.N)
	for i := range outer.N {
		if i != x {
			l := outer.Label(i)
			labels = append(labels, l)
			kept[l] = true
		}
	}
	qualify := inner.Labels == nil
	for _, l := range inner.Labels {
		if kept[l] {
			qualify = true
			break
		}
	}
	prefix := outer.Label(x) + "."
	for j := range inner.N {
		l := inner.Label(j)
		if qualify {
			l = prefix + l
		}
		labels = append(labels, l)
	}
	return labels
}

// JoinClaim returns where the inner system of a join lies, as f's kind
// and params claim it when f was built by [Join]: node ranges [lo, hi)
// (0-based), the likeliest first — the inner system's nodes placed last,
// then at the junction. It is a claim to check on the quorums, nil when f
// does not make it.
func JoinClaim(f *set.Family) [][2]int {
	if f.Kind != "join" {
		return nil
	}
	n := f.N
	var cands [][2]int
	if n2, ok := f.Params.Int("inner_n"); ok && n2 >= 2 && n2 < n {
		cands = append(cands, [2]int{n - n2, n})
		if x, ok := f.Params.Int("at"); ok && x >= 1 && x-1+n2 <= n {
			cands = append(cands, [2]int{x - 1, x - 1 + n2})
		}
	}
	return cands
}

// joinKind is the kind of a join's family.
const joinKind = "join"

// joinLayout draws a join as the outer system with the joined node
// expanded into the inner one (params at, outer_n, inner_n).
var joinLayout = named("join")
