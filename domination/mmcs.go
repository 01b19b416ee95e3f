package domination

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/coterie-dev/coterie/set"
)

// This file holds the minimal-transversal search of Murakami and Uno
// (MMCS, "Efficient algorithms for dualizing large-scale hypergraphs",
// Discrete Applied Mathematics 170, 2014): grow a set S one vertex at a time,
// always branching on the uncovered edge F with the fewest candidate
// vertices, and keep every vertex of S critical (the only vertex of S on some
// edge), so that every leaf with no uncovered edge is a minimal transversal
// and each is reached exactly once. For F = {v1, ..., vr} ∩ CAND the branch of
// vi may still use v1..v(i-1) later but not v(i+1)..vr, which makes the
// branches disjoint.
//
// Three engines implement it, the same search over sets of different
// widths: one machine word (at most 64 vertices and 64 edges: every set is
// a uint64), two words (mmcs2.go, up to 128) and word vectors. None
// allocates inside the recursion, and all three do the same work per node:
//
//   - crit(u) is not kept per depth: the edges u covered first, less the
//     edges S covers twice or more (one set, updated in one step as S
//     grows), are exactly the edges u alone covers;
//   - of the chosen edge's candidates, those that would leave some u ∈ S
//     with no edge of its own (they lie in every edge of crit(u)) are
//     found by ANDing the edges of crit(u), a few without a branch;
//   - the candidates that cover every uncovered edge complete a minimal
//     transversal each: a count adds them up at once instead of
//     recursing, a listing visits them in order.
//
// A listing gives the transversals in the order of the plain search.

// ctxEvery is how many search nodes pass between checks of the context.
const ctxEvery = 1 << 16

// mmcsEngine runs the search from a loaded state.
type mmcsEngine interface {
	// load replays S from the root with candidates cand; it reports false
	// if some vertex of S is not critical (which a task never has).
	load(s []int, cand []uint64) bool
	// run searches below the loaded state.
	run()
	stats() *mmcsOut
}

// mmcsOut is what an engine reports: a visitor for each minimal
// transversal (or nil), counts by size, and the stop reason.
type mmcsOut struct {
	ctx    context.Context
	visit  func(s []int) bool // nil when only counting
	counts []uint64           // counts[i]: transversals of size i
	nodes  uint64
	// every is a power of two minus one: the context is checked each time
	// nodes passes a multiple of every+1 (0 means ctxEvery−1).
	every uint64
	// limit, if not 0, stops the search with ErrWorkLimit after that many
	// nodes: a budget counted in work, the same on every machine. With
	// onLimit set the search goes on instead, and onLimit is called once
	// as it passes the limit.
	limit   uint64
	onLimit func()
	// onEarly, if set, is called once as the search passes early nodes
	// (0 < early); it does not stop the search.
	early   uint64
	onEarly func()
	// maxBytes, if positive, bounds the bytes of the engine's per-depth
	// buffers; past it the search stops with an error that wraps
	// set.ErrMemoryBudget.
	maxBytes int64
	err      error // ctx.Err() once cancelled, ErrWorkLimit, or the budget's error
	stop     bool  // visit asked to stop, or cancelled
}

// visitOn reports whether the search lists (visits each transversal)
// rather than counts.
func (o *mmcsOut) visitOn() bool { return o.visit != nil }

func (o *mmcsOut) leaf(s []int) {
	o.counts[len(s)]++
	if o.visit != nil && !o.visit(s) {
		o.stop = true
	}
}

func (o *mmcsOut) tick() { o.tickN(1) }

// leafWith visits the transversal s ∪ {v}, a search node of its own with
// no children, and returns s (with room for v).
func (o *mmcsOut) leafWith(s []int, v int) []int {
	s = append(s, v)
	o.tick()
	if !o.stop {
		o.leaf(s)
	}
	return s[:len(s)-1]
}

// tickN counts k search nodes at once (leaves counted in bulk): the
// context is checked when the count passes a multiple of every+1, and the
// limit acts when the count reaches or passes it.
func (o *mmcsOut) tickN(k uint64) {
	before := o.nodes
	o.nodes += k
	every := o.every
	if every == 0 {
		every = ctxEvery - 1
	}
	if before|every != o.nodes|every {
		if err := o.ctx.Err(); err != nil {
			o.err, o.stop = err, true
		}
	}
	if o.onEarly != nil && before < o.early && o.nodes >= o.early {
		o.onEarly()
	}
	if o.limit != 0 && o.nodes >= o.limit {
		switch {
		case o.onLimit == nil:
			o.err, o.stop = ErrWorkLimit, true
		case before < o.limit:
			o.onLimit()
		}
	}
}

// checkEvery returns mmcsOut.every for a search whose nodes each touch
// about mw words: the context is checked every ctxEvery word operations
// or so, so that a search over a long edge list still stops at once.
func checkEvery(mw int) uint64 {
	e := uint64(ctxEvery)
	for e > 1 && e*uint64(mw) > ctxEvery {
		e /= 2
	}
	return e - 1
}

// --- single-word engine -------------------------------------------------

type mmcs1 struct {
	// edges[e]: vertices of edge e < m; edges[64] holds every vertex
	// (ANDing with it changes nothing) and edges[65..127] are unused: an
	// index below 128 needs no bounds check.
	edges *[128]uint64
	m     int
	inc   []uint64 // inc[v]: edges containing v
	cand  uint64
	// After load: the edges S leaves uncovered, and those it covers twice
	// or more.
	uncov, multi uint64
	s            []int
	// first[j]: the edges S[j] was the first to cover. Every other vertex
	// of S that covers one of them came later, so crit(S[j]), the edges
	// covered by S[j] alone, is first[j] less the edges covered twice: one
	// set for all of S, updated in one step as S grows.
	first []uint64
	list  bool // listing (out.visit set): each transversal visited in order
	out   mmcsOut
}

func newMMCS1(h *hyper, out mmcsOut) *mmcs1 {
	e := &mmcs1{edges: new([128]uint64), m: h.m, inc: make([]uint64, h.n), list: out.visit != nil, out: out}
	e.edges[64] = ^uint64(0)
	for i := range h.m {
		e.edges[i] = h.edge(i)[0]
	}
	for v := range h.n {
		e.inc[v] = h.star(v)[0]
	}
	e.s = make([]int, 0, h.n+1)
	e.first = make([]uint64, h.n+1)
	e.out.counts = make([]uint64, h.n+1)
	return e
}

func (e *mmcs1) stats() *mmcsOut { return &e.out }

func allEdges1(m int) uint64 {
	if m == 64 {
		return ^uint64(0)
	}
	return 1<<m - 1
}

func (e *mmcs1) load(s []int, cand []uint64) bool {
	e.s = e.s[:0]
	e.cand = cand[0]
	e.uncov, e.multi = allEdges1(e.m), 0
	for _, v := range s {
		sv := e.inc[v]
		e.first[len(e.s)] = e.uncov & sv
		e.multi |= sv &^ e.uncov
		e.uncov &^= sv
		e.s = append(e.s, v)
	}
	for _, f := range e.first[:len(e.s)] {
		if f&^e.multi == 0 {
			return false
		}
	}
	return true
}

func (e *mmcs1) run() { e.rec(len(e.s), e.uncov, e.multi) }

// rec searches below S = e.s (d vertices) with uncov uncovered and multi
// covered twice or more. It branches on the uncovered edge with the
// fewest candidates; of those it keeps the live ones, that leave every
// vertex u of S an edge of crit(u) (a vertex in every edge of crit(u)
// would make u redundant, here and in the whole subtree, as crit(u) only
// shrinks). A live candidate that covers every uncovered edge completes a
// minimal transversal: a count adds those up at once, a listing visits
// them in order; the others are searched below.
func (e *mmcs1) rec(d int, uncov, multi uint64) {
	e.out.tick()
	if e.out.stop {
		return
	}
	if uncov == 0 {
		e.out.leaf(e.s)
		return
	}
	best, bestC := uint64(0), 65
	for u := uncov; u != 0; u &= u - 1 {
		c := e.edges[bits.TrailingZeros64(u)] & e.cand
		n := bits.OnesCount64(c)
		if n < bestC {
			best, bestC = c, n
			if n <= 1 {
				break
			}
		}
	}
	br := best
	for _, f := range e.first[:d] {
		// The first three edges of crit(u) decide for most u without
		// a branch (edges[64] holds every vertex: the edge of no bit);
		// the others are walked when some vertex of br is in all three.
		c := f &^ multi
		x := c & (c - 1)
		y := x & (x - 1)
		k := br & e.edges[bits.TrailingZeros64(c)] & e.edges[bits.TrailingZeros64(x)] & e.edges[bits.TrailingZeros64(y)]
		if k == 0 {
			continue
		}
		for x = y & (y - 1); x != 0 && k != 0; x &= x - 1 {
			k &= e.edges[bits.TrailingZeros64(x)]
		}
		if br &^= k; br == 0 {
			return
		}
	}
	leaves := br
	for u := uncov; u != 0 && leaves != 0; u &= u - 1 {
		leaves &= e.edges[bits.TrailingZeros64(u)]
	}
	saved := e.cand
	e.cand &^= best
	if !e.list && leaves != 0 {
		n := uint64(bits.OnesCount64(leaves))
		e.out.counts[d+1] += n
		if e.out.tickN(n); e.out.stop {
			e.cand = saved
			return
		}
	}
	for c := best; c != 0; c &= c - 1 {
		bit := c & -c
		v := bits.TrailingZeros64(c)
		switch {
		case br&bit == 0:
			// v would make a vertex of S redundant.
		case leaves&bit != 0:
			if e.list {
				e.s = e.out.leafWith(e.s, v)
			}
		default:
			sv := e.inc[v]
			e.first[d] = uncov & sv
			e.s = append(e.s, v)
			e.rec(d+1, uncov&^sv, multi|sv&^uncov)
			e.s = e.s[:d]
		}
		if e.out.stop {
			e.cand = saved
			return
		}
		e.cand |= bit
	}
	e.cand = saved
}

// --- word-vector engine -------------------------------------------------

type mmcsN struct {
	h     *hyper
	bytes int64 // of the per-depth buffers
	cand  set.Words
	s     []int
	// Per depth d: the edges S[0..d-1] leaves uncovered, and those it
	// covers twice or more; first[j] holds the edges S[j] was the first
	// to cover (crit(S[j]) is first[j] less multi, as in mmcs1).
	uncov, multi, first []set.Words
	// Per depth: the candidates of the edge chosen there, the live ones
	// among them, and the live ones that cover every uncovered edge.
	branch, live, leaves []set.Words
	crit, kill           set.Words // scratch of the kill test
	out                  mmcsOut
}

func newMMCSN(h *hyper, out mmcsOut) *mmcsN {
	e := &mmcsN{h: h, cand: make(set.Words, h.nw), crit: make(set.Words, h.mw), kill: make(set.Words, h.nw), out: out}
	if e.out.every == 0 {
		e.out.every = checkEvery(h.mw)
	}
	e.s = make([]int, 0, h.n+1)
	e.out.counts = make([]uint64, h.n+1)
	e.grow(0)
	return e
}

func (e *mmcsN) stats() *mmcsOut { return &e.out }

// grow makes sure layers 0..d exist. Layers are allocated once, the first
// time the search gets that deep. It reports false, and stops the search,
// when a layer would pass the memory budget.
func (e *mmcsN) grow(d int) bool {
	for len(e.uncov) <= d {
		l := len(e.uncov)
		need := int64(8 * 3 * (e.h.mw + e.h.nw))
		if l > 0 && e.out.maxBytes > 0 && e.bytes+need > e.out.maxBytes {
			e.out.err = fmt.Errorf("domination: the transversal search needs more than %d bytes at depth %d: %w", e.out.maxBytes, l, set.ErrMemoryBudget)
			e.out.stop = true
			return false
		}
		e.bytes += need
		e.uncov = append(e.uncov, make(set.Words, e.h.mw))
		e.multi = append(e.multi, make(set.Words, e.h.mw))
		e.first = append(e.first, make(set.Words, e.h.mw))
		e.branch = append(e.branch, make(set.Words, e.h.nw))
		e.live = append(e.live, make(set.Words, e.h.nw))
		e.leaves = append(e.leaves, make(set.Words, e.h.nw))
	}
	return true
}

func (e *mmcsN) load(s []int, cand []uint64) bool {
	e.s = e.s[:0]
	copy(e.cand, cand)
	e.uncov[0].Fill(e.h.m)
	clear(e.multi[0])
	for _, v := range s {
		if !e.push(v) {
			return false
		}
	}
	multi := e.multi[len(e.s)]
	for _, f := range e.first[:len(e.s)] {
		if f.AndNotLen(multi) == 0 {
			return false
		}
	}
	return true
}

// push adds v to S and builds layer len(S); it reports false only when
// the memory budget stops it.
func (e *mmcsN) push(v int) bool {
	d := len(e.s)
	if !e.grow(d + 1) {
		return false
	}
	e.step(d, v)
	e.s = append(e.s, v)
	return true
}

// step builds layer d+1 for S[d] = v from layer d.
func (e *mmcsN) step(d, v int) {
	sv, u := e.h.star(v), e.uncov[d]
	e.first[d].Intersect(u, sv)
	m, nm, nu := e.multi[d], e.multi[d+1], e.uncov[d+1]
	for i := range u {
		nm[i] = m[i] | sv[i]&^u[i]
		nu[i] = u[i] &^ sv[i]
	}
}

func (e *mmcsN) run() { e.rec(len(e.s)) }

// rec searches below S = e.s (d vertices), as mmcs1.rec does over word
// vectors.
func (e *mmcsN) rec(d int) {
	e.out.tick()
	if e.out.stop {
		return
	}
	h := e.h
	uncov := e.uncov[d]
	if uncov.IsEmpty() {
		e.out.leaf(e.s)
		return
	}
	if !e.grow(d + 1) {
		return
	}
	best, bestC := -1, h.n+1
scan:
	for i, w := range uncov {
		for ; w != 0; w &= w - 1 {
			f := i*64 + bits.TrailingZeros64(w)
			if n := h.edge(f).AndLen(e.cand); n < bestC {
				best, bestC = f, n
				if n <= 1 {
					break scan
				}
			}
		}
	}
	br, live, leaves := e.branch[d], e.live[d], e.leaves[d]
	br.Intersect(h.edge(best), e.cand)
	copy(live, br)
	multi := e.multi[d]
	for _, f := range e.first[:d] {
		// kill: the live candidates in every edge of crit(u).
		for i := range e.crit {
			e.crit[i] = f[i] &^ multi[i]
		}
		copy(e.kill, live)
		killed := true
	edges:
		for i, w := range e.crit {
			for ; w != 0; w &= w - 1 {
				if !e.kill.And(h.edge(i*64 + bits.TrailingZeros64(w))) {
					killed = false
					break edges
				}
			}
		}
		if killed {
			live.AndNot(e.kill)
			if live.IsEmpty() {
				return
			}
		}
	}
	copy(leaves, live)
cover:
	for i, w := range uncov {
		for ; w != 0; w &= w - 1 {
			if !leaves.And(h.edge(i*64 + bits.TrailingZeros64(w))) {
				break cover
			}
		}
	}
	e.cand.AndNot(br)
	if !e.out.visitOn() {
		if n := uint64(leaves.Len()); n != 0 {
			e.out.counts[d+1] += n
			if e.out.tickN(n); e.out.stop {
				e.cand.Or(br)
				return
			}
		}
	}
	for i, w := range br {
		for ; w != 0; w &= w - 1 {
			v := i*64 + bits.TrailingZeros64(w)
			switch {
			case !live.Has(v):
				// v would make a vertex of S redundant.
			case leaves.Has(v):
				if e.out.visitOn() {
					e.s = e.out.leafWith(e.s, v)
				}
			default:
				e.step(d, v)
				e.s = append(e.s, v)
				e.rec(d + 1)
				e.s = e.s[:d]
			}
			if e.out.stop {
				e.cand.Or(br)
				return
			}
			e.cand.Add(v)
		}
	}
}

// --- driver ---------------------------------------------------------------

// mmcsTask is a subtree of the search: S and its candidates.
type mmcsTask struct {
	s    []int
	cand set.Words
}

// engineKind picks the MMCS engine; tests force each in turn.
type engineKind uint8

const (
	autoEngine engineKind = iota // the narrowest that fits
	twoWords                     // mmcs2 where it fits, else mmcsN
	wideWords                    // mmcsN
)

// newEngine returns the engine kind asks for. The narrow engines allocate
// their tables up front (the edges, the stars and a set per depth, of one
// or two words each); when that passes out.maxBytes the word-vector
// engine, which allocates layers as the search deepens and checks each
// against the budget, runs instead.
func newEngine(h *hyper, out mmcsOut, kind engineKind) mmcsEngine {
	fits := func(words, edges int64) bool {
		return out.maxBytes <= 0 || 8*words*(edges+2*int64(h.n)+1) <= out.maxBytes
	}
	switch {
	case kind == autoEngine && h.n <= 64 && h.m <= 64 && fits(1, 128):
		return newMMCS1(h, out)
	case kind != wideWords && fits2(h) && fits(2, 128+2*65):
		return newMMCS2(h, out)
	}
	return newMMCSN(h, out)
}

// children expands t by one step of the search, in search order. A task
// with no uncovered edge (a leaf) is returned as it is.
func (h *hyper) children(t mmcsTask, scratch *mmcsN) []mmcsTask {
	scratch.load(t.s, t.cand)
	d := len(t.s)
	if scratch.uncov[d].IsEmpty() {
		return []mmcsTask{t}
	}
	best, bestC := -1, h.n+1
	for f := range h.m {
		if !scratch.uncov[d].Has(f) {
			continue
		}
		n := 0
		for j, x := range h.edge(f) {
			n += bits.OnesCount64(x & t.cand[j])
		}
		if n < bestC {
			best, bestC = f, n
		}
	}
	cand := slices.Clone(t.cand)
	br := make(set.Words, h.nw)
	for j, x := range h.edge(best) {
		br[j] = x & cand[j]
		cand[j] &^= br[j]
	}
	var out []mmcsTask
	for v := range h.n {
		if !br.Has(v) {
			continue
		}
		s := append(slices.Clone(t.s), v)
		if scratch.load(s, cand) {
			out = append(out, mmcsTask{s: s, cand: slices.Clone(cand)})
		}
		cand.Add(v)
	}
	return out
}

// mmcsSearch runs the search over h. With visit nil it counts on every
// core, splitting the tree into subtrees; with visit set it runs on one
// core in a fixed order and calls visit with S (in insertion order, reused)
// for each minimal transversal until visit returns false. kind forces an
// word-vector engine (for tests). It returns the counts by size.
func mmcsSearch(ctx context.Context, h *hyper, visit func([]int) bool, kind engineKind) ([]uint64, error) {
	return mmcsSearchProgress(ctx, h, visit, kind, nil, 0)
}

// expandTop cuts the MMCS tree of h into subtrees: from the root, the top
// levels are expanded in search order until there are at least target
// subtrees, the tree has no more levels, or ctx ends. The cut depends on
// h and target alone.
func expandTop(ctx context.Context, h *hyper, scratch *mmcsN, target int) []mmcsTask {
	root := mmcsTask{cand: make(set.Words, h.nw)}
	root.cand.Fill(h.n)
	tasks := []mmcsTask{root}
	for len(tasks) < target && ctx.Err() == nil {
		var next []mmcsTask
		grew := false
		for _, t := range tasks {
			c := h.children(t, scratch)
			if len(c) != 1 || len(c[0].s) != len(t.s) {
				grew = true
			}
			next = append(next, c...)
		}
		tasks = next
		if !grew || len(tasks) == 0 {
			break
		}
	}
	return tasks
}

// mmcsSearchProgress is mmcsSearch reporting, when counting on several
// cores, how many of the subtrees the search was cut into are done, with
// the engines' buffers bounded by maxBytes in all (0: no bound). On an
// error (cancellation, the budget) the counts are those of the
// transversals found before it: lower bounds.
func mmcsSearchProgress(ctx context.Context, h *hyper, visit func([]int) bool, kind engineKind, progress set.Progress, maxBytes int64) ([]uint64, error) {
	root := mmcsTask{cand: make(set.Words, h.nw)}
	root.cand.Fill(h.n)
	workers := runtime.GOMAXPROCS(0)
	if visit != nil || workers == 1 {
		e := newEngine(h, mmcsOut{ctx: ctx, visit: visit, maxBytes: maxBytes}, kind)
		e.load(root.s, root.cand)
		e.run()
		st := e.stats()
		return st.counts, st.err
	}
	// Split the top of the tree into enough subtrees to keep every core
	// busy however unevenly they are sized.
	scratch := newMMCSN(h, mmcsOut{ctx: ctx, maxBytes: maxBytes})
	tasks := expandTop(ctx, h, scratch, 64*workers)
	counts := make([]uint64, h.n+1)
	if err := scratch.out.err; err != nil {
		return counts, err // the split is incomplete: nothing counted
	}
	var mu sync.Mutex
	var firstErr error
	var nextTask, finished atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := newEngine(h, mmcsOut{ctx: ctx, maxBytes: maxBytes / int64(workers)}, kind)
			for {
				i := int(nextTask.Add(1) - 1)
				if i >= len(tasks) || ctx.Err() != nil {
					break
				}
				e.load(tasks[i].s, tasks[i].cand)
				e.run()
				if progress != nil {
					progress("subtrees", finished.Add(1), int64(len(tasks)))
				}
				if e.stats().stop {
					break
				}
			}
			st := e.stats()
			mu.Lock()
			defer mu.Unlock()
			for i, c := range st.counts {
				counts[i] += c
			}
			if st.err != nil && firstErr == nil {
				firstErr = st.err
			}
		}()
	}
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return counts, firstErr
}
