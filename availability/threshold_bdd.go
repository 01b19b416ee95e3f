package availability

import "slices"

// thresholdBDD returns the reduced diagram of "at least w of the nodes
// sup are up" over n nodes, in the order sup (increasing) then the other
// nodes: one node per level i < |sup| and per number c of ups still
// needed, 0 < c ≤ |sup| − i, at most w·(|sup| − w + 1) nodes, made
// bottom-up so that children come before parents.
func thresholdBDD(n int, sup []int, w int) *BDD {
	u := len(sup)
	order := slices.Clone(sup)
	in := make([]bool, n)
	for _, v := range sup {
		in[v] = true
	}
	for v := range n {
		if !in[v] {
			order = append(order, v)
		}
	}
	nodes := []bddNode{{level: int32(n)}, {level: int32(n)}}
	// next[c] is the diagram of "c more ups among the levels below", as
	// the level above is made; none needed is true, more than the levels
	// left is false.
	terminal := func(c int) uint32 {
		if c <= 0 {
			return bddTrue
		}
		return bddFalse
	}
	next := make([]uint32, w+1)
	for c := range next {
		next[c] = terminal(c)
	}
	for i := u - 1; i >= 0; i-- {
		cur := make([]uint32, w+1)
		left := u - i
		for c := 0; c <= w; c++ {
			if c <= 0 || c > left {
				cur[c] = terminal(c)
				continue
			}
			if c < w-i {
				continue // more than i ups above: no path gets here
			}
			lo, hi := next[c], next[c-1]
			if lo == hi {
				cur[c] = lo
				continue
			}
			nodes = append(nodes, bddNode{level: int32(i), lo: lo, hi: hi})
			cur[c] = uint32(len(nodes) - 1)
		}
		next = cur
	}
	return &BDD{n: n, order: order, root: next[w], nodes: nodes}
}
