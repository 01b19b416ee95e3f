package availability

import (
	"context"
	"math"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// Partial is what can be proved about a polynomial that no exact method
// reached: some coefficients exactly, and bounds on AV(p).
//
// Low-order coefficients: A_i = Σ_F (−1)^{|F|+1} C(n − |∪F|, i − |∪F|)
// over the non-empty sets F of minimal quorums, and only the F with
// |∪F| ≤ i count, so enumerating the F whose union has at most L nodes
// gives A_0..A_L exactly; L grows while that stays within a fixed amount of
// work. For a projective plane of order q, r lines cover at least
// r(q+1) − C(r,2) points, so few sets F are needed far beyond i = 2q.
//
// High-order coefficients: A_{n−j} = C(n, j) − T_j, where T_j is the number
// of j-sets that meet every quorum (transversals); T_j is counted exactly by
// a branch-and-bound search for as many j as a fixed amount of work allows.
//
// Every unknown A_i lies between the neighbouring known fractions
// A_j / C(n, j), which never decrease with j (each i-set containing a
// quorum has n−i supersets of size i+1, each counted at most i+1 times).
type Partial struct {
	N     int
	Known []bool
	// A holds the exact coefficients where Known; elsewhere 0.
	A []*big.Int
	// MinQuorum is the size of the smallest quorum; Intersecting reports
	// whether every two quorums meet.
	MinQuorum    int
	Intersecting bool

	// Sizes are the quorum sizes, for the union bound; nil when the
	// quorums were not listed and there are some (MinQuorum ≤ N), when
	// no union bound applies.
	Sizes []int
}

// partialWork caps the transversal search of [NewPartial], in words of
// quorums visited over all its rounds: a second or two.
const partialWork = 60_000_000

// NewPartial works out the provable coefficients of f (see [Partial]). A
// threshold family is worked out on its quorums, listed. For an implicit
// or threshold family with too many quorums to list it knows only that
// no set holds a quorum and the set of all nodes does (A_0 = 0, A_n = 1).
func NewPartial(ctx context.Context, f *set.Family) *Partial {
	g, err := explicitFamily(ctx, f)
	if err == nil && construct.ThresholdForm(g) != nil {
		g, err = g.EnumerateContext(ctx, construct.ListLimit)
	}
	if err == nil {
		f = g
	} else {
		n := f.N
		// The smallest quorum is the construction's (a lower bound
		// x^MinQuorum); the sizes are not listed (no union bound).
		minQ := n
		if s, _, ok := construct.Sizes(f); ok && s >= 1 {
			minQ = s
		} else if t := construct.ThresholdForm(f); t != nil {
			minQ = t.Threshold()
		}
		pp := &Partial{N: n, Known: make([]bool, n+1), A: make([]*big.Int, n+1), MinQuorum: minQ}
		for i := range pp.A {
			pp.A[i] = new(big.Int)
		}
		pp.Known[0], pp.Known[n] = true, true
		pp.A[n].SetInt64(1)
		return pp
	}
	n := f.N
	g = f.Clone()
	// Once ctx is done g stays as it is, and the searches below, which
	// watch ctx too, stop at once: the caller drops what they proved.
	_, _ = g.MinimalizeContext(ctx)
	pp := &Partial{N: n, Known: make([]bool, n+1), A: make([]*big.Int, n+1)}
	for i := range pp.A {
		pp.A[i] = new(big.Int)
	}
	m := len(g.Quorums)
	packed := set.Pack(n, g.Quorums)
	qs := make([]set.Words, m)
	W := set.WordsFor(n)
	pp.MinQuorum = n + 1
	for i := range g.Quorums {
		qs[i] = packed.Row(i)
		sz := g.Quorums[i].Len()
		pp.Sizes = append(pp.Sizes, sz)
		pp.MinQuorum = min(pp.MinQuorum, sz)
	}
	// Intersection, pair by pair.
	pp.Intersecting = m <= 5000 // beyond, not checked: no bound relies on it
	for i := 0; pp.Intersecting && i < m; i++ {
		for j := i + 1; j < m; j++ {
			if !qs[i].Intersects(qs[j]) {
				pp.Intersecting = false
				break
			}
		}
	}
	// Only the first entries of the binomial rows are needed (C(a, b) for
	// b up to the largest L reached, and C(n, j) for small j): whole rows
	// of n up to thousands would take gigabytes.
	var bc binomialCache
	binom := bc.get
	// Low-order: inclusion–exclusion over the sets F of minimal quorums
	// whose union has at most L nodes gives A_i exactly for i ≤ L:
	// A_i = Σ_F (−1)^{|F|+1} C(n − |∪F|, i − |∪F|). L grows while the
	// enumeration stays within the work cap.
	for L := pp.MinQuorum; L <= n; L++ {
		signed, ok := unionCounts(ctx, qs, W, L, partialWork/4)
		if !ok {
			break
		}
		for i := 0; i <= L; i++ {
			if pp.Known[i] {
				continue
			}
			pp.Known[i] = true
			for u, c := range signed[:i+1] {
				if c != 0 {
					pp.A[i].Add(pp.A[i], new(big.Int).Mul(big.NewInt(c), binom(n-u, i-u)))
				}
			}
		}
	}
	for i := 0; i < min(pp.MinQuorum, n+1); i++ {
		pp.Known[i] = true // no quorum fits
	}
	// High-order: transversal counts T_j for j = 0, 1, ... while the
	// search stays within the work cap.
	t := &transversalSearch{ctx: ctx, n: n, W: W, qs: qs, limit: partialWork, binom: &bc}
	for jmax := 0; jmax <= n; jmax++ {
		counts, ok := t.count(jmax)
		if !ok {
			break
		}
		for j := 0; j <= jmax; j++ {
			i := n - j
			if pp.Known[i] {
				continue
			}
			pp.Known[i] = true
			pp.A[i].Sub(binom(n, j), counts[j])
		}
	}
	return pp
}

// unionCounts returns signed[u] = Σ (−1)^{|F|+1} over the non-empty sets
// F of quorums with |∪F| = u ≤ L, by depth-first search on the quorum
// index (a union only grows), or false if that takes more than limit
// steps or ctx is done.
func unionCounts(ctx context.Context, qs []set.Words, W, L, limit int) ([]int64, bool) {
	signed := make([]int64, L+1)
	work := 0
	var rec func(start int, union set.Words, sign int64) bool
	rec = func(start int, union set.Words, sign int64) bool {
		next := make(set.Words, W)
		for j := start; j < len(qs); j++ {
			work += W
			if work > limit || work&0xfffff == 0 && ctx.Err() != nil {
				return false
			}
			next.Union(union, qs[j])
			c := next.Len()
			if c > L {
				continue
			}
			signed[c] += sign
			if !rec(j+1, next, -sign) {
				return false
			}
		}
		return true
	}
	if !rec(0, make(set.Words, W), 1) {
		return nil, false
	}
	return signed, true
}

// transversalSearch counts the sets of at most jmax nodes that meet every
// quorum, by size.
type transversalSearch struct {
	ctx   context.Context
	n, W  int
	qs    []set.Words
	work  int
	limit int
	deg   []int
	cnt   []int
	res   []*big.Int
	binom *binomialCache
}

// binomialCache holds the first entries C(a, 0..k) of the binomial rows
// asked for, extending a row when a larger k is needed.
type binomialCache struct {
	rows map[int][]*big.Int
}

// get returns C(a, b) (0 outside 0 ≤ b ≤ a).
func (c *binomialCache) get(a, b int) *big.Int {
	if b < 0 || b > a {
		return new(big.Int)
	}
	if c.rows == nil {
		c.rows = map[int][]*big.Int{}
	}
	row := c.rows[a]
	if len(row) == 0 {
		row = []*big.Int{big.NewInt(1)}
	}
	for i := len(row); i <= b; i++ {
		v := new(big.Int).Mul(row[i-1], big.NewInt(int64(a-i+1)))
		row = append(row, v.Quo(v, big.NewInt(int64(i))))
	}
	c.rows[a] = row
	return row[b]
}

func (t *transversalSearch) count(jmax int) ([]*big.Int, bool) {
	t.res = make([]*big.Int, jmax+1)
	for i := range t.res {
		t.res[i] = new(big.Int)
	}
	in := make(set.Words, t.W)
	out := make(set.Words, t.W)
	ok := t.rec(in, out, 0, 0, jmax)
	return t.res, ok
}

func (t *transversalSearch) rec(in, out set.Words, size, nout, jmax int) bool {
	t.work += len(t.qs) * t.W
	if t.work > t.limit {
		return false
	}
	if t.work&0xfff == 0 && t.ctx.Err() != nil {
		return false
	}
	// The unhit quorum with the fewest available nodes.
	best, bestAvail := -1, 1<<30
	unhit := 0
	for i, q := range t.qs {
		if q.Intersects(in) {
			continue
		}
		unhit++
		if avail := q.AndNotLen(out); avail < bestAvail {
			best, bestAvail = i, avail
		}
	}
	if best < 0 {
		free := t.n - size - nout
		for r := 0; size+r <= jmax && r <= free; r++ {
			t.res[size+r].Add(t.res[size+r], t.binom.get(free, r))
		}
		return true
	}
	if bestAvail == 0 || size == jmax {
		return true
	}
	// Each further node hits at most its number of unhit quorums: if the
	// jmax − size best nodes cannot hit them all, no transversal of size
	// ≤ jmax extends this branch.
	if left := jmax - size; left < unhit {
		t.work += len(t.qs) * t.W
		deg := t.deg[:0]
		if t.cnt == nil {
			t.cnt = make([]int, t.n)
		}
		cnt := t.cnt
		clear(cnt)
		for _, q := range t.qs {
			if q.Intersects(in) {
				continue
			}
			for v := q.Next(0); v >= 0; v = q.Next(v + 1) {
				if !out.Has(v) {
					cnt[v]++
				}
			}
		}
		for _, c := range cnt {
			if c > 0 {
				deg = append(deg, c)
			}
		}
		slices.SortFunc(deg, func(a, b int) int { return b - a })
		reach := 0
		for _, c := range deg[:min(left, len(deg))] {
			reach += c
		}
		t.deg = deg
		if reach < unhit {
			return true
		}
	}
	q := t.qs[best]
	var added []int
	defer func() {
		for _, v := range added {
			out.Remove(v)
		}
	}()
	// Branch on each node of q \ out: out grows inside the loop, but only
	// by nodes already passed.
	for v := q.Next(0); v >= 0; v = q.Next(v + 1) {
		if out.Has(v) {
			continue
		}
		in.Add(v)
		ok := t.rec(in, out, size+1, nout+len(added), jmax)
		in.Remove(v)
		if !ok {
			return false
		}
		out.Add(v)
		added = append(added, v)
	}
	return true
}

// KnownRange returns the exact coefficients as two runs: A_0..A_{lo−1}
// and A_{hi+1}..A_n are exact (lo = 0 or hi = n when a run is empty).
func (p *Partial) KnownRange() (lo, hi int) {
	for lo < len(p.Known) && p.Known[lo] {
		lo++
	}
	hi = p.N
	for hi >= 0 && p.Known[hi] {
		hi--
	}
	return lo, hi
}

// Bounds returns lower and upper bounds on AV(x): from the exact
// coefficients with the unknown fractions A_i/C(n,i) bounded by their known
// neighbours, the smallest-quorum bound x^{min|Q|} ≤ AV, the union bound
// AV ≤ Σ_Q x^{|Q|}, and, for an intersecting system, AV ≤ 1 − (1−x)^{min|Q|}
// (a dead smallest quorum meets and so kills every quorum).
func (p *Partial) Bounds(x float64) (lo, hi float64) {
	n := p.N
	row := binomialRow(n)
	fr := make([]float64, n+1)
	for i := range fr {
		if p.Known[i] {
			fr[i] = ratio(p.A[i], row[i])
		}
	}
	flo := make([]float64, n+1)
	fhi := make([]float64, n+1)
	cur := 0.0
	for i := 0; i <= n; i++ {
		if p.Known[i] {
			cur = fr[i]
		}
		flo[i] = cur
	}
	cur = 1
	for i := n; i >= 0; i-- {
		if p.Known[i] {
			cur = fr[i]
		}
		fhi[i] = cur
	}
	lo, hi = mixture(flo, x), mixture(fhi, x)
	if p.MinQuorum <= n {
		lo = math.Max(lo, math.Pow(x, float64(p.MinQuorum)))
		if p.Intersecting {
			hi = math.Min(hi, 1-math.Pow(1-x, float64(p.MinQuorum)))
		}
	}
	if p.Sizes != nil || p.MinQuorum > n {
		u := 0.0
		for _, s := range p.Sizes {
			u += math.Pow(x, float64(s))
		}
		hi = math.Min(hi, u)
	}
	return lo, math.Max(lo, hi)
}

func ratio(a, b *big.Int) float64 {
	if b.Sign() == 0 {
		return 0
	}
	f, _ := new(big.Rat).SetFrac(a, b).Float64()
	return f
}

// Equal reports whether p and q prove the same: the same known
// coefficients, smallest quorum, intersection and quorum sizes.
func (p *Partial) Equal(q *Partial) bool {
	if p.N != q.N || p.MinQuorum != q.MinQuorum || p.Intersecting != q.Intersecting ||
		!slices.Equal(p.Known, q.Known) || !slices.Equal(p.Sizes, q.Sizes) || len(p.A) != len(q.A) {
		return false
	}
	for i, a := range p.A {
		if p.Known[i] && a.Cmp(q.A[i]) != 0 {
			return false
		}
	}
	return true
}
