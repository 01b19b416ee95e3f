package protocol

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// A split exploration. Requests are the only steps that change what each
// node has requested so far (its count of requests, in the state), and
// they only add to it. So the states split by the requests made: the
// pieces are the most requests each node can have made once all the
// requests the search allows are made (the maximal vectors c, c_i at most
// the rounds for a requester and 0 for the others, Σ c_i at most the
// requests), numbered in lexicographic order, which depends on the
// instance alone. Shard I expands the states whose requests so far fit
// under a piece it owns (p mod N = I − 1): every path to such a state
// stays under it, so the shard reaches it by its shortest paths. What the
// shard writes is the part of the state graph it expanded: each state by
// a stable hash of its encoding, with its steps in order, where they lead
// and whether they break safety or are undefined.
//
// A state under several pieces (fewer requests made: the first steps) is
// expanded by each shard that owns one of them. The union of the parts
// holds every reachable state's steps, and [MergeExplore] runs the
// breadth-first search of [Explore] on that union in place of the
// protocol: the same states in the same order, hence the same counts,
// verdicts and shortest counterexamples (replayed on the protocol to
// describe them); a state reached by several shards counts once. The
// shards do the work of the protocol (decoding, stepping, encoding); the
// merge only walks a graph, but holds all of it. When every requester
// requests as often as it may (requests ≥ requesters × rounds) there is
// one piece, and one shard does all the work.

// maxRequestClasses bounds the pieces of a split exploration.
const maxRequestClasses = 1 << 20

// ExploreShard says which share of a split exploration a run does.
type ExploreShard struct {
	// Owns reports whether this shard expands piece p (0-based).
	Owns func(p int) bool
	// Save, if not nil, is offered the run's progress before each chunk
	// of at most 16,384 states it expands, when the run is stopped there
	// by ctx or the memory budget (End), and when it is done (End and
	// Finished); an error from it ends the run with that error. A budget
	// that stops the run inside a chunk offers nothing: the last snapshot
	// offered is the one to keep.
	Save func(*ExploreSnapshot) error
	// Resume, if not nil, is a snapshot (ExploreSnapshot.AppendBinary) of
	// a run of this shard with the same spec, system and cfg, to go on
	// from: the part is the one the run would have returned had it not
	// stopped. A snapshot that does not fit the search is refused with an
	// error wrapping ErrSnapshot.
	Resume []byte
}

// ExplorePart is what one shard of a split exploration found.
type ExplorePart struct {
	// Pieces is the number of pieces: the ways to have made every request.
	Pieces int
	// Root is the stable hash of the initial state.
	Root [16]byte
	// Expanded is the number of states this shard expanded.
	Expanded int
	// Graph holds the states this shard expanded and their steps, in a
	// compact binary form that MergeExplore reads.
	Graph []byte
}

// requestClasses are the pieces a shard owns (see ExploreShard).
type requestClasses struct {
	count int       // the number of pieces
	owned [][]int32 // the pieces owned, as the most requests per node
}

// newRequestClasses lists the pieces of e's search and keeps those owns
// says are this shard's.
func newRequestClasses(e *explorer, owns func(int) bool) (*requestClasses, error) {
	n := len(e.options)
	caps := make([]int, n)
	total := 0
	for i, o := range e.options {
		if o != nil {
			caps[i] = e.rounds
			total += e.rounds
		}
	}
	want := min(e.requests, total)
	rest := make([]int, n+1) // rest[i]: what nodes i.. may request in all
	for i := n - 1; i >= 0; i-- {
		rest[i] = rest[i+1] + caps[i]
	}
	c := &requestClasses{}
	cur := make([]int32, n)
	var gen func(i, left int) error
	gen = func(i, left int) error {
		if i == n {
			if left == 0 {
				if owns(c.count) {
					c.owned = append(c.owned, append([]int32(nil), cur...))
				}
				c.count++
				if c.count > maxRequestClasses {
					return errorf("explore: more than %d ways to make the %d requests: too many to split; explore fewer requests", maxRequestClasses, e.requests)
				}
			}
			return nil
		}
		for v := min(caps[i], left); v >= 0 && left-v <= rest[i+1]; v-- {
			cur[i] = int32(v)
			if err := gen(i+1, left-v); err != nil {
				return err
			}
		}
		cur[i] = 0
		return nil
	}
	if err := gen(0, want); err != nil {
		return nil, err
	}
	return c, nil
}

// holds reports whether requests made so far, issued, fit under a piece
// this shard owns; cache remembers the answers of one worker.
func (c *requestClasses) holds(issued []int32, cache map[string]bool) bool {
	key := make([]byte, len(issued))
	for i, v := range issued {
		key[i] = byte(v)
	}
	if in, ok := cache[string(key)]; ok {
		return in
	}
	in := false
	for _, t := range c.owned {
		fits := true
		for i, v := range issued {
			if v > t[i] {
				fits = false
				break
			}
		}
		if fits {
			in = true
			break
		}
	}
	cache[string(key)] = in
	return in
}

// stableHash identifies a state across machines and runs: the first 128
// bits of the SHA-256 of its encoding.
func stableHash(enc []byte) [16]byte {
	h := sha256.Sum256(enc)
	return [16]byte(h[:16])
}

// graphRec records what a shard expands: hashes[i] is the stable hash of
// state i, and data holds for each expanded state its number, whether it
// is a deadlock, its number of steps and, per step, the state it leads to
// (target<<2 | bad<<1 | anomaly).
type graphRec struct {
	hashes   [][16]byte
	data     []byte
	expanded int
}

func (r *graphRec) state(idx uint32, deadlock bool, steps int) {
	r.expanded++
	r.data = binary.AppendUvarint(r.data, uint64(idx))
	d := byte(0)
	if deadlock {
		d = 1
	}
	r.data = append(r.data, d)
	r.data = binary.AppendUvarint(r.data, uint64(steps))
}

func (r *graphRec) step(target uint32, bad, anomaly bool) {
	v := uint64(target) << 2
	if bad {
		v |= 2
	}
	if anomaly {
		v |= 1
	}
	r.data = binary.AppendUvarint(r.data, v)
}

// graph returns the hash table followed by the records.
func (r *graphRec) graph() []byte {
	out := binary.AppendUvarint(nil, uint64(len(r.hashes)))
	for _, h := range r.hashes {
		out = append(out, h[:]...)
	}
	return append(out, r.data...)
}

// ExploreShardRun does one shard's share of the exploration of [Explore]
// and returns the part of the state graph it expanded, for [MergeExplore].
// A shard must finish: one stopped by cfg.MaxStates (an error wrapping
// [ErrStateBound]), the memory budget or ctx returns an error and no part
// (cfg.MaxDepth is no stop: the merge applies it as Explore does). With
// sh.Save the run can be saved as it goes, and resumed with sh.Resume to
// the same part (see [ExploreSnapshot]); the whole search is the shard
// that owns every piece.
func ExploreShardRun(ctx context.Context, spec Spec, sys *System, cfg ExploreConfig, sh ExploreShard) (*ExplorePart, error) {
	if sh.Owns == nil {
		return nil, errorf("explore: a shard needs the pieces it owns")
	}
	e, err := newExplorer(spec, sys, cfg)
	if err != nil {
		return nil, err
	}
	classes, err := newRequestClasses(e, sh.Owns)
	if err != nil {
		return nil, err
	}
	s, err := newSearch(ctx, e, cfg)
	if err != nil {
		return nil, err
	}
	s.classes, s.keepEdges, s.edges, s.start = classes, false, nil, nil
	root := stableHash(s.frontier[0].enc)
	s.rec = &graphRec{hashes: [][16]byte{root}}
	if sh.Resume != nil {
		if err := s.resume(sh.Resume, root); err != nil {
			return nil, err
		}
		if len(s.parent) > s.maxStates {
			return nil, stateBoundError(len(s.parent))
		}
	}
	s.save = sh.Save
	if len(classes.owned) == 0 {
		// No piece: nothing to expand, not even the initial state.
		s.frontier, s.pendingNext = nil, nil
	}
	res := &ExploreResult{}
	if err := s.run(res); err != nil {
		return nil, err
	}
	if !s.complete && res.Stopped != "max_depth" {
		if s.stopErr != nil {
			return nil, s.stopErr
		}
		return nil, stateBoundError(len(s.parent))
	}
	if s.save != nil {
		if err := s.save(s.snapshot(len(s.frontier), nil, true, true)); err != nil {
			return nil, err
		}
	}
	return &ExplorePart{Pieces: classes.count, Root: root, Expanded: s.rec.expanded, Graph: s.rec.graph()}, nil
}

// stateBoundError is the error of a shard that reached its bound of
// states, having found states of them.
func stateBoundError(states int) error {
	return &Error{Msg: fmt.Sprintf("explore: this shard reached %d states, its bound: a split run needs every shard to finish; allow more states, or bound the search with fewer requests or a maximum depth", states),
		Err: ErrStateBound}
}

// unionGraph is the union of the shards' graphs: the states by number,
// each expanded one with its steps.
type unionGraph struct {
	ids  map[[16]byte]int32 // a state's number, by stable hash
	recs []*urec            // by number; nil: expanded by no shard
}

type urec struct {
	deadlock bool
	succ     []usucc
}

type usucc struct {
	id           int32
	bad, anomaly bool
}

// id returns the number of the state with stable hash key, numbering it
// if it is new.
func (g *unionGraph) id(key [16]byte) int32 {
	if id, ok := g.ids[key]; ok {
		return id
	}
	id := int32(len(g.recs))
	g.ids[key] = id
	g.recs = append(g.recs, nil)
	return id
}

// unionOf checks that parts are of one split search and returns the union
// of their graphs.
func unionOf(parts []*ExplorePart) (*unionGraph, error) {
	g := &unionGraph{ids: map[[16]byte]int32{}}
	first := parts[0]
	g.id(first.Root) // number 0
	for i, p := range parts {
		if p.Pieces != first.Pieces || p.Root != first.Root {
			return nil, errorf("explore: merge: shard %d split the search into %d pieces, shard 1 into %d, or from another initial state: not one split run",
				i+1, p.Pieces, first.Pieces)
		}
		if err := g.add(p.Graph); err != nil {
			return nil, errorf("explore: merge: shard %d: %v", i+1, err)
		}
	}
	if g.recs[0] == nil {
		return nil, errorf("explore: merge: no shard expanded the initial state")
	}
	return g, nil
}

// add decodes one part's graph into g. A state that g already has must
// have the same steps.
func (g *unionGraph) add(b []byte) error {
	bad := errors.New("malformed graph")
	nh, k := binary.Uvarint(b)
	if k <= 0 || nh > uint64(len(b)-k)/16 || nh > math.MaxInt32 {
		return bad
	}
	b = b[k:]
	ids := make([]int32, nh)
	for i := range ids {
		ids[i] = g.id([16]byte(b[:16]))
		b = b[16:]
	}
	next := func() (uint64, bool) {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			return 0, false
		}
		b = b[k:]
		return v, true
	}
	for len(b) > 0 {
		idx, ok := next()
		if !ok || idx >= nh || len(b) < 1 || b[0] > 1 {
			return bad
		}
		r := &urec{deadlock: b[0] == 1}
		b = b[1:]
		n, ok := next()
		if !ok || n > uint64(len(b)) {
			return bad
		}
		r.succ = make([]usucc, n)
		for j := range r.succ {
			v, ok := next()
			if !ok || v>>2 >= nh {
				return bad
			}
			r.succ[j] = usucc{id: ids[v>>2], bad: v&2 != 0, anomaly: v&1 != 0}
		}
		id := ids[idx]
		if old := g.recs[id]; old != nil {
			if !sameRec(old, r) {
				return errors.New("its steps from a state differ from another shard's: the parts are not of one run")
			}
			continue
		}
		g.recs[id] = r
	}
	return nil
}

func sameRec(a, b *urec) bool {
	if a.deadlock != b.deadlock || len(a.succ) != len(b.succ) {
		return false
	}
	for i := range a.succ {
		if a.succ[i] != b.succ[i] {
			return false
		}
	}
	return true
}

// expandUnion is expand on the union graph: a state's encoding is its
// number, a step its rank.
func (s *search) expandUnion(part []front, out []expanded) error {
	for pi, f := range part {
		r := s.g.recs[binary.LittleEndian.Uint32(f.enc)]
		if r == nil {
			return errorf("explore: merge: a state %d steps from the start was expanded by no shard: the parts do not fit together", s.depth)
		}
		out[pi].deadlock = r.deadlock
		out[pi].succs = make([]succ, len(r.succ))
		for j, u := range r.succ {
			sc := succ{id: u.id, t: uint32(j), bad: u.bad}
			if u.anomaly {
				sc.anomaly = "?" // the replay says what it is
			}
			out[pi].succs[j] = sc
		}
	}
	return nil
}

// enc returns the encoding of state id in a merge: its number.
func (g *unionGraph) enc(id int32) []byte {
	return binary.LittleEndian.AppendUint32(nil, uint32(id))
}

// steps turns a path of the search into the explorer's steps: itself,
// except on the union graph, whose steps are ranks.
func (s *search) steps(p []uint32) ([]uint32, error) {
	if s.g == nil {
		return p, nil
	}
	e := s.e
	x, err := e.newNet()
	if err != nil {
		return nil, err
	}
	out := make([]uint32, len(p))
	var ts []uint32
	for i, r := range p {
		ts = e.transitions(x, ts[:0])
		if int(r) >= len(ts) {
			return nil, errorf("explore: merge: step %d of a path is number %d of %d: the parts do not fit the protocol", i+1, r+1, len(ts))
		}
		out[i] = ts[r]
		e.apply(x, ts[r])
	}
	return out, nil
}

// lastAnomaly returns what was undefined in the last step of path.
func (e *explorer) lastAnomaly(path []uint32) (string, error) {
	x, err := e.newNet()
	if err != nil {
		return "", err
	}
	for _, t := range path {
		e.apply(x, t)
	}
	if x.anomaly == "" {
		return "", errorf("explore: merge: a step the parts mark undefined is not: the parts do not fit the protocol")
	}
	return x.anomaly, nil
}

// rankTo returns the rank of the first step of state from, on the union
// graph, that leads to state to.
func (s *search) rankTo(from, to uint32) (uint32, error) {
	r := s.g.recs[s.gid[from]]
	for j, u := range r.succ {
		if s.number[u.id] == to+1 {
			return uint32(j), nil
		}
	}
	return 0, errorf("explore: internal error: lost an edge of the state graph")
}

// MergeExplore puts the parts of a split exploration together (one per
// shard, of the same instance and cfg) and returns what [Explore] returns
// on the whole instance with cfg: the union of the parts' graphs, searched
// breadth first as Explore searches the protocol, gives the same states in
// the same order. cfg.MaxMemory does not apply to the merge, and
// cfg.MaxStates stops it as it stops Explore.
func MergeExplore(ctx context.Context, spec Spec, sys *System, cfg ExploreConfig, parts []*ExplorePart) (*ExploreResult, error) {
	if len(parts) == 0 {
		return nil, errorf("explore: merge: no parts")
	}
	cfg.MaxMemory = 0
	e, err := newExplorer(spec, sys, cfg)
	if err != nil {
		return nil, err
	}
	g, err := unionOf(parts)
	if err != nil {
		return nil, err
	}
	s, err := newSearch(ctx, e, cfg)
	if err != nil {
		return nil, err
	}
	if stableHash(s.frontier[0].enc) != parts[0].Root {
		return nil, errorf("explore: merge: the parts start from another initial state than this instance's")
	}
	s.setRoot(g.enc(0), [16]byte{})
	s.visited = nil
	s.g, s.number, s.gid = g, make([]uint32, len(g.recs)), []int32{0}
	s.number[0] = 1
	res := &ExploreResult{Protocol: spec.Name, N: sys.N, K: sys.K, Requests: e.requests, Rounds: e.rounds,
		Safe: true, DeadlockFree: true, AnomalyFree: true}
	return s.explore(res)
}
