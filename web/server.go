package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/report"
	"github.com/coterie-dev/coterie/set"
)

//go:embed assets
var assets embed.FS

// Options configure a [Server]. Zero values take the defaults.
type Options struct {
	// MaxBody bounds a request body (an uploaded file); larger requests
	// get 413. Default 4 MiB.
	MaxBody int64
	// MaxNodes bounds the systems the explorer analyses. Default 1500
	// (PG(2,37) has 1407 points).
	MaxNodes int
	// Budget bounds each long figure of an analysis (see report.Options);
	// Timeout bounds a whole request. Defaults 2 s and 30 s.
	Budget, Timeout time.Duration
	// AvailabilityBudget bounds the exact availability; past it the
	// explorer shows a Monte Carlo estimate. Default 50 ms, so that a
	// construction change is answered at once.
	AvailabilityBudget time.Duration
	// Workers is how many analyses may run at once. Default 2.
	Workers int
	// Cache is how many analysed systems are kept for downloads. Default 64.
	Cache int
}

// Server is the explorer's http.Handler.
type Server struct {
	o    Options
	mux  *http.ServeMux
	sem  chan struct{}
	mu   sync.Mutex
	keep map[string]*entry
	fifo []string
}

// entry is an analysed system kept for downloads and reports.
type entry struct {
	name string
	sys  set.System
	rep  *report.System
}

// New returns a Server with the options o.
func New(o Options) *Server {
	if o.MaxBody <= 0 {
		o.MaxBody = 4 << 20
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = 1500
	}
	if o.Budget <= 0 {
		o.Budget = 2 * time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.AvailabilityBudget <= 0 {
		o.AvailabilityBudget = 50 * time.Millisecond
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.Cache <= 0 {
		o.Cache = 64
	}
	s := &Server{o: o, mux: http.NewServeMux(), sem: make(chan struct{}, o.Workers), keep: map[string]*entry{}}
	static, _ := fs.Sub(assets, "assets")
	s.mux.Handle("GET /", http.FileServerFS(static))
	s.mux.HandleFunc("GET /api/constructions", s.constructions)
	s.mux.HandleFunc("POST /api/generate", s.generate)
	s.mux.HandleFunc("POST /api/upload", s.upload)
	s.mux.HandleFunc("GET /api/system/{id}", s.download)
	s.mux.HandleFunc("GET /api/report", s.report)
	s.mux.HandleFunc("POST /api/exact/{id}", s.exact)
	s.mux.HandleFunc("GET /api/curve/{id}", s.curve)
	s.mux.HandleFunc("POST /api/sides", s.sides)
	return s
}

// ServeHTTP limits the body and the time of every request, then serves it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, s.o.MaxBody)
	ctx, cancel := context.WithTimeout(r.Context(), s.o.Timeout)
	defer cancel()
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r.WithContext(ctx))
}

// apiError is the JSON body of a failed request.
type apiError struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	_ = enc.Encode(v)
}

func fail(w http.ResponseWriter, code int, format string, args ...any) {
	writeJSON(w, code, apiError{Error: fmt.Sprintf(format, args...)})
}

// readBody reads a limited body; a body over the limit is answered with
// 413 and false.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	data, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		fail(w, http.StatusRequestEntityTooLarge, "request body larger than %d bytes", mbe.Limit)
		return nil, false
	case err != nil:
		fail(w, http.StatusBadRequest, "reading the request: %v", err)
		return nil, false
	}
	return data, true
}

// paramJSON describes a construction parameter to the page.
type paramJSON struct {
	Name     string `json:"name"`
	Usage    string `json:"usage"`
	Type     string `json:"type"`
	Default  any    `json:"default"`
	Required bool   `json:"required"`
	Min      int    `json:"min"`
	Max      int    `json:"max"`
}

type specJSON struct {
	Name    string      `json:"name"`
	Summary string      `json:"summary"`
	Source  string      `json:"source"`
	Params  []paramJSON `json:"params"`
}

func (s *Server) constructions(w http.ResponseWriter, r *http.Request) {
	var out []specJSON
	for _, sp := range construct.Specs() {
		js := specJSON{Name: sp.Name, Summary: sp.Summary, Source: sp.Source, Params: []paramJSON{}}
		for _, p := range sp.Params {
			t := [...]string{construct.Int: "int", construct.Bool: "bool", construct.String: "string"}[p.Type]
			js.Params = append(js.Params, paramJSON{Name: p.Name, Usage: p.Usage, Type: t, Default: p.Default,
				Required: p.Required, Min: p.Min, Max: p.Max})
		}
		out = append(out, js)
	}
	writeJSON(w, http.StatusOK, out)
}

// generateRequest asks for a construction: params are strings as typed
// in the form; empty ones are left to their defaults.
type generateRequest struct {
	Kind   string            `json:"kind"`
	Params map[string]string `json:"params"`
}

func (s *Server) generate(w http.ResponseWriter, r *http.Request) {
	data, ok := readBody(w, r)
	if !ok {
		return
	}
	var req generateRequest
	if err := json.Unmarshal(data, &req); err != nil {
		fail(w, http.StatusBadRequest, "malformed request: %v", err)
		return
	}
	spec, ok := construct.Lookup(req.Kind)
	if !ok {
		fail(w, http.StatusBadRequest, "no construction %q", req.Kind)
		return
	}
	vals := map[string]any{}
	names := make([]string, 0, len(req.Params))
	for name := range req.Params {
		names = append(names, name)
	}
	slices.Sort(names)
	var label []string
	for _, name := range names {
		raw := strings.TrimSpace(req.Params[name])
		i := slices.IndexFunc(spec.Params, func(p construct.Param) bool { return p.Name == name })
		if raw == "" || i < 0 {
			if i < 0 {
				fail(w, http.StatusBadRequest, "%s has no parameter --%s", spec.Name, name)
				return
			}
			continue
		}
		switch spec.Params[i].Type {
		case construct.Int:
			v, err := strconv.Atoi(raw)
			if err != nil {
				fail(w, http.StatusBadRequest, "--%s %q: want an integer", name, raw)
				return
			}
			vals[name] = v
		case construct.Bool:
			vals[name] = raw == "true" || raw == "on" || raw == "1"
		default:
			vals[name] = raw
		}
		label = append(label, name+"="+raw)
	}
	args, err := construct.NewArgs(spec, vals)
	if err != nil {
		fail(w, http.StatusBadRequest, "%s", construct.Describe(err, "", nil))
		return
	}
	if err := s.checkSize(spec, vals); err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	sys, err := spec.Build(args)
	if err != nil {
		fail(w, http.StatusBadRequest, "%s", construct.Describe(err, "", nil))
		return
	}
	s.analyzeAndReply(w, r, spec.Name+" "+strings.Join(label, " "), sys)
}

// checkSize refuses, before building, the constructions whose size a
// parameter makes too large for the explorer: an order, a side, a grid's
// rows × columns or a node count beyond MaxNodes. (Constructions refuse
// what would not fit in memory on their own.)
func (s *Server) checkSize(spec construct.Spec, vals map[string]any) error {
	rows, ok1 := vals["rows"].(int)
	cols, ok2 := vals["cols"].(int)
	if ok1 && ok2 && int64(rows)*int64(cols) > int64(s.o.MaxNodes) {
		return fmt.Errorf("%s: %d × %d is more than %d nodes, the explorer's limit (use the command line)", spec.Name, rows, cols, s.o.MaxNodes)
	}
	for name, v := range vals {
		i, ok := v.(int)
		if !ok {
			continue
		}
		size := i
		switch name {
		case "order":
			size = i*i + i + 1
		case "q":
			size = i * i / 2
		}
		if size > s.o.MaxNodes {
			return fmt.Errorf("--%s %d gives more than %d nodes, the explorer's limit (use the command line)", name, i, s.o.MaxNodes)
		}
	}
	return nil
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	data, ok := readBody(w, r)
	if !ok {
		return
	}
	name := r.URL.Query().Get("name")
	if name == "" {
		name = "pasted"
	}
	if s.uploadConfig(w, r, name, data) {
		return
	}
	if format.IsRWAny(data) {
		s.uploadRW(w, r, name, data)
		return
	}
	f, ok := format.Detect(name)
	if !ok {
		f = format.Sniff(data)
	}
	opt := format.DefaultOptions()
	opt.Name = name
	sys, err := format.ReadBytes(data, f, opt)
	if err != nil {
		// A format.SyntaxError names the file and line itself, as on the
		// command line.
		var fe *format.SyntaxError
		if errors.As(err, &fe) {
			fail(w, http.StatusBadRequest, "%s", err.Error())
		} else {
			fail(w, http.StatusBadRequest, "%s: %v", name, err)
		}
		return
	}
	s.analyzeAndReply(w, r, name, sys)
}

// Analysis is the explorer's answer on one system.
type Analysis struct {
	ID       string     `json:"id"`
	Name     string     `json:"name"`
	N        int        `json:"n"`
	K        int        `json:"k"`
	Kind     string     `json:"kind,omitempty"`
	Verdict  string     `json:"verdict"`
	Valid    bool       `json:"valid"`
	Sections string     `json:"sections"` // the report's HTML for this system
	Drawing  string     `json:"drawing"`  // inline SVG
	Quorums  [][]int    `json:"quorums,omitempty"`
	Owners   []int      `json:"owners,omitempty"`
	Thresh   int        `json:"threshold,omitempty"`
	Compare  []string   `json:"compare"` // the comparison row
	Head     []string   `json:"compare_head"`
	Nines    []NinesRow `json:"nines"`
	// Exact reports that the availability is exact (not an estimate).
	Exact bool `json:"exact"`
	// RW holds the figures of a read-write system (then ID is empty: it
	// is not kept for downloads).
	RW *report.RWFigures `json:"rw,omitempty"`
}

// NinesRow is the availability at one p.
type NinesRow struct {
	P     float64 `json:"p"`
	AV    string  `json:"av"`
	Nines string  `json:"nines"`
}

func (s *Server) analyzeAndReply(w http.ResponseWriter, r *http.Request, name string, sys set.System) {
	if sys.N() > s.o.MaxNodes {
		fail(w, http.StatusBadRequest, "%s: %d nodes, more than the explorer's limit of %d (use the command line)", name, sys.N(), s.o.MaxNodes)
		return
	}
	s.work(w, r, func(ctx context.Context, progress func(string)) (any, error) {
		return s.analyze(ctx, name, sys, progress)
	})
}

// work answers r with what do makes once a worker is free, streaming its
// progress when asked (see [streamer]).
func (s *Server) work(w http.ResponseWriter, r *http.Request, do func(ctx context.Context, progress func(string)) (any, error)) {
	ctx := r.Context()
	progress, reply := streamer(w, r)
	if !s.acquire(ctx, reply) {
		return
	}
	defer s.release()
	a, err := do(ctx, progress)
	if err != nil {
		replyError(ctx, reply, err)
		return
	}
	reply(http.StatusOK, a)
}

// replyError answers with err: 503 when the request has gone (the client
// left or its time ran out), otherwise 400.
func replyError(ctx context.Context, reply func(code int, v any), err error) {
	code := http.StatusBadRequest
	if ctx.Err() != nil {
		code = http.StatusServiceUnavailable
	}
	reply(code, apiError{Error: err.Error()})
}

// streamer sets up the answer to r: with ?stream=1 NDJSON, progress
// lines {"progress": stage} as the work goes, then {"result": ...} or
// {"error": ...}; otherwise one JSON value. progress is nil when not
// streaming.
// acquire waits for one of the analyses that may run at once; when ctx
// ends first it replies 503 and reports false. A true return must be
// followed by release.
func (s *Server) acquire(ctx context.Context, reply func(code int, v any)) bool {
	select {
	case s.sem <- struct{}{}:
		return true
	case <-ctx.Done():
		reply(http.StatusServiceUnavailable, apiError{Error: "cancelled while waiting: " + ctx.Err().Error()})
		return false
	}
}

// release ends an analysis begun by acquire.
func (s *Server) release() { <-s.sem }

func streamer(w http.ResponseWriter, r *http.Request) (progress func(string), reply func(code int, v any)) {
	if r.URL.Query().Get("stream") != "1" {
		return nil, func(code int, v any) { writeJSON(w, code, v) }
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	enc := json.NewEncoder(w)
	progress = func(stage string) {
		_ = enc.Encode(map[string]string{"progress": stage})
		_ = rc.Flush()
	}
	progress("waiting for a worker")
	reply = func(code int, v any) {
		if e, ok := v.(apiError); ok {
			_ = enc.Encode(e)
			return
		}
		_ = enc.Encode(map[string]any{"result": v})
	}
	return progress, reply
}

// exact looks for the exact availability of a kept system for as long as
// the request allows, streaming the availability computation's progress,
// and answers with the system's analysis updated.
func (s *Server) exact(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	e, ok := s.lookup(id)
	if !ok {
		fail(w, http.StatusNotFound, "no such system (analyse it again)")
		return
	}
	ctx := r.Context()
	progress, reply := streamer(w, r)
	if !s.acquire(ctx, reply) {
		return
	}
	defer s.release()
	if err := ctx.Err(); err != nil {
		// The client has gone: do not start (the cheap exact methods do
		// not look at the context).
		reply(http.StatusServiceUnavailable, apiError{Error: "cancelled: " + err.Error()})
		return
	}
	var avProgress availability.Progress
	if progress != nil {
		last := ""
		avProgress = func(stage string, done, total int64) {
			msg := stage
			if total > 0 {
				msg = fmt.Sprintf("%s: %d%%", stage, done*100/total)
			}
			if msg != last {
				last = msg
				progress(msg)
			}
		}
	}
	rep, err := e.rep.WithExactAvailability(ctx, avProgress)
	if err != nil {
		replyError(ctx, reply, err)
		return
	}
	s.mu.Lock()
	if cur, ok := s.keep[id]; ok {
		cur.rep = rep
	}
	s.mu.Unlock()
	a, err := answer(id, e.name, e.sys, rep)
	if err != nil {
		reply(http.StatusInternalServerError, apiError{Error: err.Error()})
		return
	}
	reply(http.StatusOK, a)
}

// analyze runs the report's analysis on sys and keeps it for downloads.
func (s *Server) analyze(ctx context.Context, name string, sys set.System, progress func(string)) (*Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cancelled: %w", err)
	}
	rep, err := report.Analyze(ctx, name, sys, report.Options{Budget: s.o.Budget,
		AvailabilityBudget: s.o.AvailabilityBudget, Progress: stageProgress(progress)})
	if err != nil {
		return nil, err
	}
	var canon bytes.Buffer
	if err := format.Write(&canon, sys, format.JSON, format.DefaultOptions()); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(canon.Bytes())
	id := hex.EncodeToString(sum[:8])
	s.mu.Lock()
	if _, ok := s.keep[id]; !ok {
		s.fifo = append(s.fifo, id)
		if len(s.fifo) > s.o.Cache {
			delete(s.keep, s.fifo[0])
			s.fifo = s.fifo[1:]
		}
	}
	s.keep[id] = &entry{name: name, sys: sys, rep: rep}
	s.mu.Unlock()
	return answer(id, name, sys, rep)
}

// answer is the page's view of an analysed system.
func answer(id, name string, sys set.System, rep *report.System) (*Analysis, error) {
	a := &Analysis{ID: id, Name: name, N: sys.N(), K: sys.K(), Kind: sys.Kind(),
		Verdict: report.Verdict(sys, rep.Verify), Valid: rep.Verify != nil && rep.Verify.Valid}
	var page bytes.Buffer
	if err := report.WriteSections(&page, rep, "sys-"+id); err != nil {
		return nil, err
	}
	a.Sections = page.String()
	if rep.Drawing != nil {
		var sb strings.Builder
		_ = rep.Drawing.WriteSVGOptions(&sb, draw.SVGOptions{Inline: true, ID: "drawing"})
		a.Drawing = sb.String()
	}
	f := sys.Families()[0]
	if f.IsThreshold() {
		a.Thresh = f.Threshold
	} else if len(f.Quorums) <= 20000 {
		for i := range f.Quorums {
			q := f.Quorums[i].Elements()
			for j := range q {
				q[j]++
			}
			a.Quorums = append(a.Quorums, q)
		}
		for _, o := range f.Owners {
			a.Owners = append(a.Owners, o+1)
		}
	}
	a.Exact = rep.AvExact
	a.Head, a.Compare = report.ComparisonRow(rep)
	for _, pt := range rep.Table {
		a.Nines = append(a.Nines, NinesRow{P: pt.P, AV: report.AVText(pt), Nines: report.NinesText(pt)})
	}
	return a, nil
}

func (s *Server) lookup(id string) (*entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.keep[id]
	return e, ok
}

// download sends a kept system in the format asked (json, text, csv, dat).
func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	e, ok := s.lookup(r.PathValue("id"))
	if !ok {
		fail(w, http.StatusNotFound, "no such system (analyse it again)")
		return
	}
	name := r.URL.Query().Get("format")
	if name == "" {
		name = "json"
	}
	f, err := format.Parse(name)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	var buf bytes.Buffer
	if err := format.Write(&buf, e.sys, f, format.DefaultOptions()); err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	ext := map[format.Format]string{format.JSON: "json", format.Text: "txt", format.CSV: "csv", format.Dat: "dat"}[f]
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", fileName(e.name)+"."+ext))
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(buf.Bytes())
}

// fileName turns a system's name into a safe file name.
func fileName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, name)
	name = strings.Trim(name, "-")
	if name == "" {
		name = "system"
	}
	return name
}

// report sends the report on the kept systems ids (comma-separated) as
// HTML or Markdown.
func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	var systems []*report.System
	for _, id := range strings.Split(r.URL.Query().Get("ids"), ",") {
		e, ok := s.lookup(id)
		if !ok {
			fail(w, http.StatusNotFound, "no such system %q (analyse it again)", id)
			return
		}
		systems = append(systems, e.rep)
	}
	var buf bytes.Buffer
	var err error
	ext := "html"
	if r.URL.Query().Get("format") == "md" {
		ext = "md"
		err = report.WriteMarkdown(&buf, systems)
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	} else {
		err = report.WriteHTML(&buf, systems)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	if err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	w.Header().Set("Content-Disposition", "attachment; filename=\"report."+ext+"\"")
	_, _ = w.Write(buf.Bytes())
}

// stageProgress tells progress the name of each stage a report starts;
// nil stays nil.
func stageProgress(progress func(string)) set.Progress {
	if progress == nil {
		return nil
	}
	return func(stage string, _, _ int64) { progress(stage) }
}
