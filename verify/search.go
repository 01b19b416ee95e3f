package verify

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/coterie-dev/coterie/set"
)

// problem is one cover search over a packed system: choose need[l] distinct
// quorums of every level l so that the chosen quorums share at most slack
// nodes. With slack = 0 that is "their intersection is empty", which holds
// exactly when their complements cover the nodes. (A positive slack lets
// threshold levels of an (h,k)-arbiter, decided by counting, take the rest.)
type problem struct {
	p         *set.Packed
	levelOf   []int32     // level of each quorum, or -1 for quorums not in play
	levelMask []set.Words // the quorums of each level
	need      []int
	slack     int
	// progress, if not nil, is told how many of the top-level tasks are done.
	progress func(done, total int)
}

// newProblem returns a problem whose level l is the quorum range
// [ranges[l][0], ranges[l][1]) of p; quorums outside every range stay out.
func newProblem(p *set.Packed, ranges [][2]int, need []int, slack int) *problem {
	pr := &problem{p: p, levelOf: make([]int32, p.Len()), need: need, slack: slack}
	for i := range pr.levelOf {
		pr.levelOf[i] = -1
	}
	for l := range need {
		mask := set.MakeWords(p.Len())
		for i := ranges[l][0]; i < ranges[l][1]; i++ {
			pr.levelOf[i] = int32(l)
			mask.Add(i)
		}
		pr.levelMask = append(pr.levelMask, mask)
	}
	return pr
}

type cand struct{ q, rem int }

// Results of one search step.
const (
	stDead   = iota // no way to finish from here
	stFound         // the chosen quorums already share at most slack nodes
	stBranch        // try each candidate in turn
)

// searcher runs the depth-first search of one goroutine. Buffers are per
// depth so that the recursion allocates nothing.
type searcher struct {
	pr      *problem
	stop    func() bool
	calls   int
	stopped bool
	chosen  []int

	iBuf, aBuf, wBuf []set.Words
	needBuf          [][]int
	candBuf          [][]cand
	acc              set.Words
	top              [][]int
	remOf            []int
	nodeCnt          []cand
}

func newSearcher(pr *problem, depth int, stop func() bool) *searcher {
	p := pr.p
	s := &searcher{pr: pr, stop: stop, acc: set.MakeWords(p.Len()), remOf: make([]int, p.Len())}
	for range depth + 2 {
		s.iBuf = append(s.iBuf, set.MakeWords(p.N()))
		s.aBuf = append(s.aBuf, set.MakeWords(p.Len()))
		s.wBuf = append(s.wBuf, set.MakeWords(p.Len()))
		s.needBuf = append(s.needBuf, make([]int, len(pr.need)))
		s.candBuf = append(s.candBuf, nil)
	}
	s.top = make([][]int, len(pr.need))
	return s
}

// step examines the state (I: the nodes every chosen quorum holds; allowed:
// the quorums still usable; need: picks left per level; r: their sum) and
// returns what to do, with the candidates to branch on, best first.
//
// The branching rule: if |I| > slack, any completion must remove one of
// slack+1 nodes of I, so some pick avoids one of them; we take the nodes
// that the fewest allowed quorums avoid, and the candidates are the allowed
// quorums avoiding one of them. The counting bound: the picks left remove
// at most the sum, per level, of the need[l] largest |I \ Q|; if that is
// less than |I| - slack, nothing below can succeed.
func (s *searcher) step(d int, I, allowed set.Words, need []int, r int) (int, []cand) {
	pr, p := s.pr, s.pr.p
	cnt := I.Len()
	if cnt <= pr.slack {
		return stFound, nil
	}
	if r == 0 {
		return stDead, nil
	}
	cands := s.candBuf[d][:0]
	if r == 1 && pr.slack == 0 {
		// One pick left: it must avoid all of I.
		acc := s.acc
		copy(acc, allowed)
		for v := I.Next(0); v >= 0; v = I.Next(v + 1) {
			if !acc.And(p.Avoiders(v)) {
				return stDead, nil
			}
		}
		s.candBuf[d] = append(cands, cand{acc.Next(0), cnt})
		return stBranch, s.candBuf[d]
	}

	// Counting bound.
	for l := range s.top {
		s.top[l] = s.top[l][:0]
	}
	for q := allowed.Next(0); q >= 0; q = allowed.Next(q + 1) {
		rem := cnt - I.AndLen(p.Row(q))
		s.remOf[q] = rem
		l := pr.levelOf[q]
		s.top[l] = pushTop(s.top[l], need[l], rem)
	}
	reach := 0
	for l, t := range s.top {
		if need[l] > len(t) && len(t) > 0 && need[l] > maxTop {
			// Long lists keep only their maxTop largest; the rest count as
			// the smallest kept, an overestimate, so the bound stays sound.
			reach += (need[l] - len(t)) * t[len(t)-1]
		}
		for _, v := range t {
			reach += v
		}
	}
	if reach < cnt-pr.slack {
		return stDead, nil
	}

	// Branching nodes.
	acc := s.acc
	if pr.slack == 0 {
		best, bestA := -1, int(^uint(0)>>1)
		for v := I.Next(0); v >= 0; v = I.Next(v + 1) {
			a := allowed.AndLen(p.Avoiders(v))
			if a < bestA {
				best, bestA = v, a
				if a == 0 {
					return stDead, nil
				}
			}
		}
		acc.Intersect(allowed, p.Avoiders(best))
	} else {
		nc := s.nodeCnt[:0]
		for v := I.Next(0); v >= 0; v = I.Next(v + 1) {
			nc = append(nc, cand{v, allowed.AndLen(p.Avoiders(v))})
		}
		slices.SortFunc(nc, func(a, b cand) int {
			if a.rem != b.rem {
				return a.rem - b.rem
			}
			return a.q - b.q
		})
		s.nodeCnt = nc
		clear(acc)
		for _, c := range nc[:pr.slack+1] {
			acc.OrIntersect(allowed, p.Avoiders(c.q))
		}
	}
	for q := acc.Next(0); q >= 0; q = acc.Next(q + 1) {
		cands = append(cands, cand{q, s.remOf[q]})
	}
	if len(cands) == 0 {
		return stDead, nil
	}
	// Largest removal first: it finds witnesses sooner, and the exclusion
	// rule then keeps the strong quorums out of the later, deeper branches.
	slices.SortFunc(cands, func(a, b cand) int {
		if a.rem != b.rem {
			return b.rem - a.rem
		}
		return a.q - b.q
	})
	s.candBuf[d] = cands
	return stBranch, cands
}

// maxTop caps the per-level list of largest removals the bound keeps.
const maxTop = 64

// pushTop inserts v into t, kept in decreasing order and at most min(k,
// maxTop) long.
func pushTop(t []int, k, v int) []int {
	k = min(k, maxTop)
	if len(t) == k {
		if k == 0 || v <= t[k-1] {
			return t
		}
		t = t[:k-1]
	}
	i := len(t)
	t = append(t, v)
	for i > 0 && t[i-1] < v {
		t[i] = t[i-1]
		i--
	}
	t[i] = v
	return t
}

// child sets up depth d+1 for choosing candidate q from the state at depth
// d, with work the allowed set minus q and every candidate tried before it
// (the exclusion that makes sibling subtrees disjoint: a completion that
// uses an earlier candidate was found under that candidate).
func (pr *problem) child(q int, I, work set.Words, need []int, cI, cA set.Words, cNeed []int) {
	copy(cNeed, need)
	l := pr.levelOf[q]
	cNeed[l]--
	copy(cA, work)
	if cNeed[l] == 0 {
		cA.AndNot(pr.levelMask[l])
	}
	cI.Intersect(I, pr.p.Row(q))
}

// dfs searches below the state at depth d; on success s.chosen holds the
// picks made below the caller's prefix.
func (s *searcher) dfs(d int, I, allowed set.Words, need []int, r int) bool {
	s.calls++
	if s.calls&255 == 0 && s.stop != nil && s.stop() {
		s.stopped = true
	}
	if s.stopped {
		return false
	}
	st, cands := s.step(d, I, allowed, need, r)
	switch st {
	case stFound:
		return true
	case stDead:
		return false
	}
	work := s.wBuf[d]
	copy(work, allowed)
	cI, cA, cNeed := s.iBuf[d+1], s.aBuf[d+1], s.needBuf[d+1]
	for _, c := range cands {
		work.Remove(c.q)
		s.pr.child(c.q, I, work, need, cI, cA, cNeed)
		s.chosen = append(s.chosen, c.q)
		if s.dfs(d+1, cI, cA, cNeed, r-1) {
			return true
		}
		s.chosen = s.chosen[:len(s.chosen)-1]
		if s.stopped {
			return false
		}
	}
	return false
}

// task is a subtree of the search handed to a worker.
type task struct {
	I, allowed set.Words
	need       []int
	r          int
	chosen     []int
	found      bool
}

// solve runs the search on all cores. It returns the chosen quorums (need[l]
// of level l, completed with arbitrary unchosen quorums of their level when
// fewer picks sufficed), or nil if there are none, or ctx.Err() if cancelled
// first. The answer does not depend on scheduling: the top of the tree is
// cut into an ordered list of tasks, and the witness of the first task that
// has one wins.
func (pr *problem) solve(ctx context.Context) ([]int, error) {
	p := pr.p
	if err := buildAvoiders(p); err != nil {
		return nil, err
	}
	root := &task{I: set.MakeWords(p.N()), allowed: set.MakeWords(p.Len()), need: slices.Clone(pr.need)}
	root.I.Fill(p.N())
	for l, k := range pr.need {
		root.r += k
		if k > 0 {
			root.allowed.Or(pr.levelMask[l])
		}
	}
	workers := runtime.GOMAXPROCS(0)
	tasks := pr.split(root, 8*workers)

	var (
		best = atomic.Int64{}
		done atomic.Int64
		next atomic.Int64
		mu   sync.Mutex
		wg   sync.WaitGroup
	)
	best.Store(int64(len(tasks)))
	for b, t := range tasks {
		if t.found {
			best.Store(int64(b))
			break
		}
	}
	results := make([][]int, len(tasks))
	for range min(workers, len(tasks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newSearcher(pr, root.r, nil)
			for {
				b := int(next.Add(1) - 1)
				if b >= len(tasks) || int64(b) > best.Load() || ctx.Err() != nil {
					return
				}
				t := tasks[b]
				ok := t.found
				if !ok {
					s.stopped, s.chosen = false, s.chosen[:0]
					s.stop = func() bool { return ctx.Err() != nil || best.Load() < int64(b) }
					ok = s.dfs(len(t.chosen), t.I, t.allowed, t.need, t.r)
				}
				if ok {
					results[b] = append(slices.Clone(t.chosen), s.chosen...)
					for {
						cur := best.Load()
						if int64(b) >= cur || best.CompareAndSwap(cur, int64(b)) {
							break
						}
					}
				}
				d := done.Add(1)
				if pr.progress != nil && !s.stopped {
					mu.Lock()
					pr.progress(int(d), len(tasks))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if b := best.Load(); b < int64(len(tasks)) && results[b] != nil {
		return pr.complete(results[b]), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nil, nil
}

// maxSplitBytes bounds the memory of the task list split makes.
const maxSplitBytes = 256 << 20

// split expands the root breadth-first, in order, until there are at least
// target tasks or nothing left to expand; dead subtrees are dropped and a
// subtree that already succeeds is kept, marked found.
func (pr *problem) split(root *task, target int) []*task {
	p := pr.p
	s := newSearcher(pr, 0, nil)
	tasks := []*task{root}
	// Each task holds its own state; a wide top level (one candidate per
	// quorum) must not multiply that past maxSplitBytes.
	taskBytes := int64(set.WordsFor(p.N())+set.WordsFor(p.Len())) * 8
	maxTasks := max(1, int(maxSplitBytes/taskBytes))
	for len(tasks) < target {
		var next []*task
		expanded := false
		for _, t := range tasks {
			if t.found || t.r == 0 || len(next) >= target || len(next)+p.Len() > maxTasks {
				next = append(next, t)
				continue
			}
			st, cands := s.step(0, t.I, t.allowed, t.need, t.r)
			switch st {
			case stFound:
				t.found = true
				next = append(next, t)
				continue
			case stDead:
				expanded = true
				continue
			}
			expanded = true
			work := slices.Clone(t.allowed)
			for _, c := range cands {
				work.Remove(c.q)
				ch := &task{I: set.MakeWords(p.N()), allowed: set.MakeWords(p.Len()),
					need: make([]int, len(t.need)), r: t.r - 1,
					chosen: append(slices.Clone(t.chosen), c.q)}
				pr.child(c.q, t.I, work, t.need, ch.I, ch.allowed, ch.need)
				next = append(next, ch)
			}
		}
		tasks = next
		if !expanded {
			break
		}
	}
	return tasks
}

// complete tops up chosen to need[l] quorums of every level with the
// smallest unchosen quorums of that level (fewer picks may already have
// emptied the intersection; more quorums keep it empty), and returns them
// sorted.
func (pr *problem) complete(chosen []int) []int {
	have := make([]int, len(pr.need))
	in := set.MakeWords(pr.p.Len())
	for _, q := range chosen {
		have[pr.levelOf[q]]++
		in.Add(q)
	}
	for l, k := range pr.need {
		for q := range pr.p.Len() {
			if have[l] >= k {
				break
			}
			if pr.levelOf[q] == int32(l) && !in.Has(q) {
				chosen = append(chosen, q)
				in.Add(q)
				have[l]++
			}
		}
	}
	slices.Sort(chosen)
	return chosen
}
