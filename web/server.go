package web

// How the server protects its user (for the page's code and for anyone
// who calls the API):
//
//   - Every request must name the server in its Host header: the address
//     it listens on (Options.Addr), or localhost, 127.0.0.1 or [::1],
//     with its port. Others get 403, which defeats DNS rebinding.
//   - A request to /api/ that the browser marks as coming from another
//     site (Sec-Fetch-Site: cross-site or same-site) gets 403.
//   - A state-changing request (any method but GET and HEAD) must come
//     from the server's own origin (an Origin header, when sent, must be
//     http://HOST) and carry the per-process token in the
//     X-Coterie-Token header (TokenHeader). The server puts the token in
//     the page it serves, as <meta name="coterie-token" content="...">
//     right after <head>; the page's script reads it with
//     document.querySelector('meta[name="coterie-token"]').content. A page
//     of another origin cannot read it, and a custom header makes the
//     browser ask first (a preflight, which the server never grants).
//   - Every response carries ContentSecurityPolicy (no inline script:
//     the page's script is a file), X-Frame-Options DENY, nosniff,
//     Referrer-Policy no-referrer and same-origin opener and resource
//     policies.
//   - Cost: a body is at most MaxBody; an upload whose analysis is
//     estimated, before parsing, to need more than MaxMemory gets 413; an
//     answer larger than MaxResponse gets 422; a report holds at most
//     MaxReportIDs systems, each once. Parsing and analysis take one of
//     Workers; a request waits at most QueueWait for one (and at most
//     MaxQueue wait at once), else 503 with Retry-After; Timeout counts
//     from when the worker takes the request up, and a client that goes
//     away cancels its work.

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/report"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/systems"
)

//go:embed assets
var assets embed.FS

// ContentSecurityPolicy is sent with every response: scripts and styles
// only from the server's own files (styles may also be inline), no
// framing, no plugins, and forms that post only to the server.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// TokenHeader is the request header that carries the server's token
// (see [Server.Token]).
const TokenHeader = "X-Coterie-Token"

// TokenMeta is the name of the <meta> element the server adds to the
// page's <head> with the token as its content.
const TokenMeta = "coterie-token"

// Options configure a [Server]. Zero values take the defaults.
type Options struct {
	// Addr is the host:port the server listens on. A request must name
	// it, or localhost, 127.0.0.1 or [::1] with its port, in its Host
	// header (an IP address with the port when Addr's host is 0.0.0.0 or
	// ::). Empty: localhost, 127.0.0.1 and [::1] with any port.
	Addr string
	// Token is the secret every state-changing request must carry in
	// the TokenHeader header. Empty: a random one.
	Token string
	// MaxBody bounds a request body (an uploaded file); larger requests
	// get 413. Default 4 MiB.
	MaxBody int64
	// MaxMemory bounds the memory an upload is estimated, before it is
	// parsed, to take to analyse; larger uploads get 413. Default 256 MiB.
	MaxMemory int64
	// MaxResponse bounds an answer (an analysis, a report, a download);
	// larger answers are refused with 422. Default 32 MiB.
	MaxResponse int64
	// MaxReportIDs bounds the systems of one report. Default 16.
	MaxReportIDs int
	// MaxNodes bounds the systems the explorer analyses. Default 1500
	// (PG(2,37) has 1407 points).
	MaxNodes int
	// Budget bounds each long figure of an analysis (see report.Options);
	// Timeout bounds the work of a request, from when a worker takes it
	// up. Defaults 2 s and 30 s.
	Budget, Timeout time.Duration
	// QueueWait bounds the time a request waits for a worker; past it, or
	// when more than MaxQueue requests wait already, it gets 503 with
	// Retry-After. Defaults 5 s and 8 × Workers.
	QueueWait time.Duration
	MaxQueue  int
	// AvailabilityBudget bounds the exact availability; past it the
	// explorer shows a Monte Carlo estimate. Default 50 ms, so that a
	// construction change is answered at once.
	AvailabilityBudget time.Duration
	// Workers is how many analyses (parsing included) may run at once.
	// Default 2.
	Workers int
	// Cache is how many analysed systems are kept for downloads. Default 64.
	Cache int
}

// Server is the explorer's http.Handler.
type Server struct {
	o       Options
	mux     *http.ServeMux
	sem     chan struct{}
	waiting atomic.Int64
	index   []byte // the page, with the token
	mu      sync.Mutex
	keep    map[string]*entry
	fifo    []string
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
	if o.MaxMemory <= 0 {
		o.MaxMemory = 256 << 20
	}
	if o.MaxResponse <= 0 {
		o.MaxResponse = 32 << 20
	}
	if o.MaxReportIDs <= 0 {
		o.MaxReportIDs = 16
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
	if o.QueueWait <= 0 {
		o.QueueWait = 5 * time.Second
	}
	if o.AvailabilityBudget <= 0 {
		o.AvailabilityBudget = 50 * time.Millisecond
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.MaxQueue <= 0 {
		o.MaxQueue = 8 * o.Workers
	}
	if o.Cache <= 0 {
		o.Cache = 64
	}
	if o.Token == "" {
		var b [16]byte
		_, _ = rand.Read(b[:])
		o.Token = hex.EncodeToString(b[:])
	}
	s := &Server{o: o, mux: http.NewServeMux(), sem: make(chan struct{}, o.Workers), keep: map[string]*entry{}}
	page, _ := assets.ReadFile("assets/index.html")
	meta := fmt.Sprintf("<head>\n<meta name=%q content=%q>", TokenMeta, o.Token)
	s.index = []byte(strings.Replace(string(page), "<head>", meta, 1))
	static, _ := fs.Sub(assets, "assets")
	s.mux.Handle("GET /", http.FileServerFS(static))
	s.mux.HandleFunc("GET /{$}", s.page)
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

// Token is the secret a state-changing request must carry in the
// TokenHeader header. The page finds it in its <meta name="coterie-token">
// element; a page of another origin cannot read it.
func (s *Server) Token() string { return s.o.Token }

// page serves the explorer's page with the token in its head.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(s.index)
}

// ServeHTTP sets the security headers, refuses requests that come from
// another site or name another host, limits the body, then serves.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if err := s.checkOrigin(r); err != nil {
		fail(w, http.StatusForbidden, "%v", err)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.o.MaxBody)
	s.mux.ServeHTTP(w, r)
}

// checkOrigin refuses a Host that is not the server's (a DNS rebinding
// attack names the attacker's domain), an API request that the browser
// says comes from another site, and a state-changing request from
// another origin or without the token.
func (s *Server) checkOrigin(r *http.Request) error {
	if !s.hostAllowed(r.Host) {
		return fmt.Errorf("host %q is not this server's address", r.Host)
	}
	api := strings.HasPrefix(r.URL.Path, "/api/")
	switch site := r.Header.Get("Sec-Fetch-Site"); {
	case !api || site == "" || site == "same-origin" || site == "none":
	default:
		return fmt.Errorf("refused a %s request from another site (Sec-Fetch-Site: %s)", r.Method, site)
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		return nil
	}
	if origin := r.Header.Get("Origin"); origin != "" && !strings.EqualFold(origin, "http://"+r.Host) {
		return fmt.Errorf("refused a %s request from origin %q", r.Method, origin)
	}
	if subtle.ConstantTimeCompare([]byte(r.Header.Get(TokenHeader)), []byte(s.o.Token)) != 1 {
		return fmt.Errorf("refused a %s request without the page's token (reload the page)", r.Method)
	}
	return nil
}

// hostAllowed reports whether a request's Host names this server: the
// address it listens on, or a loopback name, with its port.
func (s *Server) hostAllowed(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, ""
	}
	host = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	loopback := host == "localhost" || host == "127.0.0.1" || host == "::1"
	if s.o.Addr == "" {
		return loopback
	}
	bhost, bport, err := net.SplitHostPort(s.o.Addr)
	if err != nil || port != bport {
		return false
	}
	bhost = strings.ToLower(bhost)
	if loopback || host == bhost {
		return true
	}
	// Listening on every address: an IP address is as good as the
	// bound one (a DNS rebinding attack needs a name).
	ip := net.ParseIP(bhost)
	return (bhost == "" || ip != nil && ip.IsUnspecified()) && net.ParseIP(host) != nil
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

// megabytes prints a size in MB for a message: "4 MB", "0.5 MB".
func megabytes(n int64) string {
	x := float64(n) / (1 << 20)
	if x >= 100 {
		return strconv.FormatFloat(x, 'f', 0, 64) + " MB"
	}
	return strconv.FormatFloat(x, 'g', 3, 64) + " MB"
}

// readBody reads a limited body; a body over the limit is answered with
// 413 and false.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	data, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		fail(w, http.StatusRequestEntityTooLarge, "the file is larger than %s, the explorer's limit (use the command line)", megabytes(mbe.Limit))
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
				fail(w, http.StatusBadRequest, "%s has no parameter %q", spec.Name, name)
				return
			}
			continue
		}
		switch spec.Params[i].Type {
		case construct.Int:
			v, err := strconv.Atoi(raw)
			if err != nil {
				fail(w, http.StatusBadRequest, "parameter %s = %q: want an integer", name, raw)
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
	ctx, done, ok := s.worker(w, r)
	if !ok {
		return
	}
	defer done()
	sys, err := spec.BuildContext(ctx, args)
	if err != nil {
		if ctx.Err() != nil {
			_, reply := s.streamer(w, r)
			s.replyError(ctx, reply, err)
			return
		}
		fail(w, http.StatusBadRequest, "%s", construct.Describe(err, "", nil))
		return
	}
	s.analyzeAndReply(ctx, w, r, spec.Name+" "+strings.Join(label, " "), sys)
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
			return fmt.Errorf("parameter %s = %d gives more than %d nodes, the explorer's limit (use the command line)", name, i, s.o.MaxNodes)
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
	if systems.IsConfig(name, data) {
		// A configuration is small: it is read inside a worker, with no
		// estimate of a quorum list's cost.
		ctx, done, ok := s.worker(w, r)
		if !ok {
			return
		}
		defer done()
		s.uploadConfig(ctx, w, r, name, data)
		return
	}
	f, ok := format.Detect(name)
	if !ok {
		f = format.Sniff(data)
	}
	if err := s.checkCost(name, data, f); err != nil {
		fail(w, http.StatusRequestEntityTooLarge, "%v", err)
		return
	}
	// Parsing takes a worker too: it holds the file in memory several
	// times over.
	ctx, done, ok := s.worker(w, r)
	if !ok {
		return
	}
	defer done()
	if format.IsRWAny(data) {
		s.uploadRW(ctx, w, r, name, data)
		return
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
	data = nil
	s.analyzeAndReply(ctx, w, r, name, sys)
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
	RW *RWFigures `json:"rw,omitempty"`
	// Domains are the failure domains of a read-write system that has
	// them: the tree and the resilience per level (the sections show
	// them as tables).
	Domains *DomainsView `json:"domains,omitempty"`
}

// NinesRow is the availability at one p.
type NinesRow struct {
	P     float64 `json:"p"`
	AV    string  `json:"av"`
	Nines string  `json:"nines"`
}

func (s *Server) analyzeAndReply(ctx context.Context, w http.ResponseWriter, r *http.Request, name string, sys set.System) {
	if sys.N() > s.o.MaxNodes {
		fail(w, http.StatusBadRequest, "%s: %d nodes, more than the explorer's limit of %d (use the command line)", name, sys.N(), s.o.MaxNodes)
		return
	}
	var q, m int64
	for _, f := range sys.Families() {
		// The listed quorums (a threshold or implicit family lists none).
		q += int64(len(f.Quorums))
		m += int64(memberships(f))
	}
	if err := s.checkMemory(name, q, m); err != nil {
		fail(w, http.StatusRequestEntityTooLarge, "%v", err)
		return
	}
	s.run(ctx, w, r, func(ctx context.Context, progress func(string)) (any, error) {
		return s.analyze(ctx, name, sys, progress)
	})
}

// run answers r with what do makes under ctx, streaming its progress when
// asked (see [Server.streamer]). The caller holds a worker.
func (s *Server) run(ctx context.Context, w http.ResponseWriter, r *http.Request, do func(ctx context.Context, progress func(string)) (any, error)) {
	progress, reply := s.streamer(w, r)
	if err := ctx.Err(); err != nil {
		s.replyError(ctx, reply, err)
		return
	}
	a, err := do(ctx, progress)
	if err != nil {
		s.replyError(ctx, reply, err)
		return
	}
	reply(http.StatusOK, a)
}

// replyError answers with err: 503 when the request has gone (the client
// left or its time ran out), otherwise 400.
func (s *Server) replyError(ctx context.Context, reply func(code int, v any), err error) {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		reply(http.StatusServiceUnavailable, apiError{Error: fmt.Sprintf("the analysis took longer than %s, the explorer's limit (use the command line)", s.o.Timeout)})
	case ctx.Err() != nil:
		reply(http.StatusServiceUnavailable, apiError{Error: "cancelled"})
	default:
		reply(http.StatusBadRequest, apiError{Error: err.Error()})
	}
}

// acquire waits, at most QueueWait, for one of the workers; it answers
// 503 with Retry-After when none comes free in time or too many requests
// wait already, and 503 when the client leaves first. A true return must
// be followed by release.
func (s *Server) acquire(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	release = func() { <-s.sem }
	select {
	case s.sem <- struct{}{}:
		acquired()
		return release, true
	default:
	}
	if s.waiting.Add(1) > int64(s.o.MaxQueue) {
		s.waiting.Add(-1)
		s.busy(w)
		return nil, false
	}
	defer s.waiting.Add(-1)
	t := time.NewTimer(s.o.QueueWait)
	defer t.Stop()
	select {
	case s.sem <- struct{}{}:
		acquired()
		return release, true
	case <-t.C:
		s.busy(w)
	case <-r.Context().Done():
		fail(w, http.StatusServiceUnavailable, "cancelled while waiting for a worker")
	}
	return nil, false
}

// testHookAcquired, when not nil, is called as a request takes a worker,
// before its work starts: a test looks there for work left running by
// the request that held the worker before.
var testHookAcquired func()

func acquired() {
	if testHookAcquired != nil {
		testHookAcquired()
	}
}

// worker waits for a worker as [Server.acquire] does and returns the
// context of the work: the request's, with the work's time limit counted
// from now (not from the request's arrival). done ends the context and
// frees the worker; the handler calls it once its work has returned, and
// the work leaves nothing running behind it (the libraries stop on their
// context and wait for their own goroutines), so the workers bound the
// CPU the explorer takes.
func (s *Server) worker(w http.ResponseWriter, r *http.Request) (ctx context.Context, done func(), ok bool) {
	release, ok := s.acquire(w, r)
	if !ok {
		return nil, nil, false
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.o.Timeout)
	return ctx, func() { cancel(); release() }, true
}

// busy answers 503: every worker is taken.
func (s *Server) busy(w http.ResponseWriter) {
	secs := int(math.Ceil(s.o.QueueWait.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	fail(w, http.StatusServiceUnavailable, "the explorer is busy with %d analyses and others waiting; try again in %d s", s.o.Workers, secs)
}

// encode is v as the JSON of an answer, or an error when it is larger
// than MaxResponse.
func (s *Server) encode(v any, indent string) ([]byte, error) {
	var data []byte
	var err error
	if indent == "" {
		data, err = json.Marshal(v)
	} else {
		data, err = json.MarshalIndent(v, "", indent)
	}
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > s.o.MaxResponse {
		return nil, fmt.Errorf("the answer would take %s, more than the explorer's limit of %s (use the command line)", megabytes(int64(len(data))), megabytes(s.o.MaxResponse))
	}
	return append(data, '\n'), nil
}

// streamer sets up the answer to r: with ?stream=1 NDJSON, progress
// lines {"progress": stage} as the work goes, then {"result": ...} or
// {"error": ...}; otherwise one JSON value. progress is nil when not
// streaming. An answer larger than MaxResponse is replaced by an error
// (422).
func (s *Server) streamer(w http.ResponseWriter, r *http.Request) (progress func(string), reply func(code int, v any)) {
	if r.URL.Query().Get("stream") != "1" {
		return nil, func(code int, v any) {
			data, err := s.encode(v, " ")
			if err != nil {
				fail(w, http.StatusUnprocessableEntity, "%v", err)
				return
			}
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(code)
			_, _ = w.Write(data)
		}
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	enc := json.NewEncoder(w)
	progress = func(stage string) {
		_ = enc.Encode(map[string]string{"progress": stage})
		_ = rc.Flush()
	}
	reply = func(code int, v any) {
		if e, ok := v.(apiError); ok {
			_ = enc.Encode(e)
			return
		}
		data, err := s.encode(map[string]any{"result": v}, "")
		if err != nil {
			_ = enc.Encode(apiError{Error: err.Error()})
			return
		}
		_, _ = w.Write(data)
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
	ctx, done, ok := s.worker(w, r)
	if !ok {
		return
	}
	defer done()
	progress, reply := s.streamer(w, r)
	if err := ctx.Err(); err != nil {
		// The client has gone: do not start (the cheap exact methods do
		// not look at the context).
		s.replyError(ctx, reply, err)
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
		s.replyError(ctx, reply, err)
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
	// The answer (the sections, the drawings) does not look at ctx: do
	// not start it for a client that has gone.
	if err := ctx.Err(); err != nil {
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
	if t := construct.ThresholdForm(f); t != nil {
		a.Thresh = t.Threshold()
	} else if len(f.Quorums) <= 20000 && memberships(f) <= maxListed {
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

// maxListed bounds the memberships of the quorums an answer lists.
const maxListed = 1 << 20

// memberships is the number of nodes in all f's quorums.
func memberships(f *set.Family) int {
	m := 0
	for i := range f.Quorums {
		m += f.Quorums[i].Len()
	}
	return m
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
	buf := &limitedBuffer{max: s.o.MaxResponse}
	err = format.Write(buf, e.sys, f, format.DefaultOptions())
	if s.tooLarge(w, buf) {
		return
	}
	if err != nil {
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

// report sends the report on the kept systems ids (comma-separated, at
// most MaxReportIDs, each once) as HTML or Markdown.
func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	ids := strings.Split(r.URL.Query().Get("ids"), ",")
	if len(ids) > s.o.MaxReportIDs {
		fail(w, http.StatusBadRequest, "%d systems asked for; a report holds at most %d", len(ids), s.o.MaxReportIDs)
		return
	}
	var systems []*report.System
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			fail(w, http.StatusBadRequest, "system %q asked for twice", id)
			return
		}
		seen[id] = true
		e, ok := s.lookup(id)
		if !ok {
			fail(w, http.StatusNotFound, "no such system %q (analyse it again)", id)
			return
		}
		systems = append(systems, e.rep)
	}
	release, ok := s.acquire(w, r)
	if !ok {
		return
	}
	defer release()
	buf := &limitedBuffer{max: s.o.MaxResponse}
	var err error
	ext, ctype := "html", "text/html; charset=utf-8"
	if r.URL.Query().Get("format") == "md" {
		ext, ctype = "md", "text/markdown; charset=utf-8"
		err = report.WriteMarkdown(buf, systems)
	} else {
		err = report.WriteHTML(buf, systems)
	}
	if s.tooLarge(w, buf) {
		return
	}
	if err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", "attachment; filename=\"report."+ext+"\"")
	_, _ = w.Write(buf.Bytes())
}

// limitedBuffer is a bytes.Buffer that refuses to grow past max bytes.
type limitedBuffer struct {
	bytes.Buffer
	max  int64
	over bool
}

var errTooLarge = errors.New("answer too large")

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.over || int64(b.Len()+len(p)) > b.max {
		b.over = true
		return 0, errTooLarge
	}
	return b.Buffer.Write(p)
}

// tooLarge answers 422 when b went past its limit.
func (s *Server) tooLarge(w http.ResponseWriter, b *limitedBuffer) bool {
	if !b.over {
		return false
	}
	fail(w, http.StatusUnprocessableEntity, "the answer would take more than %s, the explorer's limit (use the command line)", megabytes(s.o.MaxResponse))
	return true
}

// stageProgress tells progress the name of each stage a report starts;
// nil stays nil.
func stageProgress(progress func(string)) set.Progress {
	if progress == nil {
		return nil
	}
	return func(stage string, _, _ int64) { progress(stage) }
}
