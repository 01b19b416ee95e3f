package construct

import (
	"context"
	"fmt"
	"iter"

	"github.com/coterie-dev/coterie/galois"
	"github.com/coterie-dev/coterie/set"
)

// MaxMaekawaNodes is the largest n [Maekawa] accepts: the number of points
// of PG(2, MaxPlaneOrder).
const MaxMaekawaNodes = MaxPlaneOrder*MaxPlaneOrder + MaxPlaneOrder + 1

// DegenerateMap chooses how Maekawa's Method 1 replaces each removed node
// by a kept one (Maekawa 1985, Section 7). Every choice is injective and
// applied to every set alike, so intersections survive.
type DegenerateMap int

const (
	// MapMin makes the sum of the quorum sizes, and so the messages per
	// entry 3·(mean |S_i| − 1), as small as Method 1 allows. A removed node
	// d replaced by k shortens exactly the kept quorums holding both d and
	// k, so the best map is a maximum-weight assignment of removed nodes to
	// kept ones, weighted by the number of kept quorums they share (for a
	// projective plane, 1 if the line through them is kept, else 0). For a
	// plane it reaches the bound N(K) − (N′ − N) whenever a perfect
	// assignment exists (tests check every N up to 400), and spreads the
	// savings over distinct lines when it can, so that sizes stay within
	// one of each other.
	MapMin DegenerateMap = iota
	// MapPaper is Maekawa's own choice: node x > N becomes x − (N′ − N)
	// (his N = 5 example replaces 7 and 6 by 5 and 4). On his Fig. 1 sets
	// it gives his Table II.
	MapPaper
)

// String returns "min" or "paper".
func (m DegenerateMap) String() string {
	switch m {
	case MapMin:
		return "min"
	case MapPaper:
		return "paper"
	}
	return fmt.Sprintf("DegenerateMap(%d)", int(m))
}

// ParseDegenerateMap returns the map called s: "min" or "paper".
func ParseDegenerateMap(s string) (DegenerateMap, error) {
	for _, m := range []DegenerateMap{MapMin, MapPaper} {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, errorf("", "unknown map %q: use min (smallest quorums) or paper (Maekawa's x ↦ x − (N′−N))", s)
}

// PlaneFor returns the order q of the projective plane Maekawa's
// construction starts from for n ≥ 3 nodes: the smallest q, 1 or a prime
// power, with q²+q+1 ≥ n.
func PlaneFor(n int) int {
	for q := 1; ; q++ {
		if _, _, ok := galois.PrimePower(q); (ok || q == 1) && q*q+q+1 >= n {
			return q
		}
	}
}

// maekawaPlan is Maekawa's system for n nodes, computed but not
// materialised: the plane, its owners, and the map of removed points.
type maekawaPlan struct {
	pl     *plane
	n      int
	how    DegenerateMap
	owners []int32 // line owned by each point of the plane
	phi    []int32 // phi[d-n]: the kept point replacing removed point d
}

func checkMaekawaN(n int) error {
	switch {
	case n < 3:
		return paramErrorf("maekawa", "n", n, "is too small: Maekawa's sets need at least 3 nodes")
	case n > MaxMaekawaNodes:
		return paramErrorf("maekawa", "n", n, "is too large: the largest plane coterie builds, of order %d, has %d points",
			MaxPlaneOrder, MaxMaekawaNodes)
	}
	return nil
}

func newMaekawaPlan(n int, how DegenerateMap) (*maekawaPlan, error) {
	if err := checkMaekawaN(n); err != nil {
		return nil, err
	}
	if how != MapMin && how != MapPaper {
		return nil, errorf("maekawa", "unknown map %v", how)
	}
	pl, err := newPlane(PlaneFor(n))
	if err != nil {
		return nil, err
	}
	mp := &maekawaPlan{pl: pl, n: n, how: how, owners: pl.owners()}
	removed := pl.n - n
	mp.phi = make([]int32, removed)
	switch how {
	case MapPaper:
		for i := range mp.phi {
			mp.phi[i] = int32(n + i - removed)
		}
	case MapMin:
		mp.minMap()
	}
	return mp, nil
}

// minMap fills phi so that as many removed points as possible share a kept
// line with their replacement, spreading those savings evenly. For c = 1,
// 2, ... it gives each removed point d a kept line ℓ_d through it, no line
// chosen more than c times (a b-matching: Hopcroft–Karp on c copies of
// each line), then a distinct kept point of ℓ_d (a second matching); the
// first c for which both succeed makes every removed point save one, and
// no line lose more than c points. If none does, it matches removed points
// directly to kept points on any kept line through them, which is optimal
// for the total since every weight is 0 or 1. Points a matching leaves out
// take the smallest unused kept points.
func (mp *maekawaPlan) minMap() {
	pl, n := mp.pl, mp.n
	removed := len(mp.phi)
	if removed == 0 {
		return
	}
	lineOwner := make([]int32, pl.n)
	for p, l := range mp.owners {
		lineOwner[l] = int32(p)
	}
	var m *matching
	for c := 1; c <= pl.q+1 && m == nil; c++ {
		m1 := maxMatching(removedToLines{pl, n, lineOwner, c})
		if m1.size < removed {
			continue
		}
		line := make([]int32, removed)
		for i, v := range m1.l {
			line[i] = v / int32(c)
		}
		if m2 := maxMatching(removedToPoints{pl, n, line}); m2.size == removed {
			m = m2
		}
	}
	if m == nil {
		m = maxMatching(removedToKept{pl, n, lineOwner})
	}
	used := make([]bool, n)
	for i, k := range m.l {
		if k != unmatched {
			mp.phi[i] = k
			used[k] = true
		}
	}
	next := 0
	for i, k := range m.l {
		if k == unmatched {
			for used[next] {
				next++
			}
			mp.phi[i] = int32(next)
			used[next] = true
		}
	}
}

// removedToLines joins removed point n+i to c copies of each kept line
// through it: copy j of line l is right vertex l·c + j.
type removedToLines struct {
	pl        *plane
	n         int
	lineOwner []int32
	c         int
}

func (g removedToLines) left() int      { return g.pl.n - g.n }
func (g removedToLines) right() int     { return g.pl.n * g.c }
func (g removedToLines) degree(int) int { return (g.pl.q + 1) * g.c }
func (g removedToLines) neighbor(i, k int) int {
	l := g.pl.pointLine(g.n+i, k/g.c)
	if int(g.lineOwner[l]) >= g.n {
		return -1
	}
	return l*g.c + k%g.c
}

// removedToPoints joins removed point n+i to the kept points of its line.
type removedToPoints struct {
	pl   *plane
	n    int
	line []int32
}

func (g removedToPoints) left() int      { return g.pl.n - g.n }
func (g removedToPoints) right() int     { return g.n }
func (g removedToPoints) degree(int) int { return g.pl.q + 1 }
func (g removedToPoints) neighbor(i, k int) int {
	if p := g.pl.linePoint(int(g.line[i]), k); p < g.n {
		return p
	}
	return -1
}

// removedToKept joins removed point n+i to every kept point on a kept line
// through it.
type removedToKept struct {
	pl        *plane
	n         int
	lineOwner []int32
}

func (g removedToKept) left() int      { return g.pl.n - g.n }
func (g removedToKept) right() int     { return g.n }
func (g removedToKept) degree(int) int { return (g.pl.q + 1) * (g.pl.q + 1) }
func (g removedToKept) neighbor(i, k int) int {
	l := g.pl.pointLine(g.n+i, k/(g.pl.q+1))
	if int(g.lineOwner[l]) >= g.n {
		return -1
	}
	if p := g.pl.linePoint(l, k%(g.pl.q+1)); p < g.n {
		return p
	}
	return -1
}

// header returns the family's metadata.
func (mp *maekawaPlan) header() *set.Family {
	f := set.NewFamily(mp.n)
	f.Owners = []int{} // every quorum is owned (a streaming CSV writer needs to know)
	f.Kind = "maekawa"
	f.Params = set.Params{"n": mp.n, "order": mp.pl.q}
	if mp.n < mp.pl.n {
		f.Params["map"] = mp.how.String()
	}
	return f
}

// quorum adds S_i, the image of the line node i owns, to s and returns the
// points it added to s, in buf.
func (mp *maekawaPlan) quorum(i int, s *set.Set, buf []int) []int {
	l := int(mp.owners[i])
	buf = buf[:0]
	for k := range mp.pl.q + 1 {
		p := mp.pl.linePoint(l, k)
		if p >= mp.n {
			p = int(mp.phi[p-mp.n])
		}
		if !s.Has(p) {
			s.Add(p)
			buf = append(buf, p)
		}
	}
	return buf
}

// Maekawa returns Maekawa's sets S_1..S_N for n ≥ 3 nodes (Maekawa, ACM
// TOCS 3(2), 1985, Sections 3 and 7): the lines of the projective plane
// PG(2,q) (see [ProjectivePlane]) when n = q²+q+1 for q = 1 or a prime
// power, and otherwise his Method 1: start from the smallest plane with
// N′ > n points, replace each point above n by a distinct point ≤ n, the
// same way in every line (so any two sets still meet), and drop the lines
// owned by points above n. Node i owns S_i, which contains i, and quorum i
// is S_i. how chooses the replacement: [MapMin] (the default of the
// "maekawa" spec) or Maekawa's own [MapPaper].
//
// For instance n = 43 = 7·6+1 has no plane of order 6, so its sets come
// from PG(2,7) with 57 points.
//
// The family's Params are n, the plane's order, and the map when one is
// used. The explicit family takes about n²/8 bytes; larger systems are
// streamed by the "maekawa" spec.
func Maekawa(n int, how DegenerateMap) (*set.Family, error) {
	return maekawa(context.Background(), n, how)
}

// maekawa is [Maekawa] watching ctx.
func maekawa(ctx context.Context, n int, how DegenerateMap) (*set.Family, error) {
	if err := checkMaekawaN(n); err != nil {
		return nil, err
	}
	if err := checkExplicit(fmt.Sprintf("maekawa: n = %d", n), n, n); err != nil {
		return nil, err
	}
	mp, err := newMaekawaPlan(n, how)
	if err != nil {
		return nil, err
	}
	f := mp.header()
	f.Quorums = make([]set.Set, n)
	f.Owners = make([]int, n)
	var buf []int
	stop := poll{ctx: ctx}
	for i := range n {
		if err := stop.stop(); err != nil {
			return nil, err
		}
		f.Quorums[i].Grow(n)
		buf = mp.quorum(i, &f.Quorums[i], buf)
		f.Owners[i] = i
	}
	f.Canonical()
	return f, nil
}

// streamMaekawa returns the metadata of Maekawa's sets for n nodes and the
// sets one at a time.
func streamMaekawa(n int, how DegenerateMap) (*set.Family, iter.Seq2[*set.Set, int], error) {
	mp, err := newMaekawaPlan(n, how)
	if err != nil {
		return nil, nil, err
	}
	seq := func(yield func(*set.Set, int) bool) {
		s := set.New(n)
		var buf []int
		for i := range n {
			buf = mp.quorum(i, s, buf)
			if !yield(s, i) {
				return
			}
			for _, p := range buf {
				s.Remove(p)
			}
		}
	}
	return mp.header(), seq, nil
}

func maekawaArgs(a Args) (int, DegenerateMap, error) {
	how, err := ParseDegenerateMap(a.String("map"))
	if err != nil {
		return 0, 0, err
	}
	return a.Int("n"), how, nil
}

var maekawaSpec = Spec{
	Name:    "maekawa",
	Summary: "Maekawa's sets: a projective plane, or his Method 1 degenerated sets for other n",
	Source:  "Maekawa 1985, Sections 3 and 7",
	Params: []Param{
		{Name: "n", Usage: "number of nodes (at most the points of PG(2,1024))", Type: Int, Required: true, Min: 3, Max: MaxMaekawaNodes},
		{Name: "map", Usage: "how removed points are replaced: min (smallest quorums) or paper (x ↦ x − (N′−N))",
			Type: String, Default: "min"},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		n, how, err := maekawaArgs(a)
		if err != nil {
			return set.System{}, err
		}
		f, err := maekawa(ctx, n, how)
		return set.System{Family: f}, err
	},
	Stream: func(a Args) (*set.Family, iter.Seq2[*set.Set, int], error) {
		n, how, err := maekawaArgs(a)
		if err != nil {
			return nil, nil, err
		}
		return streamMaekawa(n, how)
	},
}

// Degenerate applies Maekawa's Method 1 to a user's system f: it keeps
// nodes 1..n, replaces each node above n by a distinct node ≤ n in every
// quorum (how chooses the replacement, see [DegenerateMap]), and drops the
// quorums owned by nodes above n (Maekawa 1985, Section 7). Any two
// quorums, or any k+1 of a k-arbiter, that met still meet. Unowned
// quorums are kept. If f has no owners, they are first assigned by
// [AssignOwners].
//
// f must be explicit and n must satisfy f.N/2 ≤ n ≤ f.N, so that the
// replacement can be injective as Maekawa requires. f is not modified.
//
// Cost: [MapMin] solves an assignment problem by the Hungarian method,
// O(r²·n) for r = f.N − n removed nodes, and refuses problems above about
// 10^10 steps; [MapPaper] is linear. ctx cancels the assignment.
func Degenerate(ctx context.Context, f *set.Family, n int, how DegenerateMap) (*set.Family, error) {
	if f.IsThreshold() {
		return nil, errorf("degenerate", "a threshold family (all %d-subsets) has no explicit quorums to map; enumerate it first", f.Threshold)
	}
	if n < 1 || n > f.N {
		return nil, paramErrorf("degenerate", "n", n, "is out of range 1..%d", f.N)
	}
	removed := f.N - n
	if removed > n {
		return nil, paramErrorf("degenerate", "n", n, "keeps fewer nodes than it removes (%d): Method 1 replaces each removed node by a distinct kept one, so n must be at least %d",
			removed, (f.N+1)/2)
	}
	if how != MapMin && how != MapPaper {
		return nil, errorf("degenerate", "unknown map %v", how)
	}
	g := f.Clone()
	if g.Owners == nil {
		if err := assignOwners(g); err != nil {
			return nil, errorf("degenerate", "owners: %w", err)
		}
	}
	var kept []int
	for i := range g.Quorums {
		if o := g.Owner(i); o == set.NoOwner || o < n {
			kept = append(kept, i)
		}
	}
	phi := make([]int, removed)
	switch how {
	case MapPaper:
		for i := range phi {
			phi[i] = n + i - removed
		}
	case MapMin:
		if removed > 0 {
			w, err := sharedQuorums(g, kept, n)
			if err != nil {
				return nil, err
			}
			if phi, err = maxWeightAssignment(ctx, w, removed, n); err != nil {
				return nil, err
			}
		}
	}
	out := set.NewFamily(n)
	out.K = g.K
	out.Kind = "degenerate"
	out.Params = set.Params{"n": n, "map": how.String(), "source_n": f.N}
	if f.Kind != "" {
		out.Params["source_kind"] = f.Kind
	}
	if g.Labels != nil {
		out.Labels = append([]string(nil), g.Labels[:n]...)
	}
	for _, i := range kept {
		s := set.New(n)
		for v := range g.Quorums[i].All() {
			if v >= n {
				v = phi[v-n]
			}
			s.Add(v)
		}
		out.Add(s, g.Owner(i))
	}
	out.Canonical()
	return out, nil
}

// maxAssignmentWork bounds the Hungarian method's r²·c steps, and
// maxAssignmentCells its r×c weight matrix (256 MiB of int32).
const (
	maxAssignmentWork  = 1e10
	maxAssignmentCells = 1 << 26
)

// sharedQuorums returns w[d*n+k], the number of kept quorums holding both
// removed node n+d and kept node k: how much replacing n+d by k saves.
func sharedQuorums(f *set.Family, kept []int, n int) ([]int32, error) {
	r := f.N - n
	if float64(r)*float64(r)*float64(n) > maxAssignmentWork || r*n > maxAssignmentCells {
		return nil, errorf("degenerate", "%d removed × %d kept nodes is too large for the optimal map (Hungarian method, about %.0e steps); use the paper's map",
			r, n, float64(r)*float64(r)*float64(n))
	}
	w := make([]int32, r*n)
	var lo, hi []int
	for _, i := range kept {
		lo, hi = lo[:0], hi[:0]
		for v := range f.Quorums[i].All() {
			if v < n {
				lo = append(lo, v)
			} else {
				hi = append(hi, v-n)
			}
		}
		for _, d := range hi {
			for _, k := range lo {
				w[d*n+k]++
			}
		}
	}
	return w, nil
}

// maxWeightAssignment returns an injective map of rows 0..r-1 to columns
// 0..c-1 (r ≤ c) maximising the total weight w[i*c+j], by the Hungarian
// method with potentials (Kuhn 1955, Munkres 1957; the O(r²c) form of
// Jonker–Volgenant's shortest augmenting paths). Ties go to the first
// optimum the search meets, so the result is deterministic.
func maxWeightAssignment(ctx context.Context, w []int32, r, c int) ([]int, error) {
	const big = int64(1) << 60
	// Minimise -w. Rows and columns are 1-based below; column 0 is the
	// virtual start of each augmenting path.
	u := make([]int64, r+1)
	v := make([]int64, c+1)
	p := make([]int, c+1) // p[j]: row assigned to column j, 0 if none
	way := make([]int, c+1)
	minv := make([]int64, c+1)
	used := make([]bool, c+1)
	for i := 1; i <= r; i++ {
		if err := ctx.Err(); err != nil {
			return nil, errorf("degenerate", "%w", err)
		}
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = big, false
		}
		for p[j0] != 0 {
			used[j0] = true
			i0, delta, j1 := p[j0], big, 0
			row := w[(i0-1)*c : i0*c]
			for j := 1; j <= c; j++ {
				if used[j] {
					continue
				}
				if cur := -int64(row[j-1]) - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= c; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	assign := make([]int, r)
	for j := 1; j <= c; j++ {
		if p[j] != 0 {
			assign[p[j]-1] = j - 1
		}
	}
	return assign, nil
}
