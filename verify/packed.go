package verify

import (
	"fmt"
	"math/bits"

	"github.com/coterie-dev/coterie/set"
)

// maxIncidenceBytes bounds the node → quorum incidence table the search
// builds (n rows of m bits). Past it the search refuses rather than eat the
// machine's memory; the pairwise check falls back to a direct scan.
const maxIncidenceBytes = 1 << 30

// packed holds quorums as plain bit-vectors for the hot loops: quorum i is
// q[i*nw:(i+1)*nw], and, once built, avoid[v*mw:(v+1)*mw] is the set of
// quorums that do not contain node v.
type packed struct {
	n, m   int // nodes, quorums
	nw, mw int // words per node set, words per quorum set
	q      []uint64
	avoid  []uint64
}

// pack lays out the quorums of the given lists, one after the other, over
// at least n nodes (more if a quorum holds a larger node).
func pack(n int, lists ...[]set.Set) *packed {
	m := 0
	for _, l := range lists {
		m += len(l)
		for i := range l {
			if v, ok := l[i].Max(); ok && v >= n {
				n = v + 1
			}
		}
	}
	p := &packed{n: n, m: m, nw: words(n), mw: words(m)}
	p.q = make([]uint64, m*p.nw)
	i := 0
	for _, l := range lists {
		for j := range l {
			row := p.row(i)
			for v := range l[j].All() {
				row[v>>6] |= 1 << (v & 63)
			}
			i++
		}
	}
	return p
}

func words(bitsNeeded int) int { return (bitsNeeded + 63) / 64 }

// row returns quorum i as a bit-vector over nodes.
func (p *packed) row(i int) []uint64 { return p.q[i*p.nw : (i+1)*p.nw : (i+1)*p.nw] }

// avoiders returns the quorums that do not contain node v; buildAvoid must
// have run.
func (p *packed) avoiders(v int) []uint64 { return p.avoid[v*p.mw : (v+1)*p.mw : (v+1)*p.mw] }

// incidenceBytes is the memory the avoid table needs.
func (p *packed) incidenceBytes() int64 { return int64(p.n) * int64(p.mw) * 8 }

// buildAvoid fills the node → avoiding-quorums table, refusing when it
// would exceed maxIncidenceBytes.
func (p *packed) buildAvoid() error {
	if p.avoid != nil {
		return nil
	}
	if b := p.incidenceBytes(); b > maxIncidenceBytes {
		return fmt.Errorf("verify: %d nodes × %d quorums need a %d MiB incidence table, more than the %d MiB limit",
			p.n, p.m, b>>20, maxIncidenceBytes>>20)
	}
	p.avoid = make([]uint64, p.n*p.mw)
	full := make([]uint64, p.mw)
	fillOnes(full, p.m)
	for v := range p.n {
		copy(p.avoiders(v), full)
	}
	for i := range p.m {
		for w, x := range p.row(i) {
			for x != 0 {
				v := w<<6 | bits.TrailingZeros64(x)
				x &= x - 1
				p.avoid[v*p.mw+i>>6] &^= 1 << (i & 63)
			}
		}
	}
	return nil
}

// fillOnes sets bits 0..k-1 of a and clears the rest.
func fillOnes(a []uint64, k int) {
	for i := range a {
		switch {
		case (i+1)*64 <= k:
			a[i] = ^uint64(0)
		case i*64 < k:
			a[i] = 1<<(k-i*64) - 1
		default:
			a[i] = 0
		}
	}
}

func popcount(a []uint64) int {
	c := 0
	for _, x := range a {
		c += bits.OnesCount64(x)
	}
	return c
}

// popcountAnd returns |a ∩ b|.
func popcountAnd(a, b []uint64) int {
	c := 0
	for i, x := range a {
		c += bits.OnesCount64(x & b[i])
	}
	return c
}

// firstBit returns the smallest set bit of a, or -1.
func firstBit(a []uint64) int {
	for i, x := range a {
		if x != 0 {
			return i<<6 | bits.TrailingZeros64(x)
		}
	}
	return -1
}

func hasBit(a []uint64, i int) bool { return a[i>>6]&(1<<(i&63)) != 0 }
func setBit(a []uint64, i int)      { a[i>>6] |= 1 << (i & 63) }
func clearBit(a []uint64, i int)    { a[i>>6] &^= 1 << (i & 63) }

// forBits calls f for each set bit of a in increasing order.
func forBits(a []uint64, f func(int)) {
	for w, x := range a {
		for x != 0 {
			f(w<<6 | bits.TrailingZeros64(x))
			x &= x - 1
		}
	}
}
