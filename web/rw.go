package web

import (
	"context"
	"errors"
	"fmt"
	"html"
	"math/big"
	"net/http"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// RWFigures are the explorer's figures on a read-write system: the
// resilience of each side, the optimal load and capacity at a read
// fraction (exact, as fractions), and the availability of reads and of
// writes.
type RWFigures struct {
	Reads           string   `json:"reads"`
	Writes          string   `json:"writes"`
	WritesDerived   bool     `json:"writes_derived,omitempty"`
	ReadsDerived    bool     `json:"reads_derived,omitempty"`
	Intersection    *bool    `json:"intersection,omitempty"`
	ReadResilience  int      `json:"read_resilience"`
	WriteResilience int      `json:"write_resilience"`
	Resilience      int      `json:"resilience"`
	ReadFraction    string   `json:"read_fraction"`
	Load            *float64 `json:"load,omitempty"`
	LoadExact       string   `json:"load_exact,omitempty"`
	CapacityExact   string   `json:"capacity_exact,omitempty"`
	// Availability holds, at each p, the probability that a read quorum
	// and that a write quorum is up.
	Availability []RWAvailability `json:"availability"`
	Notes        []string         `json:"notes,omitempty"`
}

// RWAvailability is the availability of reads and writes at one p.
type RWAvailability struct {
	P      float64 `json:"p"`
	Reads  float64 `json:"reads"`
	Writes float64 `json:"writes"`
	Exact  bool    `json:"exact"`
}

// defaultRWPoints are the p at which a read-write system's availability
// is shown.
var defaultRWPoints = []float64{0.9, 0.99}

// uploadRW answers an upload that holds a read-write system (a JSON
// object with "reads" and/or "writes", or text with "# reads" sections).
// The query may set read_fraction (default 1/2) and p (comma-separated).
func (s *Server) uploadRW(w http.ResponseWriter, r *http.Request, name string, data []byte) {
	read := format.ReadRW
	if !format.IsRW(data) {
		read = format.ReadRWText
	}
	f, err := read(data)
	if err != nil {
		var fe *format.SyntaxError
		if errors.As(err, &fe) {
			fail(w, http.StatusBadRequest, "%s:%d: %s", name, fe.Line, fe.Msg)
		} else {
			fail(w, http.StatusBadRequest, "%s: %v", name, err)
		}
		return
	}
	q := r.URL.Query()
	frac := q.Get("read_fraction")
	if frac == "" {
		frac = "1/2"
	}
	wl, err := rw.ParseWorkload(frac)
	if err != nil {
		fail(w, http.StatusBadRequest, "read_fraction: %s", strings.TrimPrefix(err.Error(), "rw: "))
		return
	}
	ps := defaultRWPoints
	if v := q.Get("p"); v != "" {
		ps = nil
		for part := range strings.SplitSeq(v, ",") {
			p, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
			if err != nil || !(p >= 0 && p <= 1) {
				fail(w, http.StatusBadRequest, "p: %q is not a probability", part)
				return
			}
			ps = append(ps, p)
		}
	}
	if f.N > s.o.MaxNodes {
		fail(w, http.StatusBadRequest, "%s: %d nodes, more than the explorer's limit of %d (use the command line)", name, f.N, s.o.MaxNodes)
		return
	}
	ctx := r.Context()
	progress, reply := streamer(w, r)
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-ctx.Done():
		reply(http.StatusServiceUnavailable, apiError{Error: "cancelled while waiting: " + ctx.Err().Error()})
		return
	}
	a, err := s.analyzeRW(ctx, name, f, wl, ps, progress)
	if err != nil {
		code := http.StatusBadRequest
		if ctx.Err() != nil {
			code = http.StatusServiceUnavailable
		}
		reply(code, apiError{Error: err.Error()})
		return
	}
	reply(http.StatusOK, a)
}

// rwSystem builds the system of a read-write file: a side listed in the
// file keeps its list; a missing side is the dual of the other.
func rwSystem(ctx context.Context, f *format.RWFile) (*rw.System, error) {
	u := format.NewUniverse(f.N, f.Labels, true)
	nodes := rw.DefaultNodes(u.N)
	for v := range nodes {
		nodes[v].Label = u.Labels[v]
	}
	if f.ReadList != nil && (f.WriteList != nil || f.Writes == nil) {
		f.ReadList.Labels = u.Labels
		return rw.FromFamilies(ctx, f.ReadList, f.WriteList, nodes)
	}
	sys, err := rw.New(u.N, f.Reads, f.Writes, nodes)
	if err != nil {
		return nil, err
	}
	if f.ReadList != nil && !f.ReadList.IsThreshold() {
		sys.Reads.List = f.ReadList
	}
	if f.WriteList != nil && !f.WriteList.IsThreshold() {
		sys.Writes.List = f.WriteList
	}
	return sys, nil
}

// analyzeRW computes the figures of a read-write system.
func (s *Server) analyzeRW(ctx context.Context, name string, f *format.RWFile, wl rw.Workload, ps []float64, progress func(string)) (*Analysis, error) {
	step := func(stage string) {
		if progress != nil {
			progress(stage)
		}
	}
	sys, err := rwSystem(ctx, f)
	if err != nil {
		return nil, err
	}
	labels := make([]string, sys.N)
	for v := range labels {
		labels[v] = sys.Label(v)
	}
	fig := &RWFigures{Reads: sys.Reads.Expr.String(), Writes: sys.Writes.Expr.String(),
		WritesDerived: sys.WritesDerived, ReadsDerived: sys.ReadsDerived, ReadFraction: wl.String()}
	if !sys.WritesDerived && !sys.ReadsDerived {
		step("intersection")
		res, err := sys.ReadWrite(ctx, rw.DefaultListLimit)
		if err != nil {
			fig.Notes = append(fig.Notes, "intersection not checked: "+err.Error())
		} else {
			fig.Intersection = &res.OK
			if !res.OK {
				fig.Notes = append(fig.Notes, fmt.Sprintf("read quorum %s misses write quorum %s", nodeList(res.Read, labels), nodeList(res.Write, labels)))
			}
		}
	}
	step("resilience")
	rr, err := sys.ReadResilience(ctx)
	if err != nil {
		return nil, err
	}
	wr, err := sys.WriteResilience(ctx)
	if err != nil {
		return nil, err
	}
	fig.ReadResilience, fig.WriteResilience, fig.Resilience = rr.F, wr.F, min(rr.F, wr.F)
	step("load")
	lctx, cancel := context.WithTimeout(ctx, s.o.Budget)
	_, m, err := sys.Optimal(lctx, rw.Options{Workload: wl, Optimize: rw.MinLoad, ListLimit: rw.DefaultListLimit})
	cancel()
	switch {
	case err == nil:
		l, _ := m.Load.Float64()
		fig.Load, fig.LoadExact = &l, m.Load.RatString()
		if m.Capacity != nil && m.Capacity.Sign() > 0 {
			fig.CapacityExact = m.Capacity.RatString()
		}
	case ctx.Err() != nil:
		return nil, fmt.Errorf("cancelled: %w", ctx.Err())
	default:
		fig.Notes = append(fig.Notes, "load: "+err.Error())
	}
	step("availability")
	if fig.Availability, err = s.rwAvailability(ctx, sys, ps); err != nil {
		return nil, err
	}
	a := &Analysis{Name: name, N: sys.N, K: 1, RW: fig, Valid: fig.Intersection == nil || *fig.Intersection}
	a.Verdict = fmt.Sprintf("read-write system (n = %d): read resilience %d, write resilience %d", sys.N, rr.F, wr.F)
	if !a.Valid {
		a.Verdict = fmt.Sprintf("not a read-write quorum system (n = %d): %s", sys.N, fig.Notes[len(fig.Notes)-1])
	}
	a.Sections = rwSections(fig)
	a.Exact = true
	for _, av := range fig.Availability {
		a.Exact = a.Exact && av.Exact
	}
	// The read side drawn and listed, when it has a list small enough.
	if rf, err := sys.Reads.Family(sys.N, 20000); err == nil {
		g := rf.Clone()
		g.K, g.H, g.Labels = 1, 0, labels
		if sc, err := draw.Draw(set.System{Family: g}, draw.Options{Layout: "auto"}); err == nil {
			var sb strings.Builder
			_ = sc.WriteSVGOptions(&sb, draw.SVGOptions{Inline: true, ID: "drawing"})
			a.Drawing = sb.String()
		}
		for i := range g.Quorums {
			q := g.Quorums[i].Elements()
			for j := range q {
				q[j]++
			}
			a.Quorums = append(a.Quorums, q)
		}
	}
	return a, nil
}

// rwAvailability is the availability of each side at each p: by
// independence for a side that uses each node once, otherwise from its
// listed quorums (estimated past the availability budget).
func (s *Server) rwAvailability(ctx context.Context, sys *rw.System, ps []float64) ([]RWAvailability, error) {
	out := make([]RWAvailability, len(ps))
	for i, p := range ps {
		out[i] = RWAvailability{P: p, Exact: true}
	}
	for side, sd := range []*rw.Side{&sys.Reads, &sys.Writes} {
		vals := make([]float64, len(ps))
		exact := true
		if e := sd.Expr; e.ReadOnce() {
			for i, p := range ps {
				vals[i] = e.Probability(func(int) float64 { return p })
			}
		} else {
			fam, err := sd.Family(sys.N, rw.DefaultListLimit)
			if err != nil {
				return nil, err
			}
			res, err := availability.Compute(ctx, fam, availability.Options{Time: s.o.AvailabilityBudget})
			if err != nil {
				return nil, err
			}
			pts, err := res.Evaluate(ctx, ps, availability.EvalOptions{Seed: 1})
			if err != nil {
				return nil, err
			}
			for i, pt := range pts {
				vals[i] = pt.AV
				exact = exact && pt.Exact
			}
		}
		for i, v := range vals {
			if side == 0 {
				out[i].Reads = v
			} else {
				out[i].Writes = v
			}
			out[i].Exact = out[i].Exact && exact
		}
	}
	return out, nil
}

// nodeList prints a set of nodes with labels: {a, b}.
func nodeList(q *set.Set, labels []string) string {
	var parts []string
	for v := range q.All() {
		parts = append(parts, labels[v])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// rwSections is the HTML of a read-write system's figures.
func rwSections(fig *RWFigures) string {
	var b strings.Builder
	row := func(k, v string) {
		fmt.Fprintf(&b, "<tr><th>%s</th><td>%s</td></tr>\n", html.EscapeString(k), html.EscapeString(v))
	}
	b.WriteString("<section class=\"rw\"><h3>Read-write figures</h3>\n<table>\n")
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
	for _, a := range fig.Availability {
		mark := ""
		if !a.Exact {
			mark = "≈"
		}
		pv := strconv.FormatFloat(a.P, 'g', -1, 64)
		row("reads available at p = "+pv, mark+strconv.FormatFloat(a.Reads, 'f', 6, 64))
		row("writes available at p = "+pv, mark+strconv.FormatFloat(a.Writes, 'f', 6, 64))
	}
	for _, n := range fig.Notes {
		row("note", n)
	}
	b.WriteString("</table></section>\n")
	return b.String()
}

// exactText shows a fraction with its decimal value: 3/8 ≈ 0.375.
func exactText(s string) string {
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.IsInt() {
		return s
	}
	f, _ := r.Float64()
	return s + " ≈ " + strconv.FormatFloat(f, 'g', 6, 64)
}
