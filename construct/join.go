package construct

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/set"
)

// JoinCount returns the number of quorums of outer ⊕x inner as [Join] forms
// them, before repeats are merged: the outer quorums without x, plus those
// with x times the inner quorums. Threshold families are counted, not
// enumerated. x is 0-based; JoinCount panics if it is out of range.
func JoinCount(outer, inner *set.Family, x int) *big.Int {
	with, without := joinSplit(outer, x)
	c := new(big.Int).Mul(with, inner.Count())
	return c.Add(c, without)
}

// joinSplit counts the quorums of outer that contain x and those that do
// not.
func joinSplit(outer *set.Family, x int) (with, without *big.Int) {
	if x < 0 || x >= outer.N {
		panic(fmt.Sprintf("construct: node %d out of range 0..%d", x, outer.N-1))
	}
	if outer.IsThreshold() {
		// Of the w-subsets of n nodes, C(n−1, w−1) hold x and C(n−1, w)
		// do not.
		n, w := int64(outer.N), int64(outer.Threshold)
		with = new(big.Int).Binomial(n-1, w-1)
		without = new(big.Int)
		if w <= n-1 {
			without.Binomial(n-1, w)
		}
		return with, without
	}
	t := 0
	for i := range outer.Quorums {
		if outer.Quorums[i].Has(x) {
			t++
		}
	}
	return big.NewInt(int64(t)), big.NewInt(int64(len(outer.Quorums) - t))
}

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
// inputs can be recovered from the result, as Kuo's Corollary 5 (the
// availability of the join is the outer system's with node x up with the
// inner system's availability) needs: the inner quorums are the Type-I
// quorums' nodes ≥ n1−1, and the outer quorums are the Type-II quorums and
// the Type-I quorums' nodes < n1−1 with x put back. The result has no owners
// (a join has more quorums than nodes), K of the inputs, and canonical
// order; equal quorums (possible only if an input repeats one) are merged.
//
// Errors: x out of range or in no quorum of outer, different k, an input
// that is a level of an (h,k)-arbiter, or a malformed input. Threshold
// inputs are enumerated; Join refuses, wrapping [set.ErrTooMany], when the
// result would have more than limit quorums (see [JoinCount]).
func Join(outer, inner *set.Family, x, limit int) (f *set.Family, err error) {
	if outer == nil || inner == nil {
		return nil, errors.New("construct: join: nil system")
	}
	if err := outer.Validate(); err != nil {
		return nil, fmt.Errorf("construct: join: outer system: %w", err)
	}
	if err := inner.Validate(); err != nil {
		return nil, fmt.Errorf("construct: join: inner system: %w", err)
	}
	if outer.H != 0 || inner.H != 0 {
		return nil, errors.New("construct: join: the join takes coteries and k-arbiters, not levels of an (h,k)-arbiter")
	}
	if outer.K != inner.K {
		return nil, fmt.Errorf("construct: join: the outer system has k = %d but the inner one k = %d; both must be k-arbiters for the same k",
			outer.K, inner.K)
	}
	if x < 0 || x >= outer.N {
		return nil, fmt.Errorf("construct: join: node %d is not a node of the outer system (1..%d)", x+1, outer.N)
	}
	n1, n2 := outer.N, inner.N
	n3 := n1 - 1 + n2
	if n3 > set.MaxNodes {
		return nil, fmt.Errorf("construct: join: the join would have %d nodes, more than %d", n3, set.MaxNodes)
	}
	with, _ := joinSplit(outer, x)
	if with.Sign() == 0 {
		return nil, fmt.Errorf("construct: join: node %d (%s) is in no quorum of the outer system, so the join would not use the inner one",
			x+1, outer.Label(x))
	}
	if inner.Count().Sign() == 0 {
		return nil, errors.New("construct: join: the inner system has no quorums")
	}
	if c := JoinCount(outer, inner, x); c.Cmp(big.NewInt(int64(max(limit, 0)))) > 0 {
		return nil, fmt.Errorf("construct: join: the join has %s quorums, more than the limit of %d: %w", c, limit, set.ErrTooMany)
	} else if bytes := new(big.Int).Mul(c, big.NewInt(int64((n3+63)/64*8))); bytes.Cmp(big.NewInt(maxExplicitBytes)) > 0 {
		return nil, fmt.Errorf("construct: join: the join's %s quorums over %d nodes need %s MiB, more than %d MiB: %w",
			c, n3, bytes.Rsh(bytes, 20), maxExplicitBytes>>20, set.ErrTooMany)
	}
	// The count bounds both inputs' (each has at least one quorum), so
	// enumerating a threshold input within limit cannot fail.
	c1, c2 := outer, inner
	if outer.IsThreshold() {
		if c1, err = outer.Enumerate(limit); err != nil {
			return nil, fmt.Errorf("construct: join: outer system: %w", err)
		}
	}
	if inner.IsThreshold() {
		if c2, err = inner.Enumerate(limit); err != nil {
			return nil, fmt.Errorf("construct: join: inner system: %w", err)
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
	for i := range c1.Quorums {
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
			q := set.New(n3)
			q.Union(&r, &shifted[j]) // Type-I
			f.Quorums = append(f.Quorums, *q)
		}
	}
	f.Canonical()
	f.Kind = "join"
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
