package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/format"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The flags every command shares take the same syntax everywhere; see
// docs/cli.md. TestVocabulary walks the command tree and checks it.

// probsValue is --p: one or more probabilities, comma-separated (the flag
// may also be repeated). Its default is shown as written: 0.9, not
// [0.900000].
type probsValue struct {
	ps      *[]float64
	changed bool
}

// addProbsFlag adds --p with its default.
func addProbsFlag(cmd *cobra.Command, ps *[]float64, def []float64, usage string) {
	*ps = append([]float64(nil), def...)
	cmd.Flags().Var(&probsValue{ps: ps}, "p", usage)
}

func (v *probsValue) String() string {
	if v.ps == nil {
		return ""
	}
	parts := make([]string, len(*v.ps))
	for i, p := range *v.ps {
		parts[i] = strconv.FormatFloat(p, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

func (v *probsValue) Type() string { return "P,..." }

func (v *probsValue) Set(s string) error {
	ps, err := format.ParseProbs(s)
	if err != nil {
		return err
	}
	if !v.changed {
		*v.ps = nil
		v.changed = true
	}
	*v.ps = append(*v.ps, ps...)
	return nil
}

// secondsValue is a time limit given as a duration with its unit (500ms,
// 3.5s, 2m) or as a number of seconds (0.5, 7/2); it is kept as the exact
// number of seconds, written as a fraction.
type secondsValue struct{ s *string }

func (v *secondsValue) String() string { return *v.s }

func (v *secondsValue) Type() string { return "duration" }

func (v *secondsValue) Set(s string) error {
	r, err := format.ParseSeconds(s)
	if err != nil {
		return err
	}
	*v.s = r.RatString()
	return nil
}

// addSecondsFlag adds a time-limit flag that keeps exact seconds in *dst.
func addSecondsFlag(cmd *cobra.Command, dst *string, name, usage string) {
	cmd.Flags().Var(&secondsValue{s: dst}, name, usage)
}

// needFiles is the Args of a command that reads min files or more: it
// names what is missing instead of counting arguments.
func needFiles(what string, min int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < min {
			return usageErrorf("%s needs %s (see '%s --help')", cmd.Name(), what, cmd.CommandPath())
		}
		return nil
	}
}

// argsBetween is the Args of a command that takes from min to max
// arguments (what names them, for the message).
func argsBetween(what string, lo, hi int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < lo:
			return usageErrorf("%s needs %s (see '%s --help')", cmd.Name(), what, cmd.CommandPath())
		case hi >= 0 && len(args) > hi:
			return usageErrorf("%s takes %s, not %d arguments: %q (see '%s --help')", cmd.Name(), what, len(args), strings.Join(args, " "), cmd.CommandPath())
		}
		return nil
	}
}

// completeWords is a flag completion offering the given words.
func completeWords(words ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return words, cobra.ShellCompDirectiveNoFileComp
	}
}

// flagErrorText says what is wrong with a flag in our words rather than
// strconv's or time's.
func flagErrorText(err error) string {
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) {
		return err.Error()
	}
	flag, value := "--"+ive.GetFlag().Name, strconv.Quote(ive.GetValue())
	cause := errors.Unwrap(ive)
	var ne *strconv.NumError
	if _, ok := ive.GetFlag().Value.(*probsValue); ok {
		return fmt.Sprintf("%s: %v", flag, cause) // the cause names the item of the list
	}
	switch {
	case errors.As(cause, &ne) && errors.Is(ne.Err, strconv.ErrRange):
		return fmt.Sprintf("%s %s: the number is too large", flag, value)
	case errors.As(cause, &ne) && (ne.Func == "ParseInt" || ne.Func == "ParseUint"):
		return fmt.Sprintf("%s %s: want a whole number", flag, value)
	case errors.As(cause, &ne) && ne.Func == "ParseFloat":
		return fmt.Sprintf("%s %s: want a number", flag, value)
	case errors.As(cause, &ne) && ne.Func == "ParseBool":
		return fmt.Sprintf("%s %s: want true or false", flag, value)
	case ive.GetFlag().Value.Type() == "duration" && strings.HasPrefix(cause.Error(), "time: "):
		return fmt.Sprintf("%s %s: want a duration such as 30s, 5m or 1h30m", flag, value)
	}
	return fmt.Sprintf("%s %s: %v", flag, value, cause)
}

// addPNodeFlag adds --p-node, the nodes' own probabilities: they take the
// place of --p (and of the p column of --nodes) for the nodes named.
func addPNodeFlag(cmd *cobra.Command, dst *string) {
	cmd.Flags().StringVar(dst, "p-node", "", "nodes' own up-probabilities: `NODE=P,...` (ids 1..n or labels) or a file of \"NODE P\" lines; the other nodes take --p")
}

// addOutputFlag adds -o to a command that prints its result: the result
// goes to the file instead, replaced only when complete (writeOutput).
func addOutputFlag(cmd *cobra.Command, s *streams) {
	cmd.Flags().StringVarP(&s.outPath, "output", "o", "", "write the result to `FILE` instead of standard output (replaced only when complete)")
}

// printLine writes one value as the command's result (to -o, if given).
func printLine(s *streams, v any) error {
	return writeOutput(s, "", func(w io.Writer) error {
		_, err := fmt.Fprintln(w, v)
		return err
	})
}

// rwFigureError is the error of a figure that could not be had: the
// context's own error when --timeout or Ctrl-C stopped it (exit 124 or
// 130), otherwise a usage error with the message.
func rwFigureError(err error, format string, args ...any) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err
	}
	return usageErrorf(format, args...)
}
