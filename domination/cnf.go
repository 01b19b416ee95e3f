package domination

// cnf is a CNF formula under construction, in DIMACS style: variables are
// 1..nvars, a literal is a variable or its negation.
type cnf struct {
	nvars   int
	clauses [][]int
}

// newCNF returns a formula whose first n variables are the nodes: node v is
// variable v+1, true when v is in H.
func newCNF(n int) *cnf { return &cnf{nvars: n} }

func (c *cnf) newVar() int {
	c.nvars++
	return c.nvars
}

// add appends a clause; it keeps lits.
func (c *cnf) add(lits ...int) { c.clauses = append(c.clauses, lits) }

// naiveLimit bounds the clauses of the binomial encoding of an at-most
// constraint; above it the sequential counter is used.
const naiveLimit = 256

// atMost adds "at most k of lits are true", unless one of the literals in
// unless is true: with unless = [r], the constraint binds only when r is
// false. Small constraints get the binomial encoding (a clause per (k+1)-
// subset, no new variables); larger ones Sinz's sequential counter (CP
// 2005), whose auxiliary clauses can always be satisfied, so that unless
// needs to guard only the clauses that forbid a count.
func (c *cnf) atMost(lits []int, k int, unless ...int) {
	if k > 0 && k < len(lits) && binomialAtMost(len(lits), k+1, naiveLimit) {
		c.atMostNaive(lits, k, unless)
		return
	}
	c.atMostSeq(lits, k, unless...)
}

// atMostNaive adds a clause per (k+1)-subset of lits, 0 ≤ k < len(lits).
func (c *cnf) atMostNaive(lits []int, k int, unless []int) {
	n := len(lits)
	idx := make([]int, k+1)
	for i := range idx {
		idx[i] = i
	}
	for {
		cl := make([]int, 0, k+1+len(unless))
		for _, i := range idx {
			cl = append(cl, -lits[i])
		}
		c.add(append(cl, unless...)...)
		// Next (k+1)-subset in lexicographic order.
		i := k
		for i >= 0 && idx[i] == n-(k+1)+i {
			i--
		}
		if i < 0 {
			return
		}
		idx[i]++
		for j := i + 1; j <= k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

// atMostSeq is atMost by the sequential counter, whatever the size.
func (c *cnf) atMostSeq(lits []int, k int, unless ...int) {
	n := len(lits)
	switch {
	case k >= n:
		return
	case k < 0:
		c.add(unless...)
		return
	case k == 0:
		for _, x := range lits {
			c.add(append([]int{-x}, unless...)...)
		}
		return
	}
	// s[i][j] (0-based j < k): at least j+1 of lits[0..i] are true.
	s := make([][]int, n-1)
	for i := range s {
		s[i] = make([]int, k)
		for j := range s[i] {
			s[i][j] = c.newVar()
		}
	}
	c.add(-lits[0], s[0][0])
	for j := 1; j < k; j++ {
		c.add(-s[0][j])
	}
	for i := 1; i < n-1; i++ {
		c.add(-lits[i], s[i][0])
		c.add(-s[i-1][0], s[i][0])
		for j := 1; j < k; j++ {
			c.add(-lits[i], -s[i-1][j-1], s[i][j])
			c.add(-s[i-1][j], s[i][j])
		}
		c.add(append([]int{-lits[i], -s[i-1][k-1]}, unless...)...)
	}
	c.add(append([]int{-lits[n-1], -s[n-2][k-1]}, unless...)...)
}

// atLeast adds "at least k of lits are true": at most len(lits)−k of them
// are false.
func (c *cnf) atLeast(lits []int, k int) {
	neg := make([]int, len(lits))
	for i, x := range lits {
		neg[i] = -x
	}
	c.atMost(neg, len(lits)-k)
}

// binomialAtMost reports whether C(n, r) ≤ limit.
func binomialAtMost(n, r, limit int) bool {
	r = min(r, n-r)
	b := 1
	for i := 1; i <= r; i++ {
		b = b * (n - r + i) / i
		if b > limit {
			return false
		}
	}
	return true
}

// totalizer returns the unary count of lits (Bailleux and Boufkhad, CP
// 2003): out[j] is true iff at least j+1 of lits are true, for j < len(out)
// = min(len(lits), limit), and out[limit−1] when more than limit are true.
// With both directions encoded, out can bound the count from above and
// below: "at most b" is ¬out[b], "at least b" is out[b−1].
func (c *cnf) totalizer(lits []int, limit int) []int {
	if len(lits) == 1 {
		return []int{lits[0]}
	}
	a := c.totalizer(lits[:len(lits)/2], limit)
	b := c.totalizer(lits[len(lits)/2:], limit)
	size := min(len(lits), limit)
	out := make([]int, size)
	for i := range out {
		out[i] = c.newVar()
	}
	// lit(xs, i) is "at least i of the half are true": true for i = 0.
	for i := 0; i <= len(a); i++ {
		for j := 0; j <= len(b); j++ {
			// Upward: at least i in a and j in b give at least i+j.
			if i+j >= 1 {
				cl := []int{out[min(i+j, size)-1]}
				if i > 0 {
					cl = append(cl, -a[i-1])
				}
				if j > 0 {
					cl = append(cl, -b[j-1])
				}
				c.add(cl...)
			}
			// Downward: at most i in a and j in b give at most i+j. A
			// truncated half (len < its inputs) never needs i ≥ len here,
			// since i+j+1 ≤ size ≤ limit = its len.
			if i+j+1 <= size {
				cl := []int{-out[i+j]}
				if i < len(a) {
					cl = append(cl, a[i])
				}
				if j < len(b) {
					cl = append(cl, b[j])
				}
				c.add(cl...)
			}
		}
	}
	return out
}
