package domination

import "github.com/coterie-dev/coterie/set"

// noJoin reports whether the list held by j certainly has no join's inner
// node set M (2 ≤ |M| < the nodes in use, see [findJoin]), by counting
// conditions a join must meet, tested from the pair counts of the list in
// about a pass over it. It answers false when it cannot tell (a candidate
// survives, a quorum's fingerprint repeats, or the test would exceed work
// steps): then only findJoin's search can.
//
// If the quorums meeting M are every R ∪ G (𝓡 the outer parts, 𝓖 the
// inner ones, each pair once), write deg(u) for the quorums through u,
// c(u, w) through u and w, t(u, y, w) through all three, r(w) for the outer
// parts holding w and d(u), d(u, y) for the inner parts holding u, u and y.
// For u, y in M and w outside M,
//
//	deg(u) = |𝓡|·d(u),  c(u, y) = |𝓡|·d(u, y),  c(u, w) = r(w)·d(u),  t(u, y, w) = r(w)·d(u, y),
//
// so c(u, w)·deg(y) = c(y, w)·deg(u) and t(u, y, w)·deg(u) = c(u, y)·c(u, w).
// A node w for which either fails with u and y in M is in M. Closing a
// pair {u, v} under that rule (u fixed, y over the nodes taken in) gives a
// set every M holding u and v contains; when it reaches every node in use,
// or a pair already found to reach them, no M holds u and v. When that is
// so for every pair, there is no join.
func (j *joinFinder) noJoin(sup []int, steps int) bool {
	s := len(sup)
	if s < 3 {
		return true
	}
	for i := 1; i < len(j.sorted); i++ {
		if j.sorted[i] == j.sorted[i-1] {
			return false // a repeated quorum (or a collision) changes the counts
		}
	}
	idx := make([]int32, j.f.N)
	for i := range idx {
		idx[i] = -1
	}
	for a, v := range sup {
		idx[v] = int32(a)
	}
	// The quorums' nodes by their index in sup, and the pair counts, a
	// row c(a, ·) when first asked.
	work := 0
	for i := range j.m {
		work += j.f.Quorums[i].Len()
	}
	work += s * s // the pair counts' table
	if work > steps || s > 1<<11 {
		return false
	}
	start := make([]int32, j.m+1)
	flat := make([]int32, 0, work)
	for i := range j.m {
		for v := range j.f.Quorums[i].All() {
			flat = append(flat, idx[v])
		}
		start[i+1] = int32(len(flat))
	}
	quorum := func(i int32) []int32 { return flat[start[i]:start[i+1]] }
	deg := make([]uint64, s)
	through := make([][]int32, s)
	for a, v := range sup {
		through[a] = j.through[v]
		deg[a] = uint64(len(through[a]))
	}
	// A row of pair counts is counted either from the quorums through a
	// (Σ|Q| over them) or, when the list is long and the nodes few, as
	// s popcounts of the bitsets of the quorums through two nodes (s·mw
	// words). Both give the same numbers; the words are chosen when their
	// whole table (s² · mw) costs less than the lists' (Σ|Q|²).
	mw := (j.m + 63) / 64
	var cols []uint64 // cols[a·mw:]: the quorums through sup[a]
	byWords := j.pairsBy == pairsByWords
	if j.pairsBy == pairsAuto {
		byWords = s*mw <= work && int64(s)*int64(s)*int64(mw) < sumSquares(j.f, j.m)
	}
	if byWords {
		cols = make([]uint64, s*mw)
		for a := range s {
			col := set.Words(cols[a*mw : (a+1)*mw])
			for _, qi := range through[a] {
				col.Add(int(qi))
			}
		}
		work += s * mw
	}
	col := func(a int) set.Words { return cols[a*mw : (a+1)*mw] }
	c := make([]uint64, s*s)
	counted := make([]bool, s)
	row := func(a int) []uint64 {
		r := c[a*s : (a+1)*s]
		if !counted[a] {
			counted[a] = true
			if cols != nil {
				ca := col(a)
				for b := range s {
					r[b] = uint64(ca.AndLen(col(b)))
				}
				work += s * mw
				return r
			}
			for _, qi := range through[a] {
				q := quorum(qi)
				for _, b := range q {
					r[b]++
				}
				work += len(q)
			}
		}
		return r
	}
	var uy set.Words
	if cols != nil {
		uy = make(set.Words, mw)
	}
	nw := (s + 63) / 64
	bad := make([]uint64, s*nw) // bad[u]: the v for which no M holds u and v
	isBad := func(u, v int) bool { return bad[u*nw+v/64]&(1<<(v%64)) != 0 }
	in := make([]uint64, nw)
	t := make([]uint64, s)
	list := make([]int, 0, s)
	for u := range s {
		cu := row(u)
		for v := u + 1; v < s; v++ {
			if isBad(u, v) {
				continue
			}
			clear(in)
			in[u/64] |= 1 << (u % 64)
			in[v/64] |= 1 << (v % 64)
			list = append(list[:0], v)
			size, full := 2, false
			take := func(w int) {
				if isBad(u, w) {
					full = true
					return
				}
				in[w/64] |= 1 << (w % 64)
				list = append(list, w)
				if size++; size == s {
					full = true
				}
			}
			// The pair rule for every node taken in first (a pass over
			// the nodes), the triple rule (a pass over the quorums
			// through u) only once the pair rule takes in no more.
			for k1, k2 := 0, 0; !full && k2 < len(list); {
				if k1 < len(list) {
					y := list[k1]
					k1++
					cy := row(y)
					work += s
					for w := 0; w < s && !full; w++ {
						if in[w/64]&(1<<(w%64)) == 0 && cu[w]*deg[y] != cy[w]*deg[u] {
							take(w)
						}
					}
					continue
				}
				y := list[k2]
				k2++
				// t(u, y, ·) over the quorums through u and y.
				if cols != nil {
					uy.Intersect(col(u), col(y))
					for w := range s {
						t[w] = uint64(uy.AndLen(col(w)))
					}
					work += (s + 1) * mw
				} else {
					clear(t)
					yv := sup[y]
					for _, qi := range through[u] {
						work++
						if !j.f.Quorums[qi].Has(yv) {
							continue
						}
						q := quorum(qi)
						for _, a := range q {
							t[a]++
						}
						work += len(q)
					}
				}
				work += s
				for w := 0; w < s && !full; w++ {
					if in[w/64]&(1<<(w%64)) == 0 && t[w]*deg[u] != cu[y]*cu[w] {
						take(w)
					}
				}
			}
			if work > steps {
				return false
			}
			if !full {
				return false // {u, v} may lie in a join's M
			}
			bad[u*nw+v/64] |= 1 << (v % 64)
			bad[v*nw+u/64] |= 1 << (u % 64)
		}
	}
	return true
}

// joinRuledOut reports whether [noJoin] rules out a join in the explicit
// family f, with scale times findJoin's work.
func joinRuledOut(f *set.Family, scale int) bool {
	if len(f.Quorums) < 3 {
		return true
	}
	sup := support(f)
	if len(sup) < 3 {
		return true
	}
	j := newJoinFinder(f)
	return j.noJoin(sup, j.limit*scale)
}

// sumSquares is Σ|Q|² over the first m quorums of f: the work of
// counting every pair of nodes from the quorums.
func sumSquares(f *set.Family, m int) int64 {
	var sq int64
	for i := range m {
		l := int64(f.Quorums[i].Len())
		sq += l * l
	}
	return sq
}
