package verify

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/set"
	"gonum.org/v1/gonum/stat/combin"
)

// bruteDisjoint is the plain method: it tries every choice of min(m, t)
// distinct quorums of f in lexicographic order and returns the first whose
// intersection is empty, or nil. It shares no code with the search (it
// works on set.Set), so that each checks the other. Prefix intersections
// are kept so that consecutive choices cost one intersection each.
func bruteDisjoint(ctx context.Context, f *set.Family, t int, progress func(done, total int)) ([]int, error) {
	m := len(f.Quorums)
	t = min(t, m)
	if t <= 0 {
		return nil, nil
	}
	total := combin.Binomial(m, t) // panics on overflow: callers check bruteFeasible
	gen := combin.NewCombinationGenerator(m, t)
	cur := make([]int, t)
	prev := make([]int, t)
	for i := range prev {
		prev[i] = -1
	}
	// pre[d] = Q_cur[0] ∩ ... ∩ Q_cur[d].
	pre := make([]set.Set, t)
	for n := 0; gen.Next(); n++ {
		if n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil && n > 0 {
				progress(n, total)
			}
		}
		gen.Combination(cur)
		d := 0
		for d < t && cur[d] == prev[d] {
			d++
		}
		for ; d < t; d++ {
			if d == 0 {
				pre[0].Copy(&f.Quorums[cur[0]])
			} else {
				pre[d].Intersect(&pre[d-1], &f.Quorums[cur[d]])
			}
		}
		copy(prev, cur)
		if pre[t-1].IsEmpty() {
			return append([]int(nil), cur...), nil
		}
	}
	return nil, nil
}

// bruteLimit caps the number of choices the brute-force method will try
// before refusing: about a minute of work.
const bruteLimit = 2e9

// bruteFeasible returns an error if trying every t-subset of m quorums is
// beyond bruteLimit.
func bruteFeasible(m, t int) error {
	t = min(t, m)
	c := 1.0
	for i := range t {
		c = c * float64(m-i) / float64(i+1)
		if c > bruteLimit {
			return fmt.Errorf("verify: brute force would try C(%d, %d) > %.0e choices; use the search method", m, t, float64(bruteLimit))
		}
	}
	return nil
}

// bruteHK tries every quorum assignment of pattern pat literally
// (Manabe and Tajima, Definition 5): each request picks any quorum of its
// level, repetitions allowed; requests of the same level pick nondecreasing
// positions, since their order does not matter. All levels must be
// explicit. It returns the first assignment with no common node, or nil.
func bruteHK(ctx context.Context, n int, levels []*set.Family, byH map[int]int, pat []int) ([]Request, error) {
	pre := make([]set.Set, len(pat)+1)
	pre[0].Copy(set.Full(n))
	pick := make([]int, len(pat))
	calls := 0
	var try func(s int) (bool, error)
	try = func(s int) (bool, error) {
		if s == len(pat) {
			return pre[s].IsEmpty(), nil
		}
		calls++
		if calls&4095 == 0 && ctx.Err() != nil {
			return false, ctx.Err()
		}
		l := levels[byH[pat[s]]]
		lo := 0
		if s > 0 && pat[s-1] == pat[s] {
			lo = pick[s-1]
		}
		for q := lo; q < len(l.Quorums); q++ {
			pick[s] = q
			pre[s+1].Intersect(&pre[s], &l.Quorums[q])
			if ok, err := try(s + 1); ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	}
	ok, err := try(0)
	if !ok || err != nil {
		return nil, err
	}
	reqs := make([]Request, len(pat))
	for s, h := range pat {
		reqs[s] = Request{H: h, Quorum: pick[s]}
	}
	return reqs, nil
}

// bruteHKFeasible returns an error if the assignments of pattern pat number
// more than bruteLimit.
func bruteHKFeasible(levels []*set.Family, byH map[int]int, pat []int) error {
	total := 1.0
	for s := 0; s < len(pat); {
		h := pat[s]
		c := 0
		for s < len(pat) && pat[s] == h {
			c++
			s++
		}
		m := len(levels[byH[h]].Quorums)
		// Multisets of c quorums out of m: C(m+c−1, c).
		for i := range c {
			total = total * float64(m+i) / float64(i+1)
		}
		if total > bruteLimit {
			return fmt.Errorf("verify: brute force would try more than %.0e quorum assignments for request pattern %s; use the search method",
				float64(bruteLimit), FormatPattern(pat))
		}
	}
	return nil
}
