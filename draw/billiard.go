package draw

import (
	"errors"
	"fmt"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// billiardQ returns the order q of a billiard coterie: the "q" parameter,
// or the odd q with N = (q²−1)/2.
func billiardQ(f *set.Family) (int, bool) {
	if q, ok := f.Params.Int("q"); ok && q >= 3 && q%2 == 1 && construct.BilliardN(q) == f.N {
		return q, true
	}
	for q := 3; construct.BilliardN(q) <= f.N; q += 2 {
		if construct.BilliardN(q) == f.N {
			return q, true
		}
	}
	return 0, false
}

// billiardOrder returns, for each quorum of f, its sites in the order of
// the broken billiard path it is (construct.BilliardPath), or false if f
// is not a billiard coterie.
func billiardOrder(f *set.Family) ([][]int, bool) {
	q, ok := billiardQ(f)
	if !ok {
		return nil, false
	}
	bySet := make(map[string][]int, f.N)
	for s := range f.N {
		p, err := construct.BilliardPath(q, s)
		if err != nil {
			return nil, false
		}
		sorted := slices.Clone(p)
		slices.Sort(sorted)
		bySet[fmt.Sprint(sorted)] = p
	}
	paths := make([][]int, len(f.Quorums))
	for i := range f.Quorums {
		p, ok := bySet[fmt.Sprint(f.Quorums[i].Elements())]
		if !ok {
			return nil, false
		}
		paths[i] = p
	}
	return paths, true
}

// billiard draws the modified q×q board of Agrawal, Eğecioğlu and
// El Abbadi: the cells with i+j odd hold the sites (numbered row-major),
// and each quorum is its broken billiard path through the centres of its
// cells, as in the paper's Fig. 6. With a chosen quorum only its path is
// drawn.
func (d *drawing) billiard() error {
	paths, ok := billiardOrder(d.f)
	if !ok {
		return errors.New("draw: billiard layout: the quorums are not the broken billiard paths of a modified q×q grid")
	}
	q, _ := billiardQ(d.f)
	const cell, margin = 44.0, 30.0
	top := margin + 10
	d.sc = &Scene{W: 2*margin + cell*float64(q), H: top + margin + cell*float64(q)}
	d.title(caption(d.f))
	for i := 1; i <= q; i++ {
		for j := 1; j <= q; j++ {
			fill := d.c.paper
			if (i+j)%2 == 1 {
				fill = d.c.site
			}
			d.sc.add(Shape{Kind: Rect, Role: "cell", X: margin + cell*float64(j-1), Y: top + cell*float64(i-1),
				W: cell, H: cell, Style: Style{Fill: fill, Stroke: d.c.faint, Width: 1}})
		}
	}
	centre := func(s int) Point {
		i, j, _ := construct.BilliardCell(q, s)
		return Point{margin + cell*(float64(j)-0.5), top + cell*(float64(i)-0.5)}
	}
	for qi, p := range paths {
		if d.quorum != nil && qi != d.sel {
			continue
		}
		pts := make([]Point, len(p))
		for k, s := range p {
			pts[k] = centre(s)
		}
		st := d.pathStyle(qi, 2)
		if d.quorum != nil {
			st = Style{Stroke: d.c.quorum, Width: 3.5}
		}
		d.sc.add(Shape{Kind: Polyline, Role: "path", Pts: pts, Style: st, Quorum: qi + 1,
			Tip: fmt.Sprintf("quorum %d: %s", qi+1, shortNodes(p, 40))})
	}
	for s := range d.f.N {
		d.node(s, centre(s), 9)
	}
	return nil
}
