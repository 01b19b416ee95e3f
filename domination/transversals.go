package domination

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/big"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// MinimalTransversals returns the minimal transversals of f (each
// inclusion-minimal set of nodes that meets every quorum: the minimal
// blocking sets) as a sequence, within the bounds of o: stop ranging to
// stop the search. The order is fixed: the same family gives the same
// sequence. Each set is yielded with a nil error and reused for the next
// one (Clone it to keep it). If the listing fails (f is not a valid
// family, ctx ends, or the memory budget is spent), the sequence ends
// with a nil set and the error.
//
// It runs the MMCS algorithm of Murakami and Uno (Discrete Applied
// Mathematics 170, 2014) on one core: output-polynomial in practice, with
// no allocation per transversal. For a threshold family (all w-subsets)
// the minimal transversals are the (n−w+1)-subsets, listed
// lexicographically.
func MinimalTransversals(ctx context.Context, f *set.Family, o Options) iter.Seq2[*set.Set, error] {
	return func(yield func(*set.Set, error) bool) {
		f, lerr := explicitFamily(ctx, f)
		if lerr != nil {
			yield(nil, lerr)
			return
		}
		if err := checkTransversable(f); err != nil {
			yield(nil, err)
			return
		}
		t := set.New(f.N)
		stopped := false
		emit := func(s []int) bool {
			t.Clear()
			for _, v := range s {
				t.Add(v)
			}
			stopped = !yield(t, nil)
			return !stopped
		}
		var err error
		if w, ok := quorum.ThresholdOf(construct.Form(f)); ok {
			err = combinations(ctx, f.N, f.N-w+1, emit)
		} else {
			var h *hyper
			var left int64
			if h, left, err = o.packFor(f); err == nil {
				_, err = mmcsSearchProgress(ctx, h, emit, autoEngine, nil, left)
			}
		}
		if err != nil && !stopped {
			yield(nil, err)
		}
	}
}

// Transversals calls yield with each minimal transversal of f, in the
// order of [MinimalTransversals], until yield returns false; yield must
// not keep t, which is reused. ctx cancels the listing.
func Transversals(ctx context.Context, f *set.Family, yield func(t *set.Set) bool) error {
	return TransversalsOpt(ctx, f, Options{}, yield)
}

// Options bound the transversal searches.
type Options struct {
	// MaxMemory, if positive, bounds the bytes of the search's buffers: the
	// packed family and the per-depth layers of MMCS (on every core
	// together when counting). Past it the search stops with an error that
	// wraps set.ErrMemoryBudget; a count returns what it had counted.
	MaxMemory int64
	// Progress, if not nil, is told by a count how many of the subtrees
	// the search is cut into are done (stage "subtrees"; with
	// [CountTransversalPieces], how many of the pieces to count, stage
	// "pieces"). The subtrees differ in size: a rough guide.
	Progress set.Progress
}

// packFor packs f for the search, within o's memory budget, and returns
// what is left of the budget for the search's buffers (0: no bound).
func (o Options) packFor(f *set.Family) (*hyper, int64, error) {
	left := int64(0)
	if o.MaxMemory > 0 {
		nw, mw := int64(set.WordsFor(f.N)), int64(set.WordsFor(len(f.Quorums)))
		need := 8 * (int64(len(f.Quorums))*nw + int64(f.N)*mw)
		if need >= o.MaxMemory {
			return nil, 0, fmt.Errorf("domination: the packed family needs %d bytes, more than the budget of %d: %w", need, o.MaxMemory, set.ErrMemoryBudget)
		}
		left = o.MaxMemory - need
	}
	return newHyper(f), left, nil
}

// TransversalsOpt is [Transversals] within the bounds of o.
func TransversalsOpt(ctx context.Context, f *set.Family, o Options, yield func(t *set.Set) bool) error {
	for t, err := range MinimalTransversals(ctx, f, o) {
		if err != nil {
			return err
		}
		if !yield(t) {
			return nil
		}
	}
	return nil
}

// TransversalCount is what [CountTransversals] returns.
type TransversalCount struct {
	// Total is the number of minimal transversals.
	Total *big.Int
	// BySize maps a size to the number of minimal transversals of that
	// size; sizes with none are absent.
	BySize map[int]*big.Int
	// Smallest is the size of the smallest minimal transversal (the
	// resilience plus one), or -1 if there is none. In a partial count it
	// is the smallest found, an upper bound.
	Smallest int
	// Partial reports that the search stopped before the end (cancelled,
	// or out of its memory budget): Total and each BySize count the
	// transversals found, lower bounds on the true numbers.
	Partial bool
}

// CountTransversals counts the minimal transversals of f by size, with
// MMCS on every core (the top of the search tree is cut into subtrees that
// the cores take in turn). A threshold family is counted by closed form:
// C(n, n−w+1), all of size n−w+1; so is an explicit list that is every
// w-subset of the u nodes it uses (checked in one pass: C(u, u−w+1)).
// A list that splits as a join (a node set on which its quorums factor,
// found as [Decide] finds one) is counted from the counts of its parts.
// ctx cancels the count.
func CountTransversals(ctx context.Context, f *set.Family) (*TransversalCount, error) {
	return CountTransversalsProgress(ctx, f, nil)
}

// CountTransversalsProgress is [CountTransversals] telling progress, if
// not nil, how the count is going (see Options.Progress).
func CountTransversalsProgress(ctx context.Context, f *set.Family, progress set.Progress) (*TransversalCount, error) {
	return CountTransversalsOpt(ctx, f, Options{Progress: progress})
}

// CountTransversalsOpt is [CountTransversals] within the bounds of o.
// When the search stops early (ctx cancelled, or the memory budget) it
// returns the count so far, marked Partial, together with the error.
func CountTransversalsOpt(ctx context.Context, f *set.Family, o Options) (*TransversalCount, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	if err := checkTransversable(f); err != nil {
		return nil, err
	}
	return countTransversals(ctx, f, o)
}

// countTransversals is [CountTransversalsOpt] on a checked explicit
// family: by closed form, as a nondominated coterie's quorums, by the
// parts of a join ([countJoin]), or by MMCS. A count stopped early is
// returned too, marked Partial.
func countTransversals(ctx context.Context, f *set.Family, o Options) (*TransversalCount, error) {
	c := &TransversalCount{Total: new(big.Int), BySize: map[int]*big.Int{}, Smallest: -1}
	if w, ok := quorum.ThresholdOf(construct.Form(f)); ok {
		size := f.N - w + 1
		c.Total.Set(set.Binomial(f.N, size))
		c.BySize[size] = new(big.Int).Set(c.Total)
		c.Smallest = size
		return c, nil
	}
	if sup, w, ok := thresholdOnSupport(f); ok {
		// All w-subsets of the u nodes in use, written out: the minimal
		// transversals are the (u−w+1)-subsets of those nodes.
		size := len(sup) - w + 1
		c.Total.Set(set.Binomial(len(sup), size))
		c.BySize[size] = new(big.Int).Set(c.Total)
		c.Smallest = size
		return c, nil
	}
	var js joinSearch
	if len(f.Quorums) >= selfDualMin {
		if sd, ok, err := selfDualCount(ctx, f, &js); err != nil {
			c.Partial = true
			return c, err
		} else if ok {
			return sd, nil
		}
	}
	if !js.searched {
		var err error
		if js.split, js.none, err = searchJoin(ctx, f, 1); err != nil {
			c.Partial = true
			return c, err
		}
	}
	if js.split != nil {
		return countJoin(ctx, f, js.split, o)
	}
	h, left, err := o.packFor(f)
	if err != nil {
		c.Partial = true
		return c, err
	}
	// A long count is worth a longer search for a join (a split turns one
	// count into three much smaller ones, often thousands of times
	// faster). On a long list, where that search takes a while, the count
	// is tried on one core first, for more search nodes at each step of
	// the ladder: one that ends there is done; one that does not is worth
	// the next, longer search. Counted in search nodes, so that the path
	// taken does not depend on the machine.
	var counts []uint64
	done := false
	ladder := []probeStep{{0, shortJoinWork}} // a short list: no probe
	if len(f.Quorums) >= probeMin {
		ladder = probeLadder[:]
	}
	if js.none || joinRuledOut(f, countJoinWork) {
		// No join to find: the count is not probed (a probe that does not
		// end is work thrown away) and runs on every core at once.
		ladder = nil
	}
	for _, step := range ladder {
		if step.nodes > 0 {
			if counts, done, err = mmcsProbe(ctx, h, step.nodes, left); done || err != nil {
				break
			}
		}
		var s *joinSplit
		if s, err = findJoinWork(ctx, f, step.work); err != nil {
			c.Partial = true
			return c, err
		}
		if s != nil {
			return countJoin(ctx, f, s, o)
		}
	}
	if !done && err == nil {
		counts, err = mmcsSearchProgress(ctx, h, nil, autoEngine, o.Progress, left)
	}
	for size, k := range counts {
		if k == 0 {
			continue
		}
		b := new(big.Int).SetUint64(k)
		c.BySize[size] = b
		c.Total.Add(c.Total, b)
		if c.Smallest < 0 {
			c.Smallest = size
		}
	}
	if err != nil {
		c.Partial = true
		return c, err
	}
	return c, nil
}

func checkTransversable(f *set.Family) error {
	if err := f.Validate(); err != nil {
		return fmt.Errorf("domination: %w", err)
	}
	return nil
}

// combinations calls yield with each r-subset of 0..n-1 in lexicographic
// order until it returns false.
func combinations(ctx context.Context, n, r int, yield func([]int) bool) error {
	if r < 0 || r > n {
		return nil
	}
	c := make([]int, r)
	for i := range c {
		c[i] = i
	}
	for count := 0; ; count++ {
		if count%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if !yield(c) {
			return nil
		}
		i := r - 1
		for i >= 0 && c[i] == n-r+i {
			i--
		}
		if i < 0 {
			return nil
		}
		c[i]++
		for j := i + 1; j < r; j++ {
			c[j] = c[j-1] + 1
		}
	}
}

// probeLadder is the steps of [countTransversals] on a long list: a
// probe of the count for so many search nodes, then, if it has not ended,
// a search for a join with work times findJoin's budget. On a long list a
// search node costs a few hundred quorum visits, so each probe costs
// about what the search after it does.
var probeLadder = [...]probeStep{{1 << 15, 4}, {1 << 17, countJoinWork}}

type probeStep struct {
	nodes uint64
	work  int
}

// probeMin is the fewest quorums for which [countTransversals] probes the
// count before the longer search for a join: below it the search takes a
// few tens of milliseconds at most.
const probeMin = 1 << 12

// mmcsProbe counts the minimal transversals of h on one core for at most
// nodes search nodes, and reports whether it finished. On another
// error (ctx, the memory budget) the counts are lower bounds.
func mmcsProbe(ctx context.Context, h *hyper, nodes uint64, maxBytes int64) ([]uint64, bool, error) {
	root := mmcsTask{cand: make(set.Words, h.nw)}
	root.cand.Fill(h.n)
	e := newEngine(h, mmcsOut{ctx: ctx, limit: nodes, maxBytes: maxBytes}, autoEngine)
	e.load(root.s, root.cand)
	e.run()
	st := e.stats()
	if errors.Is(st.err, ErrWorkLimit) {
		return nil, false, nil
	}
	return st.counts, st.err == nil, st.err
}
