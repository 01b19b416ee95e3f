package availability

import (
	"fmt"
	"math/bits"

	"github.com/coterie-dev/coterie/set"
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
	// root returns the node of the whole family, counting its
	// coefficients too if count is set.
	root(count bool) uint32
	// counted returns the coefficients counted by root, or nil.
	counted() *Polynomial
	// bytes is the memory of the states and the relation.
	bytes() int64
	// done measures how far the expansion got: 1024 per level expanded.
	done() int
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

// topDownOf is the expansion for one mask width. It runs level by
// level: the states of a level are expanded in turn, and their children
// (at deeper levels) are looked up in the table of their own level, which
// is dropped once its level has been expanded; then the nodes are made
// from the deepest level up, and the coefficients counted with them. A
// node budget stops the expansion between two states: [topDownOf.root]
// called again with a larger budget goes on from there.
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
	// always records an empty quorum (possible in the parts of a join):
	// the function is then true.
	always bool

	levels []tdLevel[M]
	start  tdRef
	begun  bool
	// The expansion has done the states of the levels above cur and the
	// first pos states of level cur; states counts them all.
	cur, pos int
	states   int
	// count asks for the coefficients, counted as the nodes are made;
	// poly holds them afterwards (nil when the pass would not fit).
	count bool
	poly  *Polynomial
	// Sets and tables of the levels already expanded, for reuse.
	keyPool   [][]M
	tablePool [][]uint32
}

// tdRef names a state by its level and its index there; level n with
// index 0 or 1 is a terminal.
type tdRef struct {
	level int32
	idx   uint32
}

// tdLevel holds the states of one level: their sets (while the level is
// to be expanded), a hash table of them (index+1, 0 empty), and the
// states their down and up branches lead to.
type tdLevel[M qmask] struct {
	keys   []M
	table  []uint32
	lo, hi []tdRef
	// parent is the shallowest level with an edge into this one (−1
	// before any): the counting pass drops the level's coefficients
	// once that level is done.
	parent int32
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
	t.levels = make([]tdLevel[M], n)
	for l := range t.levels {
		t.levels[l].parent = -1
	}
	return t
}

func (t *topDownOf[M]) bytes() int64 {
	var k M
	kw := int64(len(k)) * 8
	b := int64(len(t.sub)+len(t.contains)+len(t.ends)+len(t.nonrep))*kw + int64(len(t.rep))*4
	for l := range t.levels {
		lv := &t.levels[l]
		b += int64(cap(lv.keys))*kw + int64(cap(lv.table))*4 + int64(cap(lv.lo)+cap(lv.hi))*8
	}
	return b
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

// state returns the state of the reduced, nonempty set a at level l or
// below (every quorum of a has a node at a level ≥ l), entering it in its
// level if new; from is the level of the edge into it.
func (t *topDownOf[M]) state(l int, a M, from int) tdRef {
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
	lv := &t.levels[l]
	if lv.parent < 0 {
		lv.parent = int32(from)
	}
	if 4*len(lv.keys) >= 3*len(lv.table) {
		t.grow(lv)
	}
	mask := uint64(len(lv.table) - 1)
	for s := hashMask(&a) & mask; ; s = (s + 1) & mask {
		i := lv.table[s]
		if i == 0 {
			if len(lv.keys) == cap(lv.keys) {
				lv.keys = t.moreKeys(lv.keys)
			}
			lv.keys = append(lv.keys, a)
			lv.table[s] = uint32(len(lv.keys))
			t.states++
			return tdRef{int32(l), uint32(len(lv.keys) - 1)}
		}
		if lv.keys[i-1] == a {
			return tdRef{int32(l), i - 1}
		}
	}
}

// moreKeys returns keys with room for twice as many sets, reusing a
// dropped slice when one is large enough.
func (t *topDownOf[M]) moreKeys(keys []M) []M {
	size := max(2*cap(keys), 16)
	var k []M
	for i, p := range t.keyPool {
		if cap(p) >= size {
			k = p[:len(keys)]
			t.keyPool[i] = t.keyPool[len(t.keyPool)-1]
			t.keyPool = t.keyPool[:len(t.keyPool)-1]
			break
		}
	}
	if k == nil {
		k = make([]M, len(keys), size)
	}
	copy(k, keys)
	if cap(keys) > 0 {
		t.keyPool = append(t.keyPool, keys[:0])
	}
	return k
}

// grow doubles the hash table of a level; a new one starts with room
// for as many states as the level being expanded.
func (t *topDownOf[M]) grow(lv *tdLevel[M]) {
	size := 2 * len(lv.table)
	if size == 0 {
		size = 64
		for 3*size < 4*len(t.levels[t.cur].keys) {
			size *= 2
		}
	}
	old := lv.table
	lv.table = nil
	for i, p := range t.tablePool {
		if cap(p) >= size {
			lv.table = p[:size]
			clear(lv.table)
			t.tablePool[i] = t.tablePool[len(t.tablePool)-1]
			t.tablePool = t.tablePool[:len(t.tablePool)-1]
			break
		}
	}
	if lv.table == nil {
		lv.table = make([]uint32, size)
	}
	if old != nil {
		t.tablePool = append(t.tablePool, old)
	}
	mask := uint64(size - 1)
	for i := range lv.keys {
		s := hashMask(&lv.keys[i]) & mask
		for lv.table[s] != 0 {
			s = (s + 1) & mask
		}
		lv.table[s] = uint32(i + 1)
	}
}

// hashMask hashes the set a.
func hashMask[M qmask](a *M) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for x := range len(*a) {
		h = (h ^ (*a)[x]) * 0xC2B2AE3D27D4EB4F
	}
	return h ^ h>>29
}

func (t *topDownOf[M]) counted() *Polynomial { return t.poly }

func (t *topDownOf[M]) done() int {
	d := t.cur * 1024
	if t.cur < t.n {
		d += t.pos * 1024 / max(len(t.levels[t.cur].keys), 1)
	}
	return d
}

func (t *topDownOf[M]) root(count bool) uint32 {
	if t.always {
		return bddTrue
	}
	t.count = count
	m := t.m
	if !t.begun {
		var a M
		for i := range t.nq {
			setBit(&a, i)
		}
		t.reduce(&a, 0)
		t.start = t.state(0, a, -1)
		t.cur = int(t.start.level)
		t.begun = true
	}
	falseRef, trueRef := tdRef{int32(t.n), 0}, tdRef{int32(t.n), 1}
	for ; t.cur < t.n; t.cur, t.pos = t.cur+1, 0 {
		l := t.cur
		lv := &t.levels[l]
		c := &t.contains[l]
		if t.pos == 0 {
			// Every edge into the level is made: it is complete.
			lv.lo = make([]tdRef, 0, len(lv.keys))
			lv.hi = make([]tdRef, 0, len(lv.keys))
		}
		for ; t.pos < len(lv.keys); t.pos++ {
			if t.pos&0xfff == 0 {
				t.check()
			}
			a := lv.keys[t.pos]
			// Down: the quorums through level l die; the others keep
			// their parts.
			var next M
			empty := true
			for x := range len(a) {
				next[x] = a[x] &^ (*c)[x]
				if next[x] != 0 {
					empty = false
				}
			}
			lo := falseRef
			if !empty {
				lo = t.state(l+1, next, l)
			}
			// Up: every quorum stays, those through level l one node
			// shorter; one that ends at l is complete.
			hi := trueRef
			if !meets(&a, &t.ends[l]) {
				next = a
				t.reduce(&next, l+1)
				hi = t.state(l+1, next, l)
			}
			lv.lo = append(lv.lo, lo)
			lv.hi = append(lv.hi, hi)
			if 2+t.states > m.budget {
				t.pos++
				panic(errAbort{fmt.Errorf("availability: bdd: more than %d nodes: %w", m.budget, ErrBudget)})
			}
		}
		if lv.keys != nil {
			t.keyPool = append(t.keyPool, lv.keys[:0])
		}
		if lv.table != nil {
			t.tablePool = append(t.tablePool, lv.table)
		}
		lv.keys, lv.table = nil, nil
	}
	t.keyPool, t.tablePool = nil, nil
	return t.make()
}

// check polls the context, reports progress and holds the memory budget,
// between two states of the expansion.
func (t *topDownOf[M]) check() {
	m := t.m
	if err := m.ctx.Err(); err != nil {
		panic(errAbort{fmt.Errorf("availability: bdd: %w", err)})
	}
	if m.progress != nil {
		m.progress(2 + t.states)
	}
	if m.maxBytes > 0 {
		if want := m.bytes(cap(m.nodes), len(m.table)) + t.bytes(); want > m.maxBytes {
			panic(errAbort{fmt.Errorf("availability: bdd: %d nodes would take %d MiB, over the memory budget of %d MiB: %w",
				2+t.states, want>>20, m.maxBytes>>20, set.ErrMemoryBudget)})
		}
	}
}

// make makes the nodes of the expanded states, deepest level first, and
// with t.count their coefficients; it returns the root.
func (t *topDownOf[M]) make() uint32 {
	m, n := t.m, t.n
	if need := len(m.nodes) + t.states; cap(m.nodes) < need {
		nodes := make([]bddNode, len(m.nodes), need)
		copy(nodes, m.nodes)
		m.nodes = nodes
	}
	// The nodes of a level are consecutive, from base[level] on.
	base := make([]uint32, n+1)
	id := func(r tdRef) uint32 {
		return base[r.level] + r.idx
	}
	var c *tdCounter
	if t.count {
		c = newTDCounter(t.m, n, t.levelSizes(), t.parents())
	}
	for l := n - 1; l >= int(t.start.level); l-- {
		lv := &t.levels[l]
		base[l] = uint32(len(m.nodes))
		for i := range lv.lo {
			m.nodes = append(m.nodes, bddNode{int32(l), id(lv.lo[i]), id(lv.hi[i])})
		}
		// The count of a level can take tens of milliseconds: once ctx
		// is done it is dropped, and the count after the diagram (which
		// watches ctx) answers.
		if c != nil && (m.ctx.Err() != nil || !c.level(l, base[l], len(lv.lo))) {
			c = nil
		}
		lv.lo, lv.hi = nil, nil
	}
	m.peak = max(m.peak, len(m.nodes))
	r := id(t.start)
	if c != nil {
		t.poly = c.result(r)
	}
	return r
}

// levelSizes returns the number of states of every level.
func (t *topDownOf[M]) levelSizes() []int {
	s := make([]int, t.n)
	for l := range t.levels {
		s[l] = len(t.levels[l].lo)
	}
	return s
}

// parents returns the shallowest level with an edge into every level.
func (t *topDownOf[M]) parents() []int {
	p := make([]int, t.n)
	for l := range t.levels {
		p[l] = int(t.levels[l].parent)
	}
	return p
}

// tdCounter counts the coefficients of the nodes of a top-down
// construction as they are made, a level at a time: the polynomials of a
// level live in one slab, dropped (for reuse) once the shallowest level
// with an edge into it is done.
type tdCounter struct {
	counter
	nodes *[]bddNode
	// slab[l] holds the polynomials of level l, the k-th node's (of
	// base[l]+k) at words off[l][k]..off[l][k+1]: its coefficients from
	// its lowest nonzero one, low[l][k], up to degree n−l. (A slab holds
	// less than MaxCountBytes, so its offsets fit in 32 bits.)
	slab    [][]uint64
	off     [][]uint32
	low     [][]int32
	base    []uint32
	freeAt  [][]int
	pool    [][]uint64
	scratch []uint64
}

// newTDCounter prepares the count for levels of the given sizes, parent
// [l] being the shallowest level with an edge into level l; nil when the
// polynomials held at once could take more than [MaxCountBytes] or what
// is left of m's memory budget.
func newTDCounter(m *manager, n int, sizes, parent []int) *tdCounter {
	c := &tdCounter{counter: counter{n: n, w: countWords(n)}, nodes: &m.nodes}
	w := c.w
	c.freeAt = make([][]int, n)
	var live, peak int64
	for l := n - 1; l >= 0; l-- {
		live += int64(sizes[l]) * int64((n-l+1)*w*8+12)
		peak = max(peak, live)
		if p := parent[l]; p >= 0 {
			c.freeAt[p] = append(c.freeAt[p], l)
		}
		for _, x := range c.freeAt[l] {
			live -= int64(sizes[x]) * int64((n-x+1)*w*8+12)
		}
	}
	limit := MaxCountBytes
	if m.maxBytes > 0 {
		limit = min(limit, m.maxBytes-m.bytes(cap(m.nodes), len(m.table)))
	}
	if peak > limit || c.init(m.ctx) != nil {
		return nil
	}
	c.slab = make([][]uint64, n)
	c.off = make([][]uint32, n)
	c.low = make([][]int32, n)
	c.base = make([]uint32, n)
	c.scratch = make([]uint64, (n+1)*w)
	return c
}

// lowOf returns the lowest nonzero degree of the polynomial of a counted
// node or terminal (n+1 for false).
func (c *tdCounter) lowOf(u uint32) int32 {
	switch u {
	case bddFalse:
		return int32(c.n + 1)
	case bddTrue:
		return 0
	}
	l := (*c.nodes)[u].level
	return c.low[l][u-c.base[l]]
}

// alloc returns a zeroed slab of size words, reusing a dropped one.
func (c *tdCounter) alloc(size int) []uint64 {
	for i, s := range c.pool {
		if cap(s) >= size {
			c.pool[i] = c.pool[len(c.pool)-1]
			c.pool = c.pool[:len(c.pool)-1]
			s = s[:size]
			clear(s)
			return s
		}
	}
	// Room to spare, so that the slab may serve a larger level later.
	return make([]uint64, size, 1<<bits.Len(uint(size)))
}

// level counts the size nodes of level l, from node base on, whose
// children are all counted, and drops the levels no longer needed. It
// reports false on overflow.
func (c *tdCounter) level(l int, base uint32, size int) bool {
	n, w := c.n, c.w
	if size == 0 {
		return true
	}
	nodes := (*c.nodes)[base : int(base)+size]
	low := make([]int32, size)
	off := make([]uint32, size+1)
	for k, nd := range nodes {
		low[k] = min(c.lowOf(nd.lo), c.lowOf(nd.hi)+1)
		off[k+1] = off[k] + uint32((n-l-int(low[k])+1)*w)
	}
	slab := c.alloc(int(off[size]))
	c.slab[l], c.off[l], c.low[l], c.base[l] = slab, off, low, base
	ok := true
	for k, nd := range nodes {
		p := slab[off[k]:off[k+1]]
		ok = c.add(p, int(low[k]), nd.lo, l, 0) && ok
		ok = c.add(p, int(low[k]), nd.hi, l, 1) && ok
	}
	for _, x := range c.freeAt[l] {
		c.pool = append(c.pool, c.slab[x])
		c.slab[x], c.off[x], c.low[x] = nil, nil, nil
	}
	return ok
}

// add adds t^shift · (1+t)^gap · poly(child) into p, the polynomial of a
// node at level l from its degree from on, where gap is the number of
// levels skipped to the child. It reports false on overflow.
func (c *tdCounter) add(p []uint64, from int, child uint32, l, shift int) bool {
	n, w := c.n, c.w
	switch child {
	case bddFalse:
		return true
	case bddTrue:
		return addInto(p[(shift-from)*w:], c.binom[n-l-1], w)
	}
	cl := int((*c.nodes)[child].level)
	k := int(child - c.base[cl])
	lc := int(c.low[cl][k])
	src := c.slab[cl][c.off[cl][k]:c.off[cl][k+1]]
	if gap := cl - l - 1; gap > 0 {
		tmp := c.scratch[:(n-cl+gap+1)*w]
		copy(tmp[lc*w:], src)
		clear(tmp[(n-cl+1)*w:])
		if !lift(tmp, n-cl, gap, lc, w) {
			return false
		}
		src = tmp[lc*w:]
	}
	return addInto(p[(shift+lc-from)*w:], src, w)
}

// result returns the polynomial of the root r over all n variables.
func (c *tdCounter) result(r uint32) *Polynomial {
	n, w := c.n, c.w
	rl := int((*c.nodes)[r].level)
	k := int(r - c.base[rl])
	lr := int(c.low[rl][k])
	p := make([]uint64, (n+1)*w)
	copy(p[lr*w:], c.slab[rl][c.off[rl][k]:c.off[rl][k+1]])
	if !lift(p, n-rl, rl, lr, w) {
		return nil
	}
	return c.toPoly(p)
}
