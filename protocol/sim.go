package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Config is one simulation run.
type Config struct {
	Load    Load
	Entries int    // critical-section entries to simulate (≥ 1)
	Seed    uint64 // the run is a function of Seed and the rest of Config
	// Delay is the message delay; the zero value means exp:1, so times are
	// in mean message delays.
	Delay *Dist
	// CS is how long a node stays in the critical section; nil means
	// const:1 (one mean message delay).
	CS *Dist
	// TraceLen is how many recent events are kept to explain a violation;
	// 0 means 4096.
	TraceLen int
}

// Defaults for Config's distributions.
var (
	DefaultDelay = Dist{Kind: Exponential, A: 1}
	DefaultCS    = Dist{Kind: Const, A: 1}
)

// Result is what a simulation measured. Its JSON form is the report of
// `coterie simulate --json` (see CONTRACT.md).
type Result struct {
	Protocol string `json:"protocol"`
	Load     string `json:"load"`
	Entries  int    `json:"entries"`
	Seed     uint64 `json:"seed"`
	N        int    `json:"n"`
	K        int    `json:"k"`
	Delay    string `json:"delay"`
	CS       string `json:"cs"`

	// MessagesPerEntry is Messages / Entries, counted as the protocol's
	// paper counts (see Spec.CountSelf); ByType splits it by message kind.
	MessagesPerEntry float64            `json:"messages_per_entry"`
	ByType           map[string]float64 `json:"by_type"`
	Messages         int64              `json:"messages"`
	// SelfMessages counts the messages nodes sent themselves (local steps),
	// whether or not they are in Messages.
	SelfMessages int64 `json:"self_messages"`

	SafetyViolations int        `json:"safety_violations"`
	Violation        *Violation `json:"violation,omitempty"`
	Deadlock         bool       `json:"deadlock"`
	DeadlockInfo     *Deadlock  `json:"deadlock_info,omitempty"`
	Anomalies        int        `json:"anomalies"`
	AnomalyExamples  []string   `json:"anomaly_examples,omitempty"`

	// Waiting times, from a request to its entry, in mean message delays.
	MaxWait  float64 `json:"max_wait"`
	MeanWait float64 `json:"mean_wait"`
	P50Wait  float64 `json:"p50_wait"`
	P90Wait  float64 `json:"p90_wait"`
	P99Wait  float64 `json:"p99_wait"`
	// Throughput is entries per mean message delay over the whole run.
	Throughput float64 `json:"throughput"`
	Time       float64 `json:"time"`

	// MeanQuorum is the mean size of the quorums the entries used, and
	// MeanRemote the mean number of their members other than the
	// requester: 3·MeanRemote is Maekawa's light-demand count, 3·MeanQuorum
	// Kakugawa et al.'s and Manabe–Tajima's. MeanUnits is the mean h.
	MeanQuorum float64 `json:"mean_quorum"`
	MeanRemote float64 `json:"mean_remote"`
	MeanUnits  float64 `json:"mean_units"`

	// Sums over the entries, exact, for checks: Σ|q|, Σ|q \ {requester}|
	// and Σ(3h+3)|q| (Manabe–Tajima's bound, Section 4.3).
	SumQuorum   int64 `json:"-"`
	SumRemote   int64 `json:"-"`
	SumHKBound  int64 `json:"-"`
	// KindCounts counts the messages by kind, indexed like Spec.Kinds.
	KindCounts []int64 `json:"-"`
	// PerNode counts the entries of each node.
	PerNode []int `json:"-"`
}

// Violation is the first moment the units in use exceeded the limit.
type Violation struct {
	Time   float64      `json:"time"`
	Inside []int        `json:"inside"` // 1-based nodes in the critical section
	Units  int          `json:"units"`
	Limit  int          `json:"limit"`
	Trace  []TraceEvent `json:"trace"`
}

// Deadlock is a state with requests pending, no message in flight and nobody
// inside.
type Deadlock struct {
	Time    float64 `json:"time"`
	Waiting []int   `json:"waiting"` // 1-based nodes with a pending request
	// Cycle is a wait-for cycle: Cycle[i] waits for the permission of
	// member Via[i], which Cycle[i+1] holds (cyclically). Empty when the
	// waits end at a free member (a lost permission), listed in Free.
	Cycle []int        `json:"cycle,omitempty"`
	Via   []int        `json:"via,omitempty"`
	Free  [][2]int     `json:"free,omitempty"` // (waiting node, free member) pairs
	Trace []TraceEvent `json:"trace"`
}

// TraceEvent is one step of a trace: a delivery, a request, an entry or an
// exit, with 1-based node numbers.
type TraceEvent struct {
	Time  float64 `json:"time"`
	Event string  `json:"event"` // "deliver", "local", "request", "enter", "exit"
	From  int     `json:"from,omitempty"`
	To    int     `json:"to,omitempty"`
	Node  int     `json:"node,omitempty"`
	Kind  string  `json:"kind,omitempty"`
	Stamp int64   `json:"stamp,omitempty"`
	H     int     `json:"h,omitempty"`
	// Quorum lists the members of a request's quorum.
	Quorum []int `json:"quorum,omitempty"`
}

// String formats e on one line, as the trace of `coterie simulate` shows it.
func (e TraceEvent) String() string {
	t := fmt.Sprintf("%10.3f  ", e.Time)
	switch e.Event {
	case "request":
		s := fmt.Sprintf("%snode %d requests", t, e.Node)
		if e.H > 1 {
			s += fmt.Sprintf(" %d units", e.H)
		}
		if e.Quorum != nil {
			s += fmt.Sprintf(" with quorum %v", e.Quorum)
		}
		return s
	case "enter":
		if e.H > 1 {
			return fmt.Sprintf("%snode %d enters the critical section with %d units", t, e.Node, e.H)
		}
		return fmt.Sprintf("%snode %d enters the critical section", t, e.Node)
	case "exit":
		return fmt.Sprintf("%snode %d leaves the critical section", t, e.Node)
	}
	s := fmt.Sprintf("%s%d → %d  %s", t, e.From, e.To, e.Kind)
	if e.Event == "local" {
		s = fmt.Sprintf("%s%d → %d  %s (local)", t, e.From, e.To, e.Kind)
	}
	if e.Stamp != 0 {
		s += fmt.Sprintf(" #%d", e.Stamp)
	}
	if e.H > 0 {
		s += fmt.Sprintf(" h=%d", e.H)
	}
	return s
}

// Node phases in the simulator.
const (
	idle uint8 = iota
	waiting
	inside
)

// traceRec is a recorded event, kept compact in a ring buffer.
type traceRec struct {
	at   float64
	msg  Message
	what uint8 // traceDeliver, traceLocal, traceRequest, traceEnter, traceExit
}

const (
	traceDeliver uint8 = iota
	traceLocal
	traceRequest
	traceEnter
	traceExit
)

type sim struct {
	ctx   context.Context
	spec  Spec
	sys   *System
	p     Protocol
	rng   *rand.Rand
	cfg   Config
	delay Dist
	cs    Dist
	limit int

	now      float64
	seq      uint64
	q        eventQueue
	last     []float64 // per ordered pair: delivery time of the last message
	local    []Message
	inFlight int

	phase   []uint8
	reqAt   []float64
	units   []int32
	backlog []int32
	qbuf    [][]int32 // per node, for threshold quorums
	quorum  [][]int32 // per node, the pending request's quorum

	inCS, used, pending int
	issued, arrived     int
	cur                 int // the node whose step is running

	res   *Result
	waits []float64
	ring  []traceRec
	rpos  int
	rfull bool
}

// Simulate runs spec on sys under cfg and returns what it measured. A safety
// violation, a deadlock or an anomaly is a result, not an error; errors are
// for a bad configuration or a protocol that does not run on sys. The run is
// deterministic: the same arguments give the same Result. It stops early,
// with ctx's error, when ctx is done.
func Simulate(ctx context.Context, spec Spec, sys *System, cfg Config) (*Result, error) {
	if cfg.Entries < 1 {
		return nil, fmt.Errorf("protocol: entries = %d: want at least 1", cfg.Entries)
	}
	p, err := spec.New(sys)
	if err != nil {
		return nil, err
	}
	s := &sim{ctx: ctx, spec: spec, sys: sys, p: p, cfg: cfg, limit: spec.Limit(sys),
		rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))}
	s.delay, s.cs = DefaultDelay, DefaultCS
	if cfg.Delay != nil {
		s.delay = *cfg.Delay
	}
	if cfg.CS != nil {
		s.cs = *cfg.CS
	}
	if s.delay.Mean() <= 0 {
		return nil, errors.New("protocol: the mean message delay must be positive")
	}
	n := sys.N
	if n > 1<<15 {
		return nil, fmt.Errorf("protocol: %d nodes: the simulator takes at most %d", n, 1<<15)
	}
	s.last = make([]float64, n*n)
	s.phase = make([]uint8, n)
	s.reqAt = make([]float64, n)
	s.units = make([]int32, n)
	s.backlog = make([]int32, n)
	s.quorum = make([][]int32, n)
	s.qbuf = make([][]int32, n)
	if !spec.NoQuorums {
		for _, l := range sys.Levels {
			if l.Threshold > 0 {
				for i := range s.qbuf {
					s.qbuf[i] = make([]int32, 0, sys.MaxQuorum())
				}
				break
			}
		}
	}
	tl := cfg.TraceLen
	if tl <= 0 {
		tl = 4096
	}
	s.ring = make([]traceRec, tl)
	s.res = &Result{Protocol: spec.Name, Load: cfg.Load.String(), Entries: cfg.Entries, Seed: cfg.Seed,
		N: n, K: sys.K, Delay: s.delay.String(), CS: s.cs.String(),
		KindCounts: make([]int64, len(spec.Kinds)), PerNode: make([]int, n)}
	s.waits = make([]float64, 0, cfg.Entries)
	if err := s.run(); err != nil {
		return nil, err
	}
	s.finish()
	return s.res, nil
}

func (s *sim) push(at float64, kind uint8, m Message) {
	s.seq++
	s.q.push(event{at: at, seq: s.seq, msg: m, kind: kind})
}

func (s *sim) record(what uint8, m Message) {
	s.ring[s.rpos] = traceRec{at: s.now, msg: m, what: what}
	s.rpos++
	if s.rpos == len(s.ring) {
		s.rpos, s.rfull = 0, true
	}
}

// Send implements Net.
func (s *sim) Send(m Message) {
	if m.To == m.From {
		s.local = append(s.local, m)
		s.res.SelfMessages++
		if s.spec.CountSelf {
			s.res.KindCounts[m.Kind]++
		}
		return
	}
	s.res.KindCounts[m.Kind]++
	t := s.now + s.delay.draw(s.rng)
	k := int(m.From)*s.sys.N + int(m.To)
	if t < s.last[k] {
		t = s.last[k]
	}
	s.last[k] = t
	s.inFlight++
	s.push(t, evDeliver, m)
}

// Enter implements Net.
func (s *sim) Enter(node, units int) {
	s.record(traceEnter, Message{To: int32(node), H: int32(units)})
	s.phase[node] = inside
	s.units[node] = int32(units)
	s.inCS++
	s.used += units
	s.pending--
	w := s.now - s.reqAt[node]
	s.waits = append(s.waits, w)
	s.res.PerNode[node]++
	if s.used > s.limit {
		s.res.SafetyViolations++
		if s.res.Violation == nil {
			s.res.Violation = s.violation()
		}
	}
	s.push(s.now+s.cs.draw(s.rng), evExit, Message{To: int32(node)})
}

// Anomaly implements Net.
func (s *sim) Anomaly(node int, what string) {
	s.res.Anomalies++
	if len(s.res.AnomalyExamples) < 5 {
		s.res.AnomalyExamples = append(s.res.AnomalyExamples,
			fmt.Sprintf("t=%.3f node %s: %s", s.now, s.sys.Name(node), what))
	}
}

// drain runs the local steps the last step queued.
func (s *sim) drain() {
	for i := 0; i < len(s.local); i++ {
		m := s.local[i]
		s.record(traceLocal, m)
		s.p.Deliver(s, m)
	}
	s.local = s.local[:0]
}

func (s *sim) request(node int) {
	h, q := 1, []int32(nil)
	if !s.spec.NoQuorums {
		h, q = s.sys.choose(s.rng, node, s.spec.Units, s.qbuf[node])
		s.res.SumQuorum += int64(len(q))
		r := int64(len(q))
		if has(q, int32(node)) {
			r--
		}
		s.res.SumRemote += r
		s.res.SumHKBound += int64(3*h+3) * int64(len(q))
	}
	s.quorum[node] = q
	s.res.MeanUnits += float64(h)
	s.issued++
	s.pending++
	s.phase[node] = waiting
	s.reqAt[node] = s.now
	s.record(traceRequest, Message{To: int32(node), H: int32(h)})
	s.p.Request(s, node, Request{H: h, Quorum: q})
	s.drain()
}

func (s *sim) run() error {
	n := s.sys.N
	target := s.cfg.Entries
	switch s.cfg.Load.Kind {
	case Heavy:
		for i := 0; i < n && s.issued < target; i++ {
			s.request(i)
		}
	case Poisson:
		for i := range n {
			s.push(s.rng.ExpFloat64()/s.cfg.Load.Rate, evArrive, Message{To: int32(i)})
		}
	}
	steps := 0
	for {
		if s.cfg.Load.Kind == Light && s.pending == 0 && s.inCS == 0 && s.inFlight == 0 && s.issued < target {
			s.request(s.rng.IntN(n))
			continue
		}
		if s.pending > 0 && s.inFlight == 0 && s.inCS == 0 {
			s.res.Deadlock = true
			s.res.DeadlockInfo = s.deadlock()
			return nil
		}
		if s.q.len() == 0 {
			return nil
		}
		if steps++; steps&0xffff == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
		e := s.q.pop()
		s.now = e.at
		switch e.kind {
		case evDeliver:
			s.inFlight--
			s.record(traceDeliver, e.msg)
			s.p.Deliver(s, e.msg)
			s.drain()
		case evExit:
			node := int(e.msg.To)
			s.record(traceExit, e.msg)
			s.p.Exit(s, node)
			s.drain()
			s.inCS--
			s.used -= int(s.units[node])
			s.phase[node] = idle
			switch {
			case s.cfg.Load.Kind == Heavy && s.issued < target:
				s.request(node)
			case s.backlog[node] > 0:
				s.backlog[node]--
				s.request(node)
			}
		case evArrive:
			node := int(e.msg.To)
			if s.arrived >= target {
				continue
			}
			s.arrived++
			if s.phase[node] == idle {
				s.request(node)
			} else {
				s.backlog[node]++
			}
			if s.arrived < target {
				s.push(s.now+s.rng.ExpFloat64()/s.cfg.Load.Rate, evArrive, e.msg)
			}
		}
	}
}

// trace returns the recorded events that involve one of nodes, from the
// earliest request among them on, at most max of them (the latest).
func (s *sim) trace(nodes []int, max int) []TraceEvent {
	in := make(map[int32]bool, len(nodes))
	since := math.Inf(1)
	for _, v := range nodes {
		in[int32(v)] = true
		since = min(since, s.reqAt[v])
	}
	var recs []traceRec
	if s.rfull {
		recs = append(recs, s.ring[s.rpos:]...)
	}
	recs = append(recs, s.ring[:s.rpos]...)
	var out []TraceEvent
	for _, r := range recs {
		if r.at < since {
			continue
		}
		m := r.msg
		switch r.what {
		case traceDeliver, traceLocal:
			if !in[m.From] && !in[m.To] {
				continue
			}
		default:
			if !in[m.To] {
				continue
			}
		}
		out = append(out, s.traceEvent(r))
	}
	if len(out) > max {
		out = out[len(out)-max:]
	}
	return out
}

func (s *sim) traceEvent(r traceRec) TraceEvent {
	m := r.msg
	e := TraceEvent{Time: r.at / s.delay.Mean()}
	switch r.what {
	case traceDeliver, traceLocal:
		e.Event = "deliver"
		if r.what == traceLocal {
			e.Event = "local"
		}
		e.From, e.To, e.Kind, e.Stamp = int(m.From)+1, int(m.To)+1, s.spec.Kinds[m.Kind], m.Stamp
		if s.spec.Units && m.Kind == hkRequest && s.spec.Name == hkSpec.Name {
			e.H = int(m.H)
		}
	case traceRequest:
		e.Event, e.Node = "request", int(m.To)+1
		if s.spec.Units {
			e.H = int(m.H)
		}
		for _, v := range s.quorum[m.To] {
			e.Quorum = append(e.Quorum, int(v)+1)
		}
	case traceEnter:
		e.Event, e.Node = "enter", int(m.To)+1
		if s.spec.Units {
			e.H = int(m.H)
		}
	case traceExit:
		e.Event, e.Node = "exit", int(m.To)+1
	}
	return e
}

func (s *sim) violation() *Violation {
	v := &Violation{Time: s.now, Units: s.used, Limit: s.limit}
	var nodes []int
	for i, p := range s.phase {
		if p == inside {
			nodes = append(nodes, i)
			v.Inside = append(v.Inside, i+1)
		}
	}
	v.Trace = s.trace(nodes, 200)
	return v
}

func (s *sim) deadlock() *Deadlock {
	d := &Deadlock{Time: s.now}
	var nodes []int
	for i, p := range s.phase {
		if p == waiting {
			nodes = append(nodes, i)
			d.Waiting = append(d.Waiting, i+1)
		}
	}
	cycle, via, free := waitCycle(s.p, s.phase)
	for i := range cycle {
		d.Cycle = append(d.Cycle, cycle[i]+1)
		d.Via = append(d.Via, via[i]+1)
	}
	for _, f := range free {
		d.Free = append(d.Free, [2]int{f[0] + 1, f[1] + 1})
	}
	show := nodes
	if len(cycle) > 0 {
		show = cycle
	}
	d.Trace = s.trace(show, 200)
	return d
}

// waitCycle finds a cycle in the wait-for graph of the waiting nodes: node a
// waits for b if b holds the permission of a member a lacks. It returns the
// cycle's nodes and the members they wait on; with no cycle, it returns the
// pairs (node, member) whose member's permission is free.
func waitCycle(p Protocol, phase []uint8) (cycle, via []int, free [][2]int) {
	n := len(phase)
	type edge struct{ to, via int }
	adj := make([][]edge, n)
	for i := range n {
		if phase[i] != waiting {
			continue
		}
		p.WaitsFor(i, func(member, holder int) {
			switch {
			case holder < 0:
				free = append(free, [2]int{i, member})
			case holder != i:
				adj[i] = append(adj[i], edge{holder, member})
			}
		})
	}
	// Iterative DFS with colors; the first back edge closes a cycle.
	color := make([]uint8, n)
	parent := make([]int, n)
	pvia := make([]int, n)
	for start := range n {
		if color[start] != 0 || len(adj[start]) == 0 {
			continue
		}
		type frame struct{ v, k int }
		stack := []frame{{start, 0}}
		color[start] = 1
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.k == len(adj[f.v]) {
				color[f.v] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			e := adj[f.v][f.k]
			f.k++
			switch color[e.to] {
			case 0:
				color[e.to] = 1
				parent[e.to], pvia[e.to] = f.v, e.via
				stack = append(stack, frame{e.to, 0})
			case 1:
				// f.v → e.to closes the cycle e.to → ... → f.v → e.to.
				var rc, rv []int
				for v := f.v; ; v = parent[v] {
					rc = append(rc, v)
					if v == e.to {
						break
					}
				}
				slices.Reverse(rc)
				for i := range rc {
					if i+1 < len(rc) {
						rv = append(rv, pvia[rc[i+1]])
					} else {
						rv = append(rv, e.via)
					}
				}
				return rc, rv, nil
			}
		}
	}
	return nil, nil, free
}

func (s *sim) finish() {
	r := s.res
	done := len(s.waits)
	r.Entries = done
	r.Time = s.now
	for _, c := range r.KindCounts {
		r.Messages += c
	}
	r.ByType = make(map[string]float64)
	if done > 0 {
		r.MessagesPerEntry = float64(r.Messages) / float64(done)
		for k, c := range r.KindCounts {
			if c > 0 {
				r.ByType[s.spec.Kinds[k]] = float64(c) / float64(done)
			}
		}
		r.MeanQuorum = float64(r.SumQuorum) / float64(s.issued)
		r.MeanRemote = float64(r.SumRemote) / float64(s.issued)
		r.MeanUnits /= float64(s.issued)
		if s.now > 0 {
			r.Throughput = float64(done) / s.now
		}
		slices.Sort(s.waits)
		r.MeanWait = stat.Mean(s.waits, nil)
		r.P50Wait = stat.Quantile(0.5, stat.Empirical, s.waits, nil)
		r.P90Wait = stat.Quantile(0.9, stat.Empirical, s.waits, nil)
		r.P99Wait = stat.Quantile(0.99, stat.Empirical, s.waits, nil)
	}
	// The longest wait includes requests still waiting at the end (a
	// deadlock), which are starving.
	for i, p := range s.phase {
		if p == waiting {
			s.waits = append(s.waits, s.now-s.reqAt[i])
		}
	}
	for _, w := range s.waits {
		r.MaxWait = max(r.MaxWait, w)
	}
	mean := s.delay.Mean()
	if mean != 1 {
		// Report times in mean message delays.
		for _, p := range []*float64{&r.MaxWait, &r.MeanWait, &r.P50Wait, &r.P90Wait, &r.P99Wait, &r.Time} {
			*p /= mean
		}
		r.Throughput *= mean
	}
}
