package availability

import (
	"context"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// wallWork bounds the steps of [wallRows]'s search (under a tenth of a
// second), so that a list that is no wall costs a few passes over it at
// most, counted rather than timed.
const wallWork = 1 << 25

// recogniseWall returns the polynomial of f when f, whatever the numbering
// of its nodes, is a crumbling wall of Peleg and Wool ([construct.Wall]:
// a full row and one node of every row below) over all of its nodes. The
// rows are guessed from the quorums (see [wallRows]); the quorums must
// then pass [wallHolds], which proves them to be all the minimal quorums
// of the wall with those rows, so a wrong guess costs a BDD, never a
// wrong answer.
func recogniseWall(ctx context.Context, f *set.Family) (*Polynomial, bool) {
	if f.K != 1 || len(f.Quorums) < 2 || ctx.Err() != nil {
		return nil, false
	}
	qs := memberLists(ctx, f)
	if qs == nil {
		return nil, false
	}
	nodes := make([]bool, f.N)
	for v := range nodes {
		nodes[v] = true
	}
	work := wallWork
	rows, ok := wallRows(qs, nodes, f.N, &work)
	if !ok || len(rows) < 2 {
		return nil, false
	}
	widths := make([]int, len(rows))
	k := 0
	for i, r := range rows {
		widths[i] = len(r)
		k += len(r)
	}
	if k != f.N {
		return nil, false
	}
	if !wallHolds(f.N, qs, rows) || ctx.Err() != nil {
		return nil, false
	}
	p, err := WallPolynomial(ctx, widths)
	if err != nil || p.N != f.N {
		return nil, false
	}
	return p, true
}

// wallHolds reports whether the quorums qs (0-based member lists, each
// without repeats) over n nodes are exactly the minimal quorums of the
// crumbling wall whose rows, top first, are rows (a partition of the n
// nodes): the check of [catalogue.holds] against [construct.WallSystem]'s
// predicate, in one pass over the lists.
//
// Every row below the top has at least two nodes ([construct.NewWallSystem]
// refuses less). The wall is live on S when some row i lies in S and
// every row below meets S; so the minimal live sets are exactly the sets
// made of a row i and one node of each row below: such a set is live; it
// is minimal, as without a node of row i no row is whole (a row below
// holds one node of the set and at least two), and without its node of a
// row j > i that row is empty and no row at or below j is whole; and any
// live set holds one. There are Σ_i Π_{j>i} n_j of them
// ([construct.WallCount]): numbering the ones with top row i from
// Σ_{i'<i} Π_{j>i'} n_j on, by the places of their nodes below i in
// mixed radix, is one-to-one onto 0..count−1. So the quorums are all the
// minimal live sets when each has that form, no two get the same number,
// and there are count of them.
func wallHolds(n int, qs [][]int32, rows [][]int) bool {
	widths := make([]int, len(rows))
	for i, r := range rows {
		widths[i] = len(r)
	}
	sys, err := construct.NewWallSystem(widths)
	if err != nil {
		return false
	}
	count, ok := sys.QuorumCount()
	if !ok || !count.IsInt64() || count.Int64() != int64(len(qs)) {
		return false
	}
	d := len(rows)
	row := make([]int32, n)
	col := make([]int64, n)
	for i := range row {
		row[i] = -1
	}
	for i, r := range rows {
		for c, v := range r {
			if v < 0 || v >= n || row[v] >= 0 {
				return false
			}
			row[v], col[v] = int32(i), int64(c)
		}
	}
	// below[i] = Π_{j>i} n_j, the quorums with top row i; offset[i] the
	// number of the first of them.
	below := make([]int64, d)
	offset := make([]int64, d)
	b := int64(1)
	for i := d - 1; i >= 0; i-- {
		below[i] = b
		b *= int64(widths[i]) // no overflow: Π_{j>0} n_j ≤ count
	}
	for i := 1; i < d; i++ {
		offset[i] = offset[i-1] + below[i-1]
	}
	hits := make([]int32, d)
	seen := make([]uint64, (len(qs)+63)/64)
	for _, q := range qs {
		if len(q) == 0 {
			return false
		}
		top := int32(d)
		for _, v := range q {
			if int(v) >= n || row[v] < 0 {
				return false
			}
			top = min(top, row[v])
		}
		if len(q) != widths[top]+d-1-int(top) {
			return false
		}
		// The nodes of the top row are distinct, so as many as its
		// width make it whole; the others must be one per row below,
		// which their number makes every row below.
		rank := offset[top]
		inTop := 0
		ok := true
		for _, v := range q {
			r := row[v]
			if r == top {
				inTop++
				continue
			}
			hits[r]++
			if hits[r] > 1 {
				ok = false
			}
			rank += col[v] * below[r]
		}
		for _, v := range q {
			hits[row[v]] = 0
		}
		if !ok || inTop != widths[top] {
			return false
		}
		if seen[rank>>6]&(1<<(rank&63)) != 0 {
			return false
		}
		seen[rank>>6] |= 1 << (rank & 63)
	}
	return true
}

// memberLists returns the quorums of the explicit family f as lists of
// their 0-based nodes in increasing order, held in one array; nil once
// ctx is done (it looks every 4,096 quorums).
func memberLists(ctx context.Context, f *set.Family) [][]int32 {
	total := 0
	for i := range f.Quorums {
		total += f.Quorums[i].Len()
	}
	all := make([]int32, 0, total)
	qs := make([][]int32, len(f.Quorums))
	for i := range f.Quorums {
		if i&0xfff == 0 && ctx.Err() != nil {
			return nil
		}
		start := len(all)
		for v := range f.Quorums[i].All() {
			all = append(all, int32(v))
		}
		qs[i] = all[start:len(all):len(all)]
	}
	return qs
}

// wallRows guesses the rows, top first, of a wall whose quorums are qs over
// the left nodes (left[v]; size of them). The top row S is the
// intersection of the quorums through any of its nodes; the quorums that
// meet it contain it, and the rest of each has one node of every row
// below, as many nodes as there are rows below; the quorums avoiding S
// are the wall of the rows below, over every other node. The last row is
// the single quorum left. Candidates for S are tried in turn, the search
// going back on a failure, within *work node visits.
//
// Two counts drop most candidates before any quorum is read:
//   - The quorums meeting S contain S, so they are the quorums through v,
//     and every node of S is in exactly as many quorums as v.
//   - More quorums meet the top row than avoid it. When the rows below
//     the top have widths w_2..w_d, all at least 2, the top row's quorums
//     number P_1 = w_2···w_d and the others Σ_{i≥2} P_i with
//     P_i = w_{i+1}···w_d, and Σ_{i≥k} P_i ≤ P_{k−1} − 1 (P_d = 1 ≤ w_d − 1,
//     and each step P_k + P_k − 1 ≤ w_k·P_k − 1). A row of width 1 below
//     the top is no loss: its node is in every quorum through a node
//     above it, so S would hold it, and the quorums of its own row would
//     meet S in part, which no candidate passes anyway.
//
// Without the second, a symmetric list that is no wall (a projective
// plane: every node's S is itself) passes the local test at every node
// and level, and the search goes down until *work is spent.
func wallRows(qs [][]int32, left []bool, size int, work *int) ([][]int, bool) {
	if len(qs) == 1 {
		if len(qs[0]) != size {
			return nil, false
		}
		r := make([]int, len(qs[0]))
		for i, v := range qs[0] {
			r[i] = int(v)
		}
		return [][]int{r}, true
	}
	// Every call passes over the nodes (deg, tried, rest) and every
	// candidate over the quorums (below): both are counted in *work with
	// the nodes visited, so that the bound holds on lists of many nodes
	// and quorums, not only on the quorums read.
	*work -= 2 * len(left)
	// through[v] lists the quorums through v, in one array.
	deg := make([]int, len(left)+1)
	visits := 0
	for _, q := range qs {
		visits += len(q)
		for _, u := range q {
			deg[u+1]++
		}
	}
	*work -= visits
	if *work < 0 {
		return nil, false
	}
	for v := range left {
		deg[v+1] += deg[v]
	}
	at := slices.Clone(deg[:len(left)])
	flat := make([]int32, visits)
	for i, q := range qs {
		for _, u := range q {
			flat[at[u]] = int32(i)
			at[u]++
		}
	}
	through := func(v int) []int32 { return flat[deg[v]:deg[v+1]] }
	degree := func(v int) int { return deg[v+1] - deg[v] }

	tried := make([]bool, len(left))
	cnt := make([]int, len(left))
	meets := make([]bool, len(qs))
	for v := range left {
		d := degree(v)
		if !left[v] || tried[v] || d == 0 || 2*d <= len(qs) {
			continue
		}
		// S: the nodes in every quorum through v.
		var touched []int32
		for _, i := range through(v) {
			*work -= len(qs[i])
			for _, u := range qs[i] {
				if cnt[u] == 0 {
					touched = append(touched, u)
				}
				cnt[u]++
			}
		}
		if *work < 0 {
			return nil, false
		}
		var S []int
		ok := true
		for _, u := range touched {
			if cnt[u] == d {
				S = append(S, int(u))
				tried[u] = true // every node of S gives this S again
				ok = ok && degree(int(u)) == d
			}
			cnt[u] = 0
		}
		// The rest of each quorum through v: one node of every row below.
		tsize := len(qs[through(v)[0]]) - len(S)
		for _, i := range through(v) {
			ok = ok && len(qs[i])-len(S) == tsize
		}
		if !ok || tsize < 1 {
			continue
		}
		slices.Sort(S)
		*work -= len(qs) + len(left)
		if *work < 0 {
			return nil, false
		}
		for _, i := range through(v) {
			meets[i] = true
		}
		below := make([][]int32, 0, len(qs)-d)
		for i, q := range qs {
			if !meets[i] {
				below = append(below, q)
			}
		}
		for _, i := range through(v) {
			meets[i] = false
		}
		rest := slices.Clone(left)
		for _, u := range S {
			rest[u] = false
		}
		rows, ok := wallRows(below, rest, size-len(S), work)
		if !ok || len(rows) != tsize {
			if *work < 0 {
				return nil, false
			}
			continue
		}
		return append([][]int{S}, rows...), true
	}
	return nil, false
}
