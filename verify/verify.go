package verify

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Verify checks the system: intersection (pairwise for a coterie, (k+1)-wise
// for a k-arbiter, every critical request pattern for an (h,k)-arbiter),
// minimality, and, as information, Maekawa's properties. A violated property
// is not an error: it is a failed [Check] with a [Witness], and
// Report.Valid is false. If ctx is cancelled or times out before a check
// finishes, that check is marked undecided and the report says so.
//
// Verify returns an error if the system is malformed (see
// [set.System.Validate]) or a check refuses the work: the brute-force method
// on too many choices, or the search on a system whose incidence table
// would not fit in memory.
//
// Cost: see [FindDisjoint]; threshold families are decided by counting in
// constant time.
func Verify(ctx context.Context, sys set.System, opts Options) (*Report, error) {
	if err := sys.Validate(); err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	if sys.HK != nil {
		return verifyHK(ctx, sys.HK, opts)
	}
	if sys.Family.IsSparse() {
		return verifySparse(ctx, sys.Family, opts)
	}
	return verifyListed(ctx, sys.Family, opts)
}

// verifyFamily checks the listed or threshold family f.
func verifyFamily(ctx context.Context, f *set.Family, opts Options) (*Report, error) {
	sys := construct.Form(f)
	r := &Report{N: f.N, K: f.K, Quorums: familyCount(f, sys)}
	inter, pair, err := intersectionCheck(ctx, f, sys, opts)
	if err != nil {
		return nil, err
	}
	r.Checks = append(r.Checks, inter, minimalityCheck(ctx, f, sys))
	pairwiseOK := inter.OK // a k-arbiter is also a coterie (Kuo, Corollary 3)
	r.Checks = append(r.Checks, ownerCheck(f, sys), sizeCheck(f, sys), responsibilityCheck(f, sys),
		planeCheck(ctx, f, sys, pair, pairwiseOK))
	r.finish()
	return r, nil
}

// undecided fills c for a check stopped by ctx.
func undecided(c *Check, err error) {
	c.OK, c.Undecided = false, true
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		c.Detail = "undecided within the time limit"
	case errors.Is(err, context.Canceled):
		c.Detail = "undecided: interrupted"
	default:
		c.Detail = "undecided: " + err.Error()
	}
}

// intersectionCheck checks that every min(m, k+1) quorums of f (typed as
// sys) share a node. It also returns a disjoint pair when k = 1 fails, for
// planeCheck.
func intersectionCheck(ctx context.Context, f *set.Family, sys quorum.System, opts Options) (Check, []int, error) {
	c := Check{Name: "intersection"}
	k := f.K
	tw, thr := quorum.ThresholdOf(sys)
	if thr && opts.Method != Brute {
		thresholdIntersection(&c, f.N, tw, k)
		return c, nil, nil
	}
	g := f
	if thr {
		var err error
		if g, err = f.Enumerate(bruteQuorumLimit); err != nil {
			return c, nil, fmt.Errorf("verify: brute force: %w", err)
		}
	}
	m := g.Len()
	var (
		w   []int
		err error
	)
	switch {
	case opts.Method != Brute && pigeonhole(g, k):
		// w = nil: no k+1 quorums are disjoint.
	case g.IsSparse() && k == 1:
		var i, j int
		if i, j, err = sparsePair(ctx, g, opts.progress("intersection")); err == nil && i >= 0 {
			w = []int{i, j}
		}
	case opts.Method == Brute:
		if err := bruteFeasible(m, k+1); err != nil {
			return c, nil, err
		}
		w, err = bruteDisjoint(ctx, g, k+1, opts.progress("intersection"))
	default:
		w, err = findDisjoint(ctx, g, k+1, opts.progress("intersection"))
	}
	if err != nil {
		if ctx.Err() != nil {
			undecided(&c, err)
			return c, nil, nil
		}
		return c, nil, err
	}
	if w == nil {
		c.OK = true
		switch {
		case m <= 1:
			c.Detail = fmt.Sprintf("%d quorum", m)
		case k == 1:
			c.Detail = "every two quorums meet"
		case m <= k+1:
			c.Detail = fmt.Sprintf("all %d quorums share a node (k+1 = %d)", m, k+1)
		default:
			c.Detail = fmt.Sprintf("every %d quorums share a node", k+1)
		}
		return c, nil, nil
	}
	if thr { // the enumerated quorums have no positions in f
		c.Witness = &Witness{}
		for _, q := range w {
			c.Witness.Sets = append(c.Witness.Sets, g.Quorums[q].Elements())
		}
	} else {
		c.Witness = &Witness{Quorums: w}
	}
	c.Detail = fmt.Sprintf("%d quorums have no common node", len(w))
	var pair []int
	if len(w) == 2 {
		pair = w
	}
	return c, pair, nil
}

// pigeonhole proves that every k+1 quorums of the explicit family f share
// a node by counting alone: if each quorum holds at least least of the
// used nodes in some quorum, k+1 quorums leave out at most (k+1)·(used −
// least) of them, fewer than used, so some node is in all of them. One
// pass over the quorums; majorities and thresholds written out are
// decided here.
func pigeonhole(f *set.Family, k int) bool {
	if f.IsSparse() {
		return sparsePigeonhole(f, k)
	}
	if len(f.Quorums) == 0 {
		return false
	}
	var u set.Set
	least := -1
	for i := range f.Quorums {
		u.Union(&u, &f.Quorums[i])
		if l := f.Quorums[i].Len(); least < 0 || l < least {
			least = l
		}
	}
	used := u.Len()
	return least > 0 && int64(k+1)*int64(used-least) < int64(used)
}

// bruteQuorumLimit caps the enumeration of a threshold family for the
// brute-force method.
const bruteQuorumLimit = 100000

// thresholdIntersection decides a threshold family by counting: the
// complements of k+1 quorums (repetitions allowed) have n−w nodes each, so
// they can cover the n nodes, giving an empty intersection, exactly when
// (k+1)(n−w) ≥ n. Consecutive windows of n−w nodes make the witness.
func thresholdIntersection(c *Check, n, w, k int) {
	gap := int64(n - w)
	if int64(k+1)*gap < int64(n) {
		c.OK = true
		what := fmt.Sprintf("every %d quorums share a node", k+1)
		if k == 1 {
			what = "every two quorums meet"
		}
		c.Detail = fmt.Sprintf("%s: (k+1)(n−w) = %d < n = %d", what, int64(k+1)*gap, n)
		return
	}
	sizes := make([]int, (int64(n)+gap-1)/gap)
	for i := range sizes {
		sizes[i] = w
	}
	c.Witness = &Witness{Sets: windows(n, sizes, nil)}
	c.Detail = fmt.Sprintf("%d quorums have no common node: (k+1)(n−w) = %d ≥ n = %d",
		len(c.Witness.Sets), int64(k+1)*gap, n)
}

// windows returns one threshold quorum per slot, slot j having sizes[j]
// nodes, such that their complements cover the nodes of cover (all nodes
// if cover is nil) when the gaps n−sizes[j] add up to at least its length:
// the complement of slot j takes the next n−w nodes of cover and is topped
// up with the smallest other nodes; once cover is used up the remaining
// slots take the smallest w nodes (any quorum will do).
func windows(n int, sizes []int, cover []int) [][]int {
	if cover == nil {
		cover = make([]int, n)
		for i := range cover {
			cover[i] = i
		}
	}
	out := make([][]int, 0, len(sizes))
	comp := set.New(n)
	for _, w := range sizes {
		comp.Clear()
		take := min(n-w, len(cover))
		for _, v := range cover[:take] {
			comp.Add(v)
		}
		cover = cover[take:]
		for v, size := 0, take; size < n-w; v++ {
			if !comp.Has(v) {
				comp.Add(v)
				size++
			}
		}
		q := make([]int, 0, w)
		for v := range n {
			if !comp.Has(v) {
				q = append(q, v)
			}
		}
		out = append(out, q)
	}
	return out
}

// quorumCount returns the number of quorums of all of a's levels (typed
// as levels), or nil if a threshold level makes it too large to compute
// cheaply.
func quorumCount(a *set.HK, levels []quorum.System) *big.Int {
	t := new(big.Int)
	for i, l := range a.Levels {
		c := familyCount(l, levels[i])
		if c == nil {
			return nil
		}
		t.Add(t, c)
	}
	return t
}

// maxCountBits bounds the exact counts a report computes: C(10^6, 5·10^5)
// has 10^6 bits and takes minutes to compute; nobody reads it either.
const maxCountBits = 1 << 16

// familyCount returns the number of quorums of f (typed as sys), or nil
// if f is a threshold family whose count C(n, w) has more than
// maxCountBits bits.
func familyCount(f *set.Family, sys quorum.System) *big.Int {
	if w, ok := quorum.ThresholdOf(sys); ok {
		return binomial(f.N, w)
	}
	return f.Count()
}

// binomial returns C(n, k), or nil if it has more than maxCountBits bits.
func binomial(n, k int) *big.Int {
	if k < 0 || k > n {
		return new(big.Int)
	}
	ln := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	if bits := (ln(n) - ln(k) - ln(n-k)) / math.Ln2; bits > maxCountBits {
		return nil
	}
	return set.Binomial(n, k)
}
