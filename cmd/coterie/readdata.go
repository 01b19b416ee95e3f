package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// readData reads the file a command-line argument names ("-" for standard
// input) as every reader of systems does: within the input's share of
// --max-memory, and abandoned when the command's context ends (interrupt,
// SIGTERM, --timeout) while the read waits (a FIFO with no writer, a slow
// device, standard input). The coterie files and the read-write files,
// nodes files and strategy files all come through here.
func readData(ctx context.Context, s *streams, path string, o inputOptions) ([]byte, error) {
	name := displayName(path)
	opt := format.Options{Name: name, MaxMemory: maxMemory(o.cmd)}
	read := func() ([]byte, error) {
		if path == "-" {
			return format.ReadInput(s.in, opt)
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return format.ReadInput(f, opt)
	}
	wrap := func(data []byte, err error) ([]byte, error) {
		var se *format.SyntaxError
		switch {
		case err == nil:
			return data, nil
		case errors.As(err, &se):
			if errors.Is(err, set.ErrMemoryBudget) {
				se.Msg += " (" + budgetHint(o.cmd) + ")"
			}
			return nil, &codeError{code: exitError, err: se}
		}
		return nil, asInputError(name, 0, "cannot read: "+unwrapPath(err).Error())
	}
	if path != "-" {
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() <= quickRead {
			return wrap(read())
		}
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := read()
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return wrap(r.data, r.err)
	case <-ctx.Done():
		select {
		case r := <-done:
			return wrap(r.data, r.err)
		default:
		}
		// The reading goroutine may be blocked in open or read for good;
		// the command ends and the process with it.
		return nil, fmt.Errorf("reading %s: %w", name, ctx.Err())
	}
}
