package construct

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/coterie-dev/coterie/galois"
	"github.com/coterie-dev/coterie/set"
)

// MaxPlaneOrder is the largest order of projective plane coterie builds:
// PG(2,1024) has 1,049,601 points and lines, and its text file is about
// 7.5 GB. Planes this large are only streamed (see [Spec.Stream]).
const MaxPlaneOrder = 1024

// maxExplicitBytes bounds the memory an explicit family may take as bitsets
// (one bit per node per quorum); larger systems must be streamed.
const maxExplicitBytes = 1 << 30

// explicitBytes estimates the memory of m quorums over n nodes as bitsets.
func explicitBytes(n, m int) int64 { return int64(m) * int64((n+63)/64) * 8 }

// checkExplicit refuses a family too large to hold in memory.
func checkExplicit(what string, n, m int) error {
	if b := explicitBytes(n, m); b > maxExplicitBytes {
		return errorf(what, "%d quorums over %d nodes take %.2f GiB in memory, more than %d GiB: stream them instead (see Spec.Stream)",
			m, n, float64(b)/(1<<30), maxExplicitBytes>>30)
	}
	return nil
}

// plane is the projective plane PG(2,q) over GF(q) (or the triangle for
// q = 1), with the point and line numbering documented at
// [ProjectivePlane]. Points and lines are 0-based here.
type plane struct {
	q, n int
	// add[a*q+b] = a+b, mul[a*q+b] = a·b and nmul[a*q+b] = -(a·b) in
	// GF(q): the line m·x + y = b holds the points (x, b - m·x).
	add, mul, nmul []uint16
	// inv[a] = 1/a, and c = α - 1 for the primitive element α of GF(q),
	// used by the structural owner assignment (see seed).
	inv []uint16
	c   int
}

// newPlane returns PG(2,q); q must be 1 or a prime power.
func newPlane(q int) (*plane, error) {
	pl := &plane{q: q, n: q*q + q + 1}
	if q == 1 {
		pl.add, pl.mul, pl.nmul = []uint16{0}, []uint16{0}, []uint16{0}
		return pl, nil
	}
	f, err := galois.New(q)
	if err != nil {
		return nil, err
	}
	pl.inv = make([]uint16, q)
	for a := 1; a < q; a++ {
		pl.inv[a] = uint16(f.Inv(a))
	}
	pl.c = f.Sub(f.Primitive(), 1)
	pl.add = make([]uint16, q*q)
	pl.mul = make([]uint16, q*q)
	pl.nmul = make([]uint16, q*q)
	for a := range q {
		for b := range q {
			pl.add[a*q+b] = uint16(f.Add(a, b))
			pl.mul[a*q+b] = uint16(f.Mul(a, b))
			pl.nmul[a*q+b] = uint16(f.Neg(f.Mul(a, b)))
		}
	}
	return pl, nil
}

// affine returns the point (x, y).
func (pl *plane) affine(x, y int) int { return pl.q + 1 + x*pl.q + y }

// linePoint returns the k-th point of line l, 0 ≤ k ≤ q, in increasing
// order.
func (pl *plane) linePoint(l, k int) int {
	q := pl.q
	switch {
	case l == 0: // the line at infinity
		return k
	case l <= q: // the vertical line x = l-1
		if k == 0 {
			return 0
		}
		return pl.affine(l-1, k-1)
	}
	j := l - q - 1
	m, b := j/q, j%q
	if k == 0 {
		return 1 + m
	}
	x := k - 1
	return pl.affine(x, int(pl.add[b*q+int(pl.nmul[m*q+x])]))
}

// pointLine returns the k-th line through point p, 0 ≤ k ≤ q, in
// increasing order.
func (pl *plane) pointLine(p, k int) int {
	q := pl.q
	switch {
	case p == 0: // the vertical direction: the line at infinity and x = a
		return k
	case p <= q: // the direction of slope m: infinity and m·x + y = b
		if k == 0 {
			return 0
		}
		return q + 1 + (p-1)*q + k - 1
	}
	a := p - q - 1
	x, y := a/q, a%q
	if k == 0 {
		return 1 + x
	}
	m := k - 1
	b := int(pl.add[y*q+int(pl.mul[m*q+x])]) // m·x + y = b
	return q + 1 + m*q + b
}

// appendLine appends the points of line l to buf, in increasing order.
func (pl *plane) appendLine(buf []int, l int) []int {
	q := pl.q
	if l <= q { // the line at infinity or a vertical line
		for k := range q + 1 {
			buf = append(buf, pl.linePoint(l, k))
		}
		return buf
	}
	j := l - q - 1
	m, b := j/q, j%q
	buf = append(buf, 1+m)
	add, nmul := pl.add[b*q:b*q+q], pl.nmul[m*q:m*q+q]
	for x := range q {
		buf = append(buf, pl.affine(x, int(add[nmul[x]])))
	}
	return buf
}

// incidence is the point–line incidence graph: points on the left.
type incidence struct{ *plane }

func (g incidence) left() int             { return g.n }
func (g incidence) right() int            { return g.n }
func (g incidence) degree(int) int        { return g.q + 1 }
func (g incidence) neighbor(p, k int) int { return g.pointLine(p, k) }

// seed returns the slot of the line a point owns in the structural
// assignment below, or -1 where it has none (q = 2):
//
//   - the vertical point owns the line at infinity;
//   - the point of slope m owns the line m·x + y = 0;
//   - (a, 0) owns the vertical line x = a;
//   - (0, c), c ≠ 0, owns the horizontal line y = c;
//   - (x, y), x ≠ 0 ≠ y, owns the line of slope m = (α-1)·y/x, which is
//     m·x + y = α·y: a bijection onto the lines with m ≠ 0 ≠ b, as
//     y = b/α and x = (α-1)·y/m recover the point. It needs α ≠ 1, so
//     q ≥ 3 (q = 1 has no such points).
//
// Every line is owned once: 1 + q + q + (q-1) + (q-1)² = q²+q+1.
func (g incidence) seed(p int) int {
	q := g.q
	switch {
	case p == 0:
		return 0
	case p <= q:
		return 1 // the line of slope m through the origin, b = 0
	}
	a := p - q - 1
	x, y := a/q, a%q
	switch {
	case y == 0:
		return 0
	case x == 0:
		return 1 // m = 0: the horizontal line y = b
	case g.c == 0:
		return -1
	}
	m := g.mul[int(g.mul[g.c*q+y])*q+int(g.inv[x])]
	return 1 + int(m)
}

// owners returns, for each point, the line it owns: a perfect matching of
// the incidence graph, which is (q+1)-regular and so has one (König). It is
// found by Hopcroft–Karp on the implicit graph, in O(n) memory, started
// from the structural assignment of seed: Hopcroft–Karp checks that it is a
// perfect matching (it is for every q but 2, making the matching O(n)) and
// completes it where it is not (q = 2, which has no α ≠ 1). Tests cross-check it against
// Hopcroft–Karp from a cold start.
func (pl *plane) owners() []int32 {
	m := maxMatching(incidence{pl})
	if m.size != pl.n {
		panic(fmt.Sprintf("construct: internal error: matching of PG(2,%d) has %d of %d points", pl.q, m.size, pl.n))
	}
	return m.l
}

// planeOrder checks a plane order: 1 or a prime power up to MaxPlaneOrder.
func planeOrder(q int) error {
	if q == 1 {
		return nil
	}
	if q < 1 {
		return paramErrorf("fpp", "order", q, "must be 1 or a prime power")
	}
	if q > MaxPlaneOrder {
		return paramErrorf("fpp", "order", q, "exceeds the largest supported order %d (%d points)",
			MaxPlaneOrder, MaxPlaneOrder*MaxPlaneOrder+MaxPlaneOrder+1)
	}
	if _, err := galois.New(q); err != nil {
		reason := "is not a prime power"
		var oe *galois.OrderError
		if errors.As(err, &oe) && oe.Below > 0 {
			if oe.Above > 0 && oe.Above <= MaxPlaneOrder {
				reason += fmt.Sprintf("; the nearest prime powers are %d and %d", oe.Below, oe.Above)
			} else {
				reason += fmt.Sprintf("; the nearest supported order is %d", oe.Below)
			}
		}
		return &ParamError{Kind: "fpp", Param: "order", Value: q, Reason: reason, Err: err}
	}
	return nil
}

// ProjectivePlane returns the lines of the projective plane PG(2,q) over
// GF(q) as a coterie over its n = q²+q+1 points, each line owned by one of
// its points: Maekawa's sets with K = q+1, which satisfy his properties (a)
// any two meet (in exactly one point), (b) i ∈ S_i, (c) |S_i| = K and (d)
// every point lies in K sets (Maekawa, ACM TOCS 3(2), 1985, Section 3). q
// must be a prime power up to [MaxPlaneOrder], or 1, which gives Maekawa's
// K = 2 triangle {1,2}, {1,3}, {2,3} (Fig. 1(a)).
//
// Points, numbered 1..n as a user sees them (0..n-1 in Go), with field
// elements the integers 0..q-1 of package galois:
//
//   - 1 is the point at infinity of the vertical lines;
//   - 2+m, for m in GF(q), is the point at infinity of the lines m·x + y = b;
//   - q+2 + x·q + y is the affine point (x, y).
//
// Lines: the line at infinity {1, ..., q+1}; the vertical lines x = a, each
// {1} ∪ {(a, y)}; and the lines m·x + y = b, each {2+m} ∪ {(x, b − m·x)}.
// For q = 2 and 3 these are exactly the lines of Maekawa's Fig. 1(b) and
// 1(c); his Fig. 1(d) (q = 4) is this plane with each affine point (x, y)
// relabelled (x², y).
//
// Owners: node i owns the line S_i, which contains i; the assignment is a
// maximum matching of the point–line incidence graph (Hopcroft–Karp, with
// points and lines tried in the order above), so the same q always gives
// the same owners. The family is canonical: quorum i is S_i.
//
// The explicit family takes about n²/8 bytes; ProjectivePlane refuses orders
// above 303 (1 GiB), which the "fpp" spec's Stream produces line by line.
func ProjectivePlane(q int) (*set.Family, error) {
	return projectivePlane(context.Background(), q)
}

// projectivePlane is [ProjectivePlane] watching ctx.
func projectivePlane(ctx context.Context, q int) (*set.Family, error) {
	if err := planeOrder(q); err != nil {
		return nil, err
	}
	n := q*q + q + 1
	if err := checkExplicit(fmt.Sprintf("fpp: order %d", q), n, n); err != nil {
		return nil, err
	}
	pl, err := newPlane(q)
	if err != nil {
		return nil, err
	}
	f := planeHeader(q)
	f.Quorums = make([]set.Set, n)
	f.Owners = make([]int, n)
	var buf []int
	stop := poll{ctx: ctx}
	for p, l := range pl.owners() {
		if err := stop.stop(); err != nil {
			return nil, err
		}
		f.Quorums[p].Grow(n)
		buf = pl.appendLine(buf[:0], int(l))
		for _, v := range buf {
			f.Quorums[p].Add(v)
		}
		f.Owners[p] = p
	}
	f.Canonical()
	return f, nil
}

func planeHeader(q int) *set.Family {
	f := set.NewFamily(q*q + q + 1)
	f.Owners = []int{} // every quorum is owned (a streaming CSV writer needs to know)
	f.Kind = "fpp"
	f.Params = set.Params{"order": q}
	return f
}

// streamPlane returns the metadata of PG(2,q) and its lines as
// ProjectivePlane orders them, one at a time: memory O(n) for the owner
// matching plus one line.
func streamPlane(q int) (*set.Family, iter.Seq2[*set.Set, int], error) {
	if err := planeOrder(q); err != nil {
		return nil, nil, err
	}
	pl, err := newPlane(q)
	if err != nil {
		return nil, nil, err
	}
	owners := pl.owners()
	seq := func(yield func(*set.Set, int) bool) {
		s := set.New(pl.n)
		var buf []int
		for p, l := range owners {
			buf = pl.appendLine(buf[:0], int(l))
			for _, v := range buf {
				s.Add(v)
			}
			if !yield(s, p) {
				return
			}
			// Removing the points is cheaper than clearing n bits.
			for _, v := range buf {
				s.Remove(v)
			}
		}
	}
	return planeHeader(q), seq, nil
}

var fppSpec = Spec{
	Name:    "fpp",
	Summary: "lines of the finite projective plane PG(2,q), each owned by one of its points",
	Source:  "Maekawa 1985, Section 3 and Fig. 1",
	Params: []Param{{Name: "order", Usage: "order q of the plane: a prime power, or 1 (n = q²+q+1 nodes)",
		Type: Int, Required: true, Min: 1, Max: MaxPlaneOrder}},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		f, err := projectivePlane(ctx, a.Int("order"))
		return set.System{Family: f}, err
	},
	Stream: func(a Args) (*set.Family, iter.Seq2[*set.Set, int], error) {
		return streamPlane(a.Int("order"))
	},
}
