package measure

import (
	"math/big"

	"github.com/coterie-dev/coterie/set"
)

// MethodClosedForm is the Load.Method of the certified closed forms of the
// tree quorums and the crumbling walls (see [TreeLoad], [WallLoad]).
const MethodClosedForm = "closed-form"

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
func TreeLoad(d, h int) *big.Rat {
	return big.NewRat(int64(d), int64(d+h*(d-1)))
}

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
func WallLoad(widths []int) (load *big.Rat, ok bool) {
	l, pi := wallStrategy(widths)
	return l, pi != nil
}

// wallStrategy returns the bound of [WallLoad] and the balanced
// probabilities of the top rows, or nil when one is negative.
func wallStrategy(widths []int) (*big.Rat, []*big.Rat) {
	if len(widths) == 0 {
		return nil, nil
	}
	c, prod := new(big.Rat), big.NewRat(1, 1)
	for i := len(widths) - 1; i >= 0; i-- {
		if widths[i] < 1 {
			return nil, nil
		}
		c.Add(c, prod)
		prod.Mul(prod, big.NewRat(int64(widths[i]-1), int64(widths[i])))
	}
	l := new(big.Rat).Inv(c)
	pi := make([]*big.Rat, len(widths))
	p := new(big.Rat)
	for i, w := range widths {
		pi[i] = new(big.Rat).Sub(l, new(big.Rat).Quo(p, big.NewRat(int64(w), 1)))
		if pi[i].Sign() < 0 {
			return l, nil
		}
		p.Add(p, pi[i])
	}
	return l, pi
}

// maxCertified bounds the quorums a closed form is certified on.
const maxCertified = 1 << 18

// catalogueLoad returns the load of f when f's Kind and Params name a tree
// or a crumbling wall (the triangle and the wheel too) and the closed
// form's certificate holds on f's own quorums: a strategy on them whose
// busiest node has load L, and node weights summing to 1 that give every
// quorum at least L. Together they prove L is f's load whatever f is, so
// Kind is only a hint.
func catalogueLoad(f *set.Family) *Load {
	if f.IsThreshold() || len(f.Quorums) == 0 || len(f.Quorums) > maxCertified {
		return nil
	}
	var (
		l      *big.Rat
		weight func(q *set.Set) *big.Rat // strategy weight of a quorum, nil if foreign
		y      []*big.Rat                // node weights
	)
	switch f.Kind {
	case "tree":
		d, h := intParam(f, "degree"), intParam(f, "height")
		if d < 2 || h < 0 || h > 40 {
			return nil
		}
		l, weight, y = treeCertificate(f.N, d, h)
	case "wall", "triangle", "wheel":
		var widths []int
		switch f.Kind {
		case "triangle":
			for i := 1; i <= intParam(f, "rows"); i++ {
				widths = append(widths, i)
			}
		case "wheel":
			widths = []int{1, f.N - 1}
		default:
			widths, _ = f.Params.Ints("widths")
		}
		l, weight, y = wallCertificate(f.N, widths)
	}
	if l == nil {
		return nil
	}
	return certify1(f, l, weight, y)
}

// certify1 checks the certificate on f and returns the load.
func certify1(f *set.Family, l *big.Rat, weight func(*set.Set) *big.Rat, y []*big.Rat) *Load {
	load := make([]*big.Rat, f.N)
	for v := range load {
		load[v] = new(big.Rat)
	}
	total, size := new(big.Rat), new(big.Rat)
	var ws []*big.Rat
	for i := range f.Quorums {
		q := &f.Quorums[i]
		w := weight(q)
		if w == nil {
			return nil
		}
		ws = append(ws, w)
		total.Add(total, w)
		size.Add(size, new(big.Rat).Mul(w, big.NewRat(int64(q.Len()), 1)))
		yq := new(big.Rat)
		for v := range q.All() {
			if v >= f.N {
				return nil
			}
			load[v].Add(load[v], w)
			yq.Add(yq, y[v])
		}
		if yq.Cmp(l) < 0 {
			return nil
		}
	}
	if total.Cmp(big.NewRat(1, 1)) != 0 {
		return nil
	}
	ysum := new(big.Rat)
	for v := range y {
		ysum.Add(ysum, y[v])
		if load[v].Cmp(l) > 0 {
			return nil
		}
	}
	if ysum.Cmp(big.NewRat(1, 1)) != 0 {
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

// treeCertificate returns TreeLoad and its strategy and node weights on
// the numbering of construct.Tree (breadth first, children of v at
// v·d+1..v·d+d).
func treeCertificate(n, d, h int) (*big.Rat, func(*set.Set) *big.Rat, []*big.Rat) {
	size := 1
	for range h {
		size = size*d + 1
		if size > 1<<24 {
			return nil, nil, nil
		}
	}
	if size != n {
		return nil, nil, nil
	}
	one := big.NewRat(1, 1)
	dd := big.NewRat(int64(d), 1)
	// x[k], a[k]: root probability and root weight of a subtree of height k.
	x := make([]*big.Rat, h+1)
	a := make([]*big.Rat, h+1)
	x[0], a[0] = big.NewRat(1, 1), big.NewRat(1, 1)
	for k := 1; k <= h; k++ {
		prev := TreeLoad(d, k-1)
		dm1L := new(big.Rat).Mul(big.NewRat(int64(d-1), 1), prev)
		den := new(big.Rat).Add(dd, dm1L)
		x[k] = new(big.Rat).Quo(new(big.Rat).Mul(dd, prev), den)
		a[k] = new(big.Rat).Quo(dm1L, den)
	}
	y := make([]*big.Rat, n)
	var fill func(v, k int, scale *big.Rat)
	fill = func(v, k int, scale *big.Rat) {
		y[v] = new(big.Rat).Mul(scale, a[k])
		if k == 0 {
			return
		}
		rest := new(big.Rat).Sub(one, a[k])
		rest.Mul(rest, scale).Quo(rest, dd)
		for c := v*d + 1; c <= v*d+d; c++ {
			fill(c, k-1, rest)
		}
	}
	fill(0, h, big.NewRat(1, 1))
	// meets reports whether q has a node in the subtree of v (height k).
	var meets func(q *set.Set, v, k int) bool
	meets = func(q *set.Set, v, k int) bool {
		if q.Has(v) {
			return true
		}
		if k == 0 {
			return false
		}
		for c := v*d + 1; c <= v*d+d; c++ {
			if meets(q, c, k-1) {
				return true
			}
		}
		return false
	}
	var weight func(q *set.Set, v, k int) *big.Rat
	weight = func(q *set.Set, v, k int) *big.Rat {
		if k == 0 {
			if q.Has(v) {
				return big.NewRat(1, 1)
			}
			return nil
		}
		if q.Has(v) { // a path: exactly one subtree used
			var w *big.Rat
			for c := v*d + 1; c <= v*d+d; c++ {
				if meets(q, c, k-1) {
					if w != nil {
						return nil
					}
					if w = weight(q, c, k-1); w == nil {
						return nil
					}
				}
			}
			if w == nil {
				return nil
			}
			return w.Mul(w, x[k]).Quo(w, dd)
		}
		w := new(big.Rat).Sub(one, x[k])
		for c := v*d + 1; c <= v*d+d; c++ {
			wc := weight(q, c, k-1)
			if wc == nil {
				return nil
			}
			w.Mul(w, wc)
		}
		return w
	}
	return TreeLoad(d, h), func(q *set.Set) *big.Rat { return weight(q, 0, h) }, y
}

// wallCertificate returns WallLoad and its strategy and node weights on
// the row-by-row numbering of construct.Wall, or a nil load.
func wallCertificate(n int, widths []int) (*big.Rat, func(*set.Set) *big.Rat, []*big.Rat) {
	l, pi := wallStrategy(widths)
	if pi == nil {
		return nil, nil, nil
	}
	start := make([]int, len(widths)+1)
	for i, w := range widths {
		start[i+1] = start[i] + w
	}
	if start[len(widths)] != n {
		return nil, nil, nil
	}
	// Node weights: L·w_j/n_j with w_j = Π_{k>j}(1 − 1/n_k).
	y := make([]*big.Rat, n)
	wj := big.NewRat(1, 1)
	for j := len(widths) - 1; j >= 0; j-- {
		per := new(big.Rat).Mul(l, wj)
		per.Quo(per, big.NewRat(int64(widths[j]), 1))
		for v := start[j]; v < start[j+1]; v++ {
			y[v] = per
		}
		wj = new(big.Rat).Mul(wj, big.NewRat(int64(widths[j]-1), int64(widths[j])))
	}
	weight := func(q *set.Set) *big.Rat {
		top := -1
		for i := range widths {
			full, count := true, 0
			for v := start[i]; v < start[i+1]; v++ {
				if q.Has(v) {
					count++
				} else {
					full = false
				}
			}
			switch {
			case top < 0 && full:
				top = i
			case top < 0 && count > 0:
				return nil // a partial row above the full one
			case top >= 0 && count != 1:
				return nil
			}
		}
		if top < 0 {
			return nil
		}
		w := new(big.Rat).Set(pi[top])
		for j := top + 1; j < len(widths); j++ {
			w.Quo(w, big.NewRat(int64(widths[j]), 1))
		}
		return w
	}
	return l, weight, y
}

func intParam(f *set.Family, name string) int {
	if v, ok := f.Params.Int(name); ok {
		return v
	}
	return -1
}
