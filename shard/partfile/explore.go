package partfile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/protocol"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// ExploreOptions are the options of `simulate --explore` that its parts and
// checkpoints record (requesters 1-based).
type ExploreOptions struct {
	Name       string `json:"name"`
	Format     string `json:"format"`
	Protocol   string `json:"protocol"`
	Requests   int    `json:"requests"`
	Rounds     int    `json:"rounds"`
	Requesters []int  `json:"requesters"`
	MaxStates  int    `json:"max_states"`
	MaxDepth   int    `json:"max_depth"`
}

// exResult is the part of the state graph one shard expanded.
type exResult struct {
	// System is the canonical JSON of the system explored.
	System   json.RawMessage `json:"system"`
	Pieces   int             `json:"pieces"`
	Root     string          `json:"root"`
	Expanded int             `json:"expanded"`
	// Graph is the binary graph of protocol.ExplorePart, in base64.
	Graph []byte `json:"graph"`
}

// exCheckpoint is the checkpoint of an exploration.
type exCheckpoint struct {
	head
	// Options are the run's; the saved search depends on some of them.
	Options ExploreOptions `json:"options"`
	// Finished says that the search is done; States and Expanded count
	// the states it found and expanded so far.
	Finished bool `json:"finished"`
	States   int  `json:"states"`
	Expanded int  `json:"expanded"`
	// Snapshot is the search (protocol.ExploreSnapshot.AppendBinary), in
	// base64, and SnapshotSHA256 its hex SHA-256.
	SnapshotSHA256 string `json:"snapshot_sha256"`
	Snapshot       []byte `json:"snapshot"`
}

// ExplorePart returns the part of shard sp of an exploration of the
// system whose canonical JSON and input hash are canon and hash (see
// [Canonical]): the part carries the system, for the merge to replay.
func ExplorePart(sp shard.Spec, hash string, canon []byte, o ExploreOptions, p *protocol.ExplorePart) (*shard.Part, error) {
	r := exResult{System: canon, Pieces: p.Pieces, Root: hex.EncodeToString(p.Root[:]), Expanded: p.Expanded, Graph: p.Graph}
	return shard.New(KindExplore, sp, hash, o, r)
}

// DecodeExplore reads the options, the system and the shards' parts of
// checked explorer parts (see shard.Check). A system that does not hash
// to the parts' input hash, or a root that is not a state hash, is
// refused with a *shard.MergeError.
func DecodeExplore(parts []*shard.Part) (ExploreOptions, set.System, []*protocol.ExplorePart, error) {
	o, err := shard.DecodeOptions[ExploreOptions](parts[0])
	if err != nil {
		return o, set.System{}, nil, err
	}
	rs, err := shard.Decode[exResult](parts)
	if err != nil {
		return o, set.System{}, nil, err
	}
	sys, err := carried(parts[0], rs[0].System)
	if err != nil {
		return o, sys, nil, err
	}
	eps := make([]*protocol.ExplorePart, len(rs))
	for i, r := range rs {
		root, err := hex.DecodeString(r.Root)
		if err != nil || len(root) != 16 {
			return o, sys, nil, &shard.MergeError{Shard: parts[i].Spec(), Msg: fmt.Sprintf("shard %s: \"root\" is not a state hash", parts[i].Shard)}
		}
		eps[i] = &protocol.ExplorePart{Pieces: r.Pieces, Root: [16]byte(root), Expanded: r.Expanded, Graph: r.Graph}
	}
	return o, sys, eps, nil
}

// ExploreSaved is a saved exploration read back: the options of the run that
// saved it, how far it got, and the search (protocol.ExploreShard.Resume)
// with its SHA-256 (see [ExploreSaved.Check]).
type ExploreSaved struct {
	Options          ExploreOptions
	Finished         bool
	States, Expanded int
	Snapshot         []byte
	SnapshotSHA256   string
}

// Check returns [ErrDamaged] when the search does not match its SHA-256.
func (s *ExploreSaved) Check() error {
	if sum := sha256.Sum256(s.Snapshot); hex.EncodeToString(sum[:]) != s.SnapshotSHA256 {
		return ErrDamaged
	}
	return nil
}

// ErrDamaged is the error of a checkpoint whose saved search does not
// match its SHA-256.
var ErrDamaged = errors.New("the saved search does not match its snapshot_sha256")

// ExploreCheckpoint returns the checkpoint file of the search sn of
// shard sp, run with options o, on the input with the given hash.
func ExploreCheckpoint(hash string, sp shard.Spec, o ExploreOptions, sn *protocol.ExploreSnapshot) (any, error) {
	bin, err := sn.AppendBinary(nil)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(bin)
	return exCheckpoint{head: newHead(KindExplore, hash, sp), Options: o, Finished: sn.Finished, States: sn.States, Expanded: sn.Expanded,
		SnapshotSHA256: hex.EncodeToString(sum[:]), Snapshot: bin}, nil
}

// ReadExploreCheckpoint reads the checkpoint data of shard sp of an
// exploration of the input with the given hash (the search unchecked:
// see [ExploreSaved.Check]).
func ReadExploreCheckpoint(data []byte, hash string, sp shard.Spec) (*ExploreSaved, error) {
	var w exCheckpoint
	if err := shard.ReadCheckpoint(data, shard.CheckpointHead{Kind: KindExplore, InputSHA256: hash, Shard: sp}, &w); err != nil {
		return nil, err
	}
	return &ExploreSaved{Options: w.Options, Finished: w.Finished, States: w.States, Expanded: w.Expanded, Snapshot: w.Snapshot, SnapshotSHA256: w.SnapshotSHA256}, nil
}
