package availability

import (
	"math/bits"
	"slices"
)

// topDown builds the BDD of "some quorum is all up" by Shannon expansion
// from the root, without apply. A state at level l is the set of quorums
// still alive (none of their nodes set down so far), reduced to the
// minimal ones: the quorums whose remaining part (their nodes at levels
// ≥ l) strictly contains no other alive quorum's remaining part, and of
// quorums with equal parts only the first of all (alive or not). The function of a state is the OR of the remaining parts, and
// the minimal remaining parts of a monotone function are unique, so
// distinct states (at the level of their first relevant variable) are
// distinct functions: every state makes exactly one node of the final
// diagram, and no intermediate diagram is ever built.
type topDown struct {
	m  *manager
	n  int
	qw int // words of a quorum mask
	// contains[l] is the mask of the quorums that contain the node at level l.
	contains []uint64
	// last[i] is the deepest level of quorum i.
	last []int32
	// sub[(l*m+i)*qw:] is the mask of the quorums j whose part at levels
	// ≥ l lies strictly within quorum i's.
	sub []uint64
	// rep[l*m+i] is the first quorum whose part at levels ≥ l equals i's,
	// and nonrep[l*qw:] the mask of the quorums that are not their own.
	rep    []int32
	nonrep []uint64
	nq     int
	// The memo: states by (level, mask), open addressing; a slot holds
	// the high half of the state's hash, so that a probe reads the key
	// only when they agree, and the state's node u, whose level is the
	// state's and whose mask is keys[(u−2)·qw:]: the expansion makes the
	// nodes of the arena in the order of their states.
	slots []memoSlot
	keys  []uint64
	mask  uint64
	// scratch masks, one per level of recursion (qw words each).
	scratch []uint64
}

// topDownBytes is the memory the precomputed relation of [newTopDown]
// would take for n levels and m quorums, and topDownMaxBytes its bound:
// beyond it BuildBDD uses apply.
func topDownBytes(n, m int) int64 {
	qw := (m + 63) / 64
	return int64(n+1) * int64(m) * int64(qw) * 8
}

const topDownMaxBytes = 32 << 20

// topDownMaxWork bounds the word operations of building that relation.
const topDownMaxWork = 200_000_000

// newTopDown prepares the expansion of the quorums qs (sorted level
// lists) over n levels.
func newTopDown(m *manager, n int, qs [][]int32) *topDown {
	nq := len(qs)
	qw := (nq + 63) / 64
	t := &topDown{m: m, n: n, qw: qw, nq: nq}
	t.contains = make([]uint64, n*qw)
	t.last = make([]int32, nq)
	for i, q := range qs {
		for _, l := range q {
			t.contains[int(l)*qw+i/64] |= 1 << (i % 64)
		}
		t.last[i] = q[len(q)-1]
	}
	// sub at level l, from the deepest level up: within[i] holds the j
	// whose part at levels ≥ l lies within i's, equal[i] those whose part
	// equals i's; both shrink as l decreases.
	t.sub = make([]uint64, (n+1)*nq*qw)
	t.rep = make([]int32, (n+1)*nq)
	t.nonrep = make([]uint64, (n+1)*qw)
	within := make([]uint64, nq*qw)
	equal := make([]uint64, nq*qw)
	for i := range within {
		within[i], equal[i] = ^uint64(0), ^uint64(0)
	}
	for l := n; l >= 0; l-- {
		if l < n {
			c := t.contains[l*qw : (l+1)*qw]
			for i := range nq {
				in := c[i/64]>>(i%64)&1 == 1
				for x := range qw {
					if in {
						equal[i*qw+x] &= c[x]
					} else {
						within[i*qw+x] &^= c[x]
						equal[i*qw+x] &^= c[x]
					}
				}
			}
		}
		row := t.sub[l*nq*qw : (l+1)*nq*qw]
		for i := range nq {
			for x := range qw {
				row[i*qw+x] = within[i*qw+x] &^ equal[i*qw+x]
			}
			if x := nq % 64; x != 0 {
				row[i*qw+qw-1] &= 1<<x - 1
			}
			r := i
			for x := range qw {
				if e := equal[i*qw+x]; e != 0 {
					r = x*64 + bits.TrailingZeros64(e)
					break
				}
			}
			t.rep[l*nq+i] = int32(r)
			if r != i {
				t.nonrep[l*qw+i/64] |= 1 << (i % 64)
			}
		}
	}
	t.scratch = make([]uint64, (n+2)*qw)
	// Room for the states of the first budget (up to 2^15 of them), so
	// that small diagrams never rehash.
	room := min(m.budget, 1<<15)
	size := 1 << 10
	for 3*size < 4*room {
		size *= 2
	}
	t.slots = make([]memoSlot, size)
	t.mask = uint64(size - 1)
	t.keys = make([]uint64, 0, room*qw)
	m.nodes = slices.Grow(m.nodes, room)
	return t
}

// bytes is the memory of the memo and the relation.
func (t *topDown) bytes() int64 {
	return int64(len(t.sub)+len(t.keys))*8 + int64(len(t.slots))*8
}

// root returns the node of the whole family.
func (t *topDown) root() uint32 {
	a := t.scratch[:t.qw]
	clear(a)
	for i := range t.nq {
		a[i/64] |= 1 << (i % 64)
	}
	if t.anyEmpty(a, 0) {
		return bddTrue
	}
	t.reduce(a, 0)
	return t.expand(0, a, 1)
}

// anyEmpty reports whether some quorum of a has no node at levels ≥ l.
func (t *topDown) anyEmpty(a []uint64, l int) bool {
	for k, w := range a {
		for w != 0 {
			i := k*64 + bits.TrailingZeros64(w)
			w &= w - 1
			if int(t.last[i]) < l {
				return true
			}
		}
	}
	return false
}

// reduce removes from a the quorums whose part at levels ≥ l strictly
// contains another's of a.
func (t *topDown) reduce(a []uint64, l int) {
	qw := t.qw
	row := t.sub[l*t.nq*qw : (l+1)*t.nq*qw]
	// Test against the mask before removals: containment is transitive,
	// so the minimal quorums are exactly those with no other below them.
	var drop [4]uint64
	var dropAll []uint64
	if qw <= len(drop) {
		dropAll = drop[:qw]
	} else {
		dropAll = make([]uint64, qw)
	}
	for k, w := range a {
		for w != 0 {
			i := k*64 + bits.TrailingZeros64(w)
			w &= w - 1
			s := row[i*qw : (i+1)*qw]
			for x := range qw {
				if s[x]&a[x] != 0 {
					dropAll[i/64] |= 1 << (i % 64)
					break
				}
			}
		}
	}
	for x := range qw {
		a[x] &^= dropAll[x]
	}
}

// expand returns the node of the reduced, nonempty state a at level l
// (every quorum of a has a node at a level ≥ l), which it may rewrite;
// depth indexes scratch.
func (t *topDown) expand(l int, a []uint64, depth int) uint32 {
	qw := t.qw
	// Skip to the first level that some quorum of a contains.
	for {
		c := t.contains[l*qw : (l+1)*qw]
		hit := false
		for x := range qw {
			if c[x]&a[x] != 0 {
				hit = true
				break
			}
		}
		if hit {
			break
		}
		l++
	}
	// Quorums with equal parts are one term: keep the first of each.
	nr := t.nonrep[l*qw : (l+1)*qw]
	for k := range qw {
		w := a[k] & nr[k]
		for w != 0 {
			i := k*64 + bits.TrailingZeros64(w)
			w &= w - 1
			r := t.rep[l*t.nq+i]
			a[k] &^= 1 << (i % 64)
			a[r/64] |= 1 << (r % 64)
		}
	}
	h := t.hash(l, a)
	for s := h & t.mask; ; s = (s + 1) & t.mask {
		e := &t.slots[s]
		if e.node == 0 {
			break
		}
		if e.tag == uint32(h>>32) && int(t.m.nodes[e.node].level) == l && slices.Equal(t.keys[int(e.node-2)*qw:int(e.node-1)*qw], a) {
			return e.node
		}
	}
	t.m.poll()
	c := t.contains[l*qw : (l+1)*qw]
	next := t.scratch[depth*qw : (depth+1)*qw]
	// Down: the quorums through level l die; the others keep their parts.
	empty := true
	for x := range qw {
		next[x] = a[x] &^ c[x]
		if next[x] != 0 {
			empty = false
		}
	}
	lo := bddFalse
	if !empty {
		lo = t.expand(l+1, next, depth+1)
	}
	// Up: every quorum stays, those through level l one node shorter.
	var hi uint32
	copy(next, a)
	if t.anyEmptyAt(next, c, l) {
		hi = bddTrue
	} else {
		t.reduce(next, l+1)
		hi = t.expand(l+1, next, depth+1)
	}
	r := t.m.push(int32(l), lo, hi)
	t.insert(l, a, r, h)
	return r
}

// anyEmptyAt reports whether a quorum of a through level l ends there.
func (t *topDown) anyEmptyAt(a, c []uint64, l int) bool {
	for k := range a {
		w := a[k] & c[k]
		for w != 0 {
			i := k*64 + bits.TrailingZeros64(w)
			w &= w - 1
			if int(t.last[i]) == l {
				return true
			}
		}
	}
	return false
}

// memoSlot is a slot of the memo: the high half of the hash of a state,
// and its node (0, the false terminal, for an empty slot: no state is
// false).
type memoSlot struct {
	tag, node uint32
}

func (t *topDown) insert(l int, a []uint64, r uint32, h uint64) {
	m := t.m
	if m.maxBytes > 0 && r&0xfff == 0 {
		if want := m.bytes(cap(m.nodes), len(m.table)) + t.bytes(); want > m.maxBytes {
			panic(m.errMemory(want))
		}
	}
	t.keys = append(t.keys, a...)
	if len(t.keys) != int(r-1)*t.qw {
		panic("availability: bdd: top-down node out of order")
	}
	if 4*len(t.keys)/t.qw > 3*len(t.slots) {
		old := t.slots
		t.slots = make([]memoSlot, 2*len(old))
		t.mask = uint64(len(t.slots) - 1)
		for _, o := range old {
			if o.node != 0 {
				u := o.node
				t.place(memoSlot{o.tag, u}, t.hash(int(m.nodes[u].level), t.keys[int(u-2)*t.qw:int(u-1)*t.qw]))
			}
		}
	}
	t.place(memoSlot{uint32(h >> 32), r}, h)
}

func (t *topDown) hash(l int, a []uint64) uint64 {
	h := uint64(l) * 0x9E3779B97F4A7C15
	for _, w := range a {
		h = (h ^ w) * 0xC2B2AE3D27D4EB4F
	}
	return h ^ h>>29
}

func (t *topDown) place(e memoSlot, h uint64) {
	s := h & t.mask
	for t.slots[s].node != 0 {
		s = (s + 1) & t.mask
	}
	t.slots[s] = e
}
