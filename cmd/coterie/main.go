// Command coterie constructs, verifies and analyses quorum systems:
// coteries, k-arbiters and (h,k)-arbiters. Run "coterie help" for the
// commands; docs/formats.md in the repository describes the formats and reports.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mattn/go-isatty"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], &streams{
		in: os.Stdin, out: os.Stdout, err: os.Stderr,
		errTerminal: isatty.IsTerminal(os.Stderr.Fd()) || isatty.IsCygwinTerminal(os.Stderr.Fd()),
	})
	stop()
	os.Exit(code)
}

// streams are where a command reads and writes: data to out, diagnostics
// and progress to err.
type streams struct {
	in          io.Reader
	out, err    io.Writer
	errTerminal bool // progress is shown only on a terminal
}

// Exit statuses (docs/formats.md).
const (
	exitOK     = 0
	exitFailed = 1 // verify found a violated property
	exitError  = 2 // usage, input or internal error
)

// exitError carries an exit status with an error; a nil err means the
// command has already said everything (a verify report, say).
type codeError struct {
	code int
	err  error
}

func (e *codeError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *codeError) Unwrap() error { return e.err }

// failed returns the error a command returns when a checked property does
// not hold: exit status 1, nothing more printed.
func failed() error { return &codeError{code: exitFailed} }

// run executes the command line args and returns the exit status.
func run(ctx context.Context, args []string, s *streams) int {
	root := newRootCmd(s)
	root.SetArgs(args)
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	code := exitError
	var ce *codeError
	if errors.As(err, &ce) {
		code = ce.code
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintln(s.err, "coterie: stopped at the --timeout limit before finishing; allow more time with --timeout, or 0 for none")
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(s.err, "coterie: interrupted")
	default:
		if msg := err.Error(); msg != "" {
			var ie *inputError
			if errors.As(err, &ie) {
				fmt.Fprintln(s.err, msg) // FILE:LINE: what is wrong
			} else {
				fmt.Fprintln(s.err, "coterie: "+msg)
			}
		}
	}
	return code
}
