package main

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// verifyBuilt checks a system a command has built before it is written:
// every property verify checks (intersection, minimality). If one fails,
// nothing is written: the full verify report, witness included, goes to
// stderr and the command exits with status 1. what names the command
// ("join", say).
func verifyBuilt(ctx context.Context, s *streams, what string, sys set.System) error {
	// verify finishes its informational checks after a cancel; run it
	// where it can be abandoned, so that Ctrl-C and --timeout stop at once.
	rep, err := abandonable(ctx, func() (*verify.Report, error) {
		return verify.Verify(ctx, sys, verify.Options{})
	})
	if err != nil {
		return err
	}
	if rep.Failed() == nil {
		if rep.Undecided {
			if err := ctx.Err(); err != nil {
				return err
			}
			return fmt.Errorf("%s: could not verify the result", what)
		}
		return nil
	}
	fmt.Fprintf(s.err, "coterie: %s: the system built fails verification, so it is not written:\n", what)
	if err := writeVerifyText(s.err, "result", sys, rep); err != nil {
		return err
	}
	return failed()
}

// reportStreams are the streams a command's report goes to: stderr in place
// of stdout when the system itself goes to stdout (-o -), so that the
// system can be piped on.
func reportStreams(s *streams, outPath string) *streams {
	if outPath != "-" {
		return s
	}
	r := *s
	r.out = s.err
	r.outTerminal = s.errTerminal
	return &r
}

// abandonable runs fn, a computation that does not watch ctx, where it can
// be abandoned: once ctx is done abandonable returns ctx's error at once and
// fn's result, when it comes, is dropped. The command then ends, and the
// process with it.
func abandonable[T any](ctx context.Context, fn func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	if err := ctx.Err(); err != nil {
		var zero T
		return zero, err
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	select {
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	case r := <-done:
		return r.v, r.err
	}
}
