package availability

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/coterie-dev/coterie/galois"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// planeOrder reports whether the minimal quorums of f are exactly the lines
// of a projective plane of an order q in [PlaneOrders], and returns q:
// n = q²+q+1 nodes,
// n distinct quorums of q+1 nodes, any two meeting in exactly one node and
// any two nodes on exactly one quorum. It checks the incidence structure
// itself, so the numbering of the nodes does not matter.
func planeOrder(f *set.Family) (int, bool) {
	n := f.N
	q := 1
	for q*q+q+1 < n {
		q++
	}
	if q < 2 || q*q+q+1 != n || len(f.Quorums) < n || len(f.Quorums) > 4*n || !slices.Contains(PlaneOrders(), q) {
		return 0, false
	}
	g := f.Clone()
	g.Minimalize()
	g.Canonical()
	if len(g.Quorums) != n {
		return 0, false
	}
	for i := range g.Quorums {
		if g.Quorums[i].Len() != q+1 {
			return 0, false
		}
		for j := i + 1; j < n; j++ {
			if set.IntersectionLen(&g.Quorums[i], &g.Quorums[j]) != 1 {
				return 0, false
			}
		}
	}
	// Two distinct lines share one point; with n lines of q+1 points over
	// n points that makes every pair of points collinear exactly once, but
	// check it rather than rely on the counting argument.
	pair := make([]uint8, n*n)
	for i := range g.Quorums {
		e := g.Quorums[i].Elements()
		for a := range e {
			for b := a + 1; b < len(e); b++ {
				pair[e[a]*n+e[b]]++
			}
		}
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			if pair[a*n+b] != 1 {
				return 0, false
			}
		}
	}
	return q, true
}

// PlaneOrders returns the orders q for which [PlanePolynomial] counts: the
// prime powers q ≤ 8, for which every projective plane of order q is the
// Desarguesian PG(2,q), so that the count made on PG(2,q) holds for any
// plane of that order, whatever its numbering. (Order 9 has four planes,
// and a state of the sweep, q² affine lines, no longer fits a 64-bit word.)
func PlaneOrders() []int { return []int{2, 3, 4, 5, 7, 8} }

// PlanePolynomial returns the availability polynomial of the lines of
// PG(2,q), q in [PlaneOrders]: A_i is the number of i-point sets that
// contain a line. It counts the complementary line-free sets F(t) =
// Σ_{S contains no line} t^{|S|} by conditioning on the set D of live
// points of a line ℓ∞ (the directions) and sweeping the affine plane
// AG(2,q), coordinates in GF(q) (see [galois.Field]), row by row:
//
//   - Each D ⊊ ℓ∞ misses some point of ℓ∞; the collineations fixing ℓ∞ act
//     on it as PGL(2,q), which is transitive, so Σ_{|D|=k} G(D) = (q+1)/(q+1−k)
//     · Σ_{|D|=k, ∞∉D} G(D), where G(D) counts the affine sets with no full
//     line in a direction of D. Taking the rows y = c through the missed
//     point ∞, no row can complete a line.
//   - The other affine lines are x = a + m·y (direction m, intercept a),
//     q² of them, one bit each. After some rows the state is the set of
//     lines whose points so far are all live and whose direction is live;
//     a row with live positions R keeps line (m, a) iff a + m·y ∈ R.
//   - The maps (x, y) ↦ (λx + c·y + s, y) fix every row and send line
//     (m, a) to (λm + c, λa + s); states are merged up to these q²(q−1)
//     maps (the largest image as a 64-bit word is the canonical form).
//   - The maps (x, y) ↦ (σx, μ·σy + d), σ a field automorphism, that send
//     the rows swept so far onto themselves permute the remaining rows, so
//     the states they relate are finished in as many ways: those are
//     merged too (over GF(8), after four rows, 12 such maps).
//   - Only the positions of a row that lie on a surviving line matter; the
//     others contribute a factor (1+t) each, so a sparse state meets few
//     patterns.
//   - The last three rows are summed without storing states: a line alive
//     before the last row dies iff its last point is down, so the last row
//     contributes (1+t)^{q−k} for k distinct last points, and the two-row
//     sums are cached.
//
// Counts are scaled by lcm(1..q+1) to keep the weights (q+1)/(q+1−k)
// integral, and divided back exactly at the end (a remainder would be an
// internal error). For q = 7 (n = 57) the sweep stores about 210,000
// states after four rows and takes about 7 s of CPU and 170 MB. For q = 8
// (n = 73) it meets about 100,000 states after three rows, 760,000 after
// four and millions after five, gigabytes that a memory budget makes in
// parts (see [planeSweep.descend]): tens of minutes of CPU at least.
// Progress goes to progress.
func PlanePolynomial(ctx context.Context, q int, progress Progress) (*Polynomial, error) {
	if err := checkPlaneOrder(q); err != nil {
		return nil, err
	}
	return planePolynomial(ctx, q, progress, 0)
}

// checkPlaneOrder refuses an order the sweep does not count.
func checkPlaneOrder(q int) error {
	if !slices.Contains(PlaneOrders(), q) {
		return fmt.Errorf("availability: projective plane: order %d is not one of %v", q, PlaneOrders())
	}
	return nil
}

// planeStateBytes is the memory a stored state takes beyond its
// polynomial: its key, and its entry in a worker's index.
const planeStateBytes = 8 + 48

// planePolynomial is PlanePolynomial with a bound on the bytes of the
// states (0 = none), past which it stops with an error wrapping
// [set.ErrMemoryBudget].
func planePolynomial(ctx context.Context, q int, progress Progress, maxBytes int64) (*Polynomial, error) {
	if err := checkPlaneOrder(q); err != nil {
		return nil, err
	}
	s := newPlaneSweep(q)
	s.maxBytes = maxBytes
	fr, err := s.run(ctx, progress)
	if err != nil {
		return nil, err
	}
	return s.polynomial(fr)
}

// PlanePieces computes the pieces which of the of pieces (a power of two
// from 1 to 1024) that the count of [PlanePolynomial] splits into, for a
// shard or a checkpoint. The states before the last stored row are
// shared out by a hash: piece j sweeps the rest of the plane from its
// share alone. The sums are linear in the states, so the pieces' counts
// add up to the whole count, which [PlaneFromPieces] turns into the
// polynomial. Every piece sweeps the rows before the split again, a small
// part of the work for q ≥ 7, and the states two pieces both reach after
// the split are swept by both. Orders below 4 have no stored row to
// split: piece 0 holds their whole count, the others nothing. Each
// piece's count is a vector of q²+q+2 integers, scaled as the sweep keeps
// them (so a piece alone means nothing). maxBytes bounds the states' bytes
// as for the whole count (0 = none).
func PlanePieces(ctx context.Context, q, of int, which []int, progress Progress, maxBytes int64) ([][]*big.Int, error) {
	return planePieces(ctx, q, of, which, progress, maxBytes, nil)
}

// planePieces is [PlanePieces] calling done(i, count) as soon as the
// count of piece which[i] is final (for a checkpoint): each piece in turn, or all
// at the end when the memory budget cut a row before the split into
// parts (each part then adds to every piece). An error of done stops the
// sweep and is returned.
func planePieces(ctx context.Context, q, of int, which []int, progress Progress, maxBytes int64, done func(i int, count []*big.Int) error) ([][]*big.Int, error) {
	if err := checkPlaneOrder(q); err != nil {
		return nil, err
	}
	if of < 1 || of > maxPlaneParts || of&(of-1) != 0 {
		return nil, fmt.Errorf("availability: projective plane: %d pieces: want a power of two from 1 to %d", of, maxPlaneParts)
	}
	s := newPlaneSweep(q)
	s.maxBytes = maxBytes
	out := make([][]*big.Int, len(which))
	for i, j := range which {
		if j < 0 || j >= of {
			return nil, fmt.Errorf("availability: projective plane: piece %d of %d", j, of)
		}
		out[i] = make([]*big.Int, s.n+1)
		for e := range out[i] {
			out[i][e] = new(big.Int)
		}
		s.pieces = append(s.pieces, planePart{uint64(j), uint64(of)})
	}
	s.pieceCounts = out
	if len(which) == 0 {
		return out, nil
	}
	if q-tailRows(q)-1 < 0 {
		// No row to split at: piece 0 is the whole.
		i := slices.Index(which, 0)
		if i < 0 {
			return out, nil
		}
		s.pieces = nil
		fr, err := s.counts(ctx, progress)
		if err != nil {
			return nil, err
		}
		out[i] = fr
		if done != nil {
			if err := done(i, fr); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if done != nil {
		s.pieceDone = func(i int) error { return done(i, out[i]) }
	}
	if _, err := s.counts(ctx, progress); err != nil {
		return nil, err
	}
	if s.parted && done != nil {
		for i := range which {
			if err := done(i, out[i]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// PlaneFromPieces returns the availability polynomial of PG(2,q) from
// the sum of the counts of all the pieces of [PlanePieces] (for any
// number of pieces). It fails on a sum that no such pieces give.
func PlaneFromPieces(q int, sum []*big.Int) (*Polynomial, error) {
	if err := checkPlaneOrder(q); err != nil {
		return nil, err
	}
	s := &planeSweep{q: q, n: q*q + q + 1}
	if len(sum) != s.n+1 {
		return nil, fmt.Errorf("availability: projective plane: %d counts for order %d: want %d", len(sum), q, s.n+1)
	}
	fr, err := s.unscale(sum)
	if err != nil {
		return nil, fmt.Errorf("availability: projective plane: not the counts of PG(2,%d)'s pieces: %w", q, err)
	}
	return s.polynomial(fr)
}

// polynomial returns the availability polynomial from the line-free
// counts fr: A_i = C(n, i) − fr[i].
func (s *planeSweep) polynomial(fr []*big.Int) (*Polynomial, error) {
	row := binomialRow(s.n)
	p := NewPolynomial(s.n)
	for i := range p.A {
		p.A[i].Sub(row[i], fr[i])
		if p.A[i].Sign() < 0 {
			return nil, errors.New("availability: projective plane: a line-free count exceeds the binomial: not the counts of this plane")
		}
	}
	return p, nil
}

// planeSweep holds the tables of the row sweep over AG(2,q).
type planeSweep struct {
	q, n int
	// alive[y][R]: the lines whose point on row y is in the pattern R.
	alive [][]uint64
	// perm[λ−1][s][v]: the q-bit field v (a set of intercepts) under
	// a ↦ λa + s.
	perm [][][]uint64
	// src[λ−1][c][j]: the direction m that λm + c sends to j.
	src [][][8]int
	// rot[r][v]: the q-bit field v rotated by r (a ↦ a + r mod q).
	rot [][]int
	// rowPos[y][b]: the position of line b on row y.
	rowPos [][]int
	// binom[f][e] = C(f, e) for f ≤ q; binomWide for f ≤ q·tailRows.
	binom, binomWide [][]uint64
	// add[a][b] = a + b, sub[a][b] = a − b and mul[a][b] = a·b in GF(q),
	// elements 0..q−1 as numbered by [galois.Field].
	add, sub, mul [][]int
	// rowSym[k]: the line maps, other than the identity, of the
	// collineations (x, y) ↦ (σx, μ·σy + d) (σ a field automorphism) that
	// map the rows 0..k−1 onto themselves, as images of the line bits.
	rowSym [][][]uint8
	// maxBytes bounds the bytes of the states of a step (0 = none).
	maxBytes int64
	// pieces, when not nil, are the pieces a split run sweeps the last
	// stored row for, each adding into its own pieceCounts.
	pieces      []planePart
	pieceCounts [][]*big.Int
	// pieceDone, if not nil, hears that piece i's count is final; parted
	// records that a row before the split was made in parts, so that no
	// piece is final before the end.
	pieceDone func(i int) error
	parted    bool
}

// newPlaneSweep returns the tables for order q, a prime power ≤ 8.
func newPlaneSweep(q int) *planeSweep {
	s := &planeSweep{q: q, n: q*q + q + 1}
	f := galois.MustNew(q)
	s.add, s.sub, s.mul = make([][]int, q), make([][]int, q), make([][]int, q)
	for a := range q {
		s.add[a], s.sub[a], s.mul[a] = make([]int, q), make([]int, q), make([]int, q)
		for b := range q {
			s.add[a][b], s.sub[a][b], s.mul[a][b] = f.Add(a, b), f.Sub(a, b), f.Mul(a, b)
		}
	}
	s.alive = make([][]uint64, q)
	for y := range q {
		s.alive[y] = make([]uint64, 1<<q)
		for r := range 1 << q {
			var m uint64
			for dir := range q {
				for a := range q {
					if r>>s.add[a][s.mul[dir][y]]&1 == 1 {
						m |= 1 << (dir*q + a)
					}
				}
			}
			s.alive[y][r] = m
		}
	}
	s.rowPos = make([][]int, q)
	for y := range q {
		s.rowPos[y] = make([]int, q*q)
		for b := range q * q {
			s.rowPos[y][b] = s.add[b%q][s.mul[b/q][y]]
		}
	}
	s.rot = make([][]int, q)
	for r := range q {
		s.rot[r] = make([]int, 1<<q)
		for v := range 1 << q {
			for a := range q {
				if v>>a&1 == 1 {
					s.rot[r][v] |= 1 << s.add[a][r]
				}
			}
		}
	}
	s.binomWide = make([][]uint64, q*tailRows(q)+1)
	for f := range s.binomWide {
		for _, c := range binomialRow(f) {
			s.binomWide[f] = append(s.binomWide[f], c.Uint64())
		}
	}
	s.binom = s.binomWide[:q+1]
	s.src = make([][][8]int, q-1)
	for l := 1; l < q; l++ {
		s.src[l-1] = make([][8]int, q)
		for c := range q {
			for m := range q {
				s.src[l-1][c][s.add[s.mul[l][m]][c]] = m
			}
		}
	}
	s.rowSym = rowSymmetries(f, s.add, s.mul)
	s.perm = make([][][]uint64, q-1)
	for l := 1; l < q; l++ {
		s.perm[l-1] = make([][]uint64, q)
		for sh := range q {
			t := make([]uint64, 1<<q)
			for v := range 1 << q {
				var w uint64
				for a := range q {
					if v>>a&1 == 1 {
						w |= 1 << s.add[s.mul[l][a]][sh]
					}
				}
				t[v] = w
			}
			s.perm[l-1][sh] = t
		}
	}
	return s
}

// rowSymmetries returns, for each k ≤ q, the maps of the affine lines
// x = a + m·y induced by the collineations (x, y) ↦ (σx, μ·σy + d), σ an
// automorphism of the field f, μ ≠ 0, that map the rows {0, …, k−1} onto
// themselves (the identity left out). Such a map sends the line (m, a) to
// (σm/μ, σa − σm·d/μ). Two states after the rows 0..k−1 that one of
// them relates are finished in the same number of ways, since it permutes
// the remaining rows too.
func rowSymmetries(f *galois.Field, add, mul [][]int) [][][]uint8 {
	q, p := f.Order(), f.Char()
	out := make([][][]uint8, q+1)
	frob := make([]int, q) // x ↦ x^p
	for x := range q {
		frob[x] = f.Pow(x, p)
	}
	for k := 1; k <= q; k++ {
		sigma := make([]int, q) // σ = identity, then powers of frob
		for x := range q {
			sigma[x] = x
		}
		for range f.Degree() {
			for mu := 1; mu < q; mu++ {
				for d := range q {
					if mu == 1 && d == 0 && sigma[f.Primitive()] == f.Primitive() {
						continue // the identity
					}
					ok := true
					for y := 0; y < k && ok; y++ {
						ok = add[mul[mu][sigma[y]]][d] < k
					}
					if !ok {
						continue
					}
					g := make([]uint8, q*q)
					inv := f.Inv(mu)
					for m := range q {
						for a := range q {
							m2 := mul[sigma[m]][inv]
							g[m*q+a] = uint8(m2*q + f.Sub(sigma[a], mul[m2][d]))
						}
					}
					out[k] = append(out[k], g)
				}
			}
			for x := range q {
				sigma[x] = frob[sigma[x]]
			}
		}
	}
	return out
}

// canonRows returns the canonical form of a state after the rows 0..k−1
// up to the maps of [planeSweep.canon] and those of rowSym[k]: the largest
// of the canonical forms of its images.
func (s *planeSweep) canonRows(x uint64, k int) uint64 {
	best := s.canon(x)
	for _, g := range s.rowSym[k] {
		var img uint64
		for z := x; z != 0; z &= z - 1 {
			img |= 1 << g[bits.TrailingZeros64(z)]
		}
		best = max(best, s.canon(img))
	}
	return best
}

// points returns the positions of row y that lie on a line of x: line
// (m, a) meets row y at a + m·y.
func (s *planeSweep) points(x uint64, y int) int {
	q := s.q
	fmask := uint64(1)<<q - 1
	p := 0
	for m := 0; x != 0; m++ {
		if f := x & fmask; f != 0 {
			p |= s.rot[s.mul[m][y]][f]
		}
		x >>= q
	}
	return p
}

// canon returns the canonical form of a state: the largest image under
// the maps (m, a) ↦ (λm + c, λa + s), as a 64-bit word whose field m
// (bits m·q ... m·q+q−1) is the set of intercepts of direction m.
func (s *planeSweep) canon(x uint64) uint64 {
	if x == 0 {
		return 0
	}
	q := s.q
	if bits.OnesCount64(x) <= 6 {
		// The image's top line must be (q−1, q−1): only the maps sending
		// a line of x there can win.
		best := uint64(0)
		for y := x; y != 0; y &= y - 1 {
			b := bits.TrailingZeros64(y)
			m0, a0 := b/q, b%q
			for l := 1; l < q; l++ {
				c := s.sub[q-1][s.mul[l][m0]]
				sh := s.sub[q-1][s.mul[l][a0]]
				var img uint64
				for z := x; z != 0; z &= z - 1 {
					e := bits.TrailingZeros64(z)
					m, a := e/q, e%q
					img |= 1 << (s.add[s.mul[l][m]][c]*q + s.add[s.mul[l][a]][sh])
				}
				best = max(best, img)
			}
		}
		return best
	}
	fmask := uint64(1)<<q - 1
	var fields, g, best [8]uint64
	for m := range q {
		fields[m] = x >> (m * q) & fmask
	}
	have := false
	// Compare images field by field from the top: most maps lose on the
	// first field, after one table lookup.
	for l := 1; l < q; l++ {
		for sh := range q {
			t := s.perm[l-1][sh]
			for m := range q {
				g[m] = t[fields[m]]
			}
			src := s.src[l-1]
			for c := range q {
				from := src[c]
				j := q - 1
				if have {
					for ; j >= 0; j-- {
						v := g[from[j]]
						if v != best[j] {
							break
						}
					}
					if j < 0 || g[from[j]] < best[j] {
						continue
					}
				}
				for j := range q {
					best[j] = g[from[j]]
				}
				have = true
			}
		}
	}
	var w uint64
	for j := range q {
		w |= best[j] << (j * q)
	}
	return w
}

// planeStates is one layer of the sweep: canonical states and their
// polynomials (scaled counts by number of live points), deg+1 words each,
// kept in blocks of blockStates so that growing never copies them.
type planeStates struct {
	keys   []uint64
	blocks [][]uint64
	deg    int
}

const blockStates = 1 << 12

// poly returns the polynomial of state i.
func (l *planeStates) poly(i int) []uint64 {
	w := l.deg + 1
	b := l.blocks[i/blockStates]
	j := i % blockStates
	return b[j*w : (j+1)*w]
}

// share returns the states of l that part pt keeps, with their
// polynomials.
func (l *planeStates) share(pt planePart) *planeStates {
	out := &planeStates{deg: l.deg}
	for i, t := range l.keys {
		if pt.keeps(t) {
			copy(out.poly(out.add(t)), l.poly(i))
		}
	}
	return out
}

// add appends state t with a zero polynomial and returns its index.
func (l *planeStates) add(t uint64) int {
	i := len(l.keys)
	if i%blockStates == 0 {
		l.blocks = append(l.blocks, make([]uint64, blockStates*(l.deg+1)))
	}
	l.keys = append(l.keys, t)
	return i
}

// scale returns lcm(1..q+1), by which the sweep scales its counts.
func (s *planeSweep) scale() uint64 {
	lcm := uint64(1)
	for k := uint64(2); k <= uint64(s.q+1); k++ {
		lcm = lcm / gcd(lcm, k) * k
	}
	return lcm
}

// run returns the line-free counts of the plane.
func (s *planeSweep) run(ctx context.Context, progress Progress) ([]*big.Int, error) {
	fr, err := s.counts(ctx, progress)
	if err != nil {
		return nil, err
	}
	out, err := s.unscale(fr)
	if err != nil {
		return nil, fmt.Errorf("availability: projective plane: internal error: %w", err)
	}
	return out, nil
}

// errNotScaled is the error of counts that the sweep's scale does not
// divide.
var errNotScaled = errors.New("count not divisible by the orbit weights")

// unscale divides the scaled counts fr by the scale, exactly.
func (s *planeSweep) unscale(fr []*big.Int) ([]*big.Int, error) {
	out := make([]*big.Int, len(fr))
	l := new(big.Int).SetUint64(s.scale())
	var rem big.Int
	for i := range out {
		out[i] = new(big.Int)
		out[i].QuoRem(fr[i], l, &rem)
		if rem.Sign() != 0 {
			return nil, errNotScaled
		}
	}
	return out, nil
}

// counts returns the line-free counts of the plane scaled by
// [planeSweep.scale], or with s.pieces the pieces' counts in
// s.pieceCounts.
func (s *planeSweep) counts(ctx context.Context, progress Progress) ([]*big.Int, error) {
	q, n := s.q, s.n
	lcm := s.scale()
	// Layer 0: the live directions D ⊆ F_q (∞, the row direction, down),
	// weighted t^{|D|} · lcm·(q+1)/(q+1−|D|).
	deg := q
	init := map[uint64][]uint64{}
	for d := range 1 << q {
		var x uint64
		for m := range q {
			if d>>m&1 == 1 {
				x |= (uint64(1)<<q - 1) << (m * q)
			}
		}
		x = s.canon(x)
		k := bits.OnesCount(uint(d))
		p := init[x]
		if p == nil {
			p = make([]uint64, deg+1)
			init[x] = p
		}
		p[k] += lcm * uint64(q+1) / uint64(q+1-k)
	}
	layer := &planeStates{deg: deg}
	for _, k := range sortedUint64Keys(init) {
		copy(layer.poly(layer.add(k)), init[k])
	}
	fr := make([]*big.Int, n+1)
	for i := range fr {
		fr[i] = new(big.Int)
	}
	if last := q - tailRows(q) - 1; last < 0 {
		if err := s.sumTails(ctx, []*planeStates{layer}, fr, progress); err != nil {
			return nil, err
		}
	} else if err := s.descend(ctx, layer, 0, last, 0, fr, progress); err != nil {
		return nil, err
	}
	return fr, nil
}

// descend sweeps row y from the states in, and on to the last stored row
// and the tail rows, adding the scaled line-free counts into fr. When the
// states after row y do not fit the memory budget (with the reserved
// bytes that the layers above hold) they are made in parts, split by a
// hash of the state: each part sweeps row y again but keeps only its own
// states, and goes on down alone. The sums are linear in the states, so
// the parts add up to the whole.
func (s *planeSweep) descend(ctx context.Context, in *planeStates, y, last int, reserved int64, fr []*big.Int, progress Progress) error {
	if y != last || s.pieces == nil {
		return s.descendAll(ctx, in, y, last, reserved, fr, progress)
	}
	// A split run: each piece sweeps the last row from its own share of
	// the states before it (see [PlanePieces]).
	for i, pc := range s.pieces {
		if err := s.descendAll(ctx, in.share(pc), y, last, reserved, s.pieceCounts[i], progress); err != nil {
			return err
		}
		if s.pieceDone != nil && !s.parted {
			if err := s.pieceDone(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// descendAll is descend on the whole of the states in.
func (s *planeSweep) descendAll(ctx context.Context, in *planeStates, y, last int, reserved int64, fr []*big.Int, progress Progress) error {
	q := s.q
	inBytes := int64(len(in.keys)) * int64(planeStateBytes+8*(in.deg+1))
	todo := []planePart{{0, 1}}
	for len(todo) > 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("availability: projective plane: %w", err)
		}
		pt := todo[0]
		todo = todo[1:]
		layers, err := s.step(ctx, in, y, y == last, pt, reserved, progress)
		var ob *planeOverBudget
		if errors.As(err, &ob) && pt.of < maxPlaneParts && reserved+inBytes < s.maxBytes/2 {
			// Enough parts that each would have fitted with room to
			// spare, judging by how far this pass got.
			split := uint64(2)
			for float64(split)*ob.done < 1.5 && pt.of*split < maxPlaneParts {
				split *= 2
			}
			for j := range split {
				todo = append(todo, planePart{pt.k + j*pt.of, split * pt.of})
			}
			if y < last {
				s.parted = true
			}
			continue
		}
		if err != nil {
			return err
		}
		if progress != nil {
			states := 0
			for _, l := range layers {
				states += len(l.keys)
			}
			progress(fmt.Sprintf("projective plane of order %d: sweeping rows (%d states%s)", q, states, pt), int64(y+1), int64(q))
		}
		if y == last {
			err = s.sumTails(ctx, layers, fr, progress)
		} else {
			err = s.descend(ctx, layers[0], y+1, last, reserved+inBytes, fr, progress)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// planeOverBudget is the error of a step whose states outgrew the memory
// budget after it had taken the share done of its input.
type planeOverBudget struct {
	row  int
	max  int64
	done float64
}

func (e *planeOverBudget) Error() string {
	return fmt.Sprintf("availability: projective plane: the states of row %d take more than the memory budget of %d MiB: %v", e.row, e.max>>20, set.ErrMemoryBudget)
}

func (e *planeOverBudget) Unwrap() error { return set.ErrMemoryBudget }

// planePart is the share of the states after a row that a pass
// keeps: those whose hash is k modulo of (a power of two).
type planePart struct{ k, of uint64 }

// maxPlaneParts bounds the parts the states after a row are split into.
const maxPlaneParts = 1 << 10

// String describes the part for progress ("" for the whole).
func (pt planePart) String() string {
	if pt.of == 1 {
		return ""
	}
	return fmt.Sprintf(", part %d of %d", pt.k+1, pt.of)
}

// keeps reports whether the part keeps state t.
func (pt planePart) keeps(t uint64) bool {
	h := t * 0xD6E8FEB86659FD93
	return (h^h>>32)&(pt.of-1) == pt.k
}

// sumTails adds the scaled line-free counts of the layers (see
// [planeSweep.finish]) into fr.
func (s *planeSweep) sumTails(ctx context.Context, layers []*planeStates, fr []*big.Int, progress Progress) error {
	total, done := 0, 0
	for _, l := range layers {
		total += len(l.keys)
	}
	var mu sync.Mutex
	report := func(k int) {
		if progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done += k
		progress(fmt.Sprintf("projective plane of order %d: summing the last %d rows", s.q, tailRows(s.q)), int64(done), int64(total))
	}
	for _, l := range layers {
		part, err := s.finish(ctx, l, report)
		if err != nil {
			return err
		}
		for i, v := range part {
			fr[i].Add(fr[i], v)
		}
	}
	return nil
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func sortedUint64Keys[V any](m map[uint64]V) []uint64 {
	ks := make([]uint64, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// step sweeps row y: every state meets every pattern R of live positions.
// Each worker takes states in turn, groups its 2^q patterns by canonical
// target (a small hash table, reset per state) counting them by size, and
// adds the state's polynomial times that count polynomial into its own
// arena; the arenas are merged at the end.
//
// Progress, if not nil, hears how many of the states have been taken, from
// one goroutine.
//
// The step keeps only the states of part pt, and counts the reserved
// bytes against the budget with its own.
func (s *planeSweep) step(ctx context.Context, in *planeStates, y int, final bool, pt planePart, reserved int64, progress Progress) ([]*planeStates, error) {
	workers := runtime.GOMAXPROCS(0)
	b := &sweepBudget{max: s.maxBytes, perState: int64(planeStateBytes + 8*(in.deg+s.q+1))}
	// The states of this step and of the layer it reads, in bytes; past
	// s.maxBytes the step stops.
	b.held.Store(reserved + int64(len(in.keys))*int64(planeStateBytes+8*(in.deg+1)))
	next := s.chunks(ctx, in, y, pt, b, progress)
	shards := make([]*sweepShard, workers)
	var wg sync.WaitGroup
	for k := range workers {
		sh := &sweepShard{index: map[uint64]int{}, planeStates: &planeStates{deg: in.deg + s.q}}
		shards[k] = sh
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.newSweepWorker(y).run(ctx, in, y, pt, sh, b, next)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("availability: projective plane: %w", err)
	}
	if b.over.Load() {
		return nil, &planeOverBudget{row: y + 1, max: s.maxBytes, done: float64(b.taken.Load()) / float64(max(1, len(in.keys)))}
	}
	var layers []*planeStates
	for _, sh := range shards {
		if sh.bad {
			return nil, errPlaneOverflow
		}
		layers = append(layers, sh.planeStates)
	}
	if final {
		// finish only sums over the states: a state in several shards
		// is fine, and merging would only cost memory.
		return layers, nil
	}
	first, err := mergeSweepShards(shards)
	if err != nil {
		return nil, err
	}
	return []*planeStates{first}, nil
}

// errPlaneOverflow reports a count past 64 bits, which the orders the
// sweep takes cannot reach.
var errPlaneOverflow = errors.New("availability: projective plane: internal error: a count overflowed 64 bits")

// sweepBudget follows the memory one step of the sweep holds, shared by
// its workers.
type sweepBudget struct {
	max      int64        // s.maxBytes: 0 for no bound
	perState int64        // the bytes of one state of the new layer
	held     atomic.Int64 // bytes held: the layer read and the one made
	taken    atomic.Int64 // input states taken, about
	over     atomic.Bool  // the bound was passed: the step stops
}

// exceeded reports whether the step is past its bound, and marks it so.
func (b *sweepBudget) exceeded() bool {
	if b.max > 0 && b.held.Load() > b.max {
		b.over.Store(true)
	}
	return b.over.Load()
}

// sweepShard is one worker's part of the new layer: its states, their
// index by key, and whether a count overflowed.
type sweepShard struct {
	index map[uint64]int
	*planeStates
	bad bool
}

// chunks deals the input states out in chunks of 256 (start, end),
// reporting progress as it goes, until the input or ctx ends.
func (s *planeSweep) chunks(ctx context.Context, in *planeStates, y int, pt planePart, b *sweepBudget, progress Progress) <-chan [2]int {
	next := make(chan [2]int, 2)
	go func() {
		defer close(next)
		for i := 0; i < len(in.keys); i += 256 {
			if ctx.Err() != nil {
				return
			}
			next <- [2]int{i, min(i+256, len(in.keys))}
			if progress != nil && i%(1<<16) == 0 && i > 0 {
				progress(fmt.Sprintf("projective plane of order %d: sweeping row %d of %d (%d states in, %d MiB held%s)", s.q, y+1, s.q, len(in.keys), b.held.Load()>>20, pt), int64(i), int64(len(in.keys)))
			}
		}
	}()
	return next
}

// sweepWorker holds one worker's tables: the successors of the state
// being expanded (tkeys, tidx, order) with their counts by the number of
// live points of the row (tcount), and caches of canonical forms.
type sweepWorker struct {
	s      *planeSweep
	tkeys  [sweepSlots]uint64
	tidx   [sweepSlots]int16
	tcount [256][9]uint64
	order  []uint64
	cache  [1 << 12][2]uint64 // raw → canonical, direct-mapped
	// canonical → canonical up to the row maps too, which cost one
	// canonical form per map: many raw states share one canonical form.
	rowCache [][2]uint64
}

// sweepSlots is the size of a worker's successor table: ≥ 2·2^q for
// q ≤ 8.
const sweepSlots = 512

func (s *planeSweep) newSweepWorker(y int) *sweepWorker {
	w := &sweepWorker{s: s}
	if len(s.rowSym[y+1]) > 0 {
		w.rowCache = make([][2]uint64, 1<<15)
	}
	return w
}

// run expands the chunks of in it takes from next into sh, until next is
// closed; after ctx ends or the budget is passed it only drains next.
// It looks at ctx before every state, not only every chunk: a state of
// an order-7 or 8 plane takes up to a few hundred microseconds, so a
// chunk of 256 can take tens of milliseconds, and a caller with a
// deadline (the explorer's 50 ms for the exact availability) waits for
// the sweep to stop before it goes on.
func (w *sweepWorker) run(ctx context.Context, in *planeStates, y int, pt planePart, sh *sweepShard, b *sweepBudget, next <-chan [2]int) {
	for r := range next {
		if ctx.Err() != nil || b.over.Load() {
			continue // drain
		}
		if r[0] > 0 {
			b.taken.Add(256) // the chunk before, as a lower bound
		}
		for i := r[0]; i < r[1]; i++ {
			if b.exceeded() || ctx.Err() != nil {
				break
			}
			if testHookSweepState != nil {
				testHookSweepState()
			}
			w.successors(in.keys[i], y)
			w.add(sh, in.poly(i), pt, b)
		}
	}
}

// testHookSweepState, when not nil, is called as a worker starts to
// expand a state: a test counts the states expanded after it cancels.
var testHookSweepState func()

// successors fills the worker's table with the states that follow x
// when row y is swept, each with its count by the number of live points
// of the row.
func (w *sweepWorker) successors(x uint64, y int) {
	s := w.s
	for j := range w.tidx {
		w.tidx[j] = -1
	}
	w.order = w.order[:0]
	// Only the positions of row y on a line of x matter; the other
	// positions are free, a factor (1+t)^free.
	pos := s.points(x, y)
	free := s.q - bits.OnesCount(uint(pos))
	for pat := pos; ; pat = (pat - 1) & pos {
		t := w.canonical(x&s.alive[y][pat], y)
		hs := (t * 0x9E3779B97F4A7C15) >> 55
		for w.tidx[hs] >= 0 && w.tkeys[hs] != t {
			hs = (hs + 1) & (sweepSlots - 1)
		}
		if w.tidx[hs] < 0 {
			w.tidx[hs] = int16(len(w.order))
			w.tkeys[hs] = t
			w.tcount[len(w.order)] = [9]uint64{}
			w.order = append(w.order, t)
		}
		c := &w.tcount[w.tidx[hs]]
		k := bits.OnesCount(uint(pat))
		for e, b := range s.binom[free] {
			c[k+e] += b
		}
		if pat == 0 {
			break
		}
	}
}

// canonical returns the canonical form of the state raw after row y,
// through the worker's caches.
func (w *sweepWorker) canonical(raw uint64, y int) uint64 {
	h := (raw * 0x9E3779B97F4A7C15) >> 52
	if e := &w.cache[h]; e[0] == raw && (raw != 0 || e[1] == 0) {
		return e[1]
	}
	t := w.s.canon(raw)
	if w.rowCache != nil {
		// canonRows(x) depends only on canon(x): the row maps normalise
		// those of canon.
		r := &w.rowCache[(t*0x9E3779B97F4A7C15)>>49]
		if r[0] == t && (t != 0 || r[1] == 0) {
			t = r[1]
		} else {
			u := w.s.canonRows(t, y+1)
			*r = [2]uint64{t, u}
			t = u
		}
	}
	w.cache[h] = [2]uint64{raw, t}
	return t
}

// add adds src, the polynomial of the state expanded, times each
// successor's count into the successor's polynomial in sh (those of part
// pt only).
func (w *sweepWorker) add(sh *sweepShard, src []uint64, pt planePart, b *sweepBudget) {
	q := w.s.q
	for oi, t := range w.order {
		if pt.of > 1 && !pt.keeps(t) {
			continue
		}
		at, ok := sh.index[t]
		if !ok {
			at = sh.add(t)
			sh.index[t] = at
			b.held.Add(b.perState)
		}
		dst := sh.poly(at)
		c := &w.tcount[oi]
		for j, a := range src {
			if a == 0 {
				continue
			}
			for k, m := range c[:q+1] {
				if m == 0 {
					continue
				}
				hi, lo := bits.Mul64(a, m)
				var carry uint64
				dst[j+k], carry = bits.Add64(dst[j+k], lo, 0)
				if hi != 0 || carry != 0 {
					sh.bad = true
				}
			}
		}
	}
}

// mergeSweepShards merges the shards' states into the first's and
// returns them. The order of the states depends on the scheduling, the
// exact integer sums do not.
func mergeSweepShards(shards []*sweepShard) (*planeStates, error) {
	first := shards[0]
	for _, sh := range shards[1:] {
		for i, t := range sh.keys {
			at, ok := first.index[t]
			if !ok {
				at = first.add(t)
				first.index[t] = at
			}
			if !addInto(first.poly(at), sh.poly(i), 1) {
				return nil, errPlaneOverflow
			}
			if i%blockStates == blockStates-1 {
				sh.blocks[i/blockStates] = nil // merged: free it
			}
		}
		sh.index, sh.planeStates = nil, nil
	}
	return first.planeStates, nil
}

// planeSlowOrder is the least order whose sweep takes tens of minutes
// or more (see [PlanePolynomial]).
const planeSlowOrder = 8

// tailRows is the number of last rows that [planeSweep.finish] sums
// without storing states.
func tailRows(q int) int { return min(3, q) }

// maxTail bounds the degree of a tail polynomial: q·tailRows ≤ 24.
const maxTail = 3*8 + 1

// tailer sums the last rows of states (see [planeSweep.finish]); each
// worker has its own, with a cache of the two-row tails, which repeat.
type tailer struct {
	s     *planeSweep
	cache []tailEntry
	// shift takes a hash to an index of cache: 64 − log2(len(cache)).
	shift uint
}

type tailEntry struct {
	x    uint64
	ok   bool
	poly [17]uint64 // degree ≤ 2q ≤ 16
}

func newTailer(s *planeSweep) *tailer {
	// Small planes have few two-row tails: a small cache is cheaper to
	// make than to fill.
	lg := min(14, 2*s.q)
	return &tailer{s: s, cache: make([]tailEntry, 1<<lg), shift: uint(64 - lg)}
}

// tail sets out to the number of ways to fill rows y..q−1 so that every
// line of x dies, as a polynomial in t by number of live points: only the
// positions of row y on a line of x matter (the others give (1+t)^free),
// and on the last row every such position must be down.
func (tl *tailer) tail(x uint64, y int, out *[maxTail]uint64) {
	s := tl.s
	q := s.q
	*out = [maxTail]uint64{}
	rows := q - y
	if x == 0 {
		copy(out[:], s.binomWide[q*rows])
		return
	}
	pos := s.points(x, y)
	free := q - bits.OnesCount(uint(pos))
	var acc [maxTail]uint64 // Σ_S t^{|S|} tail(x ∩ S, y+1)
	switch rows {
	case 1:
		copy(out[:], s.binom[free])
		return
	case 2:
		h := (x * 0x9E3779B97F4A7C15) >> tl.shift
		e := &tl.cache[h]
		if e.ok && e.x == x {
			copy(out[:], e.poly[:])
			return
		}
		// For each position j of row y, the last-row points of the lines
		// of x through j; a pattern's last-row points are the union over
		// its positions, built up subset by subset.
		var at [8]int
		var mj [8]int
		k := 0
		for p := pos; p != 0; p &= p - 1 {
			at[bits.TrailingZeros(uint(p))] = k
			k++
		}
		for z := x; z != 0; z &= z - 1 {
			b := bits.TrailingZeros64(z)
			mj[at[s.rowPos[y][b]]] |= 1 << s.rowPos[q-1][b]
		}
		var g [256]int
		for idx := 0; idx < 1<<k; idx++ {
			if idx > 0 {
				g[idx] = g[idx&(idx-1)] | mj[bits.TrailingZeros(uint(idx))]
			}
			last := q - bits.OnesCount(uint(g[idx]))
			c := bits.OnesCount(uint(idx))
			for i, b := range s.binom[last] {
				acc[i+c] += b
			}
		}
		defer func() {
			e.x, e.ok = x, true
			copy(e.poly[:], out[:])
		}()
	default:
		var sub [maxTail]uint64
		for pat := pos; ; pat = (pat - 1) & pos {
			tl.tail(x&s.alive[y][pat], y+1, &sub)
			k := bits.OnesCount(uint(pat))
			for i, v := range sub[:q*(rows-1)+1] {
				acc[i+k] += v
			}
			if pat == 0 {
				break
			}
		}
	}
	// Times (1+t)^free.
	for i, v := range acc[:q*rows+1-free] {
		if v == 0 {
			continue
		}
		for e, b := range s.binom[free] {
			out[i+e] += v * b
		}
	}
}

// finish sums the last tailRows rows of every state of a layer with
// [planeSweep.tail], and returns the scaled counts of line-free sets by
// size.
func (s *planeSweep) finish(ctx context.Context, in *planeStates, report func(int)) ([]*big.Int, error) {
	q, n := s.q, s.n
	y := q - tailRows(q)
	// Per piece, 128-bit accumulators: acc[2i] low word, acc[2i+1] high.
	totals := make([][]uint64, chunks)
	var overflow atomic.Bool
	parallelRange(len(in.keys), func(k, lo, hi int) {
		acc := make([]uint64, 2*(n+1))
		var wpoly [maxTail]uint64
		tl := newTailer(s)
		for i := lo; i < hi; i++ {
			if i&0xff == 0 {
				if ctx.Err() != nil {
					return
				}
				if i > lo {
					report(0x100)
				}
			}
			src := in.poly(i)
			tl.tail(in.keys[i], y, &wpoly)
			for j, a := range src {
				if a == 0 {
					continue
				}
				for e, b := range wpoly[:q*tailRows(q)+1] {
					if b == 0 {
						continue
					}
					h, l := bits.Mul64(a, b)
					var c uint64
					acc[2*(j+e)], c = bits.Add64(acc[2*(j+e)], l, 0)
					acc[2*(j+e)+1], c = bits.Add64(acc[2*(j+e)+1], h, c)
					if c != 0 {
						overflow.Store(true)
					}
				}
			}
		}
		totals[k] = acc
	})
	if overflow.Load() {
		return nil, errors.New("availability: projective plane: internal error: a count overflowed 128 bits")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("availability: projective plane: %w", err)
	}
	out := make([]*big.Int, n+1)
	for i := range out {
		out[i] = new(big.Int)
	}
	for _, acc := range totals {
		for i := 0; acc != nil && i <= n; i++ {
			out[i].Add(out[i], getBig(acc[2*i:2*i+2]))
		}
	}
	return out, nil
}

// planeSplittable reports whether f is the lines of a plane whose sweep
// [ComputeShare] splits into pieces: the orders from planeSlowOrder, whose
// sweep takes long enough to be worth machines (the smaller ones take
// seconds, in one shard).
func planeSplittable(f *set.Family) bool {
	q, ok := planeOrder(f)
	return ok && q >= planeSlowOrder
}

// planeShare is shard sp's share of the plane sweep of f (see
// [ComputeShare]): the summed counts of its pieces, as a polynomial's
// coefficients that mean nothing alone. A sweep that o.Time or the memory
// budget stops makes an inexact share, which the merge refuses. With
// o.Checkpoint the pieces done by earlier runs are not swept again, and
// each piece is recorded (and o.Save called) as soon as it is done; a
// cancelled ctx returns a *[PiecesStopped].
func planeShare(ctx context.Context, f *set.Family, sp shard.Spec, o *ShareOptions) (*Share, error) {
	q, _ := planeOrder(f)
	bits := min(SplitBits(f.N, sp.Count), 10)
	// The share's Split stays "": the pieces are cut as by earlier
	// versions, whose parts merge with these (the name is the
	// checkpoint's, to refuse pieces of a BDD).
	sh := &Share{H: f.H, N: f.N, Kind: SharePieces, Method: MethodPlane, Pieces: 1 << bits}
	state, err := planeRun(ctx, f, q, bits, sp, o)
	if err != nil {
		if sh.Reason, err = stoppedReason(err, o); err != nil {
			return nil, err
		}
		sh.PiecesDone = len(state.Done)
		return sh, nil
	}
	sh.Exact, sh.PiecesDone, sh.Poly = true, len(state.Done), state.Sum
	return sh, nil
}

// planeSplitID names the pieces of the sweep of PG(2,q) in a checkpoint
// (see [Split.ID] for those of a BDD).
func planeSplitID(q int) string { return fmt.Sprintf("plane sweep of order %d", q) }

// planeRun sweeps the pieces of 2^bits of PG(2,q) (the family f) that
// shard sp owns under o.Time, resuming from and saving to o.Checkpoint.
// It returns the pieces done and the sum of their counts; a stop
// returns the state so far with a *PiecesStopped (Plane set), or the
// error of a save.
func planeRun(ctx context.Context, f *set.Family, q, bits int, sp shard.Spec, o *ShareOptions) (*PieceState, error) {
	id := planeSplitID(q)
	state := &PieceState{Bits: bits, Split: id, Sum: NewPolynomial(f.N)}
	if o.Checkpoint != nil {
		st, err := o.Checkpoint.State(o.Family, f.N, bits)
		if err != nil {
			return nil, err
		}
		if st != nil {
			if st.Split != id && (st.Split != "" || len(st.Done) > 0) {
				return nil, &CheckpointMismatch{Family: o.Family, Msg: fmt.Sprintf("pieces cut by %s, and this run cuts them by the %s: start afresh", orUnsaid(st.Split), id)}
			}
			st.Split = id
			state = st
		}
	}
	of := 1 << bits
	done := make(map[int]bool, len(state.Done))
	for _, j := range state.Done {
		done[j] = true
	}
	var which []int
	for j := range of {
		if sp.Owns(j) && !done[j] {
			which = append(which, j)
		}
	}
	pctx := ctx
	if o.Time > 0 {
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeout(ctx, o.Time)
		defer cancel()
	}
	add := func(i int, count []*big.Int) error {
		for e, v := range count {
			state.Sum.A[e].Add(state.Sum.A[e], v)
		}
		state.Done = append(state.Done, which[i])
		slices.Sort(state.Done)
		if o.Checkpoint == nil {
			return nil
		}
		o.Checkpoint.Record(o.Family, state)
		if o.Save == nil {
			return nil
		}
		return o.Save(o.Checkpoint)
	}
	_, err := planePieces(pctx, q, of, which, o.Progress, o.MaxMemory, add)
	if err == nil {
		return state, nil
	}
	stop := &PiecesStopped{Plane: q, Err: err, Done: len(state.Done), Owned: sp.Owned(of)}
	switch {
	case ctx.Err() != nil:
		stop.Interrupted = true
	case pctx.Err() != nil && errors.Is(err, context.DeadlineExceeded):
		stop.Cause, stop.Time = CauseTime, o.Time
	case errors.Is(err, set.ErrMemoryBudget):
		stop.Cause = CauseMemory
	default:
		return state, err
	}
	return state, stop
}

// orUnsaid is the name of a split, or "an unnamed split".
func orUnsaid(id string) string {
	if id == "" {
		return "an unnamed split"
	}
	return id
}

// planeFromShares returns the polynomial of the plane from the sum of all
// its pieces' counts, held as the coefficients of sum.
func planeFromShares(sum *Polynomial) (*Polynomial, error) {
	for _, q := range PlaneOrders() {
		if q*q+q+1 == sum.N {
			return PlaneFromPieces(q, sum.A)
		}
	}
	return nil, fmt.Errorf("%d nodes: not a projective plane the sweep counts", sum.N)
}
