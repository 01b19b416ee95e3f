package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/coterie-dev/coterie/shard"
)

// readCheckpoint reads the --checkpoint file at path with decode (a
// partfile reader); nil data (no error) when there is no such file. A
// file the reader refuses (shard.CheckpointError: not a checkpoint, or
// one of another kind, input or shard) is named with what is wrong in
// the user's terms: what is the command whose work the file should hold.
func readCheckpoint[T any](path, what string, sp shard.Spec, decode func([]byte) (T, error)) (T, bool, error) {
	var zero T
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return zero, false, nil
	case err != nil:
		return zero, false, asInputError(path, 0, "cannot read the checkpoint: "+unwrapPath(err).Error())
	}
	v, err := decode(data)
	var ce *shard.CheckpointError
	switch {
	case err == nil:
		return v, true, nil
	case !errors.As(err, &ce):
		return zero, false, asInputError(path, 0, err.Error())
	case ce.Problem == shard.OtherKind:
		return zero, false, asInputError(path, 0, fmt.Sprintf("a checkpoint of %s, not of %s", ce.Kind, what))
	case ce.Problem == shard.OtherInput:
		return zero, false, asInputError(path, 0, "a checkpoint of another input (remove it or choose another --checkpoint file)")
	case ce.Problem == shard.OtherShard:
		return zero, false, asInputError(path, 0, fmt.Sprintf("a checkpoint of shard %s, not %s", ce.Shard, sp))
	}
	return zero, false, asInputError(path, 0, "not a coterie checkpoint (remove it or choose another --checkpoint file)")
}

// writeCheckpoint rewrites the checkpoint file at path with ck (a
// partfile checkpoint): a temporary file in the same folder, synced, then
// renamed over the old one, so a stop at any moment leaves the old
// checkpoint or the new one.
func writeCheckpoint(path string, ck any) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".checkpoint-*")
	if err != nil {
		return fmt.Errorf("checkpoint %s: %v", path, unwrapPath(err))
	}
	err = shard.WriteCheckpoint(tmp, ck)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("checkpoint %s: %v", path, unwrapPath(err))
	}
	return nil
}

// writePartOut writes a shard's part to standard output.
func writePartOut(s *streams, p *shard.Part, err error) error {
	if err != nil {
		return err
	}
	return writeOutput(s, "", func(w io.Writer) error { return shard.Write(w, p) })
}
