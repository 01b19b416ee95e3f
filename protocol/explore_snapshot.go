package protocol

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
)

// Saving and resuming a shard's run. Between two chunks of states the
// breadth-first search of [ExploreShardRun] is wholly described by what it
// has recorded (the stable hashes of the states found, in their order, and
// the records of the states expanded: the part's graph so far), the
// states of the current level still to expand and those of the next level
// found so far, with their encodings, and its depth. A run that goes on
// from there numbers and records the states it finds next exactly as the
// run that stopped would have, so its part is that run's, byte for byte.
// The states found before are known by their stable hashes only (their
// encodings are not kept): the resumed run looks a state up by its stable
// hash when it is not among those it found itself.

// ErrSnapshot is the cause of the error of [ExploreShardRun] when
// [ExploreShard].Resume is not a snapshot of a run of this shard's search:
// damaged, or of another instance or split.
var ErrSnapshot = errors.New("not a snapshot of this search")

// ErrStateBound is the cause of the error of [ExploreShardRun] when the
// shard reaches cfg.MaxStates: the unsplit search stops at that bound too.
var ErrStateBound = errors.New("the shard reached its bound of states")

// snapshotMagic starts every snapshot; its last byte is the version.
var snapshotMagic = []byte("coterie-explore-snapshot\x01")

// ExploreSnapshot is how far a shard's run has got, offered to
// [ExploreShard].Save between two chunks of states. It refers to the
// run's data: use it only during the call.
type ExploreSnapshot struct {
	// End says that the run ends here, stopped (ctx, the memory budget)
	// or finished: the last chance to save its work.
	End bool
	// Finished says that the run is done: resuming from this snapshot
	// returns the shard's part at once.
	Finished bool
	// States and Expanded count the states found and expanded so far.
	States, Expanded int

	search    [16]byte
	pieces    int
	depth     int
	rec       *graphRec
	cur, next []front
}

// AppendBinary appends the snapshot in the binary form that
// [ExploreShard].Resume takes.
func (sn *ExploreSnapshot) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, snapshotMagic...)
	b = append(b, sn.search[:]...)
	b = binary.AppendUvarint(b, uint64(sn.pieces))
	b = binary.AppendUvarint(b, uint64(sn.depth))
	b = binary.AppendUvarint(b, uint64(sn.rec.expanded))
	b = binary.AppendUvarint(b, uint64(len(sn.rec.hashes)))
	for _, h := range sn.rec.hashes {
		b = append(b, h[:]...)
	}
	b = binary.AppendUvarint(b, uint64(len(sn.rec.data)))
	b = append(b, sn.rec.data...)
	for _, fs := range [][]front{sn.cur, sn.next} {
		b = binary.AppendUvarint(b, uint64(len(fs)))
		for _, f := range fs {
			b = binary.AppendUvarint(b, uint64(f.idx))
			b = binary.AppendUvarint(b, uint64(len(f.enc)))
			b = append(b, f.enc...)
		}
	}
	return b, nil
}

// snapshot is the snapshot of s at the boundary before s.frontier[clo:],
// with next the states of the next level found so far.
func (s *search) snapshot(clo int, next []front, end, finished bool) *ExploreSnapshot {
	return &ExploreSnapshot{End: end, Finished: finished, States: len(s.parent), Expanded: s.rec.expanded,
		search: s.fingerprint(), pieces: s.classes.count, depth: s.depth, rec: s.rec, cur: s.frontier[clo:], next: next}
}

// offer hands the snapshot at that boundary to the shard's Save, if any.
func (s *search) offer(clo int, next []front, end bool) error {
	if s.save == nil {
		return nil
	}
	return s.save(s.snapshot(clo, next, end, false))
}

// fingerprint identifies the search a shard's run does: the protocol, the
// ways each node may request, the bounds that change what is recorded, and
// the pieces the shard owns.
func (s *search) fingerprint() [16]byte {
	e := s.e
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(e.spec.Name)))
	b = append(b, e.spec.Name...)
	for _, v := range []int{e.sys.N, e.sys.K, e.limit, e.requests, e.rounds, max(e.cfg.MaxDepth, 0)} {
		b = binary.AppendUvarint(b, uint64(v))
	}
	for _, opts := range e.options {
		b = binary.AppendUvarint(b, uint64(len(opts)))
		for _, o := range opts {
			b = binary.AppendUvarint(b, uint64(o.h))
			b = binary.AppendUvarint(b, uint64(len(o.q)))
			for _, v := range o.q {
				b = binary.AppendUvarint(b, uint64(v))
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(s.classes.count))
	for _, t := range s.classes.owned {
		for _, v := range t {
			b = binary.AppendUvarint(b, uint64(v))
		}
	}
	return stableHash(b)
}

// snapReader reads a snapshot, failing on the first thing out of place.
type snapReader struct {
	b   []byte
	bad bool
}

func (r *snapReader) uvarint(limit uint64) uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 || v > limit {
		r.bad = true
		r.b = nil
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *snapReader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.bad = true
		r.b = nil
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// resume loads snapshot b into s, a shard's search just made (its frontier
// the initial state): e's search split into pieces, of which s expands
// those of s.classes.
func (s *search) resume(b []byte, root [16]byte) error {
	bad := func(what string) error { return errorf("explore: resume: %s: %w", what, ErrSnapshot) }
	if !bytes.HasPrefix(b, snapshotMagic) {
		return bad("not a snapshot of the explorer")
	}
	r := &snapReader{b: b[len(snapshotMagic):]}
	fp := r.bytes(16)
	pieces := r.uvarint(math.MaxInt32)
	depth := r.uvarint(math.MaxInt32)
	expanded := r.uvarint(math.MaxInt32)
	nh := r.uvarint(uint64(len(r.b)) / 16)
	if r.bad || nh == 0 || nh > math.MaxInt32 {
		return bad("malformed")
	}
	if int(pieces) != s.classes.count || [16]byte(fp) != s.fingerprint() {
		return bad("another search or shard")
	}
	raw := r.bytes(nh * 16)
	if r.bad {
		return bad("malformed")
	}
	hashes := make([][16]byte, nh)
	stable := make(map[[16]byte]uint32, nh)
	for i := range hashes {
		hashes[i] = [16]byte(raw[16*i:])
		stable[hashes[i]] = uint32(i)
	}
	if hashes[0] != root {
		return bad("another initial state")
	}
	data := r.bytes(r.uvarint(uint64(len(r.b))))
	if r.bad {
		return bad("malformed")
	}
	if n, ok := countRecords(data, nh); !ok || n != int(expanded) {
		return bad("malformed state graph")
	}
	x, err := s.e.newNet()
	if err != nil {
		return err
	}
	var fronts [2][]front
	var frontierBytes int64
	for i := range fronts {
		n := r.uvarint(uint64(len(r.b)))
		for range n {
			idx := r.uvarint(nh - 1)
			enc := r.bytes(r.uvarint(uint64(len(r.b))))
			if r.bad {
				return bad("malformed")
			}
			// A state to expand is the one its number names, and one of
			// this protocol.
			if stableHash(enc) != hashes[idx] || x.decode(enc) != nil {
				return bad("a state to expand is not the state of its number")
			}
			fronts[i] = append(fronts[i], front{uint32(idx), bytes.Clone(enc)})
			frontierBytes += int64(len(enc)) + frontBytes
		}
	}
	if r.bad || len(r.b) != 0 || len(fronts[0]) == 0 && len(fronts[1]) > 0 {
		return bad("malformed")
	}
	s.rec = &graphRec{hashes: hashes, data: bytes.Clone(data), expanded: int(expanded)}
	s.stable = stable
	s.visited = map[[16]byte]uint32{}
	// The states found before are numbered; how they were reached is not
	// needed by a shard, which writes no counterexample.
	s.parent, s.trans = make([]uint32, nh), make([]uint32, nh)
	s.depth = int(depth)
	s.frontier, s.pendingNext = fronts[0], fronts[1]
	s.frontierBytes = frontierBytes
	return nil
}

// countRecords checks the records of a graph over nh states and returns
// how many there are.
func countRecords(b []byte, nh uint64) (int, bool) {
	r := &snapReader{b: b}
	n := 0
	for len(r.b) > 0 {
		r.uvarint(nh - 1)
		if flag := r.bytes(1); r.bad || flag[0] > 1 {
			return 0, false
		}
		steps := r.uvarint(uint64(len(r.b)))
		for range steps {
			if v := r.uvarint(math.MaxUint64); r.bad || v>>2 >= nh {
				return 0, false
			}
		}
		if r.bad {
			return 0, false
		}
		n++
	}
	return n, !r.bad
}
