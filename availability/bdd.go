package availability

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// ErrBudget is wrapped by the BDD engine when the diagram would need more
// nodes than the budget allows. The error message says how many nodes were
// reached; raise the budget, or use the bounds and estimate of [Compute].
var ErrBudget = errors.New("node budget exceeded")

// Node indices 0 and 1 are the terminals false and true.
const (
	bddFalse uint32 = 0
	bddTrue  uint32 = 1
)

type bddNode struct {
	level  int32 // position of the node's variable in the order; n for terminals
	lo, hi uint32
}

type cacheEntry struct {
	a, b, r uint32
}

// BDD is a reduced ordered binary decision diagram of a monotone Boolean
// function of N variables (the nodes of a quorum system), under a static
// variable order. It is built by [BuildBDD]; Size, Count and Probability
// read it.
type BDD struct {
	n     int
	order []int // order[level] = variable
	root  uint32
	nodes []bddNode
	// poly, if not nil, holds the coefficients, counted as the diagram
	// was made.
	poly *Polynomial
}

// manager builds BDDs: nodes in an arena, a unique table (open addressing)
// keyed by (level, lo, hi), and a lossy direct-mapped cache for OR.
type manager struct {
	n         int
	nodes     []bddNode
	table     []uint32 // node index, 0 = empty slot
	tableMask uint64
	cache     []cacheEntry
	cacheMask uint64
	budget    int
	ctx       context.Context
	tick      int
	progress  func(nodes int)
	peak      int
	// maxBytes bounds the arena, unique table and cache together (0 = no
	// bound); the cache only grows while it fits.
	maxBytes int64
	misses   int
	// td is the top-down construction, kept when the budget stops it so
	// that a larger budget goes on from there.
	td topDown
	// lists are the quorums as level lists under order ([levelLists]),
	// kept with the manager for a later call with the same order.
	lists [][]int32
	order []int
}

// Bytes per entry of the manager's arrays.
const (
	nodeBytes  = 12
	tableBytes = 4
	cacheBytes = 12
)

// bytes returns the memory the manager's arrays hold, with the arena at
// capacity nodes and the table at size slots.
func (m *manager) bytes(capacity, size int) int64 {
	return int64(capacity)*nodeBytes + int64(size)*tableBytes + int64(len(m.cache))*cacheBytes
}

// keptBytes is the memory a manager kept for a later call holds, the
// top-down construction's states included.
func (m *manager) keptBytes() int64 {
	b := m.bytes(cap(m.nodes), len(m.table))
	if m.td != nil {
		b += m.td.bytes()
	}
	for _, q := range m.lists {
		b += 24 + 4*int64(len(q))
	}
	return b
}

// errMemory is the abort of a manager that would outgrow maxBytes.
func (m *manager) errMemory(want int64) errAbort {
	return errAbort{fmt.Errorf("availability: bdd: %d nodes would take %d MiB, over the memory budget of %d MiB: %w",
		len(m.nodes), want>>20, m.maxBytes>>20, set.ErrMemoryBudget)}
}

// errAbort carries a budget or context error out of the recursion.
type errAbort struct{ err error }

// newManager returns a manager holding the terminals; [manager.forApply]
// prepares it for apply.
func newManager(ctx context.Context, n, budget int, maxBytes int64) *manager {
	m := &manager{n: n, budget: budget, ctx: ctx, maxBytes: maxBytes}
	m.nodes = make([]bddNode, 2)
	m.nodes[0] = bddNode{level: int32(n)}
	m.nodes[1] = bddNode{level: int32(n)}
	return m
}

// forApply makes the unique table and the operation cache, which the
// top-down construction does without.
func (m *manager) forApply() {
	if m.table != nil {
		return
	}
	m.nodes = slices.Grow(m.nodes, 1024)
	m.rehash(1 << 12)
	m.cache = make([]cacheEntry, 1<<14)
	m.cacheMask = 1<<14 - 1
}

func hash3(l int32, lo, hi uint32) uint64 {
	h := uint64(l)*0x9E3779B97F4A7C15 ^ uint64(lo)*0xC2B2AE3D27D4EB4F ^ uint64(hi)*0x165667B19E3779F9
	return h ^ h>>29
}

func (m *manager) rehash(size int) {
	if len(m.table) == size {
		clear(m.table) // after a collection: the same size again
	} else {
		m.table = make([]uint32, size)
	}
	m.tableMask = uint64(size - 1)
	for i := 2; i < len(m.nodes); i++ {
		nd := m.nodes[i]
		h := hash3(nd.level, nd.lo, nd.hi) & m.tableMask
		for m.table[h] != 0 {
			h = (h + 1) & m.tableMask
		}
		m.table[h] = uint32(i)
	}
}

// mk returns the node (level, lo, hi), creating it if needed.
func (m *manager) mk(level int32, lo, hi uint32) uint32 {
	if lo == hi {
		return lo
	}
	h := hash3(level, lo, hi) & m.tableMask
	for {
		i := m.table[h]
		if i == 0 {
			break
		}
		nd := &m.nodes[i]
		if nd.level == level && nd.lo == lo && nd.hi == hi {
			return i
		}
		h = (h + 1) & m.tableMask
	}
	if len(m.nodes) >= m.budget {
		panic(errAbort{fmt.Errorf("availability: bdd: more than %d nodes: %w", m.budget, ErrBudget)})
	}
	m.tick++
	if m.tick&0xffff == 0 {
		if err := m.ctx.Err(); err != nil {
			panic(errAbort{fmt.Errorf("availability: bdd: %w", err)})
		}
		if m.progress != nil {
			m.progress(len(m.nodes))
		}
	}
	i := uint32(len(m.nodes))
	if len(m.nodes) == cap(m.nodes) {
		// Grow the arena by hand, so that the budget sees it first, and
		// never beyond the node budget.
		c := min(2*cap(m.nodes), m.budget)
		if m.maxBytes > 0 && m.bytes(c, len(m.table)) > m.maxBytes {
			c = len(m.nodes) + len(m.nodes)/4
			if want := m.bytes(c, len(m.table)); want > m.maxBytes {
				panic(m.errMemory(want))
			}
		}
		m.nodes = slices.Grow(m.nodes, c-len(m.nodes))
	}
	m.nodes = append(m.nodes, bddNode{level, lo, hi})
	m.table[h] = i
	if len(m.nodes) > m.peak {
		m.peak = len(m.nodes)
	}
	if 2*len(m.nodes) > len(m.table) {
		if want := m.bytes(cap(m.nodes), 2*len(m.table)); m.maxBytes > 0 && want > m.maxBytes {
			panic(m.errMemory(want))
		}
		m.rehash(2 * len(m.table))
		m.growCache()
	}
	return i
}

// maxCacheEntries caps the operation cache: it is lossy, so the cap costs
// time at worst, never an answer.
const maxCacheEntries = 1 << 24

func (m *manager) growCache() {
	// Keep the cache at one to four times the node arena, up to 2^24
	// entries (192 MiB), keeping the entries it has.
	if len(m.cache) >= maxCacheEntries || len(m.cache) >= 2*len(m.nodes) {
		return
	}
	if m.maxBytes > 0 && m.bytes(cap(m.nodes), len(m.table))+3*int64(len(m.cache))*cacheBytes > m.maxBytes/2 {
		// The cache is lossy: a small one costs time, never the answer.
		// It stays within half the budget, leaving room for the nodes.
		return
	}
	old := m.cache
	m.cache = make([]cacheEntry, 4*len(old))
	m.cacheMask = uint64(len(m.cache) - 1)
	for _, e := range old {
		if e.r != 0 {
			a, b := e.a, e.b
			h := uint64(a)*0x9E3779B97F4A7C15 ^ uint64(b)*0xC2B2AE3D27D4EB4F
			m.cache[(h^h>>31)&m.cacheMask] = e
		}
	}
}

// poll looks at the context every 2^16 cache misses: a long run of
// operations that find their nodes already made creates none, so mk's
// own checks would not see a cancellation.
func (m *manager) poll() {
	m.misses++
	if m.misses&0xffff == 0 {
		if err := m.ctx.Err(); err != nil {
			panic(errAbort{fmt.Errorf("availability: bdd: %w", err)})
		}
	}
}

// or returns the disjunction of a and b.
func (m *manager) or(a, b uint32) uint32 {
	switch {
	case a == b || b == bddFalse:
		return a
	case a == bddFalse:
		return b
	case a == bddTrue || b == bddTrue:
		return bddTrue
	}
	if a > b {
		a, b = b, a
	}
	h := (uint64(a)*0x9E3779B97F4A7C15 ^ uint64(b)*0xC2B2AE3D27D4EB4F)
	h = (h ^ h>>31) & m.cacheMask
	if e := m.cache[h]; e.a == a && e.b == b && e.r != 0 {
		return e.r
	}
	m.poll()
	na, nb := m.nodes[a], m.nodes[b]
	var l int32
	alo, ahi, blo, bhi := a, a, b, b
	switch {
	case na.level == nb.level:
		l, alo, ahi, blo, bhi = na.level, na.lo, na.hi, nb.lo, nb.hi
	case na.level < nb.level:
		l, alo, ahi = na.level, na.lo, na.hi
	default:
		l, blo, bhi = nb.level, nb.lo, nb.hi
	}
	lo := m.or(alo, blo)
	hi := m.or(ahi, bhi)
	r := m.mk(l, lo, hi)
	// The cache may have been replaced while recursing; index it afresh.
	h2 := (uint64(a)*0x9E3779B97F4A7C15 ^ uint64(b)*0xC2B2AE3D27D4EB4F)
	h2 = (h2 ^ h2>>31) & m.cacheMask
	m.cache[h2] = cacheEntry{a, b, r}
	return r
}

// chain returns the conjunction of the variables at the given levels,
// which must be sorted increasingly.
func (m *manager) chain(levels []int32) uint32 {
	r := bddTrue
	for i := len(levels) - 1; i >= 0; i-- {
		r = m.mk(levels[i], bddFalse, r)
	}
	return r
}

// orCube returns u ∨ (the conjunction of the variables at the levels q,
// sorted increasingly), making only the nodes of the result: where u
// already tests a level of q, the cube joins u's high branch there, so no
// chain of q is made first (a list of many quorums would leave one
// chain's worth of garbage nodes per quorum). Each node of u is visited
// once per path to it, without a cache: past *left visits it gives up and
// reports false, and the caller ORs a chain instead.
func (m *manager) orCube(u uint32, q []int32, left *int) (uint32, bool) {
	switch {
	case len(q) == 0 || u == bddTrue:
		return bddTrue, true
	case u == bddFalse:
		return m.chain(q), true
	}
	*left--
	if *left < 0 {
		return 0, false
	}
	nd := m.nodes[u]
	c := q[0]
	switch {
	case nd.level < c:
		lo, ok := m.orCube(nd.lo, q, left)
		if !ok {
			return 0, false
		}
		hi, ok := m.orCube(nd.hi, q, left)
		if !ok {
			return 0, false
		}
		if lo == nd.lo && hi == nd.hi {
			return u, true // the cube was implied below: no lookup
		}
		return m.mk(nd.level, lo, hi), true
	case nd.level == c:
		// x·hi ∨ x̄·lo ∨ x·rest = x·(hi ∨ rest) ∨ x̄·lo.
		hi, ok := m.orCube(nd.hi, q[1:], left)
		if !ok {
			return 0, false
		}
		if hi == nd.hi {
			return u, true
		}
		return m.mk(c, nd.lo, hi), true
	default:
		// u does not test x: u ∨ x·rest = x·(u ∨ rest) ∨ x̄·u.
		hi, ok := m.orCube(u, q[1:], left)
		if !ok {
			return 0, false
		}
		return m.mk(c, u, hi), true
	}
}

// orCubeVisits bounds the visits of one [manager.orCube].
const orCubeVisits = 1 << 12

// gc keeps only the nodes reachable from roots, renumbering them in their
// old relative order (children before parents), and rewrites roots.
func (m *manager) gc(roots []uint32) {
	live := make([]bool, len(m.nodes))
	live[0], live[1] = true, true
	stack := slices.Clone(roots)
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if live[u] {
			continue
		}
		live[u] = true
		stack = append(stack, m.nodes[u].lo, m.nodes[u].hi)
	}
	remap := make([]uint32, len(m.nodes))
	k := uint32(0)
	for i := range m.nodes {
		if !live[i] {
			continue
		}
		nd := m.nodes[i]
		if i >= 2 {
			nd.lo, nd.hi = remap[nd.lo], remap[nd.hi]
		}
		m.nodes[k] = nd
		remap[i] = k
		k++
	}
	m.nodes = m.nodes[:k]
	for i := range roots {
		roots[i] = remap[roots[i]]
	}
	size := len(m.table)
	for size > 1<<12 && 4*len(m.nodes) < size {
		size /= 2
	}
	m.rehash(size)
	clear(m.cache)
}

// BDDOptions control [BuildBDD].
type BDDOptions struct {
	// Order is the static variable order: Order[i] is the node tested at
	// level i. Nil means [ChooseOrder].
	Order []int
	// Budget is the largest number of nodes the manager may hold at once;
	// 0 means DefaultBudget.
	Budget int
	// Progress, if not nil, is told now and then how the construction
	// goes, in stage "building the BDD": by apply, the quorums merged of
	// all; top-down, the nodes made so far (total −1).
	Progress set.Progress
	// MaxMemory, if positive, bounds the bytes of the node arena, unique
	// table and operation cache together; past it BuildBDD stops with an
	// error wrapping [set.ErrMemoryBudget].
	MaxMemory int64
	// apply forces the construction by apply even where the top-down
	// one fits, so that tests can compare the two.
	apply bool
	// count asks the top-down construction to count the coefficients
	// as it makes the nodes, for [BDD.Count].
	count bool
}

// DefaultBudget is the node budget of [BuildBDD] when none is given. At
// the budget the arena (12 bytes a node), unique table (4 bytes a slot,
// two to four slots a node) and operation cache (up to 192 MiB) take
// about 1.2 GB, and a process building it may hold twice that between
// garbage collections: bound memory with BDDOptions.MaxMemory or
// Options.MaxMemory, not with the node budget.
const DefaultBudget = 40_000_000

// BuildBDD returns the reduced ordered BDD of "some quorum of f is all up"
// for an explicit family f. When the containments between the quorums'
// parts below each level fit in memory (levels × quorums² bits), it
// expands the family top-down, one node per distinct subfunction, with no
// intermediate diagram; otherwise it builds by apply: the quorums, sorted
// so that neighbours share their first variables, are added one by one
// into blocks of 32, and the blocks merged by OR as a balanced tree over
// the list, with garbage collection as the arena fills, so that the
// budget bounds the nodes alive at once. It stops with an error wrapping
// [ErrBudget] if the diagram needs more nodes than the budget, and with
// the context's error if ctx is cancelled.
func BuildBDD(ctx context.Context, f *set.Family, opts BDDOptions) (*BDD, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	if construct.ThresholdForm(f) != nil {
		return nil, errors.New("availability: bdd: threshold family: use the closed form")
	}
	b, _, _, err := buildBDD(ctx, f, opts, nil)
	return b, err
}

// buildBDD is BuildBDD that also returns how far it got: by apply, the
// number of OR operations done (one per quorum, then one per pair of
// blocks); top-down, 1024 per level expanded (and the fraction of the
// level being expanded), the measure of progress by which [searchBDD]
// ranks orders that failed. When the budget stops it, it returns its
// manager too, which a later call with the same family and order and a
// larger budget may take up (reuse): the nodes made and the operations
// cached (by apply), or the states expanded (top-down), are then found
// again, not redone. f lists its quorums: its callers answer a threshold
// family by its closed form.
func buildBDD(ctx context.Context, f *set.Family, opts BDDOptions, reuse *manager) (b *BDD, steps int, kept *manager, err error) {
	n := f.N
	order := opts.Order
	if order == nil {
		order = ChooseOrder(f)
	}
	if len(order) != n {
		return nil, 0, nil, fmt.Errorf("availability: bdd: order has %d nodes, want %d", len(order), n)
	}
	level := make([]int32, n)
	for i := range level {
		level[i] = -1
	}
	for l, v := range order {
		if v < 0 || v >= n || level[v] >= 0 {
			return nil, 0, nil, fmt.Errorf("availability: bdd: order is not a permutation of 1..%d", n)
		}
		level[v] = int32(l)
	}
	budget := opts.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	m := reuse
	if m == nil || m.n != n {
		m = newManager(ctx, n, budget, opts.MaxMemory)
	}
	m.ctx, m.budget, m.maxBytes, m.progress = ctx, budget, opts.MaxMemory, nil
	merged, pairs := 0, 0
	defer func() {
		if r := recover(); r != nil {
			a, ok := r.(errAbort)
			if !ok {
				panic(r)
			}
			b, steps, err = nil, merged+pairs, a.err
			if m.td != nil {
				steps = m.td.done()
			}
			if errors.Is(err, ErrBudget) {
				kept = m
			}
		}
	}()
	// Quorums as sorted level lists, without repeats, in an order where
	// neighbours share prefixes.
	qs := m.lists
	if qs == nil || !slices.Equal(m.order, order) {
		qs = levelLists(f, level)
		m.lists, m.order = qs, slices.Clone(order)
	}
	roots := make([]uint32, 0, len(qs))
	const stage = "building the BDD"
	report := func() {
		opts.Progress.Report(stage, int64(merged), int64(len(qs)))
	}
	if opts.Progress != nil {
		m.progress = func(int) { report() }
	}
	if len(qs) == 0 {
		return &BDD{n: n, order: slices.Clone(order), root: bddFalse, nodes: m.nodes[:2]}, 0, nil, nil
	}
	// Top-down, when the relation between the quorums fits: it makes only
	// the nodes of the result. Else apply.
	if !opts.apply && len(qs) <= 64*maxMaskWords && topDownBytes(n, len(qs)) <= topDownMaxBytes && int64(n)*int64(len(qs))*int64(len(qs))*int64(n/64+1) <= topDownMaxWork {
		if err := ctx.Err(); err != nil {
			return nil, 0, nil, fmt.Errorf("availability: bdd: %w", err)
		}
		if m.td == nil {
			slices.SortFunc(qs, slices.Compare)
			if len(m.nodes) > 2 {
				// The top-down construction makes all its nodes at
				// the end, from an empty arena.
				m = newManager(ctx, n, budget, opts.MaxMemory)
				m.lists, m.order = qs, slices.Clone(order)
			}
			m.td = newTopDown(m, n, qs)
		}
		if opts.Progress != nil {
			m.progress = func(nodes int) { opts.Progress(stage, int64(nodes), -1) }
		}
		r := m.td.root(opts.count)
		p := m.td.counted()
		m.td = nil
		return &BDD{n: n, order: slices.Clone(order), root: r, nodes: m.nodes, poly: p}, len(m.nodes), nil, nil
	}
	m.forApply()
	// The arena is collected whenever it has doubled since the last
	// collection, and, near the budget, half way to it (but after an
	// eighth more at least, so that each collection is paid for by the
	// nodes made since), so that the budget bounds the nodes alive, not
	// the garbage: a list of many quorums leaves far more garbage than
	// diagram.
	next := func(live int) int {
		at := max(2*live, 1<<14)
		if at > budget-budget/4 {
			at = live + max((budget-live)/2, live/8, 1)
		}
		return min(at, budget)
	}
	gcAt := next(len(m.nodes))
	collect := func(roots []uint32) {
		if len(m.nodes) < gcAt {
			return
		}
		m.gc(roots)
		gcAt = next(len(m.nodes))
	}
	// Fold runs of quorums sequentially into blocks of about 32, which is
	// cheap while the partial results are small, and merge the blocks
	// pairwise as they come, as a binary counter carries: two results
	// of 2^k blocks each become one of 2^(k+1). So the blocks merge as a
	// balanced tree over the list, and what is alive at once is the few
	// partial results on the stack (roots, with their ranks), not every
	// block's diagram.
	const block = 32
	var ranks []int
	for i := 0; i < len(qs); i += block {
		r := bddFalse
		for _, q := range qs[i:min(i+block, len(qs))] {
			left := orCubeVisits
			if c, ok := m.orCube(r, q, &left); ok {
				r = c
			} else {
				r = m.or(r, m.chain(q))
			}
			merged++
		}
		roots, ranks = append(roots, r), append(ranks, 0)
		for k := len(roots) - 1; k > 0 && ranks[k-1] == ranks[k]; k-- {
			roots[k-1] = m.or(roots[k-1], roots[k])
			ranks[k-1]++
			roots, ranks = roots[:k], ranks[:k]
			pairs++
		}
		collect(roots)
		if len(ranks) == 1 || ranks[len(ranks)-1] >= 4 {
			report()
		}
	}
	for k := len(roots) - 1; k > 0; k-- {
		roots[k-1] = m.or(roots[k-1], roots[k])
		roots = roots[:k]
		pairs++
		collect(roots)
	}
	report()
	m.gc(roots)
	return &BDD{n: n, order: slices.Clone(order), root: roots[0], nodes: m.nodes}, merged + pairs, nil, nil
}

// levelLists returns the quorums of f as lists of their levels (level[v]
// for node v) in increasing order, without repeats, sorted so that lists
// sharing a prefix are neighbours: by the bit strings "level l is in the
// list", level 0 first, decreasing (the lexicographic order of the lists,
// except that a list comes after the longer ones it begins). The strings
// are compared as machine words, far cheaper than the lists themselves.
func levelLists(f *set.Family, level []int32) [][]int32 {
	n := len(level)
	w := (n + 63) / 64
	m := len(f.Quorums)
	keys := make([]uint64, m*w)
	total := 0
	for i := range f.Quorums {
		k := keys[i*w : (i+1)*w]
		for v := range f.Quorums[i].All() {
			l := level[v]
			k[l>>6] |= 1 << (63 - l&63)
			total++
		}
	}
	idx := make([]int32, m)
	for i := range idx {
		idx[i] = int32(i)
	}
	if w == 1 {
		// One word: a radix sort, a byte at a time from the lowest
		// byte that holds a level.
		tmp := make([]int32, m)
		for shift := (64 - n) / 8 * 8; shift < 64; shift += 8 {
			var at [257]int
			for _, i := range idx {
				at[256-int(byte(keys[i]>>shift))]++
			}
			for d := 1; d <= 256; d++ {
				at[d] += at[d-1]
			}
			for _, i := range idx {
				d := 255 - int(byte(keys[i]>>shift))
				tmp[at[d]] = i
				at[d]++
			}
			idx, tmp = tmp, idx
		}
	} else {
		slices.SortFunc(idx, func(a, b int32) int {
			x, y := keys[int(a)*w:int(a+1)*w], keys[int(b)*w:int(b+1)*w]
			for j := range x {
				switch {
				case x[j] > y[j]:
					return -1
				case x[j] < y[j]:
					return 1
				}
			}
			return 0
		})
	}
	all := make([]int32, 0, total)
	qs := make([][]int32, 0, m)
	for k, i := range idx {
		key := keys[int(i)*w : int(i+1)*w]
		if k > 0 && slices.Equal(key, keys[int(idx[k-1])*w:int(idx[k-1]+1)*w]) {
			continue
		}
		start := len(all)
		for j, x := range key {
			for x != 0 {
				b := bits.LeadingZeros64(x)
				all = append(all, int32(64*j+b))
				x &^= 1 << (63 - b)
			}
		}
		qs = append(qs, all[start:len(all):len(all)])
	}
	return qs
}

// Size returns the number of nodes of the diagram, terminals included.
func (b *BDD) Size() int { return len(b.nodes) }

// Order returns the variable order: Order()[i] is the node tested at level i.
func (b *BDD) Order() []int { return slices.Clone(b.order) }

// Probability returns the probability that the function is true when node
// v is up with probability p[v], independently.
func (b *BDD) Probability(p []float64) float64 {
	pr := make([]float64, len(b.nodes))
	pr[bddTrue] = 1
	for i := 2; i < len(b.nodes); i++ {
		nd := b.nodes[i]
		x := p[b.order[nd.level]]
		pr[i] = x*pr[nd.hi] + (1-x)*pr[nd.lo]
	}
	return pr[b.root]
}

// Count returns the coefficient vector: A[i] = number of assignments with
// exactly i variables true that make the function true. It counts paths
// bottom-up by their number of up-branches, a skipped level multiplying by
// (1+t), in fixed-width integers of as many 64-bit words as C(n, n/2)
// needs (so no count can overflow; an add that would carry out of the top
// word is reported as an internal error), level by level across all cores.
func (b *BDD) Count(ctx context.Context) (*Polynomial, error) {
	return b.count(ctx, nil, 0)
}

// MaxCountBytes bounds the memory the counting pass of [BDD.Count] may
// hold at once (the polynomials of the nodes whose parents are not all
// counted yet); beyond it Count refuses with an error wrapping [ErrBudget].
const MaxCountBytes int64 = 4 << 30

// count is Count with progress and, if maxBytes is positive, a bound on
// the bytes of the pass beyond the diagram itself.
func (b *BDD) count(ctx context.Context, progress func(done, total int), maxBytes int64) (*Polynomial, error) {
	if b.poly != nil {
		return b.poly.Clone(), nil
	}
	c := counter{n: b.n, w: countWords(b.n), progress: progress, maxBytes: maxBytes}
	res, err := c.run(ctx, b)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// countWords is the number of 64-bit words a count over n variables
// takes: room for C(n, n/2) and a word to spare.
func countWords(n int) int {
	return (set.Binomial(n, n/2).BitLen() + 64) / 64
}

// counter holds the state of one counting pass.
type counter struct {
	n, w int
	// binom[g] is (1+t)^g in limbs, for the edges into the true terminal.
	binom    [][]uint64
	progress func(done, total int)
	maxBytes int64
	// byLevel skips the sequential pass, so that tests reach the other.
	byLevel bool
}

// poly layout: coefficient j occupies words [j*w, (j+1)*w), little-endian.

// init makes c.binom: (1+t)^g by Pascal's rule, in words. Over n nodes
// that is n²·w/2 words, a third of a second for n = 1,730, so it looks at
// ctx every 64 rows.
func (c *counter) init(ctx context.Context) error {
	n, w := c.n, c.w
	c.binom = make([][]uint64, n+1)
	c.binom[0] = make([]uint64, w)
	c.binom[0][0] = 1
	for g := 1; g <= n; g++ {
		if g%64 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("availability: counting: %w", err)
			}
		}
		p := make([]uint64, (g+1)*w)
		copy(p, c.binom[g-1])
		if !lift(p, g-1, 1, 0, w) {
			return errOverflow
		}
		c.binom[g] = p
	}
	return nil
}

func (c *counter) run(ctx context.Context, b *BDD) (*Polynomial, error) {
	n, w := c.n, c.w
	if err := c.init(ctx); err != nil {
		return nil, err
	}
	if b.root == bddFalse {
		return NewPolynomial(n), nil
	}
	if b.root == bddTrue {
		return c.toPoly(c.binom[n]), nil
	}
	if !c.byLevel {
		if p, ok, err := c.sequential(ctx, b); ok || err != nil {
			return p, err
		}
	}
	r := reachable(b, n)
	if err := c.checkPeak(b, r); err != nil {
		return nil, err
	}
	nodes := b.nodes
	polys := make([][]uint64, len(nodes))
	// low[u] is the lowest degree with a nonzero coefficient in u's
	// polynomial (n+1 for false): a quorum needs that many nodes up.
	low := make([]int32, len(nodes))
	low[bddFalse] = int32(n + 1)
	for l := n - 1; l >= 0; l-- {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("availability: counting: %w", err)
		}
		if !c.countLevel(ctx, nodes, r.byLevel[l], l, polys, low) {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("availability: counting: %w", err)
			}
			return nil, errOverflow
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("availability: counting: %w", err)
		}
		if c.progress != nil && l%8 == 0 {
			c.progress(n-l, n)
		}
		r.release(nodes, r.byLevel[l], polys)
	}
	rootLevel := int(nodes[b.root].level)
	// The levels above the root are free: multiply by (1+t)^rootLevel.
	p := make([]uint64, (n+1)*w)
	copy(p, polys[b.root])
	if !lift(p, n-rootLevel, rootLevel, 0, w) {
		return nil, errOverflow
	}
	return c.toPoly(p), nil
}

// levelNodes holds the nodes reachable from a BDD's root by level, with
// the number of parents each has and of nodes each level has, both still
// to count.
type levelNodes struct {
	byLevel   [][]uint32
	parents   []int32
	levelLive []int
}

// reachable returns the nodes reachable from b's root, by level.
func reachable(b *BDD, n int) *levelNodes {
	nodes := b.nodes
	r := &levelNodes{byLevel: make([][]uint32, n), parents: make([]int32, len(nodes)), levelLive: make([]int, n)}
	seen := make([]bool, len(nodes))
	stack := []uint32{b.root}
	seen[b.root] = true
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := nodes[u]
		r.byLevel[nd.level] = append(r.byLevel[nd.level], u)
		for _, v := range [2]uint32{nd.lo, nd.hi} {
			r.parents[v]++
			if v > bddTrue && !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	for l := range n {
		r.levelLive[l] = len(r.byLevel[l])
	}
	return r
}

// release counts the parents in us as done, and drops the polynomials of
// every level whose nodes have all their parents counted.
func (r *levelNodes) release(nodes []bddNode, us []uint32, polys [][]uint64) {
	for _, u := range us {
		nd := nodes[u]
		for _, v := range [2]uint32{nd.lo, nd.hi} {
			if v <= bddTrue {
				continue
			}
			r.parents[v]--
			if r.parents[v] == 0 {
				lv := nodes[v].level
				r.levelLive[lv]--
				if r.levelLive[lv] == 0 {
					for _, x := range r.byLevel[lv] {
						polys[x] = nil
					}
				}
			}
		}
	}
}

// checkPeak plays the level-by-level pass through without counting, to
// find the most memory its polynomials hold at once, and refuses a pass
// over the memory budget or [MaxCountBytes].
func (c *counter) checkPeak(b *BDD, r *levelNodes) error {
	n, w, nodes := c.n, c.w, b.nodes
	left := slices.Clone(r.parents)
	pending := slices.Clone(r.levelLive)
	var live, peak int64
	for l := n - 1; l >= 0; l-- {
		live += int64(len(r.byLevel[l])) * int64((n-l+1)*w*8)
		peak = max(peak, live)
		for _, u := range r.byLevel[l] {
			nd := nodes[u]
			for _, v := range [2]uint32{nd.lo, nd.hi} {
				if v <= bddTrue {
					continue
				}
				left[v]--
				if left[v] == 0 {
					lv := int(nodes[v].level)
					pending[lv]--
					if pending[lv] == 0 {
						live -= int64(len(r.byLevel[lv])) * int64((n-lv+1)*w*8)
					}
				}
			}
		}
	}
	// The bookkeeping: 4+1 bytes a node, 4 more for byLevel.
	peak += 9 * int64(len(nodes))
	if c.maxBytes > 0 && peak > c.maxBytes {
		return fmt.Errorf("availability: counting the paths of a BDD of %d nodes would hold %d MiB at once, over the memory budget of %d MiB: %w",
			len(nodes), peak>>20, c.maxBytes>>20, set.ErrMemoryBudget)
	}
	if peak > MaxCountBytes {
		return fmt.Errorf("availability: counting the paths of a BDD of %d nodes would hold %d MiB at once, over the limit of %d MiB: %w",
			len(nodes), peak>>20, MaxCountBytes>>20, ErrBudget)
	}
	return nil
}

// countLevel counts the polynomials of the nodes us of level l into one
// slab, on every core when the level is large. It reports false on
// overflow, or when ctx ended part way.
func (c *counter) countLevel(ctx context.Context, nodes []bddNode, us []uint32, l int, polys [][]uint64, low []int32) bool {
	n, w := c.n, c.w
	stride := (n - l + 1) * w // the polynomial of a node at level l has degree ≤ n−l
	slab := make([]uint64, len(us)*stride)
	var failed atomic.Bool
	work := func(us []uint32, slab []uint64) {
		scratch := make([]uint64, (n+1)*w)
		ok := true
		for k, u := range us {
			if k&0xfff == 0xfff && ctx.Err() != nil {
				failed.Store(true)
				return
			}
			p := slab[k*stride : (k+1)*stride : (k+1)*stride]
			nd := nodes[u]
			low[u] = min(low[nd.lo], low[nd.hi]+1)
			ok = c.addLifted(p, nd.lo, polys, nodes, low, l, 0, scratch) && ok
			ok = c.addLifted(p, nd.hi, polys, nodes, low, l, 1, scratch) && ok
			polys[u] = p
		}
		if !ok {
			failed.Store(true)
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if len(us) < 256 || workers == 1 {
		work(us, slab)
		return !failed.Load()
	}
	var wg sync.WaitGroup
	chunk := (len(us) + workers - 1) / workers
	for i := 0; i < len(us); i += chunk {
		part := us[i:min(i+chunk, len(us))]
		sl := slab[i*stride:]
		wg.Go(func() { work(part, sl) })
	}
	wg.Wait()
	return !failed.Load()
}

// maxSequentialBytes bounds the polynomials [counter.sequential] holds.
const maxSequentialBytes = 256 << 20

// sequential counts the nodes in the order of the arena (children before
// parents), keeping every node's polynomial, stored from its lowest
// nonzero coefficient, in one slab: one pass in the order the nodes were
// made, which for a top-down diagram keeps a node near its children. It
// reports false, having done nothing, when the slab would take more than
// maxSequentialBytes or the memory budget; the caller then counts level
// by level, freeing as it goes.
func (c *counter) sequential(ctx context.Context, b *BDD) (*Polynomial, bool, error) {
	n, w := c.n, c.w
	nodes := b.nodes
	low := make([]int32, len(nodes))
	low[bddFalse] = int32(n + 1)
	off := make([]int, len(nodes)+1)
	total := 0
	for u := 2; u < len(nodes); u++ {
		nd := nodes[u]
		low[u] = min(low[nd.lo], low[nd.hi]+1)
		off[u] = total
		total += (n - int(nd.level) - int(low[u]) + 1) * w
	}
	bytes := int64(total)*8 + 12*int64(len(nodes))
	if bytes > maxSequentialBytes || c.maxBytes > 0 && bytes > c.maxBytes {
		return nil, false, nil
	}
	slab := make([]uint64, total)
	scratch := make([]uint64, (n+1)*w)
	// poly returns the band of u: coefficients low[u]..n−level.
	poly := func(u uint32) []uint64 {
		nd := nodes[u]
		return slab[off[u] : off[u]+(n-int(nd.level)-int(low[u])+1)*w]
	}
	// add adds t^shift · (1+t)^gap · poly(child) into the band p of a node
	// at level l whose lowest coefficient is from.
	add := func(p []uint64, from int, child uint32, l, shift int) bool {
		if child == bddFalse {
			return true
		}
		cl := int(nodes[child].level)
		gap := cl - l - 1
		lc := int(low[child])
		var src []uint64 // coefficients lc..
		switch {
		case child == bddTrue:
			src = c.binom[gap]
		case gap == 0:
			src = poly(child)
		default:
			pc := poly(child)
			deg := n - cl - lc
			tmp := scratch[:(deg+gap+1)*w]
			copy(tmp, pc)
			clear(tmp[len(pc):])
			if !lift(tmp, deg, gap, 0, w) {
				return false
			}
			src = tmp
		}
		return addInto(p[(lc+shift-from)*w:], src, w)
	}
	for u := 2; u < len(nodes); u++ {
		if u&0xffff == 2 {
			if err := ctx.Err(); err != nil {
				return nil, true, fmt.Errorf("availability: counting: %w", err)
			}
			if c.progress != nil {
				c.progress(u, len(nodes))
			}
		}
		nd := nodes[u]
		l := int(nd.level)
		p := poly(uint32(u))
		from := int(low[u])
		if !add(p, from, nd.lo, l, 0) || !add(p, from, nd.hi, l, 1) {
			return nil, true, errOverflow
		}
	}
	rootLevel := int(nodes[b.root].level)
	p := make([]uint64, (n+1)*w)
	from := int(low[b.root])
	copy(p[from*w:], poly(b.root))
	if !lift(p, n-rootLevel, rootLevel, from, w) {
		return nil, true, errOverflow
	}
	return c.toPoly(p), true, nil
}

var errOverflow = errors.New("availability: counting: internal error: a coefficient overflowed its fixed width")

// addLifted adds t^shift · (1+t)^gap · poly(child) into p, where gap is
// the number of levels skipped between level l and the child, using
// scratch (room for n+1 coefficients). The coefficients of the child
// below low[child] are zero and are skipped. It reports false on overflow.
func (c *counter) addLifted(p []uint64, child uint32, polys [][]uint64, nodes []bddNode, low []int32, l, shift int, scratch []uint64) bool {
	if child == bddFalse {
		return true
	}
	w := c.w
	cl := int(nodes[child].level)
	gap := cl - l - 1
	from := int(low[child])
	var src []uint64
	switch {
	case child == bddTrue:
		src = c.binom[gap]
	case gap == 0:
		src = polys[child]
	default:
		deg := c.n - cl
		tmp := scratch[:(deg+gap+1)*w]
		pc := polys[child]
		copy(tmp[from*w:], pc[from*w:])
		clear(tmp[len(pc):])
		if !lift(tmp, deg, gap, from, w) {
			return false
		}
		src = tmp
	}
	return addInto(p[(shift+from)*w:], src[from*w:], w)
}

// lift multiplies the polynomial of degree deg held in p (which has room
// for degree deg+g) by (1+t)^g in place, reporting false on overflow. The
// coefficients below from are zero, stay so, and are not read.
func lift(p []uint64, deg, g, from, w int) bool {
	switch w {
	case 1:
		var bad uint64
		for k := 0; k < g; k++ {
			deg++
			for j := deg; j > from; j-- {
				s := p[j] + p[j-1]
				bad |= boolBit(s < p[j])
				p[j] = s
			}
		}
		return bad == 0
	case 2:
		var bad uint64
		for k := 0; k < g; k++ {
			deg++
			for j := deg; j > from; j-- {
				var c uint64
				p[2*j], c = bits.Add64(p[2*j], p[2*j-2], 0)
				p[2*j+1], c = bits.Add64(p[2*j+1], p[2*j-1], c)
				bad |= c
			}
		}
		return bad == 0
	}
	for k := 0; k < g; k++ {
		deg++
		for j := deg; j > from; j-- {
			if !addWords(p[j*w:(j+1)*w], p[(j-1)*w:j*w]) {
				return false
			}
		}
	}
	return true
}

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// addInto adds the coefficients of src into dst, word by word.
func addInto(dst, src []uint64, w int) bool {
	switch w {
	case 1:
		var bad uint64
		dst = dst[:len(src)]
		for j, s := range src {
			d := dst[j] + s
			bad |= boolBit(d < s)
			dst[j] = d
		}
		return bad == 0
	case 2:
		var bad uint64
		dst = dst[:len(src)]
		for j := 0; j+1 < len(src); j += 2 {
			var c uint64
			dst[j], c = bits.Add64(dst[j], src[j], 0)
			dst[j+1], c = bits.Add64(dst[j+1], src[j+1], c)
			bad |= c
		}
		return bad == 0
	}
	for j := 0; j < len(src); j += w {
		if !addWords(dst[j:j+w], src[j:j+w]) {
			return false
		}
	}
	return true
}

// addWords sets d += s for multi-word numbers, reporting false on a carry
// out of the top word.
func addWords(d, s []uint64) bool {
	var carry uint64
	for i := range d {
		d[i], carry = bits.Add64(d[i], s[i], carry)
	}
	return carry == 0
}

// getBig returns the number held in the words of src.
func getBig(src []uint64) *big.Int {
	v := new(big.Int)
	var t big.Int
	for i := len(src) - 1; i >= 0; i-- {
		v.Lsh(v, 64)
		v.Or(v, t.SetUint64(src[i]))
	}
	return v
}

func (c *counter) toPoly(p []uint64) *Polynomial {
	w := c.w
	res := NewPolynomial(c.n)
	for j := 0; j <= c.n && (j+1)*w <= len(p); j++ {
		res.A[j] = getBig(p[j*w : (j+1)*w])
	}
	return res
}
