package shard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/coterie-dev/coterie/shard/internal/wire"
)

// CheckpointFormat is the value of the "format" field of every
// checkpoint file.
const CheckpointFormat = "coterie-checkpoint/1"

// A checkpoint saves the progress of one shard of one computation (the
// whole run is the shard 1/1), so that a run stopped part-way resumes
// where it was: a JSON object whose first fields are "format"
// ([CheckpointFormat]), "kind" (the kind of the parts the computation
// writes), "input_sha256" and "shard", followed by the kind's own fields.
// [ReadCheckpoint] refuses a file of another kind, input or shard, so
// that no run resumes work that is not its own.

// CheckpointHead says whose progress a checkpoint holds.
type CheckpointHead struct {
	Kind        string
	InputSHA256 string
	Shard       Spec
}

// CheckpointProblem is why a checkpoint file is refused.
type CheckpointProblem int

// The reasons to refuse a checkpoint.
const (
	// NotCheckpoint: the data is not a checkpoint (or not one of this
	// kind's shape).
	NotCheckpoint CheckpointProblem = iota + 1
	// OtherKind: a checkpoint of another kind of work.
	OtherKind
	// OtherInput: a checkpoint of another input.
	OtherInput
	// OtherShard: a checkpoint of another shard.
	OtherShard
)

// CheckpointError is the error of [ReadCheckpoint]: the problem, and the
// kind and shard the file holds (for OtherKind and OtherShard).
type CheckpointError struct {
	Problem CheckpointProblem
	Kind    string
	Shard   string
}

func (e *CheckpointError) Error() string {
	switch e.Problem {
	case OtherKind:
		return fmt.Sprintf("shard: a checkpoint of %s", e.Kind)
	case OtherInput:
		return "shard: a checkpoint of another input"
	case OtherShard:
		return fmt.Sprintf("shard: a checkpoint of shard %s", e.Shard)
	}
	return "shard: not a checkpoint"
}

// ReadCheckpoint checks that data is a checkpoint of want (its kind,
// input and shard) and decodes it into body, a pointer to the kind's
// checkpoint shape, which repeats the head's fields; fields body does not
// have are refused. Any refusal is a *[CheckpointError].
func ReadCheckpoint(data []byte, want CheckpointHead, body any) error {
	var head wire.CheckpointHead
	if err := json.Unmarshal(data, &head); err != nil || head.Format != CheckpointFormat {
		return &CheckpointError{Problem: NotCheckpoint}
	}
	switch {
	case head.Kind != want.Kind:
		return &CheckpointError{Problem: OtherKind, Kind: head.Kind}
	case head.InputSHA256 != want.InputSHA256:
		return &CheckpointError{Problem: OtherInput}
	case head.Shard != want.Shard.String():
		return &CheckpointError{Problem: OtherShard, Shard: head.Shard}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(body); err != nil {
		return &CheckpointError{Problem: NotCheckpoint}
	}
	return nil
}

// WriteCheckpoint writes body, a kind's checkpoint shape (its first
// fields those of the head), as indented JSON followed by a newline.
func WriteCheckpoint(w io.Writer, body any) error {
	data, err := json.MarshalIndent(body, "", "  ")
	if err != nil {
		return fmt.Errorf("shard: checkpoint: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
