package domination

import "math/bits"

// The two-word engine: MMCS as in mmcs1, for at most 128 vertices and 128
// edges, every set a pair of words held in registers (the 9×9 and 10×10
// grids, planes up to PG(2,10)). The general engine's loops over word
// slices cost about four times as much per node at this size.

// w2 is a set of at most 128 elements: bits 0..63 in lo, 64..127 in hi.
// A struct, not an array: the compiler keeps a two-field struct in
// registers, and a [2]uint64 in memory.
type w2 struct{ lo, hi uint64 }

func (a w2) and(b w2) w2    { return w2{a.lo & b.lo, a.hi & b.hi} }
func (a w2) andNot(b w2) w2 { return w2{a.lo &^ b.lo, a.hi &^ b.hi} }
func (a w2) or(b w2) w2     { return w2{a.lo | b.lo, a.hi | b.hi} }
func (a w2) zero() bool     { return a.lo|a.hi == 0 }
func (a w2) count() int     { return bits.OnesCount64(a.lo) + bits.OnesCount64(a.hi) }

// word returns word i (0 or 1) of a.
func (a w2) word(i int) uint64 {
	if i == 0 {
		return a.lo
	}
	return a.hi
}

// setBit adds element i.
func (a *w2) setBit(i int) {
	if i < 64 {
		a.lo |= 1 << i
	} else {
		a.hi |= 1 << (i - 64)
	}
}

// pack2 converts up to two words of a bit vector.
func pack2(a []uint64) w2 {
	var w w2
	if len(a) > 0 {
		w.lo = a[0]
	}
	if len(a) > 1 {
		w.hi = a[1]
	}
	return w
}

type mmcs2 struct {
	edges []w2 // edges[e]: vertices of edge e
	inc   []w2 // inc[v]: edges containing v
	cand  w2
	uncov w2 // after load: the edges S leaves uncovered
	s     []int
	crit  []w2 // layer d (crit of S[0..d-1]) at offset d(d-1)/2
	out   mmcsOut
}

func fits2(h *hyper) bool { return h.n <= 128 && h.m <= 128 }

func newMMCS2(h *hyper, out mmcsOut) *mmcs2 {
	e := &mmcs2{edges: make([]w2, h.m), inc: make([]w2, h.n), out: out}
	for i := range h.m {
		e.edges[i] = pack2(h.edge(i))
	}
	for v := range h.n {
		e.inc[v] = pack2(h.star(v))
	}
	e.s = make([]int, 0, h.n+1)
	e.crit = make([]w2, (h.n+2)*(h.n+1)/2)
	e.out.counts = make([]uint64, h.n+1)
	return e
}

func (e *mmcs2) stats() *mmcsOut { return &e.out }

func (e *mmcs2) load(s []int, cand []uint64) bool {
	e.s = e.s[:0]
	e.cand = pack2(cand)
	e.uncov = w2{}
	for i := range len(e.edges) {
		e.uncov.setBit(i)
	}
	for _, v := range s {
		if !e.push(v) {
			return false
		}
	}
	return true
}

// push adds v to S at depth len(S), as mmcs1.push.
func (e *mmcs2) push(v int) bool {
	d := len(e.s)
	sv := e.inc[v]
	prev, next := e.crit[layer1(d):layer1(d+1)], e.crit[layer1(d+1):layer1(d+2)]
	ok := true
	for j, c := range prev {
		c = c.andNot(sv)
		next[j] = c
		if c.zero() {
			ok = false
		}
	}
	next[d] = e.uncov.and(sv)
	if next[d].zero() {
		ok = false
	}
	e.uncov = e.uncov.andNot(sv)
	e.s = append(e.s, v)
	return ok
}

func (e *mmcs2) run() { e.rec(len(e.s), e.uncov) }

func (e *mmcs2) rec(d int, uncov w2) {
	e.out.tick()
	if e.out.stop {
		return
	}
	if uncov.zero() {
		e.out.leaf(e.s)
		return
	}
	best, bestC := w2{}, 129
scan:
	for i := range 2 {
		for u := uncov.word(i); u != 0; u &= u - 1 {
			c := e.edges[i*64+bits.TrailingZeros64(u)].and(e.cand)
			n := c.count()
			if n < bestC {
				best, bestC = c, n
				if n <= 1 {
					break scan
				}
			}
		}
	}
	if bestC == 0 {
		return
	}
	e.cand = e.cand.andNot(best)
	prev, next := e.crit[layer1(d):layer1(d+1)], e.crit[layer1(d+1):layer1(d+2)]
	for i := range 2 {
		for c := best.word(i); c != 0; c &= c - 1 {
			v := i*64 + bits.TrailingZeros64(c)
			sv := e.inc[v]
			ok := true
			for j, x := range prev {
				x = x.andNot(sv)
				if x.zero() {
					ok = false
					break
				}
				next[j] = x
			}
			if ok {
				nu := uncov.andNot(sv)
				e.s = append(e.s, v)
				if nu.zero() {
					// A leaf: v covers the rest, and every vertex stays
					// critical (v's own edges include the uncovered ones
					// it meets). Counted here, without the call.
					e.out.tick()
					if !e.out.stop {
						e.out.leaf(e.s)
					}
				} else {
					next[d] = uncov.and(sv)
					e.rec(d+1, nu)
				}
				e.s = e.s[:d]
				if e.out.stop {
					e.cand = e.cand.or(best)
					return
				}
			}
			e.cand.setBit(v)
		}
	}
}
