package partfile

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/shard"
)

// TransversalsOptions are the options of `transversals --count` that its parts
// record.
type TransversalsOptions struct {
	Name string `json:"name"`
}

// tvResult is what a shard counted: its pieces of the search and the
// minimal transversals in them by size (sizes and counts as decimal
// strings).
type tvResult struct {
	N          int               `json:"n"`
	Pieces     int               `json:"pieces"`
	PiecesDone int               `json:"pieces_done"`
	BySize     map[string]string `json:"by_size"`
}

// tvCheckpoint is the checkpoint of a transversal count.
type tvCheckpoint struct {
	head
	Pieces int               `json:"pieces"`
	Done   []int             `json:"done"`
	BySize map[string]string `json:"by_size"`
}

// TransversalsPart returns the part of shard sp of the count of a family
// over n nodes: pc, its pieces counted.
func TransversalsPart(sp shard.Spec, hash string, o TransversalsOptions, n int, pc *domination.PieceCount) (*shard.Part, error) {
	r := tvResult{N: n, Pieces: pc.Pieces, PiecesDone: len(pc.Done), BySize: bySizeStrings(pc.BySize)}
	return shard.New(KindTransversals, sp, hash, o, r)
}

// DecodeTransversals reads the options and counts of checked parts (see
// shard.Check). Counts of other families are refused with a
// *shard.MergeError.
func DecodeTransversals(parts []*shard.Part) (TransversalsOptions, []*domination.ShardCount, error) {
	o, err := shard.DecodeOptions[TransversalsOptions](parts[0])
	if err != nil {
		return o, nil, err
	}
	rs, err := shard.Decode[tvResult](parts)
	if err != nil {
		return o, nil, err
	}
	out := make([]*domination.ShardCount, len(rs))
	for i, r := range rs {
		if r.N != rs[0].N {
			return o, nil, &shard.MergeError{Shard: parts[i].Spec(), Msg: fmt.Sprintf("shard %s cut the search into %d pieces, shard %s into %d", parts[i].Shard, r.Pieces, parts[0].Shard, rs[0].Pieces)}
		}
		m, err := parseBySize(r.N, r.BySize)
		if err != nil {
			return o, nil, &shard.MergeError{Shard: parts[i].Spec(), Msg: fmt.Sprintf("shard %s: %v", parts[i].Shard, err)}
		}
		out[i] = &domination.ShardCount{Pieces: r.Pieces, PiecesDone: r.PiecesDone, BySize: m}
	}
	return o, out, nil
}

// TransversalsCheckpoint returns the checkpoint file of pc, the progress
// of shard sp on the input with the given hash.
func TransversalsCheckpoint(hash string, sp shard.Spec, pc *domination.PieceCount) any {
	return tvCheckpoint{head: newHead(KindTransversals, hash, sp), Pieces: pc.Pieces, Done: slices.Clone(pc.Done), BySize: bySizeStrings(pc.BySize)}
}

// ReadTransversalsCheckpoint reads the checkpoint data of shard sp of the
// count of a family over n nodes, with the given input hash.
func ReadTransversalsCheckpoint(data []byte, hash string, sp shard.Spec, n int) (*domination.PieceCount, error) {
	var w tvCheckpoint
	if err := shard.ReadCheckpoint(data, shard.CheckpointHead{Kind: KindTransversals, InputSHA256: hash, Shard: sp}, &w); err != nil {
		return nil, err
	}
	m, err := parseBySize(n, w.BySize)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %v", err)
	}
	done := slices.Clone(w.Done)
	slices.Sort(done)
	pc := &domination.PieceCount{Pieces: w.Pieces, Done: done, BySize: m}
	if err := pc.Check(n); err != nil {
		return nil, fmt.Errorf("checkpoint: %v", err)
	}
	return pc, nil
}

// bySizeStrings writes counts by size as decimal strings.
func bySizeStrings(m map[int]*big.Int) map[string]string {
	out := make(map[string]string, len(m))
	for size, k := range m {
		out[strconv.Itoa(size)] = k.String()
	}
	return out
}

// parseBySize reads counts by size of sets of n nodes.
func parseBySize(n int, m map[string]string) (map[int]*big.Int, error) {
	out := make(map[int]*big.Int, len(m))
	for s, c := range m {
		size, err := strconv.Atoi(s)
		if err != nil || size < 0 || size > n {
			return nil, fmt.Errorf("size %q is not 0..%d", s, n)
		}
		k, ok := parseCount(c)
		if !ok {
			return nil, fmt.Errorf("size %d: count %q is not a count", size, c)
		}
		out[size] = k
	}
	return out, nil
}
