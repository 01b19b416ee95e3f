package draw

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/coterie-dev/coterie/set"
)

// Layouts lists the layouts [Draw] knows, "auto" first.
var Layouts = []string{"auto", "matrix", "grid", "billiard", "plane", "cube"}

// MaxQuorums bounds the quorums a drawing enumerates: a threshold system
// (majority) with more quorums than this is refused rather than listed.
const MaxQuorums = 20000

// Options choose what [Draw] draws.
type Options struct {
	// Layout is one of [Layouts]; "" means "auto": the layout the
	// system's kind and parameters call for (grid, billiard, cube for
	// k ≤ 2, the Fano plane or a small projective plane), else the matrix;
	// a threshold system (every w-subset) is drawn as its nodes on a
	// circle, without listing its quorums, and Kuo's join as the outer
	// system with the joined node expanded into the inner one.
	Layout string
	// ShowQuorum highlights the quorum at 0-based position Quorum.
	ShowQuorum bool
	Quorum     int
	// Highlight lists 0-based nodes to mark (a witness, a failure set).
	Highlight []int
	// Labels writes each node's label (or 1-based number) beside it.
	Labels bool
}

// Colours of the drawings: a quorum in blue, highlighted nodes in red.
const (
	colInk       = "#333333"
	colFaint     = "#bbbbbb"
	colPaper     = "#ffffff"
	colQuorum    = "#1f77b4"
	colQuorumBg  = "#dbe9f6"
	colHighlight = "#d62728"
	colSite      = "#eeeeee"
)

// pathColours are the colours of billiard paths and plane lines, in turn.
var pathColours = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"}

// drawing is what every layout needs: the family and the options, checked.
type drawing struct {
	f      *set.Family
	opts   Options
	quorum *set.Set // the highlighted quorum, or nil
	sel    int      // its position, or −1
	marked []bool   // highlighted nodes
	sc     *Scene
}

// Draw returns the scene of sys under opts. An (h,k)-arbiter is drawn by
// its lowest level. It returns an error for an unknown layout, a layout
// that does not fit the system (billiard for a system that is not a
// billiard coterie), a quorum or node out of range, or a threshold system
// with more than [MaxQuorums] quorums.
func Draw(sys set.System, opts Options) (*Scene, error) {
	fams := sys.Families()
	if len(fams) == 0 || fams[0] == nil {
		return nil, errors.New("draw: empty system")
	}
	f := fams[0]
	if f.IsThreshold() && (opts.Layout == "" || opts.Layout == "auto") {
		return drawThreshold(f, opts)
	}
	if f.IsThreshold() {
		var err error
		if f, err = f.Enumerate(MaxQuorums); err != nil {
			return nil, fmt.Errorf("draw: %w", err)
		}
	}
	d := &drawing{f: f, opts: opts, marked: make([]bool, f.N), sel: -1}
	if opts.ShowQuorum {
		if opts.Quorum < 0 || opts.Quorum >= len(f.Quorums) {
			return nil, fmt.Errorf("draw: quorum %d is out of range 1..%d", opts.Quorum+1, len(f.Quorums))
		}
		d.quorum, d.sel = &f.Quorums[opts.Quorum], opts.Quorum
	}
	for _, v := range opts.Highlight {
		if v < 0 || v >= f.N {
			return nil, fmt.Errorf("draw: node %d is out of range 1..%d", v+1, f.N)
		}
		d.marked[v] = true
	}
	layout := opts.Layout
	if layout == "" || layout == "auto" {
		layout = autoLayout(f)
	}
	var err error
	switch layout {
	case "matrix":
		d.matrix()
	case "grid":
		err = d.grid()
	case "billiard":
		err = d.billiard()
	case "plane":
		err = d.plane()
	case "cube":
		err = d.cube()
	case "join":
		err = d.join()
	default:
		return nil, fmt.Errorf("draw: layout %q: want one of %v", opts.Layout, Layouts)
	}
	if err != nil {
		return nil, err
	}
	return d.sc, nil
}

// autoLayout picks the layout that shows f's structure.
func autoLayout(f *set.Family) string {
	switch f.Kind {
	case "grid":
		if _, _, ok := gridShape(f); ok {
			return "grid"
		}
	case "billiard":
		if _, ok := billiardOrder(f); ok {
			return "billiard"
		}
	case "cube":
		if _, _, ok := cubeShape(f); ok {
			return "cube"
		}
	case "join":
		if _, _, _, ok := joinShape(f); ok {
			return "join"
		}
	}
	if q, ok := planeOrder(f); ok && q <= 4 {
		return "plane"
	}
	return "matrix"
}

// inQuorum reports whether node v is in the highlighted quorum.
func (d *drawing) inQuorum(v int) bool { return d.quorum != nil && d.quorum.Has(v) }

// nodeStyle is the look of node v's circle.
func (d *drawing) nodeStyle(v int) Style {
	st := Style{Fill: colPaper, Stroke: colInk, Width: 1.5}
	if d.inQuorum(v) {
		st.Fill = colQuorum
	}
	if d.marked[v] {
		st.Fill = colHighlight
		if d.inQuorum(v) {
			st.Stroke, st.Width = colQuorum, 3
		}
	}
	return st
}

// node adds node v's circle at p, and its label when asked.
func (d *drawing) node(v int, p Point, r float64) {
	d.sc.add(Shape{Kind: Circle, Role: "node", X: p.X, Y: p.Y, R: r, Style: d.nodeStyle(v), Node: v + 1})
	if d.opts.Labels {
		d.sc.add(Shape{Kind: Text, Role: "label", X: p.X + r + 2, Y: p.Y - r - 1, Text: d.f.Label(v),
			Style: Style{Fill: colInk, FontSize: 11}, Node: v + 1})
	}
}

// title adds a caption at the top of the scene.
func (d *drawing) title(text string) {
	d.sc.Title = text
	d.sc.add(Shape{Kind: Text, Role: "title", X: 10, Y: 16, Text: text, Style: Style{Fill: colInk, FontSize: 12}})
}

// caption describes the system for a title.
func caption(f *set.Family) string {
	s := fmt.Sprintf("n = %d, %d quorums", f.N, len(f.Quorums))
	if f.Kind != "" {
		s = f.Kind + ": " + s
	}
	return s
}

// sortedQuorums returns the quorum positions ordered lexicographically by
// their node lists, which puts quorums sharing their first nodes side by
// side.
func sortedQuorums(f *set.Family) []int {
	idx := make([]int, len(f.Quorums))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return set.Compare(&f.Quorums[a], &f.Quorums[b]) })
	return idx
}

// MaxThresholdNodes bounds the nodes of a threshold system drawn on a
// circle.
const MaxThresholdNodes = 5000

// ErrThresholdQuorum is returned when Options.ShowQuorum asks for a quorum
// of a threshold system outside the matrix layout, which alone lists them.
var ErrThresholdQuorum = errors.New("draw: a threshold system's quorums are not listed: showing one needs the matrix layout")

// drawThreshold draws a threshold system, every w-subset of n nodes, as
// its nodes on a circle with the rule written in the middle.
func drawThreshold(f *set.Family, opts Options) (*Scene, error) {
	if opts.ShowQuorum {
		return nil, ErrThresholdQuorum
	}
	if f.N > MaxThresholdNodes {
		return nil, fmt.Errorf("draw: %d nodes: more than the %d a drawing shows", f.N, MaxThresholdNodes)
	}
	d := &drawing{f: f, opts: opts, marked: make([]bool, f.N), sel: -1}
	for _, v := range opts.Highlight {
		if v < 0 || v >= f.N {
			return nil, fmt.Errorf("draw: node %d is out of range 1..%d", v+1, f.N)
		}
		d.marked[v] = true
	}
	R := max(100, 5*float64(f.N)/math.Pi)
	const margin, top = 40.0, 20.0
	c := margin + R
	d.sc = &Scene{W: 2 * c, H: 2*c + top}
	d.title(fmt.Sprintf("%s: n = %d, every %d nodes form a quorum", kindOr(f.Kind, "threshold"), f.N, f.Threshold))
	d.sc.add(Shape{Kind: Circle, Role: "edge", X: c, Y: top + c, R: R, Style: Style{Stroke: colFaint, Width: 1}})
	d.sc.add(Shape{Kind: Text, Role: "label", X: c, Y: top + c + 4, Text: fmt.Sprintf("any %d of %d", f.Threshold, f.N),
		Style: Style{Fill: colInk, FontSize: 14, Anchor: "middle"}})
	r := math.Max(2, math.Min(9, 300/float64(f.N)))
	for v := range f.N {
		a := -math.Pi/2 + 2*math.Pi*float64(v)/float64(f.N)
		d.node(v, Point{c + R*math.Cos(a), top + c + R*math.Sin(a)}, r)
	}
	return d.sc, nil
}

func kindOr(kind, def string) string {
	if kind == "" {
		return def
	}
	return kind
}
