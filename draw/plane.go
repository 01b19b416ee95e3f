package draw

import (
	"errors"
	"math"

	"github.com/coterie-dev/coterie/set"
)

// planeOrder returns q if f is a projective plane of order q ≥ 2: q²+q+1
// points and as many lines of q+1 points, any two lines meeting in exactly
// one point (Maekawa's Fig. 1 for K = q+1).
func planeOrder(f *set.Family) (int, bool) {
	q := 2
	for q*q+q+1 < f.N {
		q++
	}
	if q*q+q+1 != f.N || len(f.Quorums) != f.N {
		return 0, false
	}
	for i := range f.Quorums {
		if f.Quorums[i].Len() != q+1 {
			return 0, false
		}
	}
	for i := range f.Quorums {
		for j := i + 1; j < len(f.Quorums); j++ {
			if set.IntersectionLen(&f.Quorums[i], &f.Quorums[j]) != 1 {
				return 0, false
			}
		}
	}
	return q, true
}

// plane draws a projective plane: the Fano plane as the classic triangle
// with its inscribed circle, larger planes with the points on a circle
// and each line as the polygon through its points.
func (d *drawing) plane() error {
	q, ok := planeOrder(d.f)
	if !ok {
		return errors.New("draw: plane layout: the system is not a projective plane")
	}
	if q == 2 {
		d.fano()
		return nil
	}
	d.circular()
	return nil
}

// lineStyle is the look of line qi: the chosen quorum thick and blue.
func (d *drawing) lineStyle(qi int, width float64) Style {
	if qi == d.sel {
		return Style{Stroke: d.c.quorum, Width: 3.5}
	}
	return Style{Stroke: d.c.ink, Width: width}
}

// fano draws the Fano plane: node 1 at the centre; the first line that
// misses it is the inscribed circle through the midpoints of the sides;
// the three remaining points, in increasing order, are the corners top,
// bottom left and bottom right; the midpoint of two corners is the third
// point of their line. Every other line is a side or a median, drawn as
// the segment between its two farthest points.
func (d *drawing) fano() {
	f := d.f
	const cx, cy, R = 200.0, 225.0, 160.0
	d.sc = &Scene{W: 400, H: 345}
	d.title(caption(f))
	centre := 0
	circle := -1
	for i := range f.Quorums {
		if !f.Quorums[i].Has(centre) {
			circle = i
			break
		}
	}
	var corners []int
	for v := range f.N {
		if v != centre && !f.Quorums[circle].Has(v) {
			corners = append(corners, v)
		}
	}
	pos := make([]Point, f.N)
	pos[centre] = Point{cx, cy}
	for k, v := range corners {
		a := -math.Pi/2 + 2*math.Pi*float64(k)/3
		pos[v] = Point{cx + R*math.Cos(a), cy + R*math.Sin(a)}
	}
	for k, a := range corners {
		b := corners[(k+1)%3]
		for i := range f.Quorums {
			if f.Quorums[i].Has(a) && f.Quorums[i].Has(b) {
				for m := range f.Quorums[i].All() {
					if m != a && m != b {
						pos[m] = Point{(pos[a].X + pos[b].X) / 2, (pos[a].Y + pos[b].Y) / 2}
					}
				}
			}
		}
	}
	draw := func(i int) {
		if i == circle {
			d.sc.add(Shape{Kind: Circle, Role: "line", X: cx, Y: cy, R: R / 2, Style: d.lineStyle(i, 1.5), Quorum: i + 1,
				Tip: lineTip("line ", i, &f.Quorums[i])})
			return
		}
		pts := f.Quorums[i].Elements()
		best, bd := [2]int{}, -1.0
		for x := range pts {
			for y := x + 1; y < len(pts); y++ {
				if dd := math.Hypot(pos[pts[x]].X-pos[pts[y]].X, pos[pts[x]].Y-pos[pts[y]].Y); dd > bd {
					best, bd = [2]int{pts[x], pts[y]}, dd
				}
			}
		}
		d.sc.add(Shape{Kind: Line, Role: "line", Pts: []Point{pos[best[0]], pos[best[1]]}, Style: d.lineStyle(i, 1.5), Quorum: i + 1,
			Tip: lineTip("line ", i, &f.Quorums[i])})
	}
	for i := range f.Quorums {
		if i != d.sel {
			draw(i)
		}
	}
	if d.sel >= 0 {
		draw(d.sel) // on top
	}
	for v := range f.N {
		d.node(v, pos[v], 9)
	}
}

// circular draws a projective plane of order q > 2: the points on a
// circle in increasing order, and each line as the polygon through its
// points, thin and in turn coloured, the chosen one on top.
func (d *drawing) circular() {
	f := d.f
	r, R, outside := ringSize(f.N, 120, d.ringLabelRoom())
	margin := 2*r + 22
	c := margin + R
	top := 20.0
	// Room for every shape at once: a polygon per line, a circle and a
	// number per node, the title and the legend.
	d.sc = &Scene{W: 2 * c, H: 2*c + top, Shapes: make([]Shape, 0, len(f.Quorums)+2*f.N+16)}
	d.title(caption(f))
	pos := make([]Point, f.N)
	for v := range f.N {
		a := -math.Pi/2 + 2*math.Pi*float64(v)/float64(f.N)
		pos[v] = Point{c + R*math.Cos(a), top + c + R*math.Sin(a)}
	}
	width := math.Max(0.3, math.Min(1.2, 20/float64(f.N)))
	draw := func(i int) {
		pts := make([]Point, 0, f.Quorums[i].Len())
		for v := range f.Quorums[i].All() {
			pts = append(pts, pos[v])
		}
		st := d.pathStyle(i, width)
		tip := lineTip("line ", i, &f.Quorums[i])
		if i == d.sel {
			st = Style{Stroke: d.c.quorum, Width: 3}
		}
		d.sc.add(Shape{Kind: Polygon, Role: "line", Pts: pts, Style: st, Quorum: i + 1, Tip: tip})
	}
	for i := range f.Quorums {
		if i != d.sel {
			draw(i)
		}
	}
	if d.sel >= 0 {
		draw(d.sel)
	}
	angles, nodes := make([]float64, f.N), make([]int, f.N)
	for v := range f.N {
		d.node(v, pos[v], r)
		angles[v], nodes[v] = -math.Pi/2+2*math.Pi*float64(v)/float64(f.N), v
	}
	d.ringNumbers(Point{c, top + c}, R, r, angles, nodes, outside)
}
