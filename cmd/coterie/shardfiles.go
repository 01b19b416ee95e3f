package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/coterie-dev/coterie/shard"
)

// checkpointFormat names the checkpoint files of every command that can
// resume (--checkpoint).
const checkpointFormat = "coterie-checkpoint/1"

// checkpointHead is how every checkpoint file starts: the format, the
// kind of work (a part kind: "availability", "transversals", …), and
// the input and shard it belongs to.
type checkpointHead struct {
	Format      string `json:"format"`
	Kind        string `json:"kind"`
	InputSHA256 string `json:"input_sha256"`
	Shard       string `json:"shard"`
}

// readCheckpoint reads the checkpoint at path into got, a pointer to the
// kind's checkpoint struct (which repeats the head's fields); found is
// false when there is no such file. A file that is not a checkpoint of
// kind (the work of command what), of the input with this hash and of
// shard sp is refused, naming the file.
func readCheckpoint(path, kind, what, hash string, sp shard.Spec, got any) (found bool, err error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	case err != nil:
		return false, asInputError(path, 0, "cannot read the checkpoint: "+unwrapPath(err).Error())
	}
	notOne := asInputError(path, 0, "not a coterie checkpoint (remove it or choose another --checkpoint file)")
	var head checkpointHead
	if err := json.Unmarshal(data, &head); err != nil || head.Format != checkpointFormat {
		return false, notOne
	}
	switch {
	case head.Kind != kind:
		return false, asInputError(path, 0, fmt.Sprintf("a checkpoint of %s, not of %s", head.Kind, what))
	case head.InputSHA256 != hash:
		return false, asInputError(path, 0, "a checkpoint of another input (remove it or choose another --checkpoint file)")
	case head.Shard != sp.String():
		return false, asInputError(path, 0, fmt.Sprintf("a checkpoint of shard %s, not %s", head.Shard, sp))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(got); err != nil {
		return false, notOne
	}
	return true, nil
}

// writePart writes a shard's part (shard.New with these arguments) to
// standard output.
func writePart(s *streams, kind string, sp shard.Spec, hash string, options, result any) error {
	p, err := shard.New(kind, sp, hash, options, result)
	if err != nil {
		return err
	}
	return writeOutput(s, "", func(w io.Writer) error { return shard.Write(w, p) })
}
