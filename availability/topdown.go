package availability

import (
	"math/bits"
)

// topDown builds the BDD of "some quorum is all up" by Shannon expansion
// from the root, without apply. A state at level l is the set of quorums
// still alive (none of their nodes set down so far), reduced to the
// minimal ones: the quorums whose remaining part (their nodes at levels
// ≥ l) strictly contains no other alive quorum's remaining part, and of
// quorums with equal parts only the first of all (alive or not). The
// function of a state is the OR of the remaining parts, and the minimal
// remaining parts of a monotone function are unique, so distinct states
// (at the level of their first relevant variable) are distinct functions:
// every state makes exactly one node of the final diagram, and no
// intermediate diagram is ever built.
type topDown interface {
	// root returns the node of the whole family.
	root() uint32
	// bytes is the memory of the memo and the relation.
	bytes() int64
}

// qmask is a set of quorums as a fixed number of 64-bit words, so that
// the expansion is compiled for each width with its loops unrolled and
// its states held by value. A family takes the narrowest that holds it.
type qmask interface {
	[1]uint64 | [2]uint64 | [3]uint64 | [4]uint64 | [6]uint64 | [8]uint64 |
		[12]uint64 | [16]uint64 | [24]uint64 | [32]uint64 | [48]uint64 | [64]uint64
}

// maxMaskWords is the widest qmask: the top-down construction takes at
// most 64·maxMaskWords quorums.
const maxMaskWords = 64

// topDownOf is the expansion for one mask width.
type topDownOf[M qmask] struct {
	m  *manager
	n  int
	nq int
	// contains[l] is the set of the quorums that contain the node at
	// level l, and ends[l] of those whose deepest level is l.
	contains, ends []M
	// sub[l*nq+i] is the set of the quorums j whose part at levels ≥ l
	// lies strictly within quorum i's.
	sub []M
	// rep[l*nq+i] is the first quorum whose part at levels ≥ l equals
	// i's, and nonrep[l] the set of the quorums that are not their own.
	rep    []int32
	nonrep []M
	// The memo: states by (level, set), open addressing; a slot holds
	// the state and its node (0, the false terminal, for an empty slot:
	// no state is false).
	slots []memoSlot[M]
	mask  uint64
	used  int
	// always records an empty quorum (possible in the parts of a join):
	// the function is then true.
	always bool
}

// memoSlot is a slot of the memo of [topDownOf].
type memoSlot[M qmask] struct {
	key   M
	level int32
	node  uint32
}

// topDownBytes is the memory the precomputed relation of [newTopDown]
// would take for n levels and m quorums, and topDownMaxBytes its bound:
// beyond it BuildBDD uses apply.
func topDownBytes(n, m int) int64 {
	qw := maskWords((m + 63) / 64)
	return int64(n+1) * int64(m) * int64(qw) * 8
}

const topDownMaxBytes = 32 << 20

// topDownMaxWork bounds the word operations of building that relation.
const topDownMaxWork = 200_000_000

// maskWords is the width of the narrowest qmask of at least qw words, or
// 0 when none is that wide.
func maskWords(qw int) int {
	for _, w := range [...]int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64} {
		if w >= qw {
			return w
		}
	}
	return 0
}

// newTopDown prepares the expansion of the quorums qs (sorted level
// lists, at most 64·maxMaskWords of them) over n levels.
func newTopDown(m *manager, n int, qs [][]int32) topDown {
	switch maskWords((len(qs) + 63) / 64) {
	case 1:
		return newTopDownOf[[1]uint64](m, n, qs)
	case 2:
		return newTopDownOf[[2]uint64](m, n, qs)
	case 3:
		return newTopDownOf[[3]uint64](m, n, qs)
	case 4:
		return newTopDownOf[[4]uint64](m, n, qs)
	case 6:
		return newTopDownOf[[6]uint64](m, n, qs)
	case 8:
		return newTopDownOf[[8]uint64](m, n, qs)
	case 12:
		return newTopDownOf[[12]uint64](m, n, qs)
	case 16:
		return newTopDownOf[[16]uint64](m, n, qs)
	case 24:
		return newTopDownOf[[24]uint64](m, n, qs)
	case 32:
		return newTopDownOf[[32]uint64](m, n, qs)
	case 48:
		return newTopDownOf[[48]uint64](m, n, qs)
	case 64:
		return newTopDownOf[[64]uint64](m, n, qs)
	}
	panic("availability: bdd: too many quorums for the top-down construction")
}

func setBit[M qmask](a *M, i int) { (*a)[i/64] |= 1 << (i % 64) }

func hasBit[M qmask](a *M, i int) bool { return (*a)[i/64]>>(i%64)&1 == 1 }

// meets reports whether a and b share a quorum.
func meets[M qmask](a, b *M) bool {
	for x := 0; x < len(*a); x++ {
		if (*a)[x]&(*b)[x] != 0 {
			return true
		}
	}
	return false
}

func newTopDownOf[M qmask](m *manager, n int, qs [][]int32) *topDownOf[M] {
	nq := len(qs)
	t := &topDownOf[M]{m: m, n: n, nq: nq}
	t.contains = make([]M, n)
	t.ends = make([]M, n)
	for i, q := range qs {
		if len(q) == 0 {
			t.always = true
			continue
		}
		for _, l := range q {
			setBit(&t.contains[l], i)
		}
		setBit(&t.ends[q[len(q)-1]], i)
	}
	// sub at level l, from the deepest level up: within[i] holds the j
	// whose part at levels ≥ l lies within i's, equal[i] those whose part
	// equals i's; both shrink as l decreases.
	t.sub = make([]M, (n+1)*nq)
	t.rep = make([]int32, (n+1)*nq)
	t.nonrep = make([]M, n+1)
	within := make([]M, nq)
	equal := make([]M, nq)
	var all M
	for i := range nq {
		setBit(&all, i)
	}
	for i := range within {
		within[i], equal[i] = all, all
	}
	for l := n; l >= 0; l-- {
		if l < n {
			c := &t.contains[l]
			for i := range nq {
				in := hasBit(c, i)
				w, e := &within[i], &equal[i]
				for x := range len(*c) {
					if in {
						(*e)[x] &= (*c)[x]
					} else {
						(*w)[x] &^= (*c)[x]
						(*e)[x] &^= (*c)[x]
					}
				}
			}
		}
		row := t.sub[l*nq : (l+1)*nq]
		for i := range nq {
			w, e := within[i], equal[i]
			for x := range len(w) {
				row[i][x] = w[x] &^ e[x]
			}
			r := i
			for x := range len(e) {
				if e[x] != 0 {
					r = x*64 + bits.TrailingZeros64(e[x])
					break
				}
			}
			t.rep[l*nq+i] = int32(r)
			if r != i {
				setBit(&t.nonrep[l], i)
			}
		}
	}
	// Room for the states of the first budget (up to 2^15 of them), so
	// that small diagrams never rehash.
	room := min(m.budget, 1<<15)
	size := 1 << 10
	for 3*size < 4*room {
		size *= 2
	}
	t.slots = make([]memoSlot[M], size)
	t.mask = uint64(size - 1)
	if cap(m.nodes) < room {
		nodes := make([]bddNode, len(m.nodes), room)
		copy(nodes, m.nodes)
		m.nodes = nodes
	}
	return t
}

func (t *topDownOf[M]) bytes() int64 {
	var s memoSlot[M]
	return int64(len(t.sub)+len(t.contains)+len(t.ends)+len(t.nonrep))*int64(len(s.key))*8 +
		int64(len(t.rep))*4 + int64(len(t.slots))*int64(len(s.key)*8+8)
}

func (t *topDownOf[M]) root() uint32 {
	if t.always {
		return bddTrue
	}
	var a M
	for i := range t.nq {
		setBit(&a, i)
	}
	t.reduce(&a, 0)
	return t.expand(0, a)
}

// reduce removes from a the quorums whose part at levels ≥ l strictly
// contains another's of a.
func (t *topDownOf[M]) reduce(a *M, l int) {
	row := t.sub[l*t.nq : (l+1)*t.nq]
	// Test against the set before removals: containment is transitive,
	// so the minimal quorums are exactly those with no other below them.
	var drop M
	for k := range len(*a) {
		w := (*a)[k]
		for w != 0 {
			i := k*64 + bits.TrailingZeros64(w)
			w &= w - 1
			if meets(&row[i], a) {
				drop[k] |= 1 << (i % 64)
			}
		}
	}
	for x := range len(*a) {
		(*a)[x] &^= drop[x]
	}
}

// expand returns the node of the reduced, nonempty state a at level l
// (every quorum of a has a node at a level ≥ l).
func (t *topDownOf[M]) expand(l int, a M) uint32 {
	// Skip to the first level that some quorum of a contains.
	for !meets(&t.contains[l], &a) {
		l++
	}
	// Quorums with equal parts are one term: keep the first of each.
	nr := &t.nonrep[l]
	for k := range len(a) {
		w := a[k] & (*nr)[k]
		for w != 0 {
			i := k*64 + bits.TrailingZeros64(w)
			w &= w - 1
			r := t.rep[l*t.nq+i]
			a[k] &^= 1 << (i % 64)
			a[r/64] |= 1 << (r % 64)
		}
	}
	h := hashMask(l, &a)
	s := h & t.mask
	for {
		e := &t.slots[s]
		if e.node == 0 {
			break
		}
		if e.key == a && int(e.level) == l {
			return e.node
		}
		s = (s + 1) & t.mask
	}
	t.m.poll()
	c := t.contains[l]
	// Down: the quorums through level l die; the others keep their parts.
	var next M
	empty := true
	for x := range len(a) {
		next[x] = a[x] &^ c[x]
		if next[x] != 0 {
			empty = false
		}
	}
	lo := bddFalse
	if !empty {
		lo = t.expand(l+1, next)
	}
	// Up: every quorum stays, those through level l one node shorter;
	// one that ends at l is complete.
	var hi uint32
	if meets(&a, &t.ends[l]) {
		hi = bddTrue
	} else {
		next = a
		t.reduce(&next, l+1)
		hi = t.expand(l+1, next)
	}
	r := t.m.push(int32(l), lo, hi)
	t.insert(l, &a, r, h)
	return r
}

// hashMask hashes the state a at level l.
func hashMask[M qmask](l int, a *M) uint64 {
	h := uint64(l) * 0x9E3779B97F4A7C15
	for x := range len(*a) {
		h = (h ^ (*a)[x]) * 0xC2B2AE3D27D4EB4F
	}
	return h ^ h>>29
}

func (t *topDownOf[M]) insert(l int, a *M, r uint32, h uint64) {
	m := t.m
	if m.maxBytes > 0 && r&0xfff == 0 {
		if want := m.bytes(cap(m.nodes), len(m.table)) + t.bytes(); want > m.maxBytes {
			panic(m.errMemory(want))
		}
	}
	t.used++
	if 4*t.used > 3*len(t.slots) {
		old := t.slots
		t.slots = make([]memoSlot[M], 2*len(old))
		t.mask = uint64(len(t.slots) - 1)
		for i := range old {
			if o := &old[i]; o.node != 0 {
				t.place(o, hashMask(int(o.level), &o.key))
			}
		}
		h = hashMask(l, a)
	}
	t.place(&memoSlot[M]{key: *a, level: int32(l), node: r}, h)
}

func (t *topDownOf[M]) place(e *memoSlot[M], h uint64) {
	s := h & t.mask
	for t.slots[s].node != 0 {
		s = (s + 1) & t.mask
	}
	t.slots[s] = *e
}
