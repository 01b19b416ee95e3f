package protocol

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
)

// A split exploration. Every shard searches breadth first, as [Explore]
// does, until a level holds at least ExploreShard.Pieces states; those
// states are the pieces, numbered in the order of the search, which
// depends on the instance alone. Shard I then expands the pieces it owns
// and every state it reaches from them, and leaves the others' pieces
// alone. What it writes is the part of the state graph it expanded: each
// state by a stable hash of its encoding, with its steps in order, where
// they lead and whether they break safety or are undefined.
//
// The states before the cut are expanded by every shard; a state after it
// is expanded by every shard that reaches it, at least the one that owns
// the piece on its shortest path. So the union of the parts holds every
// reachable state's steps, and [MergeExplore] runs the breadth-first
// search of [Explore] on that union in place of the protocol: the same
// states in the same order, hence the same counts, verdicts and shortest
// counterexamples (replayed on the protocol to describe them). The shards
// do the work of the protocol (decoding, stepping, encoding); the merge
// only walks a graph, but holds all of it.

// DefaultExplorePieces is the number of states at which a split
// exploration is cut into pieces when ExploreShard.Pieces is 0.
const DefaultExplorePieces = 256

// ExploreShard says which share of a split exploration a run does.
type ExploreShard struct {
	// Pieces is the number of states a level must hold to be cut into
	// pieces; 0 means DefaultExplorePieces. Every shard of a run must use
	// the same.
	Pieces int
	// Owns reports whether this shard expands piece p (0-based).
	Owns func(p int) bool
}

// ExplorePart is what one shard of a split exploration found.
type ExplorePart struct {
	// Pieces is the number of pieces, the states of the level at which
	// the search was cut, at SplitDepth steps from the start; 0 when the
	// search ended (or reached ExploreConfig.MaxDepth) before a level was
	// that large, and every shard expanded every state.
	Pieces     int
	SplitDepth int
	// Target is ExploreShard.Pieces as used.
	Target int
	// Root is the stable hash of the initial state.
	Root [16]byte
	// Expanded is the number of states this shard expanded.
	Expanded int
	// Graph holds the states this shard expanded and their steps, in a
	// compact binary form that MergeExplore reads.
	Graph []byte
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

// cut numbers the frontier's states as the pieces and keeps those this
// shard owns.
func (s *search) cut() {
	s.pieces, s.splitDepth, s.split = len(s.frontier), s.depth, 0
	kept := s.frontier[:0]
	for p, f := range s.frontier {
		if s.owns(p) {
			kept = append(kept, f)
		} else {
			s.frontierBytes -= int64(len(f.enc)) + frontBytes
		}
	}
	clear(s.frontier[len(kept):])
	s.frontier = kept
}

// ExploreShardRun does one shard's share of the exploration of [Explore]
// and returns the part of the state graph it expanded, for [MergeExplore].
// A shard must finish: one stopped by cfg.MaxStates, the memory budget or
// ctx returns an error and no part (cfg.MaxDepth is no stop: the merge
// applies it as Explore does).
func ExploreShardRun(ctx context.Context, spec Spec, sys *System, cfg ExploreConfig, sh ExploreShard) (*ExplorePart, error) {
	if sh.Owns == nil {
		return nil, errorf("explore: a shard needs the pieces it owns")
	}
	if sh.Pieces <= 0 {
		sh.Pieces = DefaultExplorePieces
	}
	e, err := newExplorer(spec, sys, cfg)
	if err != nil {
		return nil, err
	}
	s, err := newSearch(ctx, e, cfg)
	if err != nil {
		return nil, err
	}
	s.split, s.owns, s.keepEdges, s.edges, s.start = sh.Pieces, sh.Owns, false, nil, nil
	root := stableHash(s.frontier[0].enc)
	s.rec = &graphRec{hashes: [][16]byte{root}}
	res := &ExploreResult{}
	if err := s.run(res); err != nil {
		return nil, err
	}
	if !s.complete && res.Stopped != "max_depth" {
		if s.stopErr != nil {
			return nil, s.stopErr
		}
		return nil, errorf("explore: this shard reached %d states, its bound: a split run needs every shard to finish; allow more states, or bound the search with fewer requests or a maximum depth", len(s.parent))
	}
	return &ExplorePart{Pieces: s.pieces, SplitDepth: s.splitDepth, Target: sh.Pieces, Root: root,
		Expanded: s.rec.expanded, Graph: s.rec.graph()}, nil
}

// unionGraph is the union of the shards' graphs: by stable hash, each
// expanded state's steps.
type unionGraph map[[16]byte]*urec

type urec struct {
	deadlock bool
	succ     []usucc
}

type usucc struct {
	key          [16]byte
	bad, anomaly bool
}

// unionOf checks that parts are of one split search and returns the union
// of their graphs.
func unionOf(parts []*ExplorePart) (unionGraph, error) {
	g := unionGraph{}
	first := parts[0]
	for i, p := range parts {
		if p.Pieces != first.Pieces || p.SplitDepth != first.SplitDepth || p.Target != first.Target || p.Root != first.Root {
			return nil, errorf("explore: merge: shard %d cut the search into %d pieces at depth %d (of %d wanted), shard 1 into %d at depth %d (of %d): not one split run",
				i+1, p.Pieces, p.SplitDepth, p.Target, first.Pieces, first.SplitDepth, first.Target)
		}
		if err := g.add(p.Graph); err != nil {
			return nil, errorf("explore: merge: shard %d: %w", i+1, err)
		}
	}
	if _, ok := g[first.Root]; !ok && len(parts) > 0 {
		return nil, errorf("explore: merge: no shard expanded the initial state")
	}
	return g, nil
}

// add decodes one part's graph into g. A state that g already has must
// have the same steps.
func (g unionGraph) add(b []byte) error {
	bad := errorf("malformed graph")
	nh, k := binary.Uvarint(b)
	if k <= 0 || nh > uint64(len(b)-k)/16 {
		return bad
	}
	b = b[k:]
	hashes := make([][16]byte, nh)
	for i := range hashes {
		hashes[i] = [16]byte(b[:16])
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
			r.succ[j] = usucc{key: hashes[v>>2], bad: v&2 != 0, anomaly: v&1 != 0}
		}
		key := hashes[idx]
		if old, ok := g[key]; ok {
			if !sameRec(old, r) {
				return errorf("its steps from a state differ from another shard's: the parts are not of one run")
			}
			continue
		}
		g[key] = r
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
// hash, a step its rank.
func (s *search) expandUnion(part []front, out []expanded) error {
	for pi, f := range part {
		r, ok := s.g[[16]byte(f.enc)]
		if !ok {
			return errorf("explore: merge: a state %d steps from the start was expanded by no shard: the parts do not fit together", s.depth)
		}
		out[pi].deadlock = r.deadlock
		out[pi].succs = make([]succ, len(r.succ))
		for j := range r.succ {
			u := &r.succ[j]
			sc := succ{hash: u.key, enc: u.key[:], t: uint32(j), bad: u.bad}
			if u.anomaly {
				sc.anomaly = "?" // the replay says what it is
			}
			out[pi].succs[j] = sc
		}
	}
	return nil
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
	r := s.g[s.keys[from]]
	for j, u := range r.succ {
		if s.visited[u.key] == to {
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
	root := parts[0].Root
	if stableHash(s.frontier[0].enc) != root {
		return nil, errorf("explore: merge: the parts start from another initial state than this instance's")
	}
	s.setRoot(root[:], root)
	s.g, s.keys = g, [][16]byte{root}
	res := &ExploreResult{Protocol: spec.Name, N: sys.N, K: sys.K, Requests: e.requests, Rounds: e.rounds,
		Safe: true, DeadlockFree: true, AnomalyFree: true}
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
