package domination

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
	// The pair counts, over the quorums' nodes by their index in sup.
	work := 0
	for i := range j.m {
		k := j.f.Quorums[i].Len()
		work += k * k
	}
	if work > steps || s > 1<<11 {
		return false
	}
	deg := make([]uint64, s)
	c := make([]uint64, s*s)
	nodes := make([][]int32, j.m)
	for i := range j.m {
		q := make([]int32, 0, j.f.Quorums[i].Len())
		for v := range j.f.Quorums[i].All() {
			q = append(q, idx[v])
		}
		nodes[i] = q
		for _, a := range q {
			deg[a]++
			row := c[int(a)*s:]
			for _, b := range q {
				row[b]++
			}
		}
	}
	through := make([][]int32, s)
	for i, q := range nodes {
		for _, a := range q {
			through[a] = append(through[a], int32(i))
		}
	}
	nw := (s + 63) / 64
	bad := make([]uint64, s*nw) // bad[u]: the v for which no M holds u and v
	isBad := func(u, v int) bool { return bad[u*nw+v/64]&(1<<(v%64)) != 0 }
	in := make([]uint64, nw)
	t := make([]uint64, s)
	list := make([]int, 0, s)
	for u := range s {
		cu := c[u*s : (u+1)*s]
		for v := u + 1; v < s; v++ {
			if isBad(u, v) {
				continue
			}
			clear(in)
			in[u/64] |= 1 << (u % 64)
			in[v/64] |= 1 << (v % 64)
			list = append(list[:0], v)
			size, full := 2, false
			for k := 0; k < len(list) && !full; k++ {
				y := list[k]
				cy := c[y*s : (y+1)*s]
				// t(u, y, ·) over the quorums through u and y.
				clear(t)
				for _, qi := range through[u] {
					q := nodes[qi]
					hasY := false
					for _, a := range q {
						if int(a) == y {
							hasY = true
						}
					}
					if !hasY {
						continue
					}
					for _, a := range q {
						t[a]++
					}
					work += len(q)
				}
				work += 2 * s
				if work > steps {
					return false
				}
				for w := range s {
					if in[w/64]&(1<<(w%64)) != 0 {
						continue
					}
					if cu[w]*deg[y] == cy[w]*deg[u] && t[w]*deg[u] == cu[y]*cu[w] {
						continue
					}
					if isBad(u, w) {
						full = true
						break
					}
					in[w/64] |= 1 << (w % 64)
					list = append(list, w)
					if size++; size == s {
						full = true
						break
					}
				}
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
