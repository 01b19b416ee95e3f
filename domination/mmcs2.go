package domination

import "math/bits"

// The two-word engine: MMCS as in mmcs1, for at most 128 vertices and 128
// edges, every set a pair of words held in registers (the 9×9 and 10×10
// grids, planes up to PG(2,10)). The word-vector engine's loops over word
// slices cost several times as much per node at this size.

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
	// lo[i] and hi[i] are edges i and 64+i, for i < 64, and lo[64] and
	// hi[64] hold every vertex (ANDing with them changes nothing): the
	// edge of the lowest bit of a word, or of none, without a branch.
	lo, hi *[65]w2
	m      int
	inc    []w2 // inc[v]: edges containing v
	cand   w2
	// After load: the edges S leaves uncovered, and those it covers twice
	// or more.
	uncov, multi w2
	s            []int
	// first[j]: the edges S[j] was the first to cover; crit(S[j]) is
	// first[j] less the edges covered twice.
	first []w2
	list  bool // listing (out.visit set): each transversal visited in order
	out   mmcsOut
}

func fits2(h *hyper) bool { return h.n <= 128 && h.m <= 128 }

func newMMCS2(h *hyper, out mmcsOut) *mmcs2 {
	e := &mmcs2{edges: make([]w2, 128), lo: new([65]w2), hi: new([65]w2), m: h.m, inc: make([]w2, h.n), list: out.visit != nil, out: out}
	for i := range h.m {
		e.edges[i] = pack2(h.edge(i))
	}
	copy(e.lo[:], e.edges[:64])
	copy(e.hi[:], e.edges[64:])
	e.lo[64] = w2{^uint64(0), ^uint64(0)}
	e.hi[64] = e.lo[64]
	for v := range h.n {
		e.inc[v] = pack2(h.star(v))
	}
	e.s = make([]int, 0, h.n+1)
	e.first = make([]w2, h.n+1)
	e.out.counts = make([]uint64, h.n+1)
	return e
}

func (e *mmcs2) stats() *mmcsOut { return &e.out }

func (e *mmcs2) load(s []int, cand []uint64) bool {
	e.s = e.s[:0]
	e.cand = pack2(cand)
	e.uncov, e.multi = w2{}, w2{}
	for i := range e.m {
		e.uncov.setBit(i)
	}
	for _, v := range s {
		sv := e.inc[v]
		e.first[len(e.s)] = e.uncov.and(sv)
		e.multi = e.multi.or(sv.andNot(e.uncov))
		e.uncov = e.uncov.andNot(sv)
		e.s = append(e.s, v)
	}
	for _, f := range e.first[:len(e.s)] {
		if f.andNot(e.multi).zero() {
			return false
		}
	}
	return true
}

func (e *mmcs2) run() { e.rec(len(e.s), e.uncov, e.multi) }

// rec searches below S = e.s (d vertices) with uncov uncovered and multi
// covered twice or more, as mmcs1.rec does over one word.
func (e *mmcs2) rec(d int, uncov, multi w2) {
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
	br := best
	for _, f := range e.first[:d] {
		// The vertices of br in every edge of crit(u): the first two
		// edges in the low word and the first in the high word decide
		// for most u without a branch (an index of 64 picks every
		// vertex, when there is no such edge); the others are walked
		// when some vertex is in all three.
		c := f.andNot(multi)
		lo, hi := c.lo, c.hi
		lo2 := lo & (lo - 1)
		k := br.and(e.lo[bits.TrailingZeros64(lo)]).and(e.lo[bits.TrailingZeros64(lo2)]).and(e.hi[bits.TrailingZeros64(hi)])
		if k.zero() {
			continue
		}
		for x := lo2 & (lo2 - 1); x != 0 && !k.zero(); x &= x - 1 {
			k = k.and(e.lo[bits.TrailingZeros64(x)])
		}
		for x := hi & (hi - 1); x != 0 && !k.zero(); x &= x - 1 {
			k = k.and(e.hi[bits.TrailingZeros64(x)])
		}
		if br = br.andNot(k); br.zero() {
			return
		}
	}
	leaves := br
	for i := range 2 {
		for u := uncov.word(i); u != 0 && !leaves.zero(); u &= u - 1 {
			leaves = leaves.and(e.edges[i*64+bits.TrailingZeros64(u)])
		}
	}
	saved := e.cand
	e.cand = e.cand.andNot(best)
	if !e.list && !leaves.zero() {
		n := uint64(leaves.count())
		e.out.counts[d+1] += n
		if e.out.tickN(n); e.out.stop {
			e.cand = saved
			return
		}
	}
	for i := range 2 {
		for c := best.word(i); c != 0; c &= c - 1 {
			bit := c & -c
			v := i*64 + bits.TrailingZeros64(c)
			switch {
			case br.word(i)&bit == 0:
				// v would make a vertex of S redundant.
			case leaves.word(i)&bit != 0:
				if e.list {
					e.s = e.out.leafWith(e.s, v)
				}
			default:
				sv := e.inc[v]
				e.first[d] = uncov.and(sv)
				e.s = append(e.s, v)
				e.rec(d+1, uncov.andNot(sv), multi.or(sv.andNot(uncov)))
				e.s = e.s[:d]
			}
			if e.out.stop {
				e.cand = saved
				return
			}
			e.cand.setBit(v)
		}
	}
	e.cand = saved
}
