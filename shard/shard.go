// Package shard splits exponential work across machines and puts the
// pieces back together.
//
// A run split into N shards does, in shard I, the I-th of N shares of
// the work and writes a [Part]: a JSON document with "partial": true,
// the shard "I/N", the SHA-256 of the canonical input ("input_sha256"),
// the computation ("kind") and the options the result depends on, and
// what the shard proved ("result", whose shape belongs to the kind).
// [Check] verifies that a set of parts is complete (every shard 1..N
// exactly once) and of one computation (the same kind, input hash and
// options), and returns them in shard order, so that the kind's merge
// only has to combine results. A run that saves its progress writes a
// checkpoint ([CheckpointHead], [ReadCheckpoint]), which only a run of
// the same kind, input and shard resumes.
//
// How work is divided is the computation's business, and lives beside
// it; the rule every kind keeps is that the merge of the N parts equals
// the unsplit run exactly. The usual way is [Spec.Owns]: the work is cut
// into numbered pieces fixed by the input and options alone (never by N
// or the machine), and shard I takes the pieces p with p mod N = I − 1.
//
// The kinds so far: "availability" (availability.ComputeShare and
// MergeShares: exact polynomials by BDD in pieces by the first nodes,
// Monte Carlo estimates in shares of the samples, closed forms carried
// whole by shard 1), "transversals" (domination.CountTransversalPieces
// and MergeShardCounts: the pieces of the MMCS search, counted by size),
// "explore" (protocol.ExploreShardRun and MergeExplore: the pieces are
// the ways to have made every request; a part is the state graph its
// shard expanded, and the merge searches the union of the parts, so that
// states reached by several shards count once) and "smallest"
// (domination.SmallestShard and MergeSmallest: the cubes of the candidate
// sizes below the first witness, one solver question each; the merge
// takes the smallest size some cube answered yes).
//
// Adding a kind: give the computation's package a function that does
// one shard's share and one that merges the shares of every shard
// (refusing shares that do not make a whole with a *[MergeError]), write
// the part with [New] under a new Kind name and a result of its own
// (counts as decimal strings, so that nothing outgrows JSON numbers), and
// read the results of the checked parts with [Decode].
package shard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/shard/internal/wire"
)

// FormatName is the value of the "format" field of every part.
const FormatName = "coterie-partial/1"

// Spec is one shard of a split run: Index of Count, 1 ≤ Index ≤ Count.
type Spec struct {
	Index, Count int
}

// String returns "I/N".
func (s Spec) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Owns reports whether piece p (0-based) of the work belongs to s: the
// pieces are dealt out in turn, p mod Count = Index − 1.
func (s Spec) Owns(p int) bool { return p%s.Count == s.Index-1 }

// Environment variables that give a shard its index when the batch
// scheduler starts it (coterie's --shard auto), in this order: the
// 0-based index of a Kubernetes Indexed Job and the id of a Slurm job
// array task (0- or 1-based, as the array was submitted; Slurm also says
// the array's first and last ids).
const (
	EnvKubernetes = "JOB_COMPLETION_INDEX"
	EnvSlurm      = "SLURM_ARRAY_TASK_ID"
)

// ParseSpec reads "I/N" (such as "2/7"), the I-th of N shards.
func ParseSpec(spec string) (Spec, error) {
	a, b, ok := strings.Cut(spec, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return Spec{}, fmt.Errorf("%q: want I/N (such as 2/7) or auto", spec)
	}
	if n < 1 || i < 1 || i > n {
		return Spec{}, fmt.Errorf("%s: want 1 ≤ I ≤ N", spec)
	}
	if n > MaxShards {
		return Spec{}, fmt.Errorf("%s: at most %d shards", spec, MaxShards)
	}
	return Spec{Index: i, Count: n}, nil
}

// MaxShards is the most shards a computation can be split into.
const MaxShards = 1 << 20

// Part is the partial result of one shard, as written to its file (the
// fields in this order, as JSON: "format", "partial", "kind", "shard",
// "input_sha256", "options", "result").
type Part struct {
	// Format is [FormatName] and Partial true.
	Format  string
	Partial bool
	// Kind names the computation ("availability"); each kind has its own
	// Options and Result shapes.
	Kind string
	// Shard is the part's [Spec] as "I/N".
	Shard string
	// InputSHA256 is [HashInput] of the canonical input.
	InputSHA256 string
	// Options are the options the result depends on (JSON); parts merge
	// only if they are the same up to insignificant spaces.
	Options json.RawMessage
	// Result is what the shard proved (JSON).
	Result json.RawMessage

	spec Spec
}

// Spec returns the shard of a part read by [Read].
func (p *Part) Spec() Spec { return p.spec }

// HashInput returns the hex SHA-256 of data, the canonical form of an
// input (the same system read from any file format hashes the same when
// data is its canonical JSON).
func HashInput(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// New returns the part of shard s for a computation of kind on the input
// with hash inputHash, holding options and result (marshalled to JSON).
func New(kind string, s Spec, inputHash string, options, result any) (*Part, error) {
	o, err := json.Marshal(options)
	if err != nil {
		return nil, fmt.Errorf("shard: options: %w", err)
	}
	r, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("shard: result: %w", err)
	}
	return &Part{Format: FormatName, Partial: true, Kind: kind, Shard: s.String(), InputSHA256: inputHash, Options: o, Result: r, spec: s}, nil
}

// Write writes p as indented JSON followed by a newline.
func Write(w io.Writer, p *Part) error {
	data, err := json.MarshalIndent(wire.Part{Format: p.Format, Partial: p.Partial, Kind: p.Kind, Shard: p.Shard,
		InputSHA256: p.InputSHA256, Options: p.Options, Result: p.Result}, "", "  ")
	if err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// Read parses one part and checks its header fields.
func Read(data []byte) (*Part, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var w wire.Part
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("not a partial result: %v", err)
	}
	if dec.More() {
		return nil, errors.New("not a partial result: more than one JSON value")
	}
	p := Part{Format: w.Format, Partial: w.Partial, Kind: w.Kind, Shard: w.Shard, InputSHA256: w.InputSHA256, Options: w.Options, Result: w.Result}
	if p.Format != FormatName || !p.Partial {
		return nil, fmt.Errorf("not a partial result (want \"format\": %q and \"partial\": true)", FormatName)
	}
	s, err := ParseSpec(p.Shard)
	if err != nil {
		return nil, fmt.Errorf("\"shard\": %q is not I/N", p.Shard)
	}
	p.spec = s
	if p.Kind == "" {
		return nil, errors.New("\"kind\" is missing")
	}
	if len(p.InputSHA256) != 64 {
		return nil, errors.New("\"input_sha256\" is not a SHA-256")
	}
	if len(p.Result) == 0 {
		return nil, errors.New("\"result\" is missing")
	}
	return &p, nil
}

// Check verifies that parts are the complete set of shards of one
// computation: the same kind, input hash, options and N, and every shard
// 1..N exactly once. names label the parts in messages (file names). It
// returns the parts ordered by shard.
func Check(parts []*Part, names []string) ([]*Part, error) {
	if len(parts) == 0 {
		return nil, errors.New("no partial results to merge")
	}
	first := parts[0]
	n := first.spec.Count
	byIndex := make([]int, n+1)
	for i := range byIndex {
		byIndex[i] = -1
	}
	for i, p := range parts {
		switch {
		case p.Kind != first.Kind:
			return nil, fmt.Errorf("%s is a partial %s result, %s a partial %s result: they cannot be merged", names[i], p.Kind, names[0], first.Kind)
		case p.InputSHA256 != first.InputSHA256:
			return nil, fmt.Errorf("%s (shard %s) is of another input than %s (shard %s): input_sha256 %.12s… vs %.12s…",
				names[i], p.Shard, names[0], first.Shard, p.InputSHA256, first.InputSHA256)
		case p.spec.Count != n:
			return nil, fmt.Errorf("%s is shard %s, %s shard %s: the runs were split into different numbers of shards", names[i], p.Shard, names[0], first.Shard)
		case !bytes.Equal(compact(p.Options), compact(first.Options)):
			return nil, fmt.Errorf("%s (shard %s) was run with other options than %s (shard %s): %s vs %s",
				names[i], p.Shard, names[0], first.Shard, compact(p.Options), compact(first.Options))
		}
		if j := byIndex[p.spec.Index]; j >= 0 {
			return nil, fmt.Errorf("shard %s is given twice: %s and %s", p.Shard, names[j], names[i])
		}
		byIndex[p.spec.Index] = i
	}
	var missing []string
	for i := 1; i <= n; i++ {
		if byIndex[i] < 0 {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		if len(missing) > 10 {
			missing = append(missing[:10], "…")
		}
		return nil, fmt.Errorf("incomplete: shard %s of %d missing (have %d of %d)", strings.Join(missing, ", "), n, len(parts), n)
	}
	out := make([]*Part, 0, n)
	for _, j := range byIndex[1:] {
		out = append(out, parts[j])
	}
	return slices.Clip(out), nil
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// Decode unmarshals the results of parts into values of type T, in the
// order of parts, rejecting fields T does not have.
func Decode[T any](parts []*Part) ([]T, error) {
	out := make([]T, len(parts))
	for i, p := range parts {
		dec := json.NewDecoder(bytes.NewReader(p.Result))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out[i]); err != nil {
			return nil, fmt.Errorf("shard %s: result: %v", p.Shard, err)
		}
	}
	return out, nil
}

// DecodeOptions unmarshals the options of a part (after [Check], every
// part has the same).
func DecodeOptions[T any](p *Part) (T, error) {
	var o T
	dec := json.NewDecoder(bytes.NewReader(p.Options))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return o, fmt.Errorf("shard %s: options: %v", p.Shard, err)
	}
	return o, nil
}

// Owned returns how many of pieces pieces (numbered 0..pieces−1) belong
// to s.
func (s Spec) Owned(pieces int) int {
	if pieces < s.Index {
		return 0
	}
	return (pieces-s.Index)/s.Count + 1
}

// MergeError is why the results of a set of parts cannot be merged
// (returned by the merges of the computations split into parts): Shard
// is the shard at fault, the zero Spec when no one is; Msg says what is
// wrong.
type MergeError struct {
	Shard Spec
	Msg   string
}

func (e *MergeError) Error() string { return "shard: merge: " + e.Msg }
