package partfile

import (
	"bytes"
	"math/big"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// The kinds of parts (and of checkpoints).
const (
	KindAvailability = "availability"
	KindTransversals = "transversals"
	KindSmallest     = "smallest"
	KindExplore      = "explore"
)

// Canonical returns the canonical JSON of sys (without the final
// newline) and its input hash, [shard.HashInput] of the canonical JSON:
// the same system read from any file format hashes the same.
func Canonical(sys set.System) (canon []byte, hash string, err error) {
	var b bytes.Buffer
	if err := format.Write(&b, sys, format.JSON, format.DefaultOptions()); err != nil {
		return nil, "", err
	}
	return bytes.TrimSpace(b.Bytes()), shard.HashInput(b.Bytes()), nil
}

// InputHash returns the input hash of sys (see [Canonical]).
func InputHash(sys set.System) (string, error) {
	_, h, err := Canonical(sys)
	return h, err
}

// head is how every checkpoint starts (see shard.ReadCheckpoint).
type head struct {
	Format      string `json:"format"`
	Kind        string `json:"kind"`
	InputSHA256 string `json:"input_sha256"`
	Shard       string `json:"shard"`
}

func newHead(kind, hash string, sp shard.Spec) head {
	return head{Format: shard.CheckpointFormat, Kind: kind, InputSHA256: hash, Shard: sp.String()}
}

// parseCount reads a decimal count (≥ 0).
func parseCount(c string) (*big.Int, bool) {
	k, ok := new(big.Int).SetString(c, 10)
	return k, ok && k.Sign() >= 0
}
