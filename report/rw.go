package report

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// RWOptions control [AnalyzeRW].
type RWOptions struct {
	// Workload is the read fraction (or distribution) of the strategy;
	// empty for none.
	Workload rw.Workload
	// Points are the p of the availability (default 0.9 and 0.99).
	Points []float64
	// Budget bounds the strategy's linear program (0: no bound); past it
	// the load is left out with a note.
	Budget time.Duration
	// AvailabilityBudget bounds the search for an exact availability of a
	// side that is not a formula using each node once; past it the
	// availability is estimated (0: no bound).
	AvailabilityBudget time.Duration
	// Progress, if not nil, is told each stage as it starts (done 0,
	// total −1).
	Progress set.Progress
}

// RWFigures are the figures of a read-write system: the resilience of each
// side, the optimal load and capacity under a workload (exact, as
// fractions), and the availability of reads and of writes.
type RWFigures struct {
	Reads           string
	Writes          string
	WritesDerived   bool
	ReadsDerived    bool
	Intersection    *bool
	ReadResilience  int
	WriteResilience int
	Resilience      int
	ReadFraction    string
	Load            *float64
	LoadExact       string
	CapacityExact   string
	// Availability holds, at each p, the probability that some read
	// quorum and that some write quorum is up.
	Availability []RWAvailability
	// Exact holds the exact 1 − AV of reads, writes and both at each p,
	// when an exact method fits (domains.go).
	Exact []RWExactPoint
	Notes []string
}

// RWAvailability is the availability of reads and of writes at one p.
type RWAvailability struct {
	P      float64
	Reads  float64
	Writes float64
	Exact  bool
}

// RWSystem is the analysis of one read-write system.
type RWSystem struct {
	Name    string
	Sys     *rw.System
	Figures RWFigures
	// Strategy is the optimal strategy under the workload, or nil.
	Strategy *rw.Strategy
	// Drawing is the read side drawn as a list of quorums, or nil when it
	// has too many to list.
	Drawing *draw.Scene
	// ReadQuorums lists the read side (nil when it has more than
	// maxDrawn quorums).
	ReadQuorums *set.Family
	// Domains are the failure domains (domains.go), or nil.
	Domains *RWDomains
}

// maxDrawn bounds the read quorums listed and drawn.
const maxDrawn = 20000

// defaultRWPoints are the p of the availability by default.
var defaultRWPoints = []float64{0.9, 0.99}

// AnalyzeRW computes the figures of a read-write system.
func AnalyzeRW(ctx context.Context, name string, sys *rw.System, o RWOptions) (*RWSystem, error) {
	if len(o.Points) == 0 {
		o.Points = defaultRWPoints
	}
	labels := make([]string, sys.N)
	for v := range labels {
		labels[v] = sys.Label(v)
	}
	out := &RWSystem{Name: name, Sys: sys}
	fig := &out.Figures
	*fig = RWFigures{Reads: sys.Reads.Expr.String(), Writes: sys.Writes.Expr.String(),
		WritesDerived: sys.WritesDerived, ReadsDerived: sys.ReadsDerived}
	ao := analysis.RWOptions{Limit: rw.DefaultListLimit, Intersection: true, Points: o.Points,
		AvailabilityTime: o.AvailabilityBudget, Progress: o.Progress}
	if len(o.Workload) > 0 {
		ao.Strategy = &rw.Options{Workload: o.Workload, Optimize: rw.MinLoad, ListLimit: rw.DefaultListLimit}
		ao.StrategyBudget, ao.StrategyOptional = o.Budget, true
	}
	res, err := analysis.ReadWrite(ctx, sys, ao)
	var fe *analysis.FigureError
	switch {
	case errors.As(err, &fe) && fe.Figure == analysis.Strategy:
		return nil, fmt.Errorf("cancelled: %w", ctx.Err())
	case errors.As(err, &fe):
		return nil, fe.Err
	case err != nil:
		return nil, err
	}
	if res.IntersectionErr != nil {
		fig.Notes = append(fig.Notes, "intersection not checked: "+res.IntersectionErr.Error())
	} else if m := res.Intersection; m != nil {
		fig.Intersection = &m.OK
		if !m.OK {
			fig.Notes = append(fig.Notes, fmt.Sprintf("read quorum %s misses write quorum %s", nodeNames(m.Read, labels), nodeNames(m.Write, labels)))
		}
	}
	fig.ReadResilience, fig.WriteResilience, fig.Resilience = res.Read.F, res.Write.F, min(res.Read.F, res.Write.F)
	if len(o.Workload) > 0 {
		fig.ReadFraction = o.Workload.String()
		if m := res.Metrics; m != nil {
			l, _ := m.Load.Float64()
			fig.Load, fig.LoadExact = &l, m.Load.RatString()
			if m.Capacity != nil && m.Capacity.Sign() > 0 {
				fig.CapacityExact = m.Capacity.RatString()
			}
			out.Strategy = res.Strategy
		} else {
			fig.Notes = append(fig.Notes, "load: "+res.StrategyErr.Error())
		}
	}
	fig.Availability = make([]RWAvailability, len(res.Availability))
	for i, pt := range res.Availability {
		fig.Availability[i] = RWAvailability(pt)
	}
	fig.Exact, _ = rwExact(ctx, sys, nil, o.Points, exactBudget) // too large: the figures above stand alone
	if rf, err := sys.Reads.FamilyContext(ctx, sys.N, maxDrawn); err == nil {
		g := rf.Clone()
		g.K, g.H, g.Labels = 1, 0, labels
		out.ReadQuorums = g
		if sc, err := draw.Draw(set.System{Family: g}, draw.Options{Layout: "auto"}); err == nil {
			out.Drawing = sc
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cancelled: %w", err)
	}
	return out, nil
}

// nodeNames prints a set of nodes with labels: {a, b}.
func nodeNames(q *set.Set, labels []string) string {
	var parts []string
	for v := range q.All() {
		parts = append(parts, labels[v])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// exactText shows a fraction with its decimal value: "3/8 ≈ 0.375".
func exactText(s string) string {
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.IsInt() {
		return s
	}
	return rat(r)
}

// rwTables are a read-write system's figures and its strategy.
func rwTables(s *RWSystem) (figures, strategy table) {
	fig := &s.Figures
	figures.head = []string{"figure", "value"}
	row := func(k, v string) { figures.rows = append(figures.rows, []string{k, v}) }
	reads, writes := fig.Reads, fig.Writes
	if fig.ReadsDerived {
		reads += " (the dual of the writes)"
	}
	if fig.WritesDerived {
		writes += " (the dual of the reads)"
	}
	row("reads", reads)
	row("writes", writes)
	if fig.Intersection != nil {
		row("reads meet writes", strconv.FormatBool(*fig.Intersection))
	}
	row("read resilience", strconv.Itoa(fig.ReadResilience))
	row("write resilience", strconv.Itoa(fig.WriteResilience))
	row("resilience", strconv.Itoa(fig.Resilience))
	if fig.LoadExact != "" {
		row("load at read fraction "+fig.ReadFraction, exactText(fig.LoadExact))
	}
	if fig.CapacityExact != "" {
		row("capacity at read fraction "+fig.ReadFraction, exactText(fig.CapacityExact))
	}
	if fig.Exact != nil {
		figures.rows = append(figures.rows, exactRows(fig.Exact)...)
	}
	for _, a := range fig.Availability {
		if fig.Exact != nil {
			break
		}
		mark := ""
		if !a.Exact {
			mark = "≈"
		}
		pv := fl(a.P)
		row("reads available at p = "+pv, mark+strconv.FormatFloat(a.Reads, 'f', 6, 64))
		row("writes available at p = "+pv, mark+strconv.FormatFloat(a.Writes, 'f', 6, 64))
	}
	for _, n := range fig.Notes {
		row("note", n)
	}
	if st := s.Strategy; st != nil {
		strategy.head = []string{"side", "quorum", "probability"}
		if st.Uniform {
			strategy.rows = append(strategy.rows, []string{"both", "uniform over the smallest quorums of each side", ""})
		}
		for _, c := range []struct {
			side string
			in   []rw.Choice
		}{{"read", st.Reads}, {"write", st.Writes}} {
			for _, ch := range c.in {
				var parts []string
				for v := range ch.Quorum.All() {
					parts = append(parts, s.Sys.Label(v))
				}
				strategy.rows = append(strategy.rows, []string{c.side, "{" + strings.Join(parts, ", ") + "}", ch.P.RatString()})
			}
		}
	}
	return figures, strategy
}

// WriteRWSections writes the HTML sections on one read-write system (its
// figures and strategy, without the drawing), for a page that has them.
func WriteRWSections(w io.Writer, s *RWSystem) error {
	hw := htmlWriter{bufio.NewWriter(w)}
	hw.rwBody(s)
	return hw.Flush()
}

func (hw htmlWriter) rwBody(s *RWSystem) {
	figures, strategy := rwTables(s)
	hw.p("<h3>Read-write figures</h3>\n")
	hw.table(figures)
	if strategy.head != nil {
		hw.p("<h3>Optimal strategy at read fraction %s</h3>\n", html.EscapeString(s.Figures.ReadFraction))
		hw.table(strategy)
	}
	if s.Domains != nil {
		tree, res, whatIf := domainTables(s)
		hw.p("<h3>Failure domains</h3>\n")
		hw.table(tree)
		hw.p("<h3>Domain resilience</h3>\n")
		hw.table(res)
		hw.p("<h3>What if a top-level domain is down</h3>\n")
		hw.table(whatIf)
	}
}

// WriteRWHTML writes the report on read-write systems as one
// self-contained HTML page: for each, the read side drawn, the figures and
// the optimal strategy.
func WriteRWHTML(w io.Writer, systems []*RWSystem) error {
	hw := htmlWriter{bufio.NewWriter(w)}
	e := html.EscapeString
	hw.p("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>coterie report</title>\n<style>%s</style>\n</head>\n<body>\n", css)
	hw.p("<h1>Read-write quorum systems</h1>\n<ul class=\"toc\">\n")
	for i, s := range systems {
		hw.p("<li><a href=\"#system-%d\">%s</a></li>\n", i+1, e(s.Name))
	}
	hw.p("</ul>\n")
	for i, s := range systems {
		hw.p("<section class=\"system\" id=\"system-%d\">\n<h2>%s</h2>\n<p>n = %d</p>\n", i+1, e(s.Name), s.Sys.N)
		if s.Drawing != nil {
			hw.p("<h3>Read quorums</h3>\n")
			hw.svg(s.Drawing, fmt.Sprintf("system-%d-drawing", i+1))
		}
		hw.rwBody(s)
		hw.p("</section>\n")
	}
	hw.p("<footer><p>Made by coterie.</p></footer>\n</body>\n</html>\n")
	return hw.Flush()
}

// WriteRWMarkdown writes the report on read-write systems as Markdown.
func WriteRWMarkdown(w io.Writer, systems []*RWSystem) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	tableMD := func(t table) { writeTableMD(bw, t) }
	p("# Read-write quorum systems\n")
	for _, s := range systems {
		p("\n## %s\n\nn = %d\n\n### Figures\n", md(s.Name), s.Sys.N)
		figures, strategy := rwTables(s)
		tableMD(figures)
		if strategy.head != nil {
			p("### Optimal strategy at read fraction %s\n", md(s.Figures.ReadFraction))
			tableMD(strategy)
		}
		if s.Domains != nil {
			tree, res, whatIf := domainTables(s)
			p("### Failure domains\n")
			tableMD(tree)
			p("### Domain resilience\n")
			tableMD(res)
			p("### What if a top-level domain is down\n")
			tableMD(whatIf)
		}
	}
	return bw.Flush()
}
