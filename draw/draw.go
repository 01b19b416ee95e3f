package draw

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Layouts returns the layouts [Draw] knows, "auto" first.
func Layouts() []string {
	return []string{"auto", "matrix", "grid", "billiard", "plane", "cube", "tree", "hqc", "rows"}
}

// Themes returns the colour themes of a drawing, the default first.
func Themes() []string { return []string{"light", "dark"} }

// MaxQuorums bounds the quorums a drawing enumerates: a threshold system
// (majority) with more quorums than this is refused rather than listed.
const MaxQuorums = 20000

// Options choose what [Draw] draws.
type Options struct {
	// Layout is one of [Layouts]; "" means "auto": the layout the
	// system's kind and parameters call for (grid for Maekawa's grid,
	// Cheung's grid protocol, the B-grid and the M-grid; billiard; cube
	// for k ≤ 2; tree; hqc as nested groups; rows for walls, the triangle
	// and the wheel; the Fano plane or a small projective plane), else the
	// matrix; a threshold system (every w-subset) is drawn as its nodes on
	// a circle, without listing its quorums, and Kuo's join as the outer
	// system with the joined node expanded into the inner one.
	Layout string
	// ShowQuorum highlights the quorum at 0-based position Quorum.
	ShowQuorum bool
	Quorum     int
	// Highlight lists 0-based nodes to mark (a witness, a failure set).
	Highlight []int
	// Labels writes each node's label beside it (every node's number is
	// written in its circle whenever it fits).
	Labels bool
	// Theme is one of [Themes]; "" is "light".
	Theme string
	// MaxCells, when positive, bounds the incidence matrix: a matrix with
	// more filled cells (memberships of nodes in quorums) is refused with
	// an error wrapping [ErrTooLarge] before any shape is made. The report
	// and the explorer set it, so that a picture nobody can read costs
	// nothing; the command line draws whatever it is asked to.
	MaxCells int
	// Domains, when not nil, are the failure domains of the nodes (over
	// the same n): each is drawn as a labelled box around its nodes,
	// nested like the tree, when the layout keeps every domain's nodes
	// apart from the others'; otherwise each node wears a coloured ring
	// per level, the colour of its domain, and the legend names the
	// colours. The matrix marks the rows of each domain beside the node
	// labels, a column per level.
	Domains *domain.Tree
	// Down lists 0-based failed nodes and DownDomains failed domains of
	// Domains (their nodes belong in Down too). Failed nodes and domains
	// are grey, and so is every shape of a quorum that holds a failed
	// node (a dead quorum); the legend names what failed and how many
	// quorums survive.
	Down        []int
	DownDomains []int
	// DownNames names what failed, as the user did ("zone-a"), for the
	// legend; nil names the failed domains and nodes.
	DownNames []string
}

// ErrTooLarge is wrapped by [Draw] when a matrix would have more than
// [Options.MaxCells] filled cells.
var ErrTooLarge = errors.New("too large to draw")

// palette is the colours of one theme.
type palette struct {
	ink, faint, paper, quorum, quorumBg, highlight, site, onFill string
	lines                                                        []string
}

// The light theme keeps the quorum blue and the highlight red of the
// earlier drawings (told apart by people with any colour vision); lines
// and paths take the Okabe–Ito colours, which stay distinct for the
// common colour-vision deficiencies, and a dash pattern of their own
// once the colours run out ([dashes]).
var themes = map[string]palette{
	"light": {ink: "#333333", faint: "#bbbbbb", paper: "#ffffff", quorum: "#1f77b4", quorumBg: "#dbe9f6",
		highlight: "#d62728", site: "#eeeeee", onFill: "#ffffff",
		lines: []string{"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#7f7f7f"}},
	"dark": {ink: "#e0e0e0", faint: "#5a5a5a", paper: "#1b1d21", quorum: "#56b4e9", quorumBg: "#1d3a52",
		highlight: "#ff6f61", site: "#2b2e33", onFill: "#000000",
		lines: []string{"#56b4e9", "#e69f00", "#009e73", "#cc79a7", "#f0e442", "#d55e00", "#aaaaaa"}},
}

// dashes are the dash patterns lines take in turn, one per round of the
// palette's colours: 7 colours × 4 patterns tell 28 lines apart (PG(2,4)
// has 21).
var dashes = []string{"", "7 3", "2 3", "9 3 2 3"}

// drawing is what every layout needs: the family and the options, checked.
type drawing struct {
	c      palette
	f      *set.Family
	opts   Options
	quorum *set.Set // the highlighted quorum, or nil
	sel    int      // its position, or −1
	marked []bool   // highlighted nodes
	sc     *Scene
	// pending are the labels [drawing.finish] places.
	pending []pendingLabel
	// layout is the layout drawn.
	layout string
	// threshold is w when the drawing is of a threshold system, every
	// w-subset of the nodes, drawn by its rule (its quorums not listed);
	// 0 otherwise.
	threshold int
	// down marks the failed nodes, dead the quorums that hold one (nil
	// without failures); extra are legend entries after the others.
	down, dead []bool
	extra      []legendEntry
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
	if sys, err := construct.Typed(f); err == nil {
		if t, ok := sys.(quorum.Thresholder); ok {
			if opts.Layout == "" || opts.Layout == "auto" {
				return drawThreshold(f, t.Threshold(), opts)
			}
			// Another layout draws the quorums: list them.
			if f, err = f.Enumerate(MaxQuorums); err != nil {
				return nil, fmt.Errorf("draw: %w", err)
			}
		}
	}
	c, err := themeOf(opts.Theme)
	if err != nil {
		return nil, err
	}
	d := &drawing{c: c, f: f, opts: opts, marked: make([]bool, f.N), sel: -1}
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
	if err := d.checkDomains(); err != nil {
		return nil, err
	}
	layout := opts.Layout
	if layout == "" || layout == "auto" {
		layout = autoLayout(f)
	}
	d.layout = layout
	switch layout {
	case "matrix":
		if opts.MaxCells > 0 {
			cells := 0
			for i := range f.Quorums {
				cells += f.Quorums[i].Len()
			}
			if cells > opts.MaxCells {
				return nil, fmt.Errorf("draw: the matrix would have %d filled cells, more than %d: %w", cells, opts.MaxCells, ErrTooLarge)
			}
		}
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
	case "tree":
		err = d.tree()
	case "hqc":
		err = d.hqc()
	case "rows":
		err = d.rows()
	default:
		return nil, fmt.Errorf("draw: layout %q: want one of %v", opts.Layout, Layouts())
	}
	if err != nil {
		return nil, err
	}
	d.decorate()
	d.finish()
	return d.sc, nil
}

// themeOf returns the palette of a theme name.
func themeOf(name string) (palette, error) {
	if name == "" {
		name = "light"
	}
	c, ok := themes[name]
	if !ok {
		return palette{}, fmt.Errorf("draw: theme %q: want one of %v", name, Themes())
	}
	return c, nil
}

// autoLayout picks the layout that shows f's structure: the one its
// construction names ([construct.Drawn], a [quorum.Drawer]) when f fits
// it, else a small projective plane, else the matrix.
func autoLayout(f *set.Family) string {
	if lay, ok := layoutOf(f); ok {
		fits := false
		switch lay.Name {
		case "grid":
			_, _, fits = gridShape(f)
		case "tree":
			_, _, fits = treeShape(f)
		case "hqc":
			_, fits = hqcShape(f)
		case "rows":
			_, fits = rowWidths(f)
		case "billiard":
			_, fits = billiardOrder(f)
		case "cube":
			_, _, fits = cubeShape(f)
		case "join":
			_, _, _, fits = joinShape(f)
		}
		if fits {
			return lay.Name
		}
	}
	if q, ok := planeOrder(f); ok && q <= 4 {
		return "plane"
	}
	return "matrix"
}

// layoutOf is the layout f's construction draws it by, as its kind and
// params claim: ok is false when it names none.
func layoutOf(f *set.Family) (quorum.Layout, bool) {
	c, ok := construct.Drawn(f)
	if !ok {
		return quorum.Layout{}, false
	}
	if dr, ok := c.(quorum.Drawer); ok {
		return dr.DrawLayout()
	}
	return quorum.Layout{}, false
}

// inQuorum reports whether node v is in the highlighted quorum.
func (d *drawing) inQuorum(v int) bool { return d.quorum != nil && d.quorum.Has(v) }

// nodeStyle is the look of node v's circle.
func (d *drawing) nodeStyle(v int) Style {
	st := Style{Fill: d.c.paper, Stroke: d.c.ink, Width: 1.5}
	if d.inQuorum(v) {
		st.Fill = d.c.quorum
	}
	if d.marked[v] {
		st.Fill = d.c.highlight
		if d.inQuorum(v) {
			st.Stroke, st.Width = d.c.quorum, 3
		}
	}
	return st
}

// nodeTip is node v's tooltip: "node 3", with its label when it has one.
func (d *drawing) nodeTip(v int) string {
	b := make([]byte, 0, 48)
	b = numbered(b, "node ", v+1, "")
	if l, ok := d.ownLabel(v); ok {
		b = append(append(append(b, " ("...), l...), ')')
	}
	if d.marked[v] {
		b = append(b, ", highlighted"...)
	}
	if d.inQuorum(v) {
		b = numbered(b, ", in quorum ", d.sel+1, "")
	}
	return string(b)
}

// ownLabel returns node v's label when it is not its number v+1.
func (d *drawing) ownLabel(v int) (string, bool) {
	if d.f.Labels == nil || v >= len(d.f.Labels) {
		return "", false // Label(v) is the number
	}
	l := d.f.Labels[v]
	return l, l != strconv.Itoa(v+1)
}

// node adds node v's circle at p with its number inside when it fits, and
// its label beside it when asked ([drawing.finish] places the labels).
func (d *drawing) node(v int, p Point, r float64) {
	st := d.nodeStyle(v)
	d.sc.add(Shape{Kind: Circle, Role: "node", X: p.X, Y: p.Y, R: r, Style: st, Node: v + 1, Tip: d.nodeTip(v)})
	num := strconv.Itoa(v + 1)
	fs := numberSize(num, r)
	inside := fs > 0
	if inside {
		fill := d.c.ink
		if st.Fill != d.c.paper {
			fill = d.c.onFill
		}
		d.sc.add(Shape{Kind: Text, Role: "number", X: p.X, Y: p.Y + fs*0.275, Text: num,
			Style: Style{Fill: fill, FontSize: fs, Anchor: "middle"}, Node: v + 1})
	}
	if d.opts.Labels && (!inside || d.f.Label(v) != num) {
		d.pending = append(d.pending, pendingLabel{v: v, p: p, r: r})
	}
}

// numberSize is the font size at which num fits in a circle of radius r
// (its box, by [TextBox], within r − 1 of the centre), or 0 when it does
// not fit at a readable size (6 or more).
func numberSize(num string, r float64) float64 {
	k := 0.31 * float64(utf8.RuneCountInString(num))
	fs := math.Min(11, (r-1)/math.Sqrt(k*k+0.525*0.525))
	if fs < 6 {
		return 0
	}
	return math.Floor(fs*10) / 10
}

// TextWidth is a generous estimate of the width of s set in a sans-serif
// font of size fs: what layouts reserve for a text, and what the tests
// check for overlaps.
func TextWidth(s string, fs float64) float64 {
	return 0.62 * fs * float64(utf8.RuneCountInString(s))
}

// title adds a caption at the top of the scene.
func (d *drawing) title(text string) {
	d.sc.Title = text
	d.sc.add(Shape{Kind: Text, Role: "title", X: 10, Y: 16, Text: text, Style: Style{Fill: d.c.ink, FontSize: 12}})
}

// pathStyle is the look of the i-th line or path: a colour of the
// palette in turn, and a dash pattern of its own for each round of the
// colours.
func (d *drawing) pathStyle(i int, width float64) Style {
	n := len(d.c.lines)
	return Style{Stroke: d.c.lines[i%n], Width: width, DashArray: dashes[(i/n)%len(dashes)]}
}

// caption describes the system for a title.
func caption(f *set.Family) string {
	return prefixed(f.Kind, fmt.Sprintf("n = %d, %d quorums", f.N, len(f.Quorums)))
}

// prefixed returns "name: s", or s alone when name is empty.
func prefixed(name, s string) string {
	if name == "" {
		return s
	}
	return name + ": " + s
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

// drawThreshold draws a threshold system f, every w-subset of its n nodes,
// as its nodes on a circle with the rule written in the middle.
func drawThreshold(f *set.Family, w int, opts Options) (*Scene, error) {
	if opts.ShowQuorum {
		return nil, ErrThresholdQuorum
	}
	if f.N > MaxThresholdNodes {
		return nil, fmt.Errorf("draw: %d nodes: more than the %d a drawing shows", f.N, MaxThresholdNodes)
	}
	c, err := themeOf(opts.Theme)
	if err != nil {
		return nil, err
	}
	d := &drawing{c: c, f: f, opts: opts, marked: make([]bool, f.N), sel: -1, threshold: w}
	for _, v := range opts.Highlight {
		if v < 0 || v >= f.N {
			return nil, fmt.Errorf("draw: node %d is out of range 1..%d", v+1, f.N)
		}
		d.marked[v] = true
	}
	if err := d.checkDomains(); err != nil {
		return nil, err
	}
	d.layout = "threshold"
	r, R, outside := ringSize(f.N, 100, d.ringLabelRoom())
	const top = 20.0
	margin := 2*r + 20
	mid := margin + R
	d.sc = &Scene{W: 2 * mid, H: 2*mid + top, Shapes: make([]Shape, 0, 2*f.N+16)}
	d.title(fmt.Sprintf("%s: n = %d, every %d nodes form a quorum", kindOr(f.Kind, "threshold"), f.N, w))
	d.sc.add(Shape{Kind: Circle, Role: "edge", X: mid, Y: top + mid, R: R, Style: Style{Stroke: d.c.faint, Width: 1}})
	d.sc.add(Shape{Kind: Text, Role: "label", X: mid, Y: top + mid + 4, Text: fmt.Sprintf("any %d of %d", w, f.N),
		Style: Style{Fill: d.c.ink, FontSize: 14, Anchor: "middle"}})
	angles, nodes := make([]float64, f.N), make([]int, f.N)
	for v := range f.N {
		a := -math.Pi/2 + 2*math.Pi*float64(v)/float64(f.N)
		angles[v], nodes[v] = a, v
		d.node(v, Point{mid + R*math.Cos(a), top + mid + R*math.Sin(a)}, r)
	}
	d.ringNumbers(Point{mid, top + mid}, R, r, angles, nodes, outside)
	d.decorate()
	d.finish()
	return d.sc, nil
}

func kindOr(kind, def string) string {
	if kind == "" {
		return def
	}
	return kind
}
