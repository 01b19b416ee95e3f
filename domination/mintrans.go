package domination

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// memoLimit caps the table of subproblems MinTransversal has proved
// infeasible (about 100 bytes each).
const memoLimit = 1 << 22

// MinTransversal returns a smallest transversal of f: a set of nodes of
// minimum size that meets every quorum (a smallest blocking set). Its size
// minus one is the resilience of f: the most node failures f survives with
// some quorum alive.
//
// The minimum is proved, not guessed: an upper bound from a greedy cover
// and from the quorums themselves (in a coterie each quorum is a
// transversal) is lowered by a branch and bound that branches on the
// vertices of one uncovered quorum (skipping a vertex whose remaining
// quorums another vertex of that quorum also meets), bounds by degrees
// (t vertices of the largest degrees must cover what is left) and by
// disjoint quorums, and remembers every uncovered remainder it has proved
// needs more than the budget left. For a projective plane of order q the
// degree bound at the root already equals q+1; for Maekawa's r×r grid the
// remainders are the r'×r' subgrids, about C(2r, r) of them.
//
// A threshold family (all w-subsets of n nodes) has the closed form: any
// n−w+1 nodes. A family with no quorums has the empty transversal. The
// cost is exponential in the worst case; ctx cancels it.
func MinTransversal(ctx context.Context, f *set.Family) (*set.Set, error) {
	t, _, err := MinTransversalBounded(ctx, f, 0)
	return t, err
}

// MinTransversalBounded is [MinTransversal] with the branch and bound
// limited to maxNodes search nodes (0: no limit). Stopped by the limit (an
// error wrapping [ErrWorkLimit]) or by ctx, it still returns the smallest
// transversal found and a proved lower bound on the size of every
// transversal (the bound at the root: degrees and disjoint quorums); when
// it finishes, lower = t.Len().
func MinTransversalBounded(ctx context.Context, f *set.Family, maxNodes uint64) (t *set.Set, lower int, err error) {
	if f, err = explicitFamily(ctx, f); err != nil {
		return nil, 0, err
	}
	if w, ok := quorum.ThresholdOf(construct.Form(f)); ok {
		if w > f.N {
			return nil, 0, fmt.Errorf("domination: threshold %d exceeds n = %d", w, f.N)
		}
		t := set.New(f.N)
		for v := range f.N - w + 1 {
			t.Add(v)
		}
		return t, t.Len(), nil
	}
	for i := range f.Quorums {
		if f.Quorums[i].IsEmpty() {
			return nil, 0, fmt.Errorf("domination: quorum %d is empty: nothing meets it", i+1)
		}
	}
	if sup, w, ok := thresholdOnSupport(f); ok {
		// Every w-subset of the u nodes in use: a set meets them all iff it
		// leaves out fewer than w of those nodes, so the smallest hold
		// u−w+1 of them.
		t := set.New(f.N)
		for _, v := range sup[:len(sup)-w+1] {
			t.Add(v)
		}
		return t, t.Len(), nil
	}
	h := newHyper(f)
	b := newMinSearch(ctx, h)
	b.maxNodes = maxNodes
	best, err := b.upperBound()
	if err != nil {
		return nil, 0, err
	}
	toSet := func(vs []int) *set.Set {
		t := set.New(f.N)
		for _, v := range vs {
			t.Add(v)
		}
		return t
	}
	b.grow(0)
	b.uncov[0].Fill(h.m)
	lower = min(b.lowerBound(0, b.uncov[0]), len(best))
	for {
		found, err := b.feasible(len(best) - 1)
		if err != nil {
			return toSet(best), lower, err
		}
		if found == nil {
			break
		}
		best = found
	}
	return toSet(best), len(best), nil
}

type minSearch struct {
	ctx   context.Context
	h     *hyper
	memo  map[string]int // uncovered remainder -> largest budget proved too small
	key   []byte
	nodes uint64
	// maxNodes, if not 0, stops the search with ErrWorkLimit.
	maxNodes uint64
	err      error
	path     []int
	// Per-depth scratch, allocated as the search first reaches a depth.
	uncov  []set.Words
	stars  []set.Words // the vertices' stars within the remainder, for F
	order  [][]int
	keep   [][]int
	degs   [][]int
	packed set.Words
}

func newMinSearch(ctx context.Context, h *hyper) *minSearch {
	return &minSearch{ctx: ctx, h: h, memo: map[string]int{},
		key: make([]byte, 8*h.mw), packed: make(set.Words, h.nw)}
}

func (b *minSearch) grow(d int) {
	for len(b.uncov) <= d {
		b.uncov = append(b.uncov, make(set.Words, b.h.mw))
		b.stars = append(b.stars, nil)
		b.order = append(b.order, make([]int, 0, b.h.n))
		b.keep = append(b.keep, make([]int, 0, b.h.n))
		b.degs = append(b.degs, make([]int, 0, b.h.n))
	}
}

// upperBound returns a transversal: the smaller of a greedy cover (most
// uncovered quorums first) and the smallest quorum that meets every other.
// It stops with ctx's error when ctx ends.
func (b *minSearch) upperBound() ([]int, error) {
	h := b.h
	uncov := make(set.Words, h.mw)
	uncov.Fill(h.m)
	var greedy []int
	for !uncov.IsEmpty() {
		if err := b.ctx.Err(); err != nil {
			return nil, err
		}
		best, bestD := -1, 0
		for v := range h.n {
			d := 0
			for i, w := range h.star(v) {
				d += bits.OnesCount64(w & uncov[i])
			}
			if d > bestD {
				best, bestD = v, d
			}
		}
		greedy = append(greedy, best)
		for i, w := range h.star(best) {
			uncov[i] &^= w
		}
	}
	slices.Sort(greedy)
	for e := range h.m {
		if e%64 == 0 {
			if err := b.ctx.Err(); err != nil {
				return nil, err
			}
		}
		q := h.edge(e)
		if q.Len() >= len(greedy) {
			continue
		}
		uncov.Fill(h.m)
		for i, w := range q {
			for ; w != 0; w &= w - 1 {
				v := i*64 + bits.TrailingZeros64(w)
				for j, x := range h.star(v) {
					uncov[j] &^= x
				}
			}
		}
		if uncov.IsEmpty() {
			greedy = q.Set().Elements()
		}
	}
	return greedy, nil
}

// feasible looks for a transversal of at most budget vertices; it returns
// one, or nil once it has proved there is none.
func (b *minSearch) feasible(budget int) ([]int, error) {
	if budget < 0 {
		return nil, nil
	}
	b.grow(0)
	b.uncov[0].Fill(b.h.m)
	b.path = b.path[:0]
	ok := b.rec(0, budget)
	if b.err != nil {
		return nil, b.err
	}
	if !ok {
		return nil, nil
	}
	return slices.Sorted(slices.Values(b.path)), nil
}

// lowerBound returns a lower bound on the vertices needed to cover the
// quorums in uncov: the larger of the degree bound and a greedy packing of
// pairwise disjoint uncovered quorums. It fills degs with the positive
// degrees as a side effect.
func (b *minSearch) lowerBound(d int, uncov set.Words) int {
	h := b.h
	degs := b.degs[d][:0]
	for v := range h.n {
		c := 0
		for i, w := range h.star(v) {
			c += bits.OnesCount64(w & uncov[i])
		}
		if c > 0 {
			degs = append(degs, c)
		}
	}
	b.degs[d] = degs
	slices.Sort(degs)
	need, lb := uncov.Len(), 0
	for i := len(degs) - 1; i >= 0 && need > 0; i-- {
		need -= degs[i]
		lb++
	}
	clear(b.packed)
	pack := 0
	for i, w := range uncov {
		for ; w != 0; w &= w - 1 {
			q := h.edge(i*64 + bits.TrailingZeros64(w))
			disjoint := true
			for j, x := range q {
				if x&b.packed[j] != 0 {
					disjoint = false
					break
				}
			}
			if disjoint {
				pack++
				for j, x := range q {
					b.packed[j] |= x
				}
			}
		}
	}
	return max(lb, pack)
}

func (b *minSearch) rec(d, budget int) bool {
	h := b.h
	uncov := b.uncov[d]
	if uncov.IsEmpty() {
		return true
	}
	b.nodes++
	// A search node costs a lower bound (a pass over every node's star),
	// about 0.1 ms on a 38×38 grid: look at ctx every 64 of them.
	if b.nodes%64 == 0 {
		if err := b.ctx.Err(); err != nil {
			b.err = err
		}
	}
	if b.maxNodes != 0 && b.nodes > b.maxNodes && b.err == nil {
		b.err = fmt.Errorf("domination: smallest transversal: %d search nodes: %w", b.maxNodes, ErrWorkLimit)
	}
	if b.err != nil || budget == 0 || b.lowerBound(d, uncov) > budget {
		return false
	}
	b.memoKey(uncov)
	if proved, ok := b.memo[string(b.key)]; ok && proved >= budget {
		return false
	}
	// Branch on the smallest uncovered quorum F: some vertex of F is in
	// every transversal.
	f, size := -1, h.n+1
	for i, w := range uncov {
		for ; w != 0; w &= w - 1 {
			e := i*64 + bits.TrailingZeros64(w)
			if c := h.edge(e).Len(); c < size {
				f, size = e, c
			}
		}
	}
	b.grow(d + 1)
	order := b.order[d][:0]
	if cap(b.stars[d]) < size*h.mw {
		b.stars[d] = make(set.Words, size*h.mw)
	}
	stars := b.stars[d][:size*h.mw]
	for i, w := range h.edge(f) {
		for ; w != 0; w &= w - 1 {
			v := i*64 + bits.TrailingZeros64(w)
			s := stars[len(order)*h.mw : (len(order)+1)*h.mw]
			for j, x := range h.star(v) {
				s[j] = x & uncov[j]
			}
			order = append(order, v)
		}
	}
	// A vertex whose remaining quorums another vertex of F also meets can
	// be swapped for it in any transversal: branch on the others only.
	// (Such a dominating vertex meets F, so it is in F.)
	keepIdx := b.keep[d][:0]
	for a := range order {
		sa := stars[a*h.mw : (a+1)*h.mw]
		dominated := false
		for c := range order {
			if c == a {
				continue
			}
			sc := stars[c*h.mw : (c+1)*h.mw]
			sub, eq := true, true
			for j := range sa {
				if sa[j]&^sc[j] != 0 {
					sub = false
					break
				}
				if sa[j] != sc[j] {
					eq = false
				}
			}
			if sub && (!eq || c < a) {
				dominated = true
				break
			}
		}
		if !dominated {
			keepIdx = append(keepIdx, a)
		}
	}
	b.keep[d] = keepIdx
	// Most remaining quorums first: good transversals early. Insertion
	// sort: F is short and this allocates nothing.
	cnt := b.degs[d][:0]
	for _, a := range keepIdx {
		cnt = append(cnt, stars[a*h.mw:(a+1)*h.mw].Len())
	}
	for i := 1; i < len(keepIdx); i++ {
		for j := i; j > 0 && cnt[j] > cnt[j-1]; j-- {
			cnt[j], cnt[j-1] = cnt[j-1], cnt[j]
			keepIdx[j], keepIdx[j-1] = keepIdx[j-1], keepIdx[j]
		}
	}
	next := b.uncov[d+1]
	for _, a := range keepIdx {
		sa := stars[a*h.mw : (a+1)*h.mw]
		for j := range next {
			next[j] = uncov[j] &^ sa[j]
		}
		b.path = append(b.path, order[a])
		if b.rec(d+1, budget-1) {
			return true
		}
		b.path = b.path[:d]
		if b.err != nil {
			return false
		}
	}
	if len(b.memo) < memoLimit {
		b.memoKey(uncov)
		b.memo[string(b.key)] = budget
	}
	return false
}

// memoKey writes uncov into b.key, the memo's key bytes.
func (b *minSearch) memoKey(uncov set.Words) {
	for i, w := range uncov {
		binary.LittleEndian.PutUint64(b.key[i*8:], w)
	}
}
