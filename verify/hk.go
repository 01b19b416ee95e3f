package verify

import (
	"context"
	"fmt"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

func verifyHK(ctx context.Context, a *set.HK, opts Options) (*Report, error) {
	typedLevels := make([]quorum.System, len(a.Levels))
	for i, l := range a.Levels {
		typedLevels[i] = construct.Form(l)
	}
	r := &Report{N: a.N, K: a.K, Quorums: quorumCount(a, typedLevels)}
	inter, err := hkIntersection(ctx, a, typedLevels, opts)
	if err != nil {
		return nil, err
	}
	r.Checks = append(r.Checks, inter)
	// Minimality is per level (Manabe and Tajima, after Theorem 1): one
	// check, naming the level of the first failure.
	mc := Check{Name: "minimality", OK: true, Detail: "no quorum contains another of its level"}
	for i, l := range a.Levels {
		if c := minimalityCheck(ctx, l, typedLevels[i]); !c.OK {
			mc = c
			break
		}
	}
	r.Checks = append(r.Checks, mc)
	for i, l := range a.Levels {
		r.Checks = append(r.Checks, sizeCheck(l, typedLevels[i]), responsibilityCheck(l, typedLevels[i]))
	}
	r.finish()
	return r, nil
}

// hkIntersection checks Theorem 1 of Manabe and Tajima: for every critical
// conflicting request pattern and every quorum assignment to it, the
// assigned quorums share a node. Patterns that need a level the arbiter
// lacks cannot occur and are skipped.
//
// Repetition: an assignment may give two requests of the same h the same
// quorum, but that never empties an intersection that a distinct choice
// would not, so an explicit level with c requests in the pattern is
// searched for min(c, m_h) distinct quorums. A threshold level of w nodes
// removes any n−w nodes per request, so its requests together remove up to
// R = Σ(n−w) nodes, and the search over the explicit levels only has to
// bring the intersection down to R nodes.
//
// typedLevels are a's levels typed; the search reads a level's threshold
// w from there (w[i] > 0), and the brute force lists it.
func hkIntersection(ctx context.Context, a *set.HK, typedLevels []quorum.System, opts Options) (Check, error) {
	c := Check{Name: "intersection"}
	n := a.N
	levels := slices.Clone(a.Levels)
	w := make([]int, len(levels))           // a threshold level's w, 0 for a list
	enumerated := make([]bool, len(levels)) // a threshold level listed for the brute force
	for i, sys := range typedLevels {
		w[i], _ = quorum.ThresholdOf(sys)
	}
	if opts.Method == Brute {
		for i, l := range levels {
			if w[i] > 0 {
				e, err := l.Enumerate(bruteQuorumLimit)
				if err != nil {
					return c, fmt.Errorf("verify: brute force: level h = %d: %w", l.H, err)
				}
				levels[i], w[i], enumerated[i] = e, 0, true
			}
		}
	}
	byH := make(map[int]int) // h → index in levels
	var lists [][]set.Set
	start := make([]int, len(levels)) // first packed index of an explicit level
	next := 0
	for i, l := range levels {
		if w[i] == 0 && len(l.Quorums) == 0 {
			continue // no request for h units can be granted: as if missing
		}
		byH[l.H] = i
		if w[i] == 0 {
			start[i] = next
			next += len(l.Quorums)
			lists = append(lists, l.Quorums)
		}
	}
	var p *set.Packed
	if next > 0 && opts.Method != Brute {
		p = set.Pack(n, lists...)
	}

	var patterns [][]int
	for r := range CriticalPatterns(a.K) {
		patterns = append(patterns, slices.Clone(r))
	}
	progress := opts.progress("intersection")
	checked, skipped := 0, 0
	for pi, pat := range patterns {
		if err := ctx.Err(); err != nil {
			undecided(&c, err)
			return c, nil
		}
		count := make(map[int]int)
		missing := false
		for _, h := range pat {
			count[h]++
			if _, ok := byH[h]; !ok {
				missing = true
			}
		}
		if missing {
			skipped++
			continue
		}
		checked++
		var (
			reqs []Request
			err  error
		)
		if opts.Method == Brute {
			if err := bruteHKFeasible(levels, byH, pat); err != nil {
				return c, err
			}
			reqs, err = bruteHK(ctx, n, levels, byH, pat)
			for i, rq := range reqs {
				// A threshold level was enumerated: name its quorum by nodes.
				if enumerated[byH[rq.H]] {
					reqs[i] = Request{H: rq.H, Quorum: -1, Set: levels[byH[rq.H]].Quorums[rq.Quorum].Elements()}
				}
			}
		} else {
			reqs, err = searchHK(ctx, p, n, levels, w, byH, start, pat, count)
		}
		if err != nil {
			if ctx.Err() != nil {
				undecided(&c, err)
				return c, nil
			}
			return c, err
		}
		if reqs != nil {
			c.Witness = &Witness{Pattern: slices.Clone(pat), Requests: reqs}
			c.Detail = fmt.Sprintf("a quorum assignment for critical request pattern %s has no common node",
				FormatPattern(pat))
			return c, nil
		}
		if progress != nil {
			progress(pi+1, len(patterns))
		}
	}
	c.OK = true
	c.Detail = fmt.Sprintf("every quorum assignment of the %d critical request patterns of k = %d has a common node",
		checked, a.K)
	if skipped > 0 {
		c.Detail += fmt.Sprintf(" (%d patterns need a level the arbiter lacks or leaves empty)", skipped)
	}
	return c, nil
}

// searchHK looks for a quorum assignment to pattern pat with no common
// node, returning its requests in pattern order, or nil. w[i] is the
// threshold of level i, 0 when it is listed.
func searchHK(ctx context.Context, p *set.Packed, n int, levels []*set.Family, w []int, byH map[int]int,
	start []int, pat []int, count map[int]int) ([]Request, error) {
	hs := make([]int, 0, len(count))
	for h := range count {
		hs = append(hs, h)
	}
	slices.Sort(hs)
	slack := 0
	var (
		ranges [][2]int
		need   []int
		expl   []int // h of each explicit level in the problem
	)
	for _, h := range hs {
		i := byH[h]
		l := levels[i]
		if w[i] > 0 {
			slack += count[h] * (n - w[i])
			continue
		}
		ranges = append(ranges, [2]int{start[i], start[i] + len(l.Quorums)})
		need = append(need, min(count[h], len(l.Quorums)))
		expl = append(expl, h)
	}
	var picks []int
	switch {
	case len(need) == 0:
		if slack < n {
			return nil, nil
		}
	default:
		pr := newProblem(p, ranges, need, min(slack, n))
		if slack >= n {
			// The threshold requests alone empty any intersection.
			picks = pr.complete(nil)
			break
		}
		var err error
		picks, err = pr.solve(ctx)
		if err != nil || picks == nil {
			return nil, err
		}
	}
	// Positions per explicit level, in increasing order.
	chosen := make(map[int][]int)
	for _, g := range picks {
		for li, h := range expl {
			if g >= ranges[li][0] && g < ranges[li][1] {
				chosen[h] = append(chosen[h], g-ranges[li][0])
			}
		}
	}
	return assignment(n, levels, w, byH, pat, chosen), nil
}

// assignment turns the chosen positions of the explicit levels into the
// requests of pattern pat: the requests of an explicit level take its
// chosen quorums in order (repeating the first when the level has fewer
// quorums than requests); the requests of threshold levels take quorums
// whose complements cover what the explicit quorums share. w[i] is the
// threshold of level i, 0 when it is listed.
func assignment(n int, levels []*set.Family, w []int, byH map[int]int, pat []int, chosen map[int][]int) []Request {
	shared := set.Full(n)
	for h, pos := range chosen {
		for _, q := range pos {
			shared.Intersect(shared, &levels[byH[h]].Quorums[q])
		}
	}
	var sizes []int
	for _, h := range pat {
		if t := w[byH[h]]; t > 0 {
			sizes = append(sizes, t)
		}
	}
	sets := windows(n, sizes, shared.Elements())
	used := make(map[int]int)
	reqs := make([]Request, 0, len(pat))
	for _, h := range pat {
		if w[byH[h]] > 0 {
			reqs = append(reqs, Request{H: h, Quorum: -1, Set: sets[0]})
			sets = sets[1:]
			continue
		}
		pos := chosen[h]
		q := pos[0]
		if used[h] < len(pos) {
			q = pos[used[h]]
		}
		used[h]++
		reqs = append(reqs, Request{H: h, Quorum: q})
	}
	return reqs
}
