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
	"sync"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/coterie-dev/coterie/internal/textsafe"
)

func main() { os.Exit(mainProcess()) }

// mainProcess runs the command line of this process with the real streams
// and signal handling, and returns the exit status. The first SIGINT or
// SIGTERM cancels the command's context, so that it stops, says what it has
// proved so far and removes its temporary files; a second one removes the
// temporary files and ends the process at once, and so does the end of
// stopGrace after the first (see [streams.watchStop]).
func mainProcess() int {
	delayGC()
	temps := &tempFiles{}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	stop := func(code int, msg string) {
		temps.removeAll()
		fmt.Fprintln(os.Stderr, msg)
		os.Exit(code)
	}
	go func() {
		first := <-sigs
		cancel(&interrupted{sig: first})
		select {
		case <-sigs:
			temps.removeAll()
			os.Exit(signalStatus(first))
		case <-time.After(stopGrace):
			stop(signalStatus(first), "coterie: interrupted")
		}
	}()
	return run(ctx, os.Args[1:], &streams{
		in: os.Stdin, out: os.Stdout, err: os.Stderr,
		errTerminal: isatty.IsTerminal(os.Stderr.Fd()) || isatty.IsCygwinTerminal(os.Stderr.Fd()),
		outTerminal: isatty.IsTerminal(os.Stdout.Fd()) || isatty.IsCygwinTerminal(os.Stdout.Fd()),
		temps:       temps,
		stop:        stop,
	})
}

// interrupted is the cause of a context cancelled by a signal.
type interrupted struct{ sig os.Signal }

func (e *interrupted) Error() string { return "interrupted by " + e.sig.String() }

// signalStatus is the exit status after sig: 130 for SIGINT (Ctrl-C), 143
// for SIGTERM, as a shell reports a process those signals ended.
func signalStatus(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitTerminated
	}
	return exitInterrupted
}

// tempFiles are the temporary files being written, removed if the process
// is ended by a second signal. Safe for concurrent use; a nil *tempFiles
// does nothing.
type tempFiles struct {
	mu    sync.Mutex
	paths map[string]bool
}

func (t *tempFiles) add(path string) {
	if t == nil || path == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.paths == nil {
		t.paths = map[string]bool{}
	}
	t.paths[path] = true
}

func (t *tempFiles) remove(path string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.paths, path)
}

func (t *tempFiles) removeAll() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for p := range t.paths {
		os.Remove(p)
	}
	t.paths = nil
}

// streams are where a command reads and writes: data to out, diagnostics
// and progress to err.
type streams struct {
	in          io.Reader
	out, err    io.Writer
	errTerminal bool       // progress is shown only on a terminal
	outTerminal bool       // data shown on a terminal has its control characters escaped
	temps       *tempFiles // removed on a second interrupt
	rawErr      io.Writer  // err before escaping, for the progress bar
	cmdCtx      context.Context
	// stop, if not nil, removes the temporary files, prints msg and ends
	// the process with code: what a command that does not return in time
	// after its context ends comes to (see watchStop).
	stop func(code int, msg string)
	// outPath is the -o of a command whose result is otherwise printed:
	// writeOutput writes there instead of out (see addOutputFlag).
	outPath string
}

// ctx is the running command's context (with --timeout): waits such as
// for a FIFO's reader end with it.
func (s *streams) ctx() context.Context {
	if s.cmdCtx == nil {
		return context.Background()
	}
	return s.cmdCtx
}

// timeoutMessage is what a command stopped by --timeout says.
const timeoutMessage = "coterie: stopped at the --timeout limit before finishing; allow more time with --timeout, or 0 for none"

// Exit statuses (docs/formats.md).
const (
	exitOK     = 0
	exitFailed = 1 // verify found a violated property
	exitError  = 2 // usage, input or internal error

	exitTimeout     = 124 // --timeout ran out (as timeout(1))
	exitInterrupted = 130 // SIGINT, Ctrl-C (128 + 2)
	exitTerminated  = 143 // SIGTERM (128 + 15)
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

// run executes the command line args and returns the exit status. A
// command stopped by --timeout (it returns an error wrapping
// context.DeadlineExceeded) exits with 124, one stopped by a signal with 130
// (SIGINT) or 143 (SIGTERM); a command that kept a partial result has
// printed it, marked partial, before returning its error.
func run(ctx context.Context, args []string, s *streams) int {
	// Diagnostics always, data on a terminal, have their control
	// characters escaped; the progress bar draws with them.
	es := *s
	s = &es
	ew := &textsafe.Writer{W: s.err}
	defer ew.Flush()
	s.rawErr, s.err = s.err, ew
	if s.outTerminal {
		ow := &textsafe.Writer{W: s.out}
		defer ow.Flush()
		s.out = ow
	}
	st := &runState{}
	root := newRoot(s, st, args)
	root.SetArgs(args)
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	err := root.ExecuteContext(ctx)
	if err == nil {
		// A command that returns no error finished, even if a signal or
		// the deadline came as it did: one that stops early returns the
		// context's error, after printing what it has, marked partial.
		return exitOK
	}
	var sig *interrupted
	if errors.As(context.Cause(ctx), &sig) {
		fmt.Fprintln(s.err, "coterie: interrupted")
		return signalStatus(sig.sig)
	}
	timedOut := (st.timeout != nil && errors.Is(st.timeout.Err(), context.DeadlineExceeded)) || errors.Is(ctx.Err(), context.DeadlineExceeded)
	switch {
	case errors.Is(err, context.DeadlineExceeded) && timedOut:
		fmt.Fprintln(s.err, timeoutMessage)
		return exitTimeout
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(s.err, "coterie: interrupted")
		return exitInterrupted
	}
	code := exitError
	var ce *codeError
	if errors.As(err, &ce) {
		code = ce.code
	}
	if msg := err.Error(); msg != "" {
		var ie *inputError
		if errors.As(err, &ie) {
			fmt.Fprintln(s.err, escapeTerminal(msg)) // FILE:LINE: what is wrong
		} else {
			fmt.Fprintln(s.err, "coterie: "+escapeTerminal(msg))
		}
	}
	return code
}
