package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/internal/atomicfile"
	"github.com/coterie-dev/coterie/set"
)

// inputError is a problem in an input file, printed as "FILE:LINE: what is
// wrong" (or "FILE: what is wrong"); exit status 2.
type inputError = format.SyntaxError

// asInputError wraps an input problem so that it prints with the file name
// and exits with status 2.
func asInputError(file string, line int, msg string) error {
	return &codeError{code: exitError, err: &inputError{File: file, Line: line, Msg: msg}}
}

// inputOptions are the flags of commands that read a quorum file.
type inputOptions struct {
	format string // overrides the extension
	base   int    // .dat numbering
	// cmd is the command whose flags these are: its context ends a read
	// that waits, and its --max-memory bounds what reading takes.
	cmd *cobra.Command
	// side, when set, lets the command read a read-write system's side.
	side *sideOptions
}

// addInputFlags adds --input-format and --base to a command that reads
// quorum files.
func addInputFlags(cmd *cobra.Command, o *inputOptions) {
	o.cmd = cmd
	cmd.Flags().StringVar(&o.format, "input-format", "", "read input files as json|text|csv|dat, or as a system's configuration: "+strings.Join(systemFormatNames(), "|")+" (default: recognised from the content, else by extension)")
	cmd.Flags().IntVar(&o.base, "base", 1, "number of the first node in .dat files: 1 or 0")
	_ = cmd.RegisterFlagCompletionFunc("input-format", completeFormats)
}

func completeFormats(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	var names []string
	for _, f := range format.Formats() {
		names = append(names, string(f))
	}
	names = append(names, systemFormatNames()...)
	return names, cobra.ShellCompDirectiveNoFileComp
}

// displayName is how a path appears in messages.
func displayName(path string) string {
	switch path {
	case "-":
		return "stdin"
	case "":
		return "expression" // the system of --reads/--writes
	}
	return path
}

// quickRead is the size of a regular file that is always read whole, even
// when the command's context has ended: it takes well under a second, and
// a command stopped by --timeout still reports on its input.
const quickRead = 16 << 20

// readSystem reads the quorum file at path ("-" for standard input) in the
// format the options, the extension or the content say, within the
// --max-memory budget. A read that waits (standard input, a FIFO with no
// writer, a device) or a regular file over quickRead bytes is abandoned when
// the command's context ends: on interrupt, SIGTERM or --timeout.
func readSystem(s *streams, path string, o inputOptions) (set.System, error) {
	if o.format != "" && !isSystemFormat(o.format) {
		if _, err := inputFormat(path, nil, o.format); err != nil {
			return set.System{}, err
		}
	}
	if o.base != 0 && o.base != 1 {
		return set.System{}, usageErrorf("--base must be 0 or 1, not %d", o.base)
	}
	ctx := context.Background()
	if o.cmd != nil && o.cmd.Context() != nil {
		ctx = o.cmd.Context()
	}
	if o.side != nil && o.side.wanted(o.cmd, s, path) {
		return o.side.system(ctx, s, path, o)
	}
	if path != "-" {
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() <= quickRead {
			return readInput(s, path, o)
		}
	}
	type result struct {
		sys set.System
		err error
	}
	done := make(chan result, 1)
	go func() {
		sys, err := readInput(s, path, o)
		done <- result{sys, err}
	}()
	select {
	case r := <-done:
		return r.sys, r.err
	case <-ctx.Done():
		select {
		case r := <-done:
			return r.sys, r.err
		default:
		}
		// The reading goroutine may be blocked in open or read for good;
		// the command ends and the process with it.
		return set.System{}, fmt.Errorf("reading %s: %w", displayName(path), ctx.Err())
	}
}

// readInput is readSystem's work, without the context.
func readInput(s *streams, path string, o inputOptions) (set.System, error) {
	name := displayName(path)
	opt := format.Options{Base: o.base, Name: name, MaxMemory: maxMemory(o.cmd), Implicit: construct.Implicit, Sparse: true}
	var data []byte
	var err error
	if path == "-" {
		data, err = format.ReadInput(s.in, opt)
	} else {
		var f *os.File
		if f, err = os.Open(path); err == nil {
			data, err = format.ReadInput(f, opt)
			f.Close()
		}
	}
	if err == nil {
		if sf, ok := systemFormat(path, data, o.format); ok {
			return configSystem(inputContext(o), name, data, sf)
		}
		var f format.Format
		if f, err = inputFormat(path, data, o.format); err != nil {
			return set.System{}, err
		}
		var sys set.System
		if sys, err = format.ReadBytes(data, f, opt); err == nil {
			collectInput(&data)
			if err := checkSparseInput(o.cmd, name, &sys); err != nil {
				return set.System{}, err
			}
			return sys, checkImplicitInput(o.cmd, name, sys)
		}
		if f == format.Dat && o.base == 1 && errors.Is(err, format.ErrBelowBase) {
			err = appendHint(err, "read with --base 1; use --base 0 for a 0-based .dat file")
		}
	}
	var se *format.SyntaxError
	var pe *os.PathError
	switch {
	case errors.As(err, &se):
		if errors.Is(err, set.ErrMemoryBudget) {
			se.Msg += " (" + budgetHint(o.cmd) + ")"
		}
		return set.System{}, &codeError{code: exitError, err: se}
	case errors.As(err, &pe):
		return set.System{}, asInputError(name, 0, "cannot read: "+pe.Err.Error())
	}
	return set.System{}, asInputError(name, 0, err.Error())
}

// appendHint adds a hint, in parentheses, to the message of a syntax error.
func appendHint(err error, hint string) error {
	var se *format.SyntaxError
	if errors.As(err, &se) {
		se.Msg += " (" + hint + ")"
	}
	return err
}

// inputFormat decides how to read path: the flag, else the extension, else
// the content.
func inputFormat(path string, data []byte, flag string) (format.Format, error) {
	if flag != "" {
		f, err := format.Parse(flag)
		if err != nil {
			return "", usageErrorf("--input-format: %s", unknownFormat(flag))
		}
		return f, nil
	}
	if f, ok := format.Detect(path); ok {
		return f, nil
	}
	return format.Sniff(data), nil
}

// unknownFormat says that name is no format, and which there are.
func unknownFormat(name string) string {
	var names []string
	for _, f := range format.Formats() {
		names = append(names, string(f))
	}
	return fmt.Sprintf("unknown format %q (want %s or %s)", name,
		strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// outputFormat decides how to write path: the flag, else the extension,
// else JSON (the canonical format) for standard output or a name without
// an extension. An extension that names no format is a usage error.
func outputFormat(path, flag string) (format.Format, error) {
	if flag != "" {
		f, err := format.Parse(flag)
		if err != nil {
			return "", usageErrorf("--format: %s", unknownFormat(flag))
		}
		return f, nil
	}
	if f, ok := format.Detect(path); ok {
		return f, nil
	}
	if path != "" && path != "-" {
		if ext := filepath.Ext(path); ext != "" && !strings.ContainsAny(ext, `/\`) {
			return "", usageErrorf("cannot tell which format to write from the extension %q of %s: name the file .json, .txt, .csv or .dat, or give --format", ext, path)
		}
	}
	return format.JSON, nil
}

// writeOutput runs write on the output named path: standard output for ""
// or "-", otherwise the file path as package atomicfile writes it: a
// regular file is replaced only once write has succeeded and keeps its
// mode, a symbolic link's target is written, a device or FIFO is written
// directly. A failed or interrupted command leaves the old file as it was
// and no temporary file behind.
func writeOutput(s *streams, path string, write func(io.Writer) error) error {
	if path == "" {
		path = s.outPath
	}
	if path == "" || path == "-" {
		bw := bufio.NewWriter(s.out)
		if err := write(bw); err != nil {
			bw.Flush()
			return err
		}
		return bw.Flush()
	}
	af, err := atomicfile.CreateContext(s.ctx(), path)
	if err != nil {
		return &codeError{code: exitError, err: fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))}
	}
	s.temps.add(af.TempPath())
	defer func() {
		af.Abort()
		s.temps.remove(af.TempPath())
	}()
	fw := &firstError{w: af}
	bw := bufio.NewWriterSize(fw, 1<<16)
	if err := write(bw); err != nil {
		if fw.err != nil { // the file, not the command, failed
			return &codeError{code: exitError, err: fmt.Errorf("cannot write %s: %w", path, unwrapPath(fw.err))}
		}
		return err
	}
	if err := bw.Flush(); err != nil {
		return &codeError{code: exitError, err: fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))}
	}
	if err := af.Commit(); err != nil {
		return &codeError{code: exitError, err: fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))}
	}
	return nil
}

// firstError remembers the first error of the writer it wraps.
type firstError struct {
	w   io.Writer
	err error
}

func (f *firstError) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// writeSystem writes sys to path in format f, warning on stderr about what
// the format cannot hold.
func writeSystem(s *streams, path string, sys set.System, f format.Format, opt format.Options) error {
	return writeSystemProgress(s, path, sys, f, opt, false)
}

// writeSystemProgress is writeSystem with progress reports: the terminal
// progress bar for a long write, or with plain (--progress) a line on
// stderr every second whatever stderr is.
func writeSystemProgress(s *streams, path string, sys set.System, f format.Format, opt format.Options, plain bool) error {
	if lost := format.Lossy(sys, f); len(lost) > 0 {
		fmt.Fprintf(s.err, "coterie: note: the %s format does not keep %s\n", f, strings.Join(lost, ", "))
	}
	return writeOutput(s, path, func(w io.Writer) error {
		cw := &ctxWriter{ctx: s.ctx(), w: w}
		fam := sys.Family
		if fam == nil || isThreshold(fam) {
			return format.Write(cw, sys, f, opt)
		}
		// A list of quorums, written one by one to report progress.
		if err := sys.Validate(); err != nil {
			return fmt.Errorf("format: %w", err)
		}
		sw, err := format.NewWriter(cw, f, fam, opt)
		if err != nil {
			return err
		}
		dest := path
		if dest == "" || dest == "-" {
			dest = "standard output"
		}
		pr := newWriteProgress(s, "write "+dest, int64(fam.Len()), plain)
		defer pr.Done()
		for i := range fam.Len() {
			if i%64 == 0 {
				pr.Update(int64(i))
			}
			var err error
			if fam.IsSparse() {
				err = sw.QuorumList(fam.Sparse.At(i), fam.Owner(i))
			} else {
				err = sw.Quorum(&fam.Quorums[i], fam.Owner(i))
			}
			if err != nil {
				return err
			}
		}
		return sw.Close()
	})
}

// ctxWriter stops writing once ctx is done, so that Ctrl-C and --timeout
// end a long write within one buffer's worth.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// writeJSON writes v as indented JSON followed by a newline, with every
// control character escaped (see [encodeJSON]).
func writeJSON(w io.Writer, v any) error {
	return encodeJSON(w, v, true)
}

// encodeJSON writes v as indented JSON. encoding/json escapes the C0
// controls but leaves DEL and the C1 controls (U+0080..U+009F, such as
// CSI) raw; they are written \u00XX here, so that no raw control
// character reaches a file or a terminal. A value that JSON cannot hold
// (NaN, an infinity) is an error, never written.
func encodeJSON(w io.Writer, v any, escapeHTML bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(format.EscapeJSONControls(buf.Bytes()))
	return err
}
