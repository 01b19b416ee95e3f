package availability

import (
	"context"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// wallWork bounds the node visits of [wallRows]'s search (a few hundredths
// of a second), so that a list that is no wall costs a few passes over it
// at most, counted rather than timed.
const wallWork = 1 << 25

// recogniseWall returns the polynomial of f when f, whatever the numbering
// of its nodes, is a crumbling wall of Peleg and Wool ([construct.Wall]:
// a full row and one node of every row below) over all of its nodes. The
// rows are guessed from the quorums (see [wallRows]); f renumbered row by
// row must then pass the check of [catalogue.holds] against the
// construction's predicate, so a wrong guess costs a BDD, never a wrong
// answer.
func recogniseWall(ctx context.Context, f *set.Family) (*Polynomial, bool) {
	if f.K != 1 || len(f.Quorums) < 2 {
		return nil, false
	}
	qs := make([][]int, len(f.Quorums))
	for i := range f.Quorums {
		qs[i] = f.Quorums[i].Elements()
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
	label := make([]int, f.N)
	widths := make([]int, len(rows))
	k := 0
	for i, r := range rows {
		widths[i] = len(r)
		for _, v := range r {
			label[v] = k
			k++
		}
	}
	if k != f.N {
		return nil, false
	}
	sys, err := construct.NewWallSystem(widths)
	if err != nil {
		return nil, false
	}
	count, ok := sys.QuorumCount()
	if !ok {
		return nil, false
	}
	g := renumbered(f.N, qs, label)
	if !(catalogue{live: sys.HasQuorum, count: count}).holds(g) || ctx.Err() != nil {
		return nil, false
	}
	p, err := WallPolynomial(ctx, widths)
	if err != nil || p.N != f.N {
		return nil, false
	}
	return p, true
}

// wallRows guesses the rows, top first, of a wall whose quorums are qs over
// the left nodes (left[v]; size of them). The top row S is the
// intersection of the quorums through any of its nodes; the quorums that
// meet it contain it, and the rest of each has one node of every row
// below, as many nodes as there are rows below; the quorums avoiding S
// are the wall of the rows below, over every other node. The last row is
// the single quorum left. Candidates for S are tried in turn, the search
// going back on a failure, within *work node visits.
func wallRows(qs [][]int, left []bool, size int, work *int) ([][]int, bool) {
	if len(qs) == 1 {
		if len(qs[0]) != size {
			return nil, false
		}
		return [][]int{qs[0]}, true
	}
	inS := make([]bool, len(left))
	tried := make([]bool, len(left))
	visits := 0
	for _, q := range qs {
		visits += 2 * len(q)
	}
	for v := range left {
		if !left[v] || tried[v] {
			continue
		}
		*work -= visits
		if *work < 0 {
			return nil, false
		}
		// S: the nodes in every quorum through v.
		cnt := make(map[int]int)
		with := 0
		for _, q := range qs {
			if slices.Contains(q, v) {
				with++
				for _, u := range q {
					cnt[u]++
				}
			}
		}
		if with == 0 {
			continue // in no quorum: no wall over these nodes
		}
		var S []int
		for u, c := range cnt {
			if c == with {
				S = append(S, u)
			}
		}
		clear(inS)
		for _, u := range S {
			inS[u] = true
			tried[u] = true // every node of S gives this S again
		}
		var below [][]int
		tsize := -1
		ok := true
		for _, q := range qs {
			meet := 0
			for _, u := range q {
				if inS[u] {
					meet++
				}
			}
			switch {
			case meet == 0:
				below = append(below, q)
			case meet != len(S) || len(q)-meet < 1 || tsize >= 0 && len(q)-meet != tsize:
				ok = false
			default:
				tsize = len(q) - meet
			}
			if !ok {
				break
			}
		}
		if !ok || len(below) == 0 {
			continue
		}
		rest := make([]bool, len(left))
		restSize := 0
		for u := range left {
			if left[u] && !inS[u] {
				rest[u] = true
				restSize++
			}
		}
		rows, ok := wallRows(below, rest, restSize, work)
		if !ok || len(rows) != tsize {
			if *work < 0 {
				return nil, false
			}
			continue
		}
		slices.Sort(S)
		return append([][]int{S}, rows...), true
	}
	return nil, false
}
