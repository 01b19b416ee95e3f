package measure

import (
	"math/big"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// LoadMethod says how a [Load] was found.
type LoadMethod string

// The methods of [LoadOf].
const (
	// MethodThreshold: the closed form w/n of a threshold family.
	MethodThreshold LoadMethod = "threshold"
	// MethodRegular: the closed form c/|U| of a regular family.
	MethodRegular LoadMethod = "regular"
	// MethodClosedForm: the closed forms of the tree quorums and the
	// crumbling walls (see [TreeLoad], [WallLoad]), certified on the
	// quorums when they are listed.
	MethodClosedForm LoadMethod = "closed-form"
	// MethodLP: the linear program, certified by a dual of equal value.
	MethodLP LoadMethod = "lp"
	// MethodBounds: proved bounds ([LoadBounds]) past the work limit.
	MethodBounds LoadMethod = "bounds"
)

// TreeLoad returns the load of the tree quorums of degree d ≥ 2 and height
// h ≥ 0 (construct.Tree: a root-to-leaf path, a failed node replaced by
// paths through all its children):
//
//	L_h = d / (d + h(d−1)),
//
// 2/(h+2) for the binary tree, the value Naor and Wool give for the tree
// system (SIAM J. Comput. 27(2), 1998). Proof, by induction on h with
// L_0 = 1: using the root with probability x and otherwise all d subtrees,
// a subtree is used with probability x/d + 1 − x, so the strategy that
// balances root and subtrees has x = d·L/(d + (d−1)L) for L = L_{h−1};
// and the node weights "a on the root, (1−a)/d times a subtree's optimal
// weights on each subtree", with a = (d−1)L/(d + (d−1)L), give every
// quorum weight at least the same value, so no strategy does better.
// Hence 1/L_h = 1/L_{h−1} + (d−1)/d.
func TreeLoad(d, h int) *big.Rat { return construct.TreeLoad(d, h) }

// WallLoad returns the load of the crumbling wall with rows of widths n_1,
// …, n_d from the top (construct.Wall), when ok:
//
//	L = 1 / Σ_{i=1..d} Π_{k>i} (1 − 1/n_k).
//
// The bound L ≥ that value holds for every wall: give each node of row j
// the weight w_j/n_j with w_d = 1 and w_i = Π_{k>i}(1 − 1/n_k); a quorum
// with top row i then weighs w_i + Σ_{j>i} w_j/n_j = 1, and the weights sum
// to Σ w_i (LP duality). The balanced strategy — top row i with
// probability π_i = L − P_{i−1}/n_i (P_i = π_1 + … + π_i; π_1 = L) and
// uniform nodes below — loads every node exactly L; it is a strategy when
// every π_i ≥ 0, which holds whenever the widths below the top row do not
// decrease (the triangle, CWlog, the wheel). Otherwise ok is false and the
// general LP applies. For the wheel (widths 1, n−1) this is (n−1)/(2n−3),
// for the triangle of d rows 2/(d+1).
func WallLoad(widths []int) (load *big.Rat, ok bool) { return construct.WallLoad(widths) }

// maxCertified bounds the quorums a closed form is certified on.
const maxCertified = 1 << 18

// catalogueLoad returns the load of f when the construction that f's kind
// and params name knows a certificate of its load (a
// [quorum.LoadCertifier]: the tree quorums, the crumbling walls, the
// triangle and the wheel) and that certificate holds on f's own quorums:
// a strategy on them whose busiest node has load L, and node weights
// summing to 1 that give every quorum at least L. Together they prove L is
// f's load whatever f is, so the kind is only a hint.
func catalogueLoad(f *set.Family) *Load {
	if len(f.Quorums) == 0 || len(f.Quorums) > maxCertified { // a threshold family lists none
		return nil
	}
	sys, ok := construct.Claimed(f)
	if !ok {
		return nil
	}
	c, ok := sys.(quorum.LoadCertifier)
	if !ok {
		return nil
	}
	l, weight, y, ok := c.LoadCertificate()
	if !ok {
		return nil
	}
	return certify1(f, l, weight, y)
}

// certify1 checks the certificate on f with [certifyGame] (the load LP's
// proof, by [lp.Certify]) and returns the load.
func certify1(f *set.Family, l *big.Rat, weight func(*set.Set) *big.Rat, y []*big.Rat) *Load {
	if len(y) != f.N {
		return nil
	}
	size := new(big.Rat)
	ws := make([]*big.Rat, 0, len(f.Quorums))
	members := make([][]int, 0, len(f.Quorums))
	for i := range f.Quorums {
		q := &f.Quorums[i]
		w := weight(q)
		if w == nil {
			return nil
		}
		mem := q.Elements()
		if len(mem) > 0 && mem[len(mem)-1] >= f.N {
			return nil
		}
		ws, members = append(ws, w), append(members, mem)
		size.Add(size, new(big.Rat).Mul(w, big.NewRat(int64(len(mem)), 1)))
	}
	if !certifyGame(f.N, members, ws, y, l) {
		return nil
	}
	out := &Load{Exact: l, Method: MethodClosedForm, NetworkLoadExact: size}
	out.Value, _ = l.Float64()
	out.NetworkLoad, _ = size.Float64()
	for i, w := range ws {
		if w.Sign() > 0 {
			wf, _ := w.Float64()
			out.Strategy = append(out.Strategy, Weight{Quorum: i, W: wf, Exact: w})
		}
	}
	return out
}
