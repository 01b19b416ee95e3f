package draw

import (
	"fmt"
	"math"
	"strings"

	"github.com/coterie-dev/coterie/domain"
)

// Failure domains and failed parts ([Options.Domains], [Options.Down]) are
// drawn over whatever the layout drew, so every layout shows them the
// same way:
//
//   - boxes: each domain is a labelled box around its nodes' circles, the
//     box of a domain around those of the domains below it. A layout that
//     keeps each domain's nodes together (the grid with a domain per row,
//     hqc with the groups as domains, a row of nodes numbered domain by
//     domain) gets boxes; they are used only when no box meets a node of
//     another domain and no two boxes of unrelated domains meet.
//   - rings: otherwise (a domain's nodes scattered over a projective plane
//     or a ring), each node wears one coloured ring per level, innermost
//     first, in the colour of its domain at that level, and the legend
//     names the colours.
//   - the matrix marks the rows of each domain with a coloured bar beside
//     the node labels, one column per level (outermost on the left), and
//     the legend names the colours.
//
// Failed nodes are grey, as is every shape of a dead quorum (one that
// holds a failed node); the legend says what failed and how many quorums
// survive, and the title says so when none does.

// legendEntry is one line of the legend: a symbol (none when st is the
// zero Style) and a text.
type legendEntry struct {
	st     Style
	text   string
	domain string
}

const (
	domainPad    = 3.0 // a domain box's margin around what it holds
	domainFont   = 9.0 // its label's size
	domainLabelH = 12.0
	// maxDomainBoxes bounds the domains drawn as boxes (their check is
	// quadratic): more are drawn as rings.
	maxDomainBoxes = 400
	// maxDomainLegend bounds the domains the legend names.
	maxDomainLegend = 40
)

// checkDomains checks the domains and failures of the options against
// the system, and marks the failed nodes and the dead quorums.
func (d *drawing) checkDomains() error {
	o := d.opts
	t := o.Domains
	if t != nil && t.N() != d.f.N {
		return fmt.Errorf("draw: the domains are over %d nodes, the system has %d", t.N(), d.f.N)
	}
	for _, dm := range o.DownDomains {
		if t == nil || dm < 0 || dm >= t.Len() {
			return fmt.Errorf("draw: failed domain %d: no such domain", dm)
		}
	}
	if len(o.Down) == 0 && len(o.DownDomains) == 0 {
		return nil
	}
	d.down = make([]bool, d.f.N)
	for _, v := range o.Down {
		if v < 0 || v >= d.f.N {
			return fmt.Errorf("draw: failed node %d is out of range 1..%d", v+1, d.f.N)
		}
		d.down[v] = true
	}
	for _, dm := range o.DownDomains {
		for _, v := range t.Under(dm) {
			d.down[v] = true
		}
	}
	if d.threshold == 0 {
		d.dead = make([]bool, len(d.f.Quorums))
		for i := range d.f.Quorums {
			for v := range d.f.Quorums[i].All() {
				if d.down[v] {
					d.dead[i] = true
					break
				}
			}
		}
	}
	return nil
}

// decorate draws the failures and the domains over the layout's shapes.
func (d *drawing) decorate() {
	if d.down != nil {
		d.greyDown()
		d.downLegend()
	}
	t := d.opts.Domains
	if t == nil || t.Empty() {
		return
	}
	switch {
	case d.layout == "matrix":
		d.matrixDomains()
	case !d.domainBoxes():
		d.domainRings()
	}
}

// isDown reports whether domain dm is failed or under a failed domain.
func (d *drawing) isDown(dm int) bool {
	for _, f := range d.opts.DownDomains {
		if d.opts.Domains.Contains(f, dm) {
			return true
		}
	}
	return false
}

// greyDown paints the failed nodes and the dead quorums grey.
func (d *drawing) greyDown() {
	grey := d.c.faint
	painted := func(c string) bool { return c != "" && c != "none" }
	for i := range d.sc.Shapes {
		s := &d.sc.Shapes[i]
		if s.Node > 0 && d.down[s.Node-1] {
			switch s.Role {
			case "node":
				s.Style.Fill, s.Style.Stroke = grey, grey
				s.Tip += ", down"
			case "number":
				s.Style.Fill = d.c.ink
			case "label":
				s.Style.Fill = grey
			}
		}
		if s.Quorum > 0 && d.dead != nil && d.dead[s.Quorum-1] {
			if painted(s.Style.Stroke) {
				s.Style.Stroke = grey
			}
			if painted(s.Style.Fill) && s.Style.Fill != d.c.paper {
				s.Style.Fill = grey
				if s.Role == "cell" {
					s.Style.Fill = d.c.site
				}
			}
			if s.Tip != "" {
				s.Tip += ", dead: it holds a failed node"
			}
		}
	}
}

// downLegend says what failed and what survives, and puts "no quorum
// survives" in the title when none does.
func (d *drawing) downLegend() {
	names := d.opts.DownNames
	if names == nil {
		t := d.opts.Domains
		covered := make([]bool, d.f.N)
		for _, dm := range d.opts.DownDomains {
			names = append(names, t.Path(dm))
			for _, v := range t.Under(dm) {
				covered[v] = true
			}
		}
		for v, down := range d.down {
			if down && !covered[v] {
				names = append(names, d.f.Label(v))
			}
		}
	}
	what := strings.Join(names, ", ")
	if len(names) > 12 {
		what = strings.Join(names[:12], ", ") + fmt.Sprintf(", … %d in all", len(names))
	}
	grey := d.c.faint
	d.extra = append(d.extra, legendEntry{st: Style{Fill: grey, Stroke: grey, Width: 1.5}, text: "down: " + what})
	live, total, survives := d.survivors()
	var msg string
	switch {
	case d.threshold > 0 && survives:
		msg = fmt.Sprintf("%d of %d nodes live: quorums survive (any %d)", live, total, d.threshold)
	case d.threshold > 0:
		msg = fmt.Sprintf("no quorum survives: %d of %d nodes live, %d needed", live, total, d.threshold)
	case survives:
		msg = fmt.Sprintf("%d of %d quorums survive; the dead ones are grey", live, total)
	default:
		msg = fmt.Sprintf("no quorum survives: all %d are dead (grey)", total)
	}
	d.extra = append(d.extra, legendEntry{text: msg})
	if !survives {
		for i := range d.sc.Shapes {
			if s := &d.sc.Shapes[i]; s.Role == "title" {
				s.Text += "; with " + what + " down, no quorum survives"
				d.sc.Title = s.Text
				break
			}
		}
	}
}

// survivors counts the live nodes (of a threshold system) or the
// surviving quorums, out of all of them, and whether a quorum survives.
func (d *drawing) survivors() (live, total int, survives bool) {
	if d.threshold > 0 {
		for _, down := range d.down {
			if !down {
				live++
			}
		}
		return live, d.f.N, live >= d.threshold
	}
	for _, dead := range d.dead {
		if !dead {
			live++
		}
	}
	return live, len(d.dead), live > 0
}

// nodeCircles returns each node's circle (the first the layout drew), or
// nil when some node has none.
func (d *drawing) nodeCircles() []*Shape {
	pos := make([]*Shape, d.f.N)
	for i := range d.sc.Shapes {
		s := &d.sc.Shapes[i]
		if s.Kind == Circle && s.Role == "node" && s.Node > 0 && s.Node <= d.f.N && pos[s.Node-1] == nil {
			pos[s.Node-1] = s
		}
	}
	for _, s := range pos {
		if s == nil {
			return nil
		}
	}
	return pos
}

// lastLevel is the innermost level of a domain path: "rack-7" of
// "eu-west/az-b/rack-7".
func lastLevel(path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}

// outerFirst returns the domains of t by level, then path.
func outerFirst(t *domain.Tree) []int {
	var out []int
	for l := 1; l <= t.Depth(); l++ {
		out = append(out, t.AtLevel(l)...)
	}
	return out
}

// domainBoxes draws each domain as a labelled box around its nodes,
// nested like the tree, and reports whether it could: false (and nothing
// drawn) when a box would meet a node of another domain or the box of a
// domain neither above nor below it.
func (d *drawing) domainBoxes() bool {
	t := d.opts.Domains
	pos := d.nodeCircles()
	if pos == nil || t.Len() > maxDomainBoxes {
		return false
	}
	empty := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	union := func(a, b box) box {
		return box{math.Min(a.x0, b.x0), math.Min(a.y0, b.y0), math.Max(a.x1, b.x1), math.Max(a.y1, b.y1)}
	}
	boxes := make([]box, t.Len())
	var build func(dm int) box
	build = func(dm int) box {
		b := empty
		for _, v := range t.Direct(dm) {
			c := pos[v]
			b = union(b, box{c.X - c.R, c.Y - c.R, c.X + c.R, c.Y + c.R})
		}
		for _, c := range t.Children(dm) {
			b = union(b, build(c))
		}
		if math.IsInf(b.x0, 0) {
			return b
		}
		b.x0 -= domainPad
		b.x1 += domainPad
		b.y1 += domainPad
		b.y0 -= domainPad + domainLabelH
		if w := TextWidth(lastLevel(t.Path(dm)), domainFont) + 6; b.x1-b.x0 < w {
			b.x1 = b.x0 + w
		}
		boxes[dm] = b
		return b
	}
	for _, r := range t.Roots() {
		build(r)
	}
	under := make([]bool, d.f.N)
	for dm, b := range boxes {
		if math.IsInf(b.x0, 0) {
			return false
		}
		clear(under)
		for _, v := range t.Under(dm) {
			under[v] = true
		}
		for v, c := range pos {
			if !under[v] && b.circleOverlaps(Point{c.X, c.Y}, c.R) {
				return false
			}
		}
		for e := dm + 1; e < len(boxes); e++ {
			if !t.Contains(dm, e) && !t.Contains(e, dm) && b.overlaps(boxes[e]) {
				return false
			}
		}
	}
	// Keep the boxes' labels clear of the title.
	top := math.Inf(1)
	for _, b := range boxes {
		top = math.Min(top, b.y0)
	}
	const titleBottom = 22.0
	if top < titleBottom {
		dy := titleBottom - top
		for i := range d.sc.Shapes {
			if s := &d.sc.Shapes[i]; s.Role != "title" {
				s.Y += dy
				pts := make([]Point, len(s.Pts))
				for j, p := range s.Pts {
					pts[j] = Point{p.X, p.Y + dy}
				}
				if len(pts) > 0 {
					s.Pts = pts
				}
			}
		}
		for i := range d.pending {
			d.pending[i].p.Y += dy
		}
		for i := range boxes {
			boxes[i].y0 += dy
			boxes[i].y1 += dy
		}
		d.sc.H += dy
	}
	var shapes []Shape
	for _, dm := range outerFirst(t) {
		b := boxes[dm]
		st := Style{Fill: "none", Stroke: d.c.ink, Width: 1}
		ink, tip := d.c.ink, "domain "+t.Path(dm)
		if d.isDown(dm) {
			st = Style{Fill: "none", Stroke: d.c.faint, Width: 1, DashArray: "4 3"}
			ink, tip = d.c.faint, tip+", down"
		}
		shapes = append(shapes, Shape{Kind: Rect, Role: "domain", X: b.x0, Y: b.y0, W: b.x1 - b.x0, H: b.y1 - b.y0,
			Style: st, Domain: t.Path(dm), Tip: tip})
		shapes = append(shapes, Shape{Kind: Text, Role: "domain-label", X: b.x0 + 3, Y: b.y0 + domainFont + 1,
			Text: lastLevel(t.Path(dm)), Style: Style{Fill: ink, FontSize: domainFont}, Domain: t.Path(dm)})
	}
	d.sc.Shapes = append(shapes, d.sc.Shapes...)
	return true
}

// domainStyles gives each domain the colour (and dash) of its place in
// [outerFirst] order, so that no two domains share one until the colours
// and dashes run out.
func (d *drawing) domainStyles(t *domain.Tree) []Style {
	st := make([]Style, t.Len())
	for i, dm := range outerFirst(t) {
		st[dm] = d.pathStyle(i, 2)
	}
	return st
}

// domainLegend names the colour of each domain, outermost level first.
func (d *drawing) domainLegend(styles []Style, fill bool) {
	t := d.opts.Domains
	all := outerFirst(t)
	for i, dm := range all {
		if i == maxDomainLegend {
			d.extra = append(d.extra, legendEntry{text: fmt.Sprintf("… %d domains in all", len(all))})
			break
		}
		st := Style{Fill: "none", Stroke: styles[dm].Stroke, Width: 2.5, DashArray: styles[dm].DashArray}
		if fill {
			st = Style{Fill: styles[dm].Stroke}
		}
		text := "domain " + t.Path(dm)
		if d.isDown(dm) {
			text += ", down"
			if fill {
				st.Fill = d.c.faint
			}
		}
		d.extra = append(d.extra, legendEntry{st: st, text: text, domain: t.Path(dm)})
	}
}

// domainRings draws, around each node, a ring per level in the colour of
// its domain there, innermost first.
func (d *drawing) domainRings() {
	t := d.opts.Domains
	pos := d.nodeCircles()
	if pos == nil {
		return
	}
	styles := d.domainStyles(t)
	var rings []Shape
	for v, c := range pos {
		chain := t.Above(v)
		for k := range chain {
			dm := chain[len(chain)-1-k]
			st := styles[dm]
			st.Fill = "none"
			rings = append(rings, Shape{Kind: Circle, Role: "domain", X: c.X, Y: c.Y, R: c.R + 2.5 + 3*float64(k),
				Style: st, Node: v + 1, Domain: t.Path(dm), Tip: fmt.Sprintf("node %d in domain %s", v+1, t.Path(dm))})
		}
	}
	d.sc.Shapes = append(rings, d.sc.Shapes...)
	d.domainLegend(styles, false)
}

// matrixDomains marks, beside the node labels of the matrix, the rows of
// each domain with a bar in its colour, a column per level, outermost on
// the left; consecutive rows of one domain share one bar.
func (d *drawing) matrixDomains() {
	t := d.opts.Domains
	var frame *Shape
	left := math.Inf(1)
	for i := range d.sc.Shapes {
		s := &d.sc.Shapes[i]
		switch {
		case s.Role == "frame" && frame == nil:
			frame = s
			left = math.Min(left, s.X)
		case s.Role == "label" && s.Node > 0 && s.Kind == Text:
			x0, _, _, _ := TextBox(s)
			left = math.Min(left, x0)
		}
	}
	if frame == nil || d.f.N == 0 {
		return
	}
	top, cell := frame.Y, frame.H/float64(d.f.N)
	const colW, gap = 8.0, 2.0
	depth := t.Depth()
	styles := d.domainStyles(t)
	var marks []Shape
	for l := 1; l <= depth; l++ {
		x := left - 6 - float64(depth-l+1)*(colW+gap)
		at := func(v int) int {
			if chain := t.Above(v); len(chain) >= l {
				return chain[l-1]
			}
			return -1
		}
		for v := 0; v < d.f.N; {
			dm, w := at(v), v+1
			for w < d.f.N && at(w) == dm {
				w++
			}
			if dm >= 0 {
				fill := styles[dm].Stroke
				tip := fmt.Sprintf("domain %s: nodes %d–%d", t.Path(dm), v+1, w)
				if w == v+1 {
					tip = fmt.Sprintf("domain %s: node %d", t.Path(dm), v+1)
				}
				if d.isDown(dm) {
					fill, tip = d.c.faint, tip+", down"
				}
				marks = append(marks, Shape{Kind: Rect, Role: "domain", X: x, Y: top + cell*float64(v), W: colW, H: cell * float64(w-v),
					Style: Style{Fill: fill}, Domain: t.Path(dm), Tip: tip})
			}
			v = w
		}
	}
	d.sc.Shapes = append(d.sc.Shapes, marks...)
	d.domainLegend(styles, true)
}
