package domination

import (
	"context"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// plane is a projective plane of order q, checked by asPlane: n = q²+q+1
// points and as many lines, q+1 points on every line and q+1 lines through
// every point, any two points on exactly one line, any two lines meeting in
// exactly one point. Points and lines are 0-based; line i is quorum i.
type plane struct {
	q, n    int
	nw      int       // words per line bit vector
	lines   [][]int32 // the points of each line, increasing
	through [][]int32 // the lines through each point, increasing
	bits    []uint64  // line l's points: bits[l*nw:(l+1)*nw]
}

// asPlane returns f as a projective plane, or nil if it is not one. It
// trusts nothing but the quorums: f's kind and parameters are ignored.
//
// It checks that f is an explicit coterie (k = 1) with n = q²+q+1 nodes for
// some q ≥ 2 and exactly n quorums, each of q+1 nodes, every node in q+1
// of them, and that for every node a the quorums through a cover all n
// nodes. That is enough: the q+1 lines through a hold q(q+1) = n−1 nodes
// besides a and cover all n−1, so every other node lies on exactly one line
// with a (two points span exactly one line, two lines share at most one
// point); and counting pairs of lines through each point, n·C(q+1,2) =
// C(n,2), so every two lines meet, in exactly one point.
func asPlane(f *set.Family) *plane {
	if f.K != 1 || len(f.Quorums) != f.N { // a threshold family lists none
		return nil
	}
	q := 2
	for q*q+q+1 < f.N {
		q++
	}
	if q*q+q+1 != f.N {
		return nil
	}
	lines := make([][]int32, f.N)
	for i := range f.Quorums {
		if f.Quorums[i].Len() != q+1 {
			return nil
		}
		for v := range f.Quorums[i].All() {
			if v >= f.N {
				return nil
			}
			lines[i] = append(lines[i], int32(v))
		}
	}
	return newPlane(q, lines)
}

// newPlane indexes lines (n lists of q+1 points over n = q²+q+1 points) and
// checks the conditions of asPlane; it returns nil if they fail.
func newPlane(q int, lines [][]int32) *plane {
	n := q*q + q + 1
	p := &plane{q: q, n: n, nw: set.WordsFor(n), lines: lines, through: make([][]int32, n)}
	p.bits = make([]uint64, n*p.nw)
	for l, pts := range lines {
		if len(pts) != q+1 {
			return nil
		}
		for _, v := range pts {
			p.line(l).Add(int(v))
			p.through[v] = append(p.through[v], int32(l))
		}
	}
	cover := make(set.Words, p.nw)
	for a := range n {
		if len(p.through[a]) != q+1 {
			return nil
		}
		clear(cover)
		for _, l := range p.through[a] {
			for i, w := range p.line(int(l)) {
				cover[i] |= w
			}
		}
		if cover.Len() != n {
			return nil
		}
	}
	return p
}

func (p *plane) line(l int) set.Words { return p.bits[l*p.nw : (l+1)*p.nw] }

// join returns the line through the distinct points a and b.
func (p *plane) join(a, b int) int {
	for _, l := range p.through[a] {
		if p.line(int(l)).Has(b) {
			return int(l)
		}
	}
	panic("domination: join of a point with itself")
}

// meet returns the point on the distinct lines l and m.
func (p *plane) meet(l, m int) int {
	for _, v := range p.lines[l] {
		if p.line(m).Has(int(v)) {
			return int(v)
		}
	}
	panic("domination: meet of a line with itself")
}

// quadrangle returns four points of p, no three on a line: 0, 1, the first
// point off their line, and the first point off the three lines they span.
func (p *plane) quadrangle() [4]int {
	l01 := p.join(0, 1)
	c := 0
	for p.line(l01).Has(c) {
		c++
	}
	l02, l12 := p.join(0, c), p.join(1, c)
	d := 0
	for p.line(l01).Has(d) || p.line(l02).Has(d) || p.line(l12).Has(d) {
		d++
	}
	return [4]int{0, 1, c, d}
}

// desarguesian returns PG(2,q) as construct builds it (the plane of the
// 1- and 2-dimensional subspaces of GF(q)³).
func desarguesian(q int) (*plane, error) {
	f, err := construct.ProjectivePlane(q)
	if err != nil {
		return nil, err
	}
	return asPlane(f), nil
}

// isoState is a partial map from the points and lines of plane a to those
// of plane b, kept injective.
type isoState struct {
	pt, ptInv, ln, lnInv []int32
	pts, lns             []int32 // the mapped points and lines of a, in order
}

func newIsoState(n int) *isoState {
	s := &isoState{pt: make([]int32, n), ptInv: make([]int32, n), ln: make([]int32, n), lnInv: make([]int32, n)}
	for i := range n {
		s.pt[i], s.ptInv[i], s.ln[i], s.lnInv[i] = -1, -1, -1, -1
	}
	return s
}

func (s *isoState) clone() *isoState {
	c := *s
	for _, xs := range []*[]int32{&c.pt, &c.ptInv, &c.ln, &c.lnInv, &c.pts, &c.lns} {
		*xs = append([]int32(nil), (*xs)...)
	}
	return &c
}

// mapPoint maps point x of a to y of b; it reports false on a conflict.
func (s *isoState) mapPoint(x, y int) bool {
	if s.pt[x] >= 0 || s.ptInv[y] >= 0 {
		return int(s.pt[x]) == y && int(s.ptInv[y]) == x
	}
	s.pt[x], s.ptInv[y] = int32(y), int32(x)
	s.pts = append(s.pts, int32(x))
	return true
}

func (s *isoState) mapLine(l, m int) bool {
	if s.ln[l] >= 0 || s.lnInv[m] >= 0 {
		return int(s.ln[l]) == m && int(s.lnInv[m]) == l
	}
	s.ln[l], s.lnInv[m] = int32(m), int32(l)
	s.lns = append(s.lns, int32(l))
	return true
}

// close extends the map by joins and meets until nothing new follows:
// the line through two mapped points goes to the line through their images,
// the point on two mapped lines to the point on their images. pDone and
// lDone count the mapped points and lines already combined with all
// earlier ones. It reports false on a conflict. The cost is O(n²·q); ctx
// is checked as it goes.
func (s *isoState) close(ctx context.Context, a, b *plane) (bool, error) {
	pDone, lDone := 0, 0
	for pDone < len(s.pts) || lDone < len(s.lns) {
		if (pDone+lDone)%64 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		if pDone < len(s.pts) {
			x := int(s.pts[pDone])
			for _, z := range s.pts[:pDone] {
				if !s.mapLine(a.join(x, int(z)), b.join(int(s.pt[x]), int(s.pt[z]))) {
					return false, nil
				}
			}
			pDone++
			continue
		}
		l := int(s.lns[lDone])
		for _, m := range s.lns[:lDone] {
			if !s.mapPoint(a.meet(l, int(m)), b.meet(int(s.ln[l]), int(s.ln[m]))) {
				return false, nil
			}
		}
		lDone++
	}
	return true, nil
}

// isomorphic reports whether the projective planes a and b are isomorphic
// by finding an isomorphism and checking it line by line.
//
// Every isomorphism can be composed with a collineation of b so that it
// maps a's quadrangle to b's, provided b's collineations act transitively
// on ordered quadrangles, as those of PG(2,q) do (PGL(3,q) acts regularly
// on ordered frames: the fundamental theorem of projective geometry). The
// search maps a's quadrangle to b's and closes the map under joins and
// meets; that gives the subplane the quadrangle generates (all of the
// plane for prime q, PG(2,p) inside PG(2,p^h)). It then branches on the
// image of one unmapped point on a mapped line, whose image must lie on
// the image line: at most q candidates a level, and a level per subfield
// step. So when b is PG(2,q) the search is complete, and whatever it
// returns has been checked.
func isomorphic(ctx context.Context, a, b *plane) (bool, error) {
	if a.q != b.q {
		return false, nil
	}
	s := newIsoState(a.n)
	qa, qb := a.quadrangle(), b.quadrangle()
	for i := range qa {
		s.mapPoint(qa[i], qb[i])
	}
	if ok, err := s.close(ctx, a, b); !ok || err != nil {
		return false, err
	}
	return s.extend(ctx, a, b)
}

func (s *isoState) extend(ctx context.Context, a, b *plane) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if len(s.pts) == a.n {
		return s.verify(a, b), nil
	}
	// An unmapped point x on a mapped line l.
	x, l := -1, -1
	for _, m := range s.lns {
		for _, v := range a.lines[m] {
			if s.pt[v] < 0 {
				x, l = int(v), int(m)
				break
			}
		}
		if x >= 0 {
			break
		}
	}
	if x < 0 {
		return false, nil // every mapped line is full but points remain: impossible in a plane
	}
	for _, y := range b.lines[s.ln[l]] {
		if s.ptInv[y] >= 0 {
			continue
		}
		c := s.clone()
		if !c.mapPoint(x, int(y)) {
			continue
		}
		if ok, err := c.close(ctx, a, b); err != nil {
			return false, err
		} else if !ok {
			continue
		}
		ok, err := c.extend(ctx, a, b)
		if ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// verify checks that the point map is a bijection taking every line of a
// onto a line of b.
func (s *isoState) verify(a, b *plane) bool {
	for x := range a.n {
		if s.pt[x] < 0 {
			return false
		}
	}
	for _, pts := range a.lines {
		m := b.join(int(s.pt[pts[0]]), int(s.pt[pts[1]]))
		for _, v := range pts[2:] {
			if !b.line(m).Has(int(s.pt[v])) {
				return false
			}
		}
	}
	return true
}
