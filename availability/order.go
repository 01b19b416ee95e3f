package availability

import (
	"context"
	"slices"
	"sort"

	"github.com/coterie-dev/coterie/set"
)

// ChooseOrder returns a static variable order for the BDD of f: the
// FORCE heuristic (Aloul, Markov and Sakallah, "FORCE: a fast and easy-to-
// implement variable-ordering heuristic", GLSVLSI 2003), started from the
// natural order, which moves each node to the mean centre of gravity of its
// quorums until the total span of the quorums stops shrinking. Nodes that
// are in no quorum go last. The result is deterministic.
func ChooseOrder(f *set.Family) []int {
	g, err := explicitFamily(context.Background(), f)
	if err != nil {
		return naturalOrder(f.N)
	}
	f = g
	return forceOrder(context.Background(), f, naturalOrder(f.N))
}

// OrderCandidates returns the orders [Compute] tries for f, best guess
// first: the structural orders, natural (constructors number nodes
// row-major, which is the right order for grids) and the order of first
// appearance along a greedy chain of overlapping quorums (which follows
// the diagonals of a billiard), then FORCE from the natural order.
func OrderCandidates(f *set.Family) [][]int {
	out, _ := orderCandidates(context.Background(), f)
	return out
}

// orderCandidates is [OrderCandidates] watching ctx: once ctx is done it
// returns ctx's error.
func orderCandidates(ctx context.Context, f *set.Family) ([][]int, error) {
	if g, err := explicitFamily(ctx, f); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return [][]int{naturalOrder(f.N)}, nil
	} else {
		f = g
	}
	var out [][]int
	for _, mk := range orderMakers(ctx, f) {
		c := mk()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(out, func(o []int) bool { return slices.Equal(o, c) }) {
			out = append(out, c)
		}
	}
	return out, nil
}

// orderMakers returns the makers of the orders of [OrderCandidates], in
// its order, duplicates included. Once ctx is done a maker returns at
// once, with an order of no use: its caller looks at ctx.
func orderMakers(ctx context.Context, f *set.Family) []func() []int {
	return []func() []int{
		func() []int { return naturalOrder(f.N) },
		func() []int { return chainOrder(ctx, f) },
		func() []int { return forceOrder(ctx, f, naturalOrder(f.N)) },
	}
}

func naturalOrder(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

// span is the FORCE cost: Σ over quorums of (last level − first level).
func span(qs [][]int, pos []int) int {
	s := 0
	for _, q := range qs {
		lo, hi := pos[q[0]], pos[q[0]]
		for _, v := range q[1:] {
			lo, hi = min(lo, pos[v]), max(hi, pos[v])
		}
		s += hi - lo
	}
	return s
}

func forceOrder(ctx context.Context, f *set.Family, start []int) []int {
	n := f.N
	qs := make([][]int, len(f.Quorums))
	for i := range f.Quorums {
		qs[i] = f.Quorums[i].Elements()
	}
	pos := make([]int, n)
	for l, v := range start {
		pos[v] = l
	}
	best := slices.Clone(start)
	bestSpan := span(qs, pos)
	order := slices.Clone(start)
	cog := make([]float64, len(qs))
	sum := make([]float64, n)
	cnt := make([]int, n)
	for iter := 0; iter < 50; iter++ {
		if ctx.Err() != nil {
			return best
		}
		for i, q := range qs {
			s := 0
			for _, v := range q {
				s += pos[v]
			}
			cog[i] = float64(s) / float64(len(q))
		}
		clear(sum)
		clear(cnt)
		for i, q := range qs {
			for _, v := range q {
				sum[v] += cog[i]
				cnt[v]++
			}
		}
		key := make([]float64, n)
		for v := range n {
			if cnt[v] == 0 {
				key[v] = float64(n) + float64(v) // unused nodes last
			} else {
				key[v] = sum[v] / float64(cnt[v])
			}
		}
		sort.SliceStable(order, func(a, b int) bool { return key[order[a]] < key[order[b]] })
		moved := false
		for l, v := range order {
			moved = moved || pos[v] != l
			pos[v] = l
		}
		if !moved {
			// A fixed point: every later iteration would be this one.
			break
		}
		s := span(qs, pos)
		if s >= bestSpan {
			if s > bestSpan {
				break
			}
			continue
		}
		bestSpan = s
		best = slices.Clone(order)
	}
	return best
}

// chainOrder places nodes by first appearance along a greedy sequence of
// quorums: start from the quorum of the smallest node, then repeatedly take
// the unused quorum with most nodes already placed (ties: fewest new nodes,
// then list order).
func chainOrder(ctx context.Context, f *set.Family) []int {
	n := f.N
	placed := make([]bool, n)
	used := make([]bool, len(f.Quorums))
	var order []int
	qs := memberLists(ctx, f)
	if qs == nil {
		return nil
	}
	// old[i] counts the placed nodes of quorum i, kept up to date through
	// the quorums of each node (of[v], all in one array), so that a step
	// costs one pass over the quorums rather than over all their nodes.
	old := make([]int, len(qs))
	deg := make([]int, n+1)
	for _, q := range qs {
		for _, v := range q {
			deg[v+1]++
		}
	}
	for v := range n {
		deg[v+1] += deg[v]
	}
	all := make([]int32, deg[n])
	of := make([][]int32, n)
	for v := range of {
		of[v] = all[deg[v]:deg[v]:deg[v+1]]
	}
	for i, q := range qs {
		for _, v := range q {
			of[v] = append(of[v], int32(i))
		}
	}
	// A quorum whose nodes are all placed adds nothing to the order
	// wherever the sequence takes it: it is dropped, so that every step
	// places a node and the whole costs at most n passes, not m.
	for step := range n {
		// A step is a pass over the quorums.
		if step%16 == 0 && ctx.Err() != nil {
			return nil
		}
		bi, bOld, bNew := -1, -1, 0
		for i, q := range qs {
			if used[i] {
				continue
			}
			nw := len(q) - old[i]
			if nw == 0 {
				used[i] = true
				continue
			}
			if bi < 0 || old[i] > bOld || old[i] == bOld && nw < bNew {
				bi, bOld, bNew = i, old[i], nw
			}
		}
		if bi < 0 {
			break
		}
		used[bi] = true
		for _, v := range qs[bi] {
			if !placed[v] {
				placed[v] = true
				order = append(order, int(v))
				for _, j := range of[v] {
					old[j]++
				}
			}
		}
	}
	for v := range n {
		if !placed[v] {
			order = append(order, v)
		}
	}
	return order
}
