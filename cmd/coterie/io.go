package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// inputError is a problem in an input file, printed as "FILE:LINE: what is
// wrong" (or "FILE: what is wrong"); exit status 2.
type inputError struct {
	file string
	line int
	msg  string
}

func (e *inputError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg)
	}
	return fmt.Sprintf("%s: %s", e.file, e.msg)
}

// asInputError wraps an input problem so that it prints with the file name
// and exits with status 2.
func asInputError(file string, line int, msg string) error {
	return &codeError{code: exitError, err: &inputError{file: file, line: line, msg: msg}}
}

// inputOptions are the flags of commands that read a quorum file.
type inputOptions struct {
	format string // overrides the extension
	base   int    // .dat numbering
}

// addInputFlags adds --input-format and --base to a command that reads
// quorum files.
func addInputFlags(cmd *cobra.Command, o *inputOptions) {
	cmd.Flags().StringVar(&o.format, "input-format", "", "read input files as json|text|csv|dat (default: by extension, or guessed for stdin)")
	cmd.Flags().IntVar(&o.base, "base", 1, "number of the first node in .dat files: 1 or 0")
	_ = cmd.RegisterFlagCompletionFunc("input-format", completeFormats)
}

func completeFormats(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	var names []string
	for _, f := range format.Formats() {
		names = append(names, string(f))
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// displayName is how a path appears in messages.
func displayName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return path
}

// readSystem reads the quorum file at path ("-" for standard input) in the
// format the options, the extension or the content say.
func readSystem(s *streams, path string, o inputOptions) (set.System, error) {
	name := displayName(path)
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(s.in)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return set.System{}, asInputError(name, 0, "cannot read: "+pe.Err.Error())
		}
		return set.System{}, asInputError(name, 0, err.Error())
	}
	f, err := inputFormat(path, data, o.format)
	if err != nil {
		return set.System{}, err
	}
	if o.base != 0 && o.base != 1 {
		return set.System{}, usageErrorf("--base must be 0 or 1, not %d", o.base)
	}
	sys, err := format.ReadBytes(data, f, format.Options{Base: o.base})
	if err != nil {
		var fe *format.Error
		if errors.As(err, &fe) {
			return set.System{}, asInputError(name, fe.Line, fe.Msg)
		}
		return set.System{}, asInputError(name, 0, err.Error())
	}
	return sys, nil
}

// inputFormat decides how to read path: the flag, else the extension, else
// the content.
func inputFormat(path string, data []byte, flag string) (format.Format, error) {
	if flag != "" {
		f, err := format.Parse(flag)
		if err != nil {
			return "", usageErrorf("--input-format: %v", strings.TrimPrefix(err.Error(), "format: "))
		}
		return f, nil
	}
	if f, ok := format.Detect(path); ok {
		return f, nil
	}
	return format.Sniff(data), nil
}

// outputFormat decides how to write path: the flag, else the extension,
// else JSON (the canonical format).
func outputFormat(path, flag string) (format.Format, error) {
	if flag != "" {
		f, err := format.Parse(flag)
		if err != nil {
			return "", usageErrorf("--format: %v", strings.TrimPrefix(err.Error(), "format: "))
		}
		return f, nil
	}
	if f, ok := format.Detect(path); ok {
		return f, nil
	}
	return format.JSON, nil
}

// writeOutput runs write on the output named path: standard output for ""
// or "-", otherwise a temporary file in the same directory that is renamed
// to path only once write has succeeded, so that a failed or interrupted
// command never leaves a half-written or damaged file.
func writeOutput(s *streams, path string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		bw := bufio.NewWriter(s.out)
		if err := write(bw); err != nil {
			bw.Flush()
			return err
		}
		return bw.Flush()
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return &codeError{code: exitError, err: fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))}
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	ok = true
	return nil
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
	if lost := format.Lossy(sys, f); len(lost) > 0 {
		fmt.Fprintf(s.err, "coterie: note: the %s format does not keep %s\n", f, strings.Join(lost, ", "))
	}
	return writeOutput(s, path, func(w io.Writer) error {
		return format.Write(w, sys, f, opt)
	})
}

// writeJSON writes v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
