package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/report"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// defaultRWPoints are the p at which a read-write system's availability
// is shown.
var defaultRWPoints = []float64{0.9, 0.99}

// uploadRW answers an upload that holds a read-write system (a JSON
// object with "reads" and/or "writes", or text with "# reads" sections).
// The query may set read_fraction (default 1/2) and p (comma-separated).
// The caller holds a worker; ctx bounds the work.
func (s *Server) uploadRW(ctx context.Context, w http.ResponseWriter, r *http.Request, name string, data []byte) {
	f, ok := readRWUpload(w, name, data)
	if !ok {
		return
	}
	s.uploadRWFile(ctx, w, r, name, f)
}

// readRWUpload parses an uploaded read-write system, or answers 400 with
// the file and line of what is wrong.
func readRWUpload(w http.ResponseWriter, name string, data []byte) (*format.RWFile, bool) {
	f, err := format.ReadRWAny(data)
	if err != nil {
		var fe *format.SyntaxError
		if errors.As(err, &fe) {
			fail(w, http.StatusBadRequest, "%s:%d: %s", name, fe.Line, fe.Msg)
		} else {
			fail(w, http.StatusBadRequest, "%s: %v", name, err)
		}
		return nil, false
	}
	return f, true
}

// uploadRWFile answers an upload of the read-write system f. The caller
// holds a worker; ctx bounds the work.
func (s *Server) uploadRWFile(ctx context.Context, w http.ResponseWriter, r *http.Request, name string, f *format.RWFile) {
	q := r.URL.Query()
	frac := q.Get("read_fraction")
	if frac == "" {
		frac = "1/2"
	}
	wl, err := rw.ParseWorkload(frac)
	if err != nil {
		msg := err.Error()
		var we *rw.WorkloadError
		if errors.As(err, &we) {
			msg = we.Msg
		}
		fail(w, http.StatusBadRequest, "read_fraction: %s", msg)
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
	tree, err := uploadDomains(name, f, format.NewUniverse(f.N, f.Labels, true).Labels)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	s.run(ctx, w, r, func(ctx context.Context, progress func(string)) (any, error) {
		return s.analyzeRW(ctx, name, f, tree, wl, ps, progress)
	})
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
	sys, err := rw.NewContext(ctx, u.N, f.Reads, f.Writes, nodes)
	if err != nil {
		return nil, err
	}
	// A side held by its rule (a threshold) stays a formula.
	if f.ReadList != nil && construct.ThresholdForm(f.ReadList) == nil {
		sys.Reads.List = f.ReadList
	}
	if f.WriteList != nil && construct.ThresholdForm(f.WriteList) == nil {
		sys.Writes.List = f.WriteList
	}
	return sys, nil
}

// analyzeRW computes the figures of a read-write system.
// With failure domains (tree not nil) the figures are those under the
// domains, and the answer carries the domains, their resilience and a
// drawing with them.
func (s *Server) analyzeRW(ctx context.Context, name string, f *format.RWFile, tree *domain.Tree, wl rw.Workload, ps []float64, progress func(string)) (*Analysis, error) {
	sys, err := rwSystem(ctx, f)
	if err != nil {
		return nil, err
	}
	o := report.RWOptions{Workload: wl, Points: ps,
		Budget: s.o.Budget, AvailabilityBudget: s.o.AvailabilityBudget, Progress: stageProgress(progress)}
	rep, err := report.AnalyzeRW(ctx, name, sys, o)
	if err != nil {
		return nil, err
	}
	// The last note of the analysis says why the sides do not meet; the
	// domains add notes of their own after it.
	var why string
	if n := rep.Figures.Notes; len(n) > 0 {
		why = n[len(n)-1]
	}
	if tree != nil {
		if progress != nil {
			progress("failure domains")
		}
		if err := report.AnalyzeRWDomains(ctx, rep, tree, o); err != nil {
			return nil, err
		}
		if g := rep.ReadQuorums; g != nil {
			if sc, err := draw.Draw(set.System{Family: g}, draw.Options{Layout: "auto", Domains: tree, MaxCells: report.MaxDrawnCells}); err == nil {
				rep.Drawing = sc
			}
		}
	}
	fig := &rep.Figures
	a := &Analysis{Name: name, N: sys.N, K: 1, RW: newRWFigures(fig), Valid: fig.Intersection == nil || *fig.Intersection}
	a.Verdict = fmt.Sprintf("read-write system (n = %d): read resilience %d, write resilience %d", sys.N, fig.ReadResilience, fig.WriteResilience)
	if !a.Valid {
		a.Verdict = fmt.Sprintf("not a read-write quorum system (n = %d): %s", sys.N, why)
	}
	var sb strings.Builder
	if err := report.WriteRWSections(&sb, rep); err != nil {
		return nil, err
	}
	a.Sections = sb.String()
	if rep.Domains != nil {
		a.Domains = domainsView(rep.Domains)
	}
	a.Exact = true
	for _, av := range fig.Availability {
		a.Exact = a.Exact && av.Exact
	}
	if rep.Drawing != nil {
		var d strings.Builder
		_ = rep.Drawing.WriteSVGOptions(&d, draw.SVGOptions{Inline: true, ID: "drawing"})
		a.Drawing = d.String()
	}
	if g := rep.ReadQuorums; g != nil && memberships(g) <= maxListed {
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

// RWFigures is the JSON shape of the figures of a read-write system
// (report.RWFigures) in an [Analysis].
type RWFigures struct {
	Reads           string   `json:"reads"`
	Writes          string   `json:"writes"`
	WritesDerived   bool     `json:"writes_derived,omitempty"`
	ReadsDerived    bool     `json:"reads_derived,omitempty"`
	Intersection    *bool    `json:"intersection,omitempty"`
	ReadResilience  int      `json:"read_resilience"`
	WriteResilience int      `json:"write_resilience"`
	Resilience      int      `json:"resilience"`
	ReadFraction    string   `json:"read_fraction,omitempty"`
	Load            *float64 `json:"load,omitempty"`
	LoadExact       string   `json:"load_exact,omitempty"`
	CapacityExact   string   `json:"capacity_exact,omitempty"`
	// Availability holds, at each p, the probability that some read
	// quorum and that some write quorum is up.
	Availability []RWAvailability `json:"availability"`
	Notes        []string         `json:"notes,omitempty"`
}

// RWAvailability is the availability of reads and of writes at one p.
type RWAvailability struct {
	P      float64 `json:"p"`
	Reads  float64 `json:"reads"`
	Writes float64 `json:"writes"`
	Exact  bool    `json:"exact"`
}

func newRWFigures(f *report.RWFigures) *RWFigures {
	out := &RWFigures{Reads: f.Reads, Writes: f.Writes, WritesDerived: f.WritesDerived, ReadsDerived: f.ReadsDerived,
		Intersection: f.Intersection, ReadResilience: f.ReadResilience, WriteResilience: f.WriteResilience,
		Resilience: f.Resilience, ReadFraction: f.ReadFraction, Load: f.Load, LoadExact: f.LoadExact,
		CapacityExact: f.CapacityExact, Notes: f.Notes}
	if f.Availability != nil {
		out.Availability = make([]RWAvailability, 0, len(f.Availability))
	}
	for _, a := range f.Availability {
		out.Availability = append(out.Availability, RWAvailability{P: a.P, Reads: a.Reads, Writes: a.Writes, Exact: a.Exact})
	}
	return out
}
