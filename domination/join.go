package domination

import (
	"context"
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// joinSplit is an explicit family f found to be Kuo's join C1 ⊕x C2
// (Neilsen and Mizuno's coterie join, extended to k-arbiters by Kuo): the
// nodes of inner carry C2, and C1 is the quorums of f that avoid inner
// together with R ∪ {x} for every outer part R. Both are over f's nodes: x
// is the smallest node of inner, which stands for C2 in C1.
type joinSplit struct {
	inner *set.Set
	x     int
	outer *set.Family // C1: nodes outside inner, and x
	in    *set.Family // C2: nodes of inner
	r0    *set.Set    // one outer part R (a quorum R ∪ {x} of C1, x left out)
}

// joinWork bounds the work of findJoin's seeds, in quorum visits, and
// that of their growth is joinScans scans of the list, between minJoinWork
// and maxJoinWork: a millisecond to a few tenths of a second. It is
// counted, not timed, so that whether a join is found does not depend on
// the machine.
const (
	joinWork    = 1 << 22
	joinScans   = 256
	minJoinWork = 1 << 18
	maxJoinWork = 1 << 25
)

// joinSeeds is how many quorums findJoin compares with all the others to
// seed its search (fewer when that would take more than joinWork: the
// seeds and their growth have a budget each), and
// joinPartners how many of their nearest quorums.
const (
	joinSeeds    = 64
	joinPartners = 8
)

// findJoin looks for a node set M on which the explicit family f splits
// as a join, whatever the numbering of its nodes and the order of its
// quorums, and returns the split or nil. M (2 ≤ |M| < the nodes in use)
// is a join's inner universe iff the quorums that meet M are exactly all
// the sets R ∪ G for the parts R = Q ∖ M and G = Q ∩ M that occur: then
// f = C1 ⊕x C2 with C2 = {G} and C1 = {Q : Q ∩ M = ∅} ∪ {R ∪ {x}}.
//
// Candidates for M grow from seeds: the symmetric difference of a quorum
// and its nearest other quorum (in a join, two quorums R ∪ G and R ∪ G'
// differ inside M). While the quorums meeting a candidate U do not factor,
// some R ∪ G is missing; it is missing because U lacks nodes of M, which
// lie where a quorum with outer part R and one with inner part G differ
// outside U; the smallest such difference is added, and the test repeats.
// The factoring is first tested on 64-bit fingerprints (sums of a fixed
// pseudo-random value per node), then exactly on the quorums' bits; C2
// must also be a k-arbiter (f being one makes C1 one). The search is a
// heuristic bounded by a count of work: it may miss a join, never report a
// false one.
func findJoin(ctx context.Context, f *set.Family) (*joinSplit, error) {
	return findJoinWork(ctx, f, 1)
}

// countJoinWork is how many times findJoin's work [countTransversals]
// gives its second search for a join, when the count is long (see
// [mmcsProbe]).
const countJoinWork = 16

// shortJoinWork is the second search's work on a list shorter than
// [probeMin], where no probe tells a long count from a short one: four
// times findJoin's. On 28 random joins of small systems at 30 to 44
// nodes, the lists the join count was tuned on, it counts each within
// 0.2 s of CPU of what sixteen times takes, and a list that is no join
// (a grid of 7 × 7) pays a quarter of the search.
const shortJoinWork = 4

// findJoinWork is findJoin with scale times its work.
func findJoinWork(ctx context.Context, f *set.Family, scale int) (*joinSplit, error) {
	s, _, err := searchJoin(ctx, f, scale)
	return s, err
}

// searchJoin is findJoinWork also reporting none when f certainly has no
// join (too few quorums or nodes, or ruled out by [noJoin]), so that a
// caller need not ask [joinRuledOut] again.
func searchJoin(ctx context.Context, f *set.Family, scale int) (s *joinSplit, none bool, err error) {
	if len(f.Quorums) < 3 { // a threshold family lists none
		return nil, true, nil
	}
	sup := support(f)
	if len(sup) < 3 {
		return nil, true, nil
	}
	j := newJoinFinder(f)
	j.limit *= scale
	if j.noJoin(sup, j.limit) {
		return nil, true, nil
	}
	// With more work, a growth that takes in a pair of nodes known to grow
	// to every node stops there: a module holding it would hold them all.
	// (At scale 1 the search stays as Decide has always run it.)
	j.prune = scale > 1
	// Every seed grows a few steps, then more, then without limit: a seed
	// inside a small module gets there at once, while one whose growth
	// takes in every node (no module holds it) costs a step per node or
	// two.
	seeds := j.seeds()
	j.work = 0             // the seeds had their own budget
	var failed []set.Words // seeds of two nodes that grew to every node
	for _, steps := range []int{4, 16, 0} {
		next := seeds[:0]
	seeds:
		for _, seed := range seeds {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
			if j.work > j.limit {
				return nil, false, nil
			}
			// A module holding a seed holds every pair in it.
			for _, p := range failed {
				if p.SubsetOf(seed) {
					continue seeds
				}
			}
			u, more := j.grow(seed, len(sup), steps)
			if u == nil {
				if more {
					next = append(next, seed)
				} else if seed.Len() == 2 {
					failed = append(failed, seed)
					if j.prune {
						j.failed = failed
					}
				}
				continue
			}
			s, err := splitJoin(ctx, f, u, len(sup))
			if s != nil || err != nil {
				return s, false, err
			}
		}
		seeds = next
	}
	return nil, false, nil
}

// joinFinder holds f's quorums as bit rows and fingerprints for findJoin.
type joinFinder struct {
	f       *set.Family
	m, nw   int
	rows    []uint64  // quorum i: rows[i*nw:(i+1)*nw]
	through [][]int32 // the quorums through each node
	fp      []uint64  // each node's fingerprint
	qfp     []uint64  // each quorum's: the sum of its nodes'
	sorted  []uint64  // the quorums' fingerprints, increasing
	work    int
	limit   int // the work allowed to grow seeds
	prune   bool
	failed  []set.Words // with prune: pairs that grew to every node
	// pairsBy says how [joinFinder.noJoin] counts pairs: pairsAuto
	// chooses; the tests ask for each way to compare them.
	pairsBy pairCounting
}

// pairCounting is how [joinFinder.noJoin] counts the quorums through
// pairs and triples of nodes.
type pairCounting int

const (
	pairsAuto    pairCounting = iota // by words when cheaper
	pairsByLists                     // from the quorums through a node
	pairsByWords                     // by popcounts of the quorums' bitsets
)

func newJoinFinder(f *set.Family) *joinFinder {
	m, nw := len(f.Quorums), set.WordsFor(f.N)
	j := &joinFinder{f: f, m: m, nw: nw, rows: make([]uint64, m*nw), through: make([][]int32, f.N),
		fp: make([]uint64, f.N), qfp: make([]uint64, m), limit: min(max(minJoinWork, joinScans*m), maxJoinWork)}
	x := uint64(0x9E3779B97F4A7C15)
	for v := range j.fp {
		// splitmix64
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		j.fp[v] = z ^ z>>31
	}
	for i := range f.Quorums {
		row := set.Words(j.row(i))
		for v := range f.Quorums[i].All() {
			row.Add(v)
			j.through[v] = append(j.through[v], int32(i))
			j.qfp[i] += j.fp[v]
		}
	}
	j.sorted = slices.Clone(j.qfp)
	slices.Sort(j.sorted)
	return j
}

func (j *joinFinder) row(i int) []uint64 { return j.rows[i*j.nw : (i+1)*j.nw] }

// isQuorum reports whether some quorum has the fingerprint x.
func (j *joinFinder) isQuorum(x uint64) bool {
	_, ok := slices.BinarySearch(j.sorted, x)
	return ok
}

// seeds returns, for up to joinSeeds quorums spread over the list, the
// symmetric differences with their nearest other quorums, at the two
// smallest distances and up to joinPartners of each: distinct, smallest
// first. (In a join, R ∪ G differs from R ∪ G' inside M, but another
// quorum R' ∪ G may be as near or nearer.)
func (j *joinFinder) seeds() []set.Words {
	step := max(1, j.m/min(joinSeeds, max(4, joinWork/j.m)))
	seen := map[string]bool{}
	var out []set.Words
	key := make([]byte, 8*j.nw)
	dist := make([]int, j.m)
	for a := 0; a < j.m; a += step {
		ra := j.row(a)
		d1, d2 := -1, -1
		for b := range j.m {
			d := 0
			for w, x := range j.row(b) {
				d += bits.OnesCount64(x ^ ra[w])
			}
			dist[b] = d
			switch {
			case d == 0 || d == d1 || d == d2:
			case d1 < 0 || d < d1:
				d1, d2 = d, d1
			case d2 < 0 || d < d2:
				d2 = d
			}
		}
		j.work += j.m
		for _, want := range []int{d1, d2} {
			taken := 0
			for b := 0; b < j.m && want > 0 && taken < joinPartners; b++ {
				if dist[b] != want {
					continue
				}
				s := make(set.Words, j.nw)
				for w, x := range j.row(b) {
					s[w] = x ^ ra[w]
					binary.LittleEndian.PutUint64(key[8*w:], s[w])
				}
				if !seen[string(key)] {
					seen[string(key)] = true
					out = append(out, s)
					taken++
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b set.Words) int { return a.Len() - b.Len() })
	return out
}

// grow extends the node set seed until the quorums meeting it factor by
// their fingerprints, and returns it; nil if it grows to all nSup nodes in
// use or the work runs out, and nil and more = true if it has not finished
// within steps steps (0: no limit).
func (j *joinFinder) grow(seed set.Words, nSup, steps int) (u set.Words, more bool) {
	u = make(set.Words, j.nw)
	gfp := make([]uint64, j.m)  // the fingerprint of each quorum's part in u
	inner := make([]int32, j.m) // how many of its nodes are in u
	add := func(v int) {
		u.Add(v)
		for _, q := range j.through[v] {
			gfp[q] += j.fp[v]
			inner[q]++
		}
		j.work += len(j.through[v])
	}
	for v := range seed.All() {
		add(v)
	}
	rid, gid := map[uint64]int32{}, map[uint64]int32{}
	var pairs []uint64
	rFirst := []int32{}  // a quorum of each outer part
	gReps := [][]int32{} // up to 8 quorums of each inner part
	d := make(set.Words, j.nw)
	for step := 0; u.Len() < nSup && j.work <= j.limit; step++ {
		if step == steps && steps > 0 {
			return nil, true
		}
		for _, p := range j.failed {
			if p.SubsetOf(u) {
				return nil, false
			}
		}
		// Quick test: with one quorum R0 ∪ G0 meeting u, every R ∪ G
		// meeting u needs R ∪ G0 and R0 ∪ G. The failures offer their
		// differences from R0 ∪ G0 outside u; the smallest is taken (in a
		// join whose M holds u, a quorum with R0's part outside M differs
		// from R0 ∪ G0 only inside M).
		q0 := -1
		best, found := -1, 0
		for q := range j.m {
			if inner[q] == 0 {
				continue
			}
			j.work++
			if q0 < 0 {
				q0 = q
				continue
			}
			r0, g0 := j.qfp[q0]-gfp[q0], gfp[q0]
			r, g := j.qfp[q]-gfp[q], gfp[q]
			if j.isQuorum(r+g0) && j.isQuorum(r0+g) {
				continue
			}
			found++
			if n := j.diff(d, q, q0, u, best); n > 0 {
				best = n
			}
			if best == 1 {
				break
			}
		}
		if found > 0 {
			if best < 0 {
				return nil, false
			}
			for v := range d.All() {
				add(v)
			}
			continue
		}
		clear(rid)
		clear(gid)
		pairs, rFirst, gReps = pairs[:0], rFirst[:0], gReps[:0]
		for q := range j.m {
			if inner[q] == 0 {
				continue
			}
			r, ok := rid[j.qfp[q]-gfp[q]]
			if !ok {
				r = int32(len(rid))
				rid[j.qfp[q]-gfp[q]] = r
				rFirst = append(rFirst, int32(q))
			}
			g, ok := gid[gfp[q]]
			if !ok {
				g = int32(len(gid))
				gid[gfp[q]] = g
				gReps = append(gReps, nil)
			}
			if len(gReps[g]) < 8 {
				gReps[g] = append(gReps[g], int32(q))
			}
			pairs = append(pairs, uint64(r)<<32|uint64(g))
		}
		j.work += 2 * j.m
		slices.Sort(pairs)
		pairs = slices.Compact(pairs)
		if len(pairs) == len(rid)*len(gid) {
			return u, false
		}
		// Up to 16 missing pairs (R, G), the first missing G of each R.
		best, found = -1, 0
		for i := 0; i < len(pairs) && found < 16; {
			r := pairs[i] >> 32
			g := uint64(0)
			for ; i < len(pairs) && pairs[i]>>32 == r; i++ {
				if pairs[i]&0xFFFFFFFF == g {
					g++
				}
			}
			if g == uint64(len(gid)) {
				continue
			}
			found++
			for _, q2 := range gReps[g] {
				if n := j.diff(d, int(rFirst[r]), int(q2), u, best); n > 0 {
					best = n
				}
			}
			j.work += len(gReps[g]) * j.nw
		}
		if best < 0 {
			return nil, false // fingerprints collided: give this seed up
		}
		for v := range d.All() {
			add(v)
		}
	}
	return nil, false
}

// diff sets d to the nodes outside u where quorums a and b differ and
// returns their number, when it is not 0 and less than best (or best < 0);
// otherwise it returns 0 and leaves d.
func (j *joinFinder) diff(d set.Words, a, b int, u set.Words, best int) int {
	ra, rb := j.row(a), j.row(b)
	n := 0
	for w := range ra {
		n += bits.OnesCount64((ra[w] ^ rb[w]) &^ u[w])
	}
	j.work += j.nw
	if n == 0 || (best >= 0 && n >= best) {
		return 0
	}
	for w := range ra {
		d[w] = (ra[w] ^ rb[w]) &^ u[w]
	}
	return n
}

// splitJoin checks exactly that f splits as a join on the node set u and
// returns the split, or nil.
func splitJoin(ctx context.Context, f *set.Family, u set.Words, nSup int) (*joinSplit, error) {
	size := u.Len()
	if size < 2 || size >= nSup {
		return nil, nil
	}
	inner := u.Set()
	x, _ := inner.Min()
	nw := set.WordsFor(f.N)
	key := func(w set.Words) string {
		b := make([]byte, 8*nw)
		for i, x := range w {
			binary.LittleEndian.PutUint64(b[8*i:], x)
		}
		return string(b)
	}
	rs, gs := map[string]int{}, map[string]int{}
	var rSets, gSets []*set.Set
	pairs := map[[2]int]bool{}
	outer := set.NewFamily(f.N)
	outer.K = f.K
	r, g := make(set.Words, nw), make(set.Words, nw)
	for i := range f.Quorums {
		clear(r)
		clear(g)
		for v := range f.Quorums[i].All() {
			if u.Has(v) {
				g.Add(v)
			} else {
				r.Add(v)
			}
		}
		if g.IsEmpty() {
			outer.Add(&f.Quorums[i], set.NoOwner)
			continue
		}
		if r.IsEmpty() {
			return nil, nil // a quorum inside u: not a join of coteries
		}
		rk, gk := key(r), key(g)
		ri, ok := rs[rk]
		if !ok {
			ri = len(rSets)
			rs[rk] = ri
			rSets = append(rSets, r.Set())
		}
		gi, ok := gs[gk]
		if !ok {
			gi = len(gSets)
			gs[gk] = gi
			gSets = append(gSets, g.Set())
		}
		pairs[[2]int{ri, gi}] = true
	}
	if len(rSets) == 0 || len(pairs) != len(rSets)*len(gSets) {
		return nil, nil
	}
	in := set.NewFamily(f.N)
	in.K = f.K
	for _, g := range gSets {
		in.Add(g, set.NoOwner)
	}
	// f is a k-arbiter, and so is C1 (k+1 of its quorums, with x replaced
	// by one quorum of C2, are quorums of f); C2 need not be one.
	ks, err := verify.FindDisjoint(ctx, in, f.K+1)
	if err != nil || ks != nil {
		return nil, err
	}
	for _, r := range rSets {
		q := r.Clone()
		q.Add(x)
		outer.Add(q, set.NoOwner)
	}
	return &joinSplit{inner: inner, x: x, outer: outer, in: in, r0: rSets[0]}, nil
}

// joinResult decides f = C1 ⊕x C2 from its parts, each decided by
// decideWith (which may split it again): the join is nondominated iff both
// parts are (Neilsen and Mizuno for coteries; Kuo, JISE 2001, Corollary 4,
// for k-arbiters). A witness of a part gives one of f, then shrunk and
// checked as every witness is:
//
//   - C2's witness H2 with one outer part R: H2 ∪ R. It contains no
//     quorum (a quorum R' ∪ G keeps a node of G outside H2; a quorum
//     avoiding M inside R would lie in the quorum R ∪ G), and meets every
//     k-wise intersection (of quorums R_i ∪ G_i inside ∩G_i, which H2
//     meets; of others, inside their intersection with R ∪ G, in R).
//   - C1's witness H1: H1 with x replaced by all of M if x ∈ H1, and
//     dropped otherwise (Kuo's Theorem 5 puts one quorum of C2 in its
//     place whether or not x ∈ H1, which can fail when x ∉ H1).
//
// A witness so built that fails the check (possible only when f is not
// minimal) leaves the verdict to the general engines.
func joinResult(ctx context.Context, f *set.Family, s *joinSplit, use engines) (*Result, error) {
	res := &Result{K: f.K, Structure: StructureJoin, Inner: s.inner}
	r2, err := decideWith(ctx, s.in, use)
	if err != nil {
		return nil, err
	}
	var h *set.Set
	if !r2.Nondominated {
		h = r2.Witness.Clone()
		h.Union(h, s.r0)
	} else {
		r1, err := decideWith(ctx, s.outer, use)
		if err != nil {
			return nil, err
		}
		if r1.Nondominated {
			res.Nondominated = true
			return res, nil
		}
		h = r1.Witness.Clone()
		if h.Has(s.x) {
			h.Union(h, s.inner)
		} else {
			h.Remove(s.x)
		}
	}
	h, err = shrink(ctx, f, h)
	if err != nil {
		return nil, err
	}
	if CheckWitness(ctx, f, h) == nil {
		res.Witness = h
		return res, nil
	}
	return decideWith(ctx, f, use&^useStructure)
}
