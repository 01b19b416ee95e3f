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
	rep, err := verify.Verify(ctx, sys, verify.Options{})
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
