package protocol

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/set"
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
	// Progress, if not nil, is told now and then (stage "simulate") the
	// entries done and the entries asked for.
	Progress set.Progress
}

// DefaultDelay returns the message delay a zero Config uses: exponential
// with mean 1, so that times are in mean message delays.
func DefaultDelay() Dist { return Dist{Kind: Exponential, A: 1} }

// DefaultCS returns the critical-section length a zero Config uses: 1.
func DefaultCS() Dist { return Dist{Kind: Const, A: 1} }

// Result is what a simulation measured. Node numbers in its findings and
// traces are 1-based, as a user reads them.
type Result struct {
	Protocol string
	Load     string
	Entries  int
	Seed     uint64
	N        int
	K        int
	Delay    string
	CS       string

	// MessagesPerEntry is Messages / Entries, counted as the protocol's
	// paper counts (see Spec.CountSelf); ByType splits it by message kind.
	MessagesPerEntry float64
	ByType           map[string]float64
	Messages         int64
	// SelfMessages counts the messages nodes sent themselves (local steps),
	// whether or not they are in Messages.
	SelfMessages int64

	SafetyViolations int
	Violation        *Violation
	Deadlock         bool
	DeadlockInfo     *Deadlock
	Anomalies        int
	AnomalyExamples  []string

	// Waiting times, from a request to its entry, in mean message delays.
	MaxWait  float64
	MeanWait float64
	P50Wait  float64
	P90Wait  float64
	P99Wait  float64
	// Throughput is entries per mean message delay over the whole run.
	Throughput float64
	Time       float64

	// Paper is what the protocol's paper expects for this run's requests.
	Paper Expectation

	// MeanQuorum is the mean size of the quorums the entries used, and
	// MeanRemote the mean number of their members other than the
	// requester: 3·MeanRemote is Maekawa's light-demand count, 3·MeanQuorum
	// Kakugawa et al.'s and Manabe–Tajima's. MeanUnits is the mean h.
	MeanQuorum float64
	MeanRemote float64
	MeanUnits  float64

	// Sums over the entries, exact, for checks: Σ|q|, Σ|q \ {requester}|
	// and Σ(3h+3)|q| (Manabe–Tajima's bound, Section 4.3).
	SumQuorum  int64
	SumRemote  int64
	SumHKBound int64
	// KindCounts counts the messages by kind, indexed like Spec.Kinds.
	KindCounts []int64
	// PerNode counts the entries of each node.
	PerNode []int
}

// Expectation is a paper's message count per entry for a run: between Low
// and High (equal when the paper gives an exact count), by Formula.
type Expectation struct {
	Formula string
	Low     float64
	High    float64
	Source  string
}

// expect returns what spec's paper says about the messages per entry of r,
// whose requests used quorums of mean size r.MeanQuorum (r.MeanRemote
// without the requester).
func expect(spec Spec, load Load, r *Result) Expectation {
	count := func(f measure.Formula) float64 { return f.Float(r.N, r.MeanQuorum, r.MeanRemote) }
	switch spec.Name {
	case maekawaSpec.Name, maekawaFixedSpec.Name:
		light := count(measure.MaekawaLight())
		e := Expectation{Formula: "3(K−1)", Low: light, High: light, Source: "Maekawa, Section 8.1, Tables I and II"}
		if load.Kind != Light {
			e = Expectation{Formula: "3(K−1) to 5(K−1), about 4(K−1)", Low: light, High: count(measure.MaekawaHeavyMax()),
				Source: "Maekawa, Section 8.2 (an estimate)"}
		}
		return e
	case orderedSpec.Name:
		m := count(measure.Ordered())
		return Expectation{Formula: "3|q|", Low: m, High: m, Source: "Kakugawa et al., Section 6.1"}
	case hkSpec.Name:
		lo := count(measure.HKBest())
		hi := lo
		if r.Entries > 0 {
			hi = float64(r.SumHKBound) / float64(r.Entries)
		}
		return Expectation{Formula: "3|q| without conflict, at most (3h+3)|q|", Low: lo, High: hi,
			Source: "Manabe and Tajima, Section 4.3"}
	case ricartSpec.Name:
		m := count(measure.RicartAgrawala())
		return Expectation{Formula: "2(N−1)", Low: m, High: m, Source: "Ricart and Agrawala; Maekawa, Table I"}
	}
	return Expectation{}
}

// Violation is the first moment the units in use exceeded the limit.
type Violation struct {
	Time   float64
	Inside []int // 1-based nodes in the critical section
	Units  int
	Limit  int
	Trace  []TraceEvent
}

// Deadlock is a state with requests pending, no message in flight and nobody
// inside.
type Deadlock struct {
	Time    float64
	Waiting []int // 1-based nodes with a pending request
	// Cycle is a wait-for cycle: Cycle[i] waits for the permission of
	// member Via[i], which Cycle[i+1] holds (cyclically). Empty when the
	// waits end at a free member (a lost permission), listed in Free.
	Cycle []int
	Via   []int
	Free  [][2]int // (waiting node, free member) pairs
	Trace []TraceEvent
}

// TraceEvent is one step of a trace: a delivery, a request, an entry or an
// exit, with 1-based node numbers.
type TraceEvent struct {
	Time float64
	// Step numbers the scheduled steps of an explorer's counterexample;
	// Sub marks what a step caused (local steps, entries).
	Step  int
	Sub   bool
	Event string // "deliver", "local", "request", "enter", "exit", "anomaly"
	From  int
	To    int
	Node  int
	Kind  string
	Stamp int64
	H     int
	// Quorum lists the members of a request's quorum.
	Quorum []int
}

// String formats e on one line, as the trace of `coterie simulate` shows it.
func (e TraceEvent) String() string {
	t := fmt.Sprintf("%10.3f  ", e.Time)
	switch {
	case e.Sub:
		t = "         ↳ "
	case e.Step > 0:
		t = fmt.Sprintf("%5d  ", e.Step)
	}
	switch e.Event {
	case "anomaly":
		return fmt.Sprintf("%sanomaly at node %d: %s", t, e.Node, e.Kind)
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

// traceRec is a recorded event.
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
	rng   *rand.Rand // requests, quorums, critical sections, arrivals
	drng  *rand.Rand // message delays
	cfg   Config
	delay Dist
	cs    Dist
	limit int

	now    float64 // in mean message delays
	t      uint64  // now, in ticks
	scale  float64 // 1 / the mean message delay
	delays []float64
	di     int
	rate   float64 // Poisson rate per mean message delay (Load.Rate is per time unit)
	q      eventQueue
	err    error // the first error of the run (time overflowed)
	// out and rows keep the delivery times of the last messages on the
	// channels from each node (see fifo).
	dense    []uint64
	out      [][]outRec
	rows     [][]uint64
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

	res     *Result
	waits   []float64 // for the percentiles: every wait, or a sample
	entered int
	sumWait float64
	maxWait float64
	srng    *rand.Rand // the waits' sample, apart from the run's randomness

	// The fast run records nothing. When it meets a violation or a
	// deadlock, a second run with the same seed records the events of the
	// nodes in focus up to step stop, where the first one met it.
	step     uint64
	stop     uint64
	focus    []bool
	recs     []traceRec
	violStep uint64 // the step of the first violation
	violAt   []int  // the nodes inside then
}

// Simulate runs spec on sys under cfg and returns what it measured. A safety
// violation, a deadlock or an anomaly is a result, not an error; errors are
// for a bad configuration or a protocol that does not run on sys. The run is
// deterministic: the same arguments give the same Result. It stops early,
// with ctx's error, when ctx is done.
//
// The run itself records nothing; when it meets a violation or a deadlock,
// it is replayed with the same seed up to that step, recording the events of
// the nodes involved, to explain it.
func Simulate(ctx context.Context, spec Spec, sys *System, cfg Config) (*Result, error) {
	s, err := newSim(ctx, spec, sys, cfg)
	if err != nil {
		return nil, err
	}
	if err := s.run(); err != nil {
		return nil, err
	}
	if s.violAt != nil {
		r, err := s.replay(s.violStep, s.violAt)
		if err != nil {
			return nil, err
		}
		s.res.Violation = r.violation()
	}
	if s.res.Deadlock {
		show := s.res.DeadlockInfo.Cycle
		if len(show) == 0 {
			show = s.res.DeadlockInfo.Waiting
		}
		nodes := make([]int, len(show))
		for i, v := range show {
			nodes[i] = v - 1
		}
		r, err := s.replay(s.step, nodes)
		if err != nil {
			return nil, err
		}
		s.res.DeadlockInfo.Trace = r.trace(nodes)
	}
	s.finish()
	return s.res, nil
}

// replay runs the simulation again up to step stop, recording the events of
// nodes.
func (s *sim) replay(stop uint64, nodes []int) (*sim, error) {
	r, err := newSim(s.ctx, s.spec, s.sys, s.cfg)
	if err != nil {
		return nil, err
	}
	r.stop = stop
	r.focus = make([]bool, s.sys.N)
	for _, v := range nodes {
		r.focus[v] = true
	}
	if err := r.run(); err != nil {
		return nil, err
	}
	return r, nil
}

func newSim(ctx context.Context, spec Spec, sys *System, cfg Config) (*sim, error) {
	if cfg.Entries < 1 {
		return nil, errorf("entries = %d: want at least 1", cfg.Entries)
	}
	p, err := spec.New(sys)
	if err != nil {
		return nil, err
	}
	s := &sim{ctx: ctx, spec: spec, sys: sys, p: p, cfg: cfg, limit: spec.Limit(sys),
		rng:  rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		drng: rand.New(rand.NewPCG(cfg.Seed^0xd1b54a32d192ed03, cfg.Seed)),
		srng: rand.New(rand.NewPCG(cfg.Seed, 0x5851f42d4c957f2d))}
	s.delay, s.cs = DefaultDelay(), DefaultCS()
	if cfg.Delay != nil {
		s.delay = *cfg.Delay
	}
	if cfg.CS != nil {
		s.cs = *cfg.CS
	}
	if s.delay.Mean() <= 0 {
		return nil, errorf("the mean message delay must be positive")
	}
	if cfg.Load.Kind == Poisson && !(cfg.Load.Rate > 0) {
		return nil, errorf("a Poisson load needs a positive rate")
	}
	n := sys.N
	if n > 1<<15 {
		return nil, errorf("%d nodes: the simulator takes at most %d", n, 1<<15)
	}
	s.scale = 1 / s.delay.Mean()
	s.rate = cfg.Load.Rate / s.scale
	if n <= denseNodes {
		s.dense = make([]uint64, n*n)
	} else {
		s.out = make([][]outRec, n)
		s.rows = make([][]uint64, n)
	}
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
	s.res = &Result{Protocol: spec.Name, Load: cfg.Load.String(), Entries: cfg.Entries, Seed: cfg.Seed,
		N: n, K: sys.K, Delay: s.delay.String(), CS: s.cs.String(),
		KindCounts: make([]int64, len(spec.Kinds)), PerNode: make([]int, n)}
	s.waits = make([]float64, 0, min(cfg.Entries, 1<<20))
	return s, nil
}

// refill draws the next batch of message delays, normalized to mean 1,
// from their own random stream (drawing them in batches keeps the send path
// free of calls).
func (s *sim) refill() {
	if s.delays == nil {
		s.delays = make([]float64, 256)
	}
	for i := range s.delays {
		s.delays[i] = s.delay.draw(s.drng) * s.scale
	}
	s.di = 0
}

// after returns the time d (in the user's time unit) after now, in ticks.
func (s *sim) after(d float64) uint64 {
	t := s.t + toTicks(d*s.scale)
	if t > maxTime && s.err == nil {
		s.err = errorf("simulated time overflows; use a shorter run or a higher rate")
	}
	return t
}

func (s *sim) push(at uint64, kind uint8, node int32) {
	s.q.add(at, Message{To: node, Kind: kind})
}

func (s *sim) record(what uint8, m Message) {
	if s.focus == nil {
		return
	}
	if s.focus[m.To] || (what == traceDeliver || what == traceLocal) && s.focus[m.From] {
		s.recs = append(s.recs, traceRec{at: s.now, msg: m, what: what})
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
	if s.di == len(s.delays) {
		s.refill()
	}
	t := s.t + toTicks(s.delays[s.di])
	s.di++
	s.inFlight++
	s.q.add(s.fifo(m.From, m.To, t), m)
}

// fifo returns the delivery time of a message sent from a to b now that
// would arrive at t: t, or one tick after the last message on the channel if
// that one arrives at t or later.
//
// Up to denseNodes nodes the times live in an n×n table. Beyond, where the
// table would not fit, each sender keeps a short list of the channels on
// which it has a message in flight (usually its quorum's members right
// after a request), pruned as messages arrive; a sender with more than
// fifoList of them (a Ricart–Agrawala broadcast) switches to a row of n
// entries. (The lists save memory, not time: on PG(2,16) they were slower
// than the table's cache misses.)
func (s *sim) fifo(a, b int32, t uint64) uint64 {
	if s.dense != nil {
		k := int(a)*s.sys.N + int(b)
		if t <= s.dense[k] {
			t = s.dense[k] + 1
		}
		s.dense[k] = t
		return t
	}
	if row := s.rows[a]; row != nil {
		if t <= row[b] {
			t = row[b] + 1
		}
		row[b] = t
		return t
	}
	lst := s.out[a]
	w := 0
	for _, r := range lst {
		switch {
		case r.at < s.t:
			// Delivered: forget it.
		case r.to == b:
			if t <= r.at {
				t = r.at + 1
			}
		default:
			lst[w] = r
			w++
		}
	}
	lst = append(lst[:w], outRec{to: b, at: t})
	if len(lst) > fifoList {
		row := make([]uint64, s.sys.N)
		for _, r := range lst {
			row[r.to] = r.at
		}
		s.rows[a], lst = row, nil
	}
	s.out[a] = lst
	return t
}

// fifoList is how many channels in flight a sender tracks in a list.
const fifoList = 48

// denseNodes is the most nodes for which fifo keeps an n×n table (64 MiB).
const denseNodes = 2896

// outRec is a channel with a message in flight: its receiver and the
// delivery time of its last message.
type outRec struct {
	at uint64
	to int32
}

// Enter implements Net.
func (s *sim) Enter(node, units int) {
	s.record(traceEnter, Message{To: int32(node), Stamp: int64(units)})
	s.phase[node] = inside
	s.units[node] = int32(units)
	s.inCS++
	s.used += units
	s.pending--
	w := s.now - s.reqAt[node]
	s.entered++
	s.sumWait += w
	s.maxWait = max(s.maxWait, w)
	if len(s.waits) < maxSamples {
		s.waits = append(s.waits, w)
	} else if k := s.srng.Uint64N(uint64(s.entered)); k < maxSamples {
		// Reservoir sampling (Vitter's Algorithm R) keeps a uniform
		// sample of the waits for the percentiles.
		s.waits[k] = w
	}
	s.res.PerNode[node]++
	if s.used > s.limit {
		s.res.SafetyViolations++
		if s.violAt == nil {
			s.violStep = s.step
			for i, p := range s.phase {
				if p == inside {
					s.violAt = append(s.violAt, i)
				}
			}
		}
	}
	s.push(s.after(s.cs.draw(s.rng)), evExit, int32(node))
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
		s.res.SumHKBound += measure.HKWorst(h).Int(s.sys.N, len(q), int(r))
	}
	s.quorum[node] = q
	s.res.MeanUnits += float64(h)
	s.issued++
	s.pending++
	s.phase[node] = waiting
	s.reqAt[node] = s.now
	s.record(traceRequest, Message{To: int32(node), Stamp: int64(h)})
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
			s.push(toTicks(s.rng.ExpFloat64()/s.rate), evArrive, int32(i))
		}
	}
	for {
		if s.stop > 0 && s.step >= s.stop {
			return nil
		}
		if s.cfg.Load.Kind == Light && s.pending == 0 && s.inCS == 0 && s.inFlight == 0 && s.issued < target {
			s.step++
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
		if s.step++; s.step&0xffff == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
			if s.err != nil {
				return s.err
			}
			if s.cfg.Progress != nil && s.focus == nil {
				s.cfg.Progress("simulate", int64(s.entered), int64(s.cfg.Entries))
			}
		}
		var m Message
		s.t, m = s.q.pop()
		s.now = fromTicks(s.t)
		switch m.Kind {
		default:
			s.inFlight--
			s.record(traceDeliver, m)
			s.p.Deliver(s, m)
			s.drain()
		case evExit:
			node := int(m.To)
			s.record(traceExit, m)
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
			node := int(m.To)
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
				s.push(s.t+toTicks(s.rng.ExpFloat64()/s.rate), evArrive, m.To)
			}
		}
	}
}

// trace returns the recorded events from the earliest pending request among
// nodes on (the last 200 of them).
func (s *sim) trace(nodes []int) []TraceEvent {
	since := math.Inf(1)
	for _, v := range nodes {
		since = min(since, s.reqAt[v])
	}
	var out []TraceEvent
	for _, r := range s.recs {
		if r.at >= since {
			out = append(out, s.traceEvent(r))
		}
	}
	if len(out) > 200 {
		out = out[len(out)-200:]
	}
	return out
}

func (s *sim) traceEvent(r traceRec) TraceEvent {
	m := r.msg
	e := TraceEvent{Time: r.at}
	switch r.what {
	case traceDeliver, traceLocal:
		ev := "deliver"
		if r.what == traceLocal {
			ev = "local"
		}
		e = messageEvent(s.spec, ev, m)
		e.Time = r.at
	case traceRequest:
		e.Event, e.Node = "request", int(m.To)+1
		if s.spec.Units {
			e.H = int(m.Stamp)
		}
		for _, v := range s.quorum[m.To] {
			e.Quorum = append(e.Quorum, int(v)+1)
		}
	case traceEnter:
		e.Event, e.Node = "enter", int(m.To)+1
		if s.spec.Units {
			e.H = int(m.Stamp)
		}
	case traceExit:
		e.Event, e.Node = "exit", int(m.To)+1
	}
	return e
}

// messageEvent describes the delivery of m.
func messageEvent(spec Spec, ev string, m Message) TraceEvent {
	e := TraceEvent{Event: ev, From: int(m.From) + 1, To: int(m.To) + 1, Kind: spec.Kinds[m.Kind], Stamp: m.Stamp}
	if spec.PackedUnits {
		c, h := hkUnpack(m.Stamp)
		e.Stamp, e.H = c, int(h)
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
	v.Trace = s.trace(nodes)
	return v
}

func (s *sim) deadlock() *Deadlock {
	d := &Deadlock{Time: s.now}
	for i, p := range s.phase {
		if p == waiting {
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
	done := s.entered
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
		r.Paper = expect(s.spec, s.cfg.Load, r)
		slices.Sort(s.waits)
		r.MeanWait = s.sumWait / float64(done)
		r.P50Wait = stat.Quantile(0.5, stat.Empirical, s.waits, nil)
		r.P90Wait = stat.Quantile(0.9, stat.Empirical, s.waits, nil)
		r.P99Wait = stat.Quantile(0.99, stat.Empirical, s.waits, nil)
	}
	// The longest wait includes requests still waiting at the end (a
	// deadlock), which are starving.
	r.MaxWait = s.maxWait
	for i, p := range s.phase {
		if p == waiting {
			r.MaxWait = max(r.MaxWait, s.now-s.reqAt[i])
		}
	}
}

// maxSamples bounds the waits kept for the percentiles: exact up to that
// many entries, a uniform sample of that size beyond (128 MiB).
const maxSamples = 1 << 24
