package protocol

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/coterie-dev/coterie/set"
)

// ExploreConfig bounds an exhaustive exploration.
type ExploreConfig struct {
	// Requests is the number of requests in the whole run (so at most that
	// many are concurrent); 0 means 2.
	Requests int
	// Rounds is how many of them one node may make, one after the other; 0
	// means 1.
	Rounds int
	// Requesters, if not nil, lists the nodes (0-based) that may request;
	// nil means every node.
	Requesters []int
	// MaxStates stops the search after that many distinct states; 0 means
	// 4,000,000. What a state takes grows with n and the requests in
	// flight (about 500 bytes for Maekawa on PG(2,3) with 8 requests):
	// MaxMemory bounds the bytes.
	MaxStates int
	// MaxDepth, if positive, leaves states at that many steps from the
	// start unexpanded ("all delivery orders up to a bound").
	MaxDepth int
	// MaxMemory, if positive, stops the search before its data (states
	// found, the frontier, successors in hand, the state graph) would take
	// more than that many bytes, as estimated from what it holds. The
	// result is then incomplete and comes with an error wrapping
	// set.ErrMemoryBudget. 0 means no limit.
	MaxMemory int64
	// Workers is the number of goroutines expanding states; 0 means
	// GOMAXPROCS. The result does not depend on it.
	Workers int
	// Progress, if not nil, is told once per level of the breadth-first
	// search, after expanding it (stage "explore"), the states found so
	// far, of a total not known in advance (−1).
	Progress set.Progress
}

// ExploreResult is the verdict of an exploration.
type ExploreResult struct {
	Protocol string
	N        int
	K        int
	Requests int
	Rounds   int
	// States and Transitions count the distinct states reached and the
	// steps between them; Depth is the longest shortest path found.
	States      int
	Transitions int
	Depth       int
	Complete    bool // every reachable state was expanded
	// Stopped says why an incomplete search stopped: "max_states",
	// "max_depth", "max_memory", or "cancelled" (ctx ended); "" when
	// complete.
	Stopped string
	// The verdicts: each is proved when Complete, and means "no
	// counterexample within the bounds" otherwise. Terminates (no execution
	// runs forever, so with DeadlockFree every request is served) is only
	// decided on a complete search.
	Safe         bool
	DeadlockFree bool
	Terminates   *bool
	AnomalyFree  bool
	// Shortest counterexamples, nil when the property holds.
	Violation *Counterexample
	Deadlock  *Counterexample
	Livelock  *Counterexample
	Anomaly   *Counterexample
}

// Counterexample is a shortest path to a bad state: Steps lists the scheduled
// steps (deliveries, requests, exits) and, indented under each, what it
// caused (local steps, entries). For a livelock, the steps from Loop on
// repeat for ever.
type Counterexample struct {
	What  string
	Steps []TraceEvent
	Loop  int
	// For a deadlock, the wait-for cycle at the end (1-based): Cycle[i]
	// waits for member Via[i], whose permission Cycle[i+1] holds.
	Cycle []int
	Via   []int
}

// Transition kinds of the explorer, packed as kind<<28 | a<<16 | b.
const (
	tDeliver = iota // a = receiver, b = sender
	tRequest        // a = node, b = option
	tExit           // a = node
)

func packT(kind, a, b int) uint32 { return uint32(kind)<<28 | uint32(a)<<16 | uint32(b) }
func unpackT(t uint32) (kind, a, b int) {
	return int(t >> 28), int(t >> 16 & 0xfff), int(t & 0xffff)
}

// maxExploreNodes bounds the explorer's instances.
const maxExploreNodes = 64

// xnet is the explorer's Net and the decoded global state around the
// protocol's.
type xnet struct {
	n       int
	p       Protocol
	spec    Spec
	limit   int
	ch      [][]Message // per ordered pair from*n+to, FIFO
	local   []Message
	phase   []uint8
	units   []int32
	issued  []int32
	used    int
	bad     bool   // units exceeded the limit in this step
	anomaly string // the first anomaly of this step
	log     *[]TraceEvent
}

func (x *xnet) Send(m Message) {
	if m.From == m.To {
		x.local = append(x.local, m)
		return
	}
	c := int(m.From)*x.n + int(m.To)
	x.ch[c] = append(x.ch[c], m)
}

func (x *xnet) Enter(node, units int) {
	x.phase[node] = inside
	x.units[node] = int32(units)
	x.used += units
	if x.used > x.limit {
		x.bad = true
	}
	if x.log != nil {
		e := TraceEvent{Event: "enter", Node: node + 1}
		if x.spec.Units {
			e.H = units
		}
		*x.log = append(*x.log, e)
	}
}

func (x *xnet) Anomaly(node int, what string) {
	if x.anomaly == "" {
		x.anomaly = fmt.Sprintf("node %d: %s", node+1, what)
	}
	if x.log != nil {
		*x.log = append(*x.log, TraceEvent{Event: "anomaly", Node: node + 1, Kind: what})
	}
}

func (x *xnet) drain() {
	for i := 0; i < len(x.local); i++ {
		m := x.local[i]
		if x.log != nil {
			*x.log = append(*x.log, x.msgEvent("local", m))
		}
		x.p.Deliver(x, m)
	}
	x.local = x.local[:0]
}

func (x *xnet) msgEvent(ev string, m Message) TraceEvent { return messageEvent(x.spec, ev, m) }

// encode appends the global state: the protocol's state with its length
// first, then each node's phase, requests made and units held, then the
// non-empty channels.
func (x *xnet) encode(b, scratch []byte) ([]byte, []byte) {
	scratch = x.p.AppendState(scratch[:0])
	b = binary.AppendUvarint(b, uint64(len(scratch)))
	b = append(b, scratch...)
	for i := range x.n {
		b = append(b, x.phase[i], byte(x.issued[i]))
		if x.phase[i] == inside {
			b = binary.AppendUvarint(b, uint64(x.units[i]))
		}
	}
	for c, q := range x.ch {
		if len(q) == 0 {
			continue
		}
		b = binary.AppendUvarint(b, uint64(c)+1)
		b = binary.AppendUvarint(b, uint64(len(q)))
		for _, m := range q {
			b = append(b, m.Kind)
			b = binary.AppendVarint(b, m.Stamp)
		}
	}
	return append(b, 0), scratch
}

// decode loads a state that encode wrote.
func (x *xnet) decode(b []byte) error {
	pl, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < pl {
		return errBadState
	}
	if err := x.p.LoadState(b[k : k+int(pl)]); err != nil {
		return err
	}
	b = b[k+int(pl):]
	x.used = 0
	for i := range x.n {
		if len(b) < 2 {
			return errBadState
		}
		x.phase[i], x.issued[i] = b[0], int32(b[1])
		b = b[2:]
		x.units[i] = 0
		if x.phase[i] == inside {
			u, k := binary.Uvarint(b)
			if k <= 0 {
				return errBadState
			}
			x.units[i] = int32(u)
			x.used += int(u)
			b = b[k:]
		}
	}
	for c := range x.ch {
		x.ch[c] = x.ch[c][:0]
	}
	for {
		c, k := binary.Uvarint(b)
		if k <= 0 {
			return errBadState
		}
		b = b[k:]
		if c == 0 {
			break
		}
		c--
		l, k := binary.Uvarint(b)
		if k <= 0 || c >= uint64(len(x.ch)) {
			return errBadState
		}
		b = b[k:]
		from, to := int32(int(c)/x.n), int32(int(c)%x.n)
		for range l {
			if len(b) == 0 {
				return errBadState
			}
			m := Message{Kind: b[0], From: from, To: to}
			b = b[1:]
			st, k := binary.Varint(b)
			if k <= 0 {
				return errBadState
			}
			b = b[k:]
			m.Stamp = st
			x.ch[c] = append(x.ch[c], m)
		}
	}
	if len(b) != 0 {
		return errBadState
	}
	return nil
}

// explorer is the shared, read-only part of a search.
type explorer struct {
	spec     Spec
	sys      *System
	cfg      ExploreConfig
	limit    int
	options  [][]option // per node; nil for a node that may not request
	requests int
	rounds   int
}

func (e *explorer) newNet() (*xnet, error) {
	p, err := e.spec.New(e.sys)
	if err != nil {
		return nil, err
	}
	n := e.sys.N
	return &xnet{n: n, p: p, spec: e.spec, limit: e.limit, ch: make([][]Message, n*n),
		phase: make([]uint8, n), units: make([]int32, n), issued: make([]int32, n)}, nil
}

// transitions appends the steps enabled in x's state, in a fixed order.
func (e *explorer) transitions(x *xnet, ts []uint32) []uint32 {
	total := 0
	for _, v := range x.issued {
		total += int(v)
	}
	n := x.n
	for to := range n {
		for from := range n {
			if len(x.ch[from*n+to]) > 0 {
				ts = append(ts, packT(tDeliver, to, from))
			}
		}
		switch x.phase[to] {
		case inside:
			ts = append(ts, packT(tExit, to, 0))
		case idle:
			if e.options[to] != nil && total < e.requests && int(x.issued[to]) < e.rounds {
				for o := range e.options[to] {
					ts = append(ts, packT(tRequest, to, o))
				}
			}
		}
	}
	return ts
}

// apply performs step t on x's state.
func (e *explorer) apply(x *xnet, t uint32) {
	x.bad, x.anomaly = false, ""
	kind, a, b := unpackT(t)
	switch kind {
	case tDeliver:
		c := b*x.n + a
		m := x.ch[c][0]
		copy(x.ch[c], x.ch[c][1:])
		x.ch[c] = x.ch[c][:len(x.ch[c])-1]
		if x.log != nil {
			*x.log = append(*x.log, x.msgEvent("deliver", m))
		}
		x.p.Deliver(x, m)
	case tRequest:
		o := e.options[a][b]
		x.phase[a] = waiting
		x.issued[a]++
		if x.log != nil {
			ev := TraceEvent{Event: "request", Node: a + 1}
			if e.spec.Units {
				ev.H = o.h
			}
			if !e.spec.NoQuorums {
				for _, v := range o.q {
					ev.Quorum = append(ev.Quorum, int(v)+1)
				}
			}
			*x.log = append(*x.log, ev)
		}
		q := o.q
		if e.spec.NoQuorums {
			q = nil
		}
		x.p.Request(x, a, Request{H: o.h, Quorum: q})
	case tExit:
		if x.log != nil {
			*x.log = append(*x.log, TraceEvent{Event: "exit", Node: a + 1})
		}
		x.used -= int(x.units[a])
		x.units[a] = 0
		x.phase[a] = idle
		x.p.Exit(x, a)
	}
	x.drain()
}

// succ is one successor found by a worker.
type succ struct {
	hash    [16]byte
	enc     []byte
	t       uint32
	bad     bool
	anomaly string
	// outside: a shard does not expand this state (see requestClasses).
	outside bool
	// id is the state's number in the union graph of a merge.
	id int32
	// key is the stable hash of enc, when keyed (in a resumed shard).
	key   [16]byte
	keyed bool
}

// expanded is what a worker found about one state of the frontier.
type expanded struct {
	succs    []succ
	deadlock bool // no step enabled and a request pending
}

// The two seeds of the state hash. The numbering of states, and so every
// result, depends only on which states are equal, not on hash values: the
// seeds may differ from run to run.
var seedA, seedB = maphash.MakeSeed(), maphash.MakeSeed()

// hashState identifies a state by 128 bits of hash of its encoding.
func hashState(b []byte) [16]byte {
	var out [16]byte
	binary.LittleEndian.PutUint64(out[:8], maphash.Bytes(seedA, b))
	binary.LittleEndian.PutUint64(out[8:], maphash.Bytes(seedB, b))
	return out
}

// Explore searches every interleaving of the instance that cfg bounds:
// which nodes request, with which quorum and units, and in which order every
// message is delivered (FIFO per channel), breadth first, so that the
// counterexamples it returns are shortest. States are identified by a
// 128-bit hash of their canonical encoding (two distinct states collide
// with probability about states²/2^129).
//
// Cost: exponential in the number of requests and quorum sizes; bounded by
// cfg.MaxStates, cfg.MaxDepth and cfg.MaxMemory, after which the result
// says Complete = false and why, with every verdict holding for the states
// explored. It honours ctx, checking it every few thousand states; when ctx
// ends or the memory budget is reached, Explore returns that partial
// result together with the error (ctx.Err(), or one wrapping
// set.ErrMemoryBudget). The result does not depend on cfg.Workers.
func Explore(ctx context.Context, spec Spec, sys *System, cfg ExploreConfig) (*ExploreResult, error) {
	e, err := newExplorer(spec, sys, cfg)
	if err != nil {
		return nil, err
	}
	res := &ExploreResult{Protocol: spec.Name, N: sys.N, K: sys.K, Requests: e.requests, Rounds: e.rounds,
		Safe: true, DeadlockFree: true, AnomalyFree: true}
	s, err := newSearch(ctx, e, cfg)
	if err != nil {
		return nil, err
	}
	return s.explore(res)
}

// What the search holds, in bytes, for ExploreConfig.MaxMemory: per state
// its entry in visited, parent and trans; per edge kept 4 bytes; per
// frontier entry or successor in hand its encoding and record; each with
// room for slices grown by doubling.
const (
	stateBytes = 80
	edgeBytes  = 8
	frontBytes = 64
	succBytes  = 96
)

// The search keeps the state graph, for the termination check, while it
// has at most maxEdges edges.
const maxEdges = 1 << 27

// A level is expanded in chunks of searchChunk states, merged in frontier
// order, so that the successors in hand stay few; the numbering, and where
// a budget stops the search, do not depend on the workers.
const searchChunk = 1 << 14

// front is a state of the frontier: its number and its encoding.
type front struct {
	idx uint32
	enc []byte
}

// search is the breadth-first search of Explore: the states found so far,
// how each was reached, the first bad state of each kind, and why the
// search stopped.
type search struct {
	ctx       context.Context
	e         *explorer
	cfg       ExploreConfig
	maxStates int
	workers   int

	// visited numbers the states by hash; state i was reached from
	// parent[i] by transition trans[i] (state 0 is the initial one).
	visited map[[16]byte]uint32
	parent  []uint32
	trans   []uint32
	// The state graph: the successors of state i are
	// edges[start[i]:start[i+1]]. Dropped if it grows too large.
	edges, start []uint32
	keepEdges    bool

	frontier      []front
	frontierBytes int64
	depth         int

	deadlockAt, violationAt, anomalyAt int
	anomalyWhat                        string

	complete bool
	stopErr  error

	// A shard of a split search (see ExploreShardRun): it expands only
	// the states whose requests so far classes allows, and records them in
	// rec.
	classes *requestClasses
	rec     *graphRec
	// The merge of a split search (see MergeExplore) walks g, the union of
	// the shards' graphs, in place of the protocol: a state is its number
	// in g (its encoding the number's 4 bytes), a transition its rank among
	// the state's steps; number[u] is 1 + the search's number of g's
	// state u (0: not found yet), in place of visited, and gid[i] is the
	// state of g that the search's state i is.
	g      *unionGraph
	number []uint32
	gid    []int32

	// A shard's run can be saved and resumed (explore_snapshot.go): save,
	// if not nil, is offered a snapshot between chunks. A resumed run
	// knows the states found before it by their stable hashes, in stable;
	// pendingNext is the part of the next level they hold.
	save        func(*ExploreSnapshot) error
	stable      map[[16]byte]uint32
	pendingNext []front
}

func newSearch(ctx context.Context, e *explorer, cfg ExploreConfig) (*search, error) {
	s := &search{ctx: ctx, e: e, cfg: cfg, maxStates: cfg.MaxStates, workers: cfg.Workers,
		parent: []uint32{0}, trans: []uint32{0}, keepEdges: true,
		deadlockAt: -1, violationAt: -1, anomalyAt: -1, complete: true}
	if s.maxStates <= 0 {
		s.maxStates = 4_000_000
	}
	s.maxStates = min(s.maxStates, math.MaxInt32)
	if s.workers <= 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	x0, err := e.newNet()
	if err != nil {
		return nil, err
	}
	root, _ := x0.encode(nil, nil)
	s.setRoot(root, hashState(root))
	return s, nil
}

// setRoot makes root, with key in visited, the initial state.
func (s *search) setRoot(root []byte, key [16]byte) {
	s.visited = map[[16]byte]uint32{key: 0}
	s.frontier = []front{{0, root}}
	s.frontierBytes = int64(len(root) + frontBytes)
}

// stop ends the search incomplete, for why ("max_states", "cancelled",
// ...), with err (nil for a bound the caller set).
func (s *search) stop(res *ExploreResult, why string, err error) {
	s.complete = false
	res.Stopped = why
	s.stopErr = err
}

// memory is what the search holds, with extra bytes of successors in hand.
func (s *search) memory(extra int64) int64 {
	m := int64(len(s.parent))*stateBytes + int64(len(s.edges)+len(s.start))*edgeBytes + s.frontierBytes + extra
	if s.rec != nil {
		m += int64(len(s.rec.hashes))*16 + int64(cap(s.rec.data))
	}
	return m
}

func (s *search) overBudget(extra int64) bool {
	return s.cfg.MaxMemory > 0 && s.memory(extra) > s.cfg.MaxMemory
}

// run expands the frontier level by level until nothing is new or a bound,
// the budget or ctx stops it. Only an internal failure is an error; a stop
// is recorded in res and s.stopErr.
func (s *search) run(res *ExploreResult) error {
	for len(s.frontier) > 0 {
		if err := s.ctx.Err(); err != nil {
			s.stop(res, "cancelled", err)
			return s.offer(0, s.pendingNext, true)
		}
		if s.cfg.MaxDepth > 0 && s.depth >= s.cfg.MaxDepth {
			s.stop(res, "max_depth", nil)
			return nil
		}
		next, stopped, err := s.level(res)
		if err != nil || stopped {
			return err
		}
		s.frontier = next
		if len(next) > 0 {
			s.depth++
		}
		s.cfg.Progress.Report("explore", int64(len(s.parent)), -1)
	}
	return nil
}

// level expands the frontier, chunk by chunk, and returns the next one;
// stopped says that the search stopped on the way.
func (s *search) level(res *ExploreResult) (next []front, stopped bool, err error) {
	next, s.pendingNext = s.pendingNext, nil
	for clo := 0; clo < len(s.frontier); clo += searchChunk {
		if err := s.ctx.Err(); err != nil {
			s.stop(res, "cancelled", err)
			return nil, true, s.offer(clo, next, true)
		}
		if err := s.offer(clo, next, false); err != nil {
			return nil, true, err
		}
		cur := s.frontier[clo:min(clo+searchChunk, len(s.frontier))]
		out, err := s.expandChunk(cur)
		if err := s.ctx.Err(); err != nil {
			s.stop(res, "cancelled", err)
			return nil, true, s.offer(clo, next, true)
		}
		if err != nil {
			return nil, true, err
		}
		var inHand int64
		for i := range out {
			for _, sc := range out[i].succs {
				inHand += int64(len(sc.enc)) + succBytes
			}
		}
		if s.overBudget(inHand) {
			s.stop(res, "max_memory", budgetError(s.cfg.MaxMemory, len(s.parent)))
			return nil, true, s.offer(clo, next, true)
		}
		if next, stopped = s.merge(res, cur, out, inHand, next); stopped {
			return nil, true, nil
		}
	}
	return next, false, nil
}

// expandChunk expands the states of cur in parallel, in contiguous parts.
func (s *search) expandChunk(cur []front) ([]expanded, error) {
	out := make([]expanded, len(cur))
	parts := min(s.workers, len(cur))
	size := (len(cur) + parts - 1) / parts
	fails := make([]error, parts)
	var wg sync.WaitGroup
	for w := range parts {
		lo, hi := w*size, min((w+1)*size, len(cur))
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			fails[w] = s.expand(cur[lo:hi], out[lo:hi])
		}()
	}
	wg.Wait()
	return out, errors.Join(fails...)
}

// expand lists the successors of the states of part in out, and marks the
// deadlocks. It only reads s.visited, which is written between expansions.
func (s *search) expand(part []front, out []expanded) error {
	if s.g != nil {
		return s.expandUnion(part, out)
	}
	e := s.e
	x, err := e.newNet()
	if err != nil {
		return err
	}
	var ts []uint32
	var buf, scratch []byte
	var inside map[string]bool // this worker's answers of s.classes
	if s.classes != nil {
		inside = map[string]bool{}
	}
	for pi, f := range part {
		if pi&1023 == 1023 && s.ctx.Err() != nil {
			return s.ctx.Err()
		}
		if err := x.decode(f.enc); err != nil {
			return errorf("explore: %w", err)
		}
		ts = e.transitions(x, ts[:0])
		if len(ts) == 0 {
			for _, ph := range x.phase {
				if ph == waiting {
					out[pi].deadlock = true
				}
			}
			continue
		}
		for ti, t := range ts {
			if ti > 0 { // the first step starts from the state just decoded
				if err := x.decode(f.enc); err != nil {
					return errorf("explore: %w", err)
				}
			}
			e.apply(x, t)
			buf, scratch = x.encode(buf[:0], scratch)
			h := hashState(buf)
			// A state found before needs no copy.
			var enc []byte
			if _, seen := s.visited[h]; !seen {
				enc = append([]byte(nil), buf...)
			}
			sc := succ{hash: h, enc: enc, t: t, bad: x.bad, anomaly: x.anomaly}
			if s.stable != nil && enc != nil {
				sc.key, sc.keyed = stableHash(enc), true
			}
			if inside != nil && t>>28 == tRequest {
				sc.outside = !s.classes.holds(x.issued, inside)
			}
			out[pi].succs = append(out[pi].succs, sc)
		}
	}
	return nil
}

// merge numbers the new successors in out, in frontier order, and appends
// them to next; stopped says that a bound or the budget stopped the search.
func (s *search) merge(res *ExploreResult, cur []front, out []expanded, inHand int64, next []front) ([]front, bool) {
	for fi, f := range cur {
		if s.keepEdges {
			s.start = append(s.start, uint32(len(s.edges)))
		}
		if out[fi].deadlock && s.deadlockAt < 0 {
			s.deadlockAt = int(f.idx)
		}
		if s.rec != nil {
			s.rec.state(f.idx, out[fi].deadlock, len(out[fi].succs))
		}
		for _, sc := range out[fi].succs {
			res.Transitions++
			idx, seen := s.lookup(&sc)
			if !seen {
				if len(s.parent) >= s.maxStates {
					s.stop(res, "max_states", nil)
					return next, true
				}
				if len(s.parent)&4095 == 4095 && s.overBudget(inHand) {
					s.stop(res, "max_memory", budgetError(s.cfg.MaxMemory, len(s.parent)))
					return next, true
				}
				if s.g != nil {
					sc.enc = s.g.enc(sc.id)
				}
				idx = s.add(f.idx, sc)
				if !sc.outside {
					next = append(next, front{idx, sc.enc})
					s.frontierBytes += int64(len(sc.enc)) + frontBytes
				}
			}
			if s.rec != nil {
				s.rec.step(idx, sc.bad, sc.anomaly != "")
			}
			if s.keepEdges {
				s.edges = append(s.edges, idx)
				if len(s.edges) > maxEdges {
					s.keepEdges, s.edges, s.start = false, nil, nil
				}
			}
		}
		out[fi] = expanded{}
		// This state is expanded: its encoding is no longer needed.
		s.frontierBytes -= int64(len(cur[fi].enc)) + frontBytes
		cur[fi].enc = nil
	}
	return next, false
}

// lookup returns the number of the state sc leads to, if it was found
// before.
func (s *search) lookup(sc *succ) (uint32, bool) {
	if s.g != nil {
		n := s.number[sc.id]
		return n - 1, n > 0
	}
	idx, seen := s.visited[sc.hash]
	if !seen && sc.keyed {
		// A state found before the run resumed.
		if idx, seen = s.stable[sc.key]; seen {
			s.visited[sc.hash] = idx
		}
	}
	return idx, seen
}

// add numbers a new state, reached from state from by sc, and notes it if
// it is the first violation or anomaly.
func (s *search) add(from uint32, sc succ) uint32 {
	idx := uint32(len(s.parent))
	if s.g != nil {
		s.number[sc.id] = idx + 1
		s.gid = append(s.gid, sc.id)
	} else {
		s.visited[sc.hash] = idx
	}
	s.parent = append(s.parent, from)
	s.trans = append(s.trans, sc.t)
	if s.rec != nil {
		key := sc.key
		if !sc.keyed {
			key = stableHash(sc.enc)
		}
		s.rec.hashes = append(s.rec.hashes, key)
	}
	if sc.bad && s.violationAt < 0 {
		s.violationAt = int(idx)
	}
	if sc.anomaly != "" && s.anomalyAt < 0 {
		s.anomalyAt, s.anomalyWhat = int(idx), sc.anomaly
	}
	return idx
}

// path returns the transitions from the initial state to state i.
func (s *search) path(i int) []uint32 {
	var p []uint32
	for i != 0 {
		p = append(p, s.trans[i])
		i = int(s.parent[i])
	}
	slices.Reverse(p)
	return p
}

// counterexamples replays the shortest path to the first violation,
// deadlock and anomaly found, into res.
func (s *search) counterexamples(res *ExploreResult) error {
	e := s.e
	if s.violationAt >= 0 {
		res.Safe = false
		p, err := s.steps(s.path(s.violationAt))
		if err != nil {
			return err
		}
		if res.Violation, err = e.replay(p, 0, fmt.Sprintf("more than %d unit(s) in use", e.limit)); err != nil {
			return err
		}
	}
	if s.deadlockAt >= 0 {
		res.DeadlockFree = false
		p, err := s.steps(s.path(s.deadlockAt))
		if err != nil {
			return err
		}
		if res.Deadlock, err = e.replay(p, 0, "deadlock: requests pending, no message in flight, nobody inside"); err != nil {
			return err
		}
		if err := e.cycle(res.Deadlock, p); err != nil {
			return err
		}
	}
	if s.anomalyAt >= 0 {
		res.AnomalyFree = false
		p, err := s.steps(s.path(s.anomalyAt))
		if err != nil {
			return err
		}
		what := s.anomalyWhat
		if s.g != nil {
			if what, err = e.lastAnomaly(p); err != nil {
				return err
			}
		}
		if res.Anomaly, err = e.replay(p, 0, "anomaly: "+what); err != nil {
			return err
		}
	}
	return nil
}

// termination decides res.Terminates on the complete state graph: a cycle
// is an execution that never ends, reported as res.Livelock.
func (s *search) termination(res *ExploreResult) error {
	// Every state was expanded, in index order: start is complete.
	s.start = append(s.start, uint32(len(s.edges)))
	cyc := findCycle(s.start, s.edges)
	term := cyc == nil
	res.Terminates = &term
	if cyc == nil {
		return nil
	}
	// Reach the cycle by a shortest path, then go round it once.
	p := s.path(int(cyc[0]))
	loop := len(p) + 1
	for i := range cyc {
		var t uint32
		var err error
		if s.g != nil {
			t, err = s.rankTo(cyc[i], cyc[(i+1)%len(cyc)])
		} else {
			t, err = s.e.stepBetween(p, cyc[(i+1)%len(cyc)], s.visited)
		}
		if err != nil {
			return err
		}
		p = append(p, t)
	}
	p, err := s.steps(p)
	if err != nil {
		return err
	}
	res.Livelock, err = s.e.replay(p, loop, "livelock: an execution that never ends; the steps from the marked one repeat for ever")
	return err
}

// budgetError is the error of a search stopped by its memory budget.
func budgetError(maxMemory int64, states int) error {
	return errorf("explore: %w: stopped after %d states, before the search would take more than %d bytes",
		set.ErrMemoryBudget, states, maxMemory)
}

func newExplorer(spec Spec, sys *System, cfg ExploreConfig) (*explorer, error) {
	if sys.N > maxExploreNodes {
		return nil, errorf("explore: %d nodes; the explorer is for small instances (at most %d nodes); use simulate", sys.N, maxExploreNodes)
	}
	e := &explorer{spec: spec, sys: sys, cfg: cfg, limit: spec.Limit(sys), requests: cfg.Requests, rounds: cfg.Rounds}
	if e.requests <= 0 {
		e.requests = 2
	}
	if e.rounds <= 0 {
		e.rounds = 1
	}
	if e.rounds > 100 || e.requests > 100 {
		return nil, errorf("explore: %d requests, %d rounds: far beyond what an exhaustive search can cover", e.requests, e.rounds)
	}
	may := make([]bool, sys.N)
	if cfg.Requesters == nil {
		for i := range may {
			may[i] = true
		}
	}
	for _, v := range cfg.Requesters {
		if v < 0 || v >= sys.N {
			return nil, errorf("explore: requester %d is not a node 1..%d", v+1, sys.N)
		}
		may[v] = true
	}
	e.options = make([][]option, sys.N)
	for i := range sys.N {
		if !may[i] {
			continue
		}
		o, err := sys.options(i, spec.Units, 4096)
		if err != nil {
			return nil, errorf("explore: %w", err)
		}
		if len(o) > 0xffff {
			return nil, errorf("explore: node %d has %d ways to request: too many", i+1, len(o))
		}
		e.options[i] = o
	}
	return e, nil
}

// stepBetween returns the step that leads from the state path reaches to
// the state numbered target.
func (e *explorer) stepBetween(path []uint32, target uint32, visited map[[16]byte]uint32) (uint32, error) {
	x, err := e.newNet()
	if err != nil {
		return 0, err
	}
	for _, t := range path {
		e.apply(x, t)
	}
	from, _ := x.encode(nil, nil)
	var buf []byte
	for _, t := range e.transitions(x, nil) {
		if err := x.decode(from); err != nil {
			return 0, err
		}
		e.apply(x, t)
		buf, _ = x.encode(buf[:0], nil)
		if visited[hashState(buf)] == target {
			return t, nil
		}
	}
	return 0, errorf("explore: internal error: lost an edge of the state graph")
}

// replay runs path from the initial state and describes it.
func (e *explorer) replay(path []uint32, loop int, what string) (*Counterexample, error) {
	x, err := e.newNet()
	if err != nil {
		return nil, err
	}
	var log []TraceEvent
	x.log = &log
	for i, t := range path {
		before := len(log)
		e.apply(x, t)
		log[before].Step = i + 1
		for j := before + 1; j < len(log); j++ {
			log[j].Sub = true
		}
	}
	return &Counterexample{What: what, Steps: log, Loop: loop}, nil
}

// cycle records the wait-for cycle at the end of a deadlock's path.
func (e *explorer) cycle(c *Counterexample, path []uint32) error {
	x, err := e.newNet()
	if err != nil {
		return err
	}
	for _, t := range path {
		e.apply(x, t)
	}
	cyc, via, _ := waitCycle(x.p, x.phase)
	for i := range cyc {
		c.Cycle = append(c.Cycle, cyc[i]+1)
		c.Via = append(c.Via, via[i]+1)
	}
	return nil
}

// findCycle returns the states of a cycle of the graph (succs of i are
// edges[start[i]:start[i+1]]) reachable from state 0, or nil: an iterative
// depth-first search with three colours.
func findCycle(start, edges []uint32) []uint32 {
	n := len(start) - 1
	color := make([]uint8, n)
	type frame struct{ v, k uint32 }
	stack := []frame{{0, start[0]}}
	color[0] = 1
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.k == start[f.v+1] {
			color[f.v] = 2
			stack = stack[:len(stack)-1]
			continue
		}
		w := edges[f.k]
		f.k++
		switch color[w] {
		case 0:
			color[w] = 1
			stack = append(stack, frame{w, start[w]})
		case 1:
			var cyc []uint32
			for i := len(stack) - 1; i >= 0; i-- {
				cyc = append(cyc, stack[i].v)
				if stack[i].v == w {
					break
				}
			}
			for a, b := 0, len(cyc)-1; a < b; a, b = a+1, b-1 {
				cyc[a], cyc[b] = cyc[b], cyc[a]
			}
			return cyc
		}
	}
	return nil
}

// explore runs the search from its initial states and fills in res: the
// counts, the shortest counterexamples and, when the whole graph is kept,
// termination. The error is the reason a search stopped early, with res
// holding what it proved.
func (s *search) explore(res *ExploreResult) (*ExploreResult, error) {
	if err := s.run(res); err != nil {
		return nil, err
	}
	res.States = len(s.parent)
	res.Depth = s.depth
	res.Complete = s.complete
	if err := s.counterexamples(res); err != nil {
		return nil, err
	}
	if s.complete && s.keepEdges {
		if err := s.termination(res); err != nil {
			return nil, err
		}
	}
	return res, s.stopErr
}
