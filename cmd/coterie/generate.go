package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
)

// outputOptions are the flags of commands that write a quorum file.
type outputOptions struct {
	path      string
	format    string
	base      int
	enumerate bool
	limit     int
	progress  bool // progress lines on stderr even off a terminal
	implicit  bool // generate: write the implicit form (see implicit.go)
}

func addOutputFlags(cmd *cobra.Command, o *outputOptions) {
	cmd.Flags().StringVarP(&o.path, "output", "o", "", "write to `FILE` (default: standard output); the extension picks the format")
	cmd.Flags().StringVar(&o.format, "format", "", "write json|text|csv|dat (default: by the output's extension, else json)")
	cmd.Flags().IntVar(&o.base, "output-base", 1, "number of the first node when writing .dat: 1 or 0")
	cmd.Flags().BoolVar(&o.enumerate, "enumerate", false, "list the quorums of threshold systems (every w-subset) instead of writing the threshold")
	cmd.Flags().IntVar(&o.limit, "limit", 100000, "with --enumerate, refuse to list more than this many quorums")
	addProgressFlag(cmd, o)
	_ = cmd.RegisterFlagCompletionFunc("format", completeFormats)
}

// addProgressFlag adds --progress, which reports a long write on stderr
// every second even when stderr is not a terminal.
func addProgressFlag(cmd *cobra.Command, o *outputOptions) {
	cmd.Flags().BoolVar(&o.progress, "progress", false, "report progress of the write on stderr every second, even when stderr is not a terminal")
}

// writeVerified writes sys, a system the command what built, as the flags
// say, once verifyBuilt has checked it.
func (o *outputOptions) writeVerified(ctx context.Context, s *streams, what string, sys set.System) error {
	f, err := o.prepare(ctx, &sys)
	if err != nil {
		return err
	}
	if err := verifyBuilt(ctx, s, what, sys); err != nil {
		return err
	}
	return o.write(s, sys, f)
}

// write writes sys in format f (from [outputOptions.prepare]) as the flags
// say: to --output, numbered from --output-base, with --progress.
func (o *outputOptions) write(s *streams, sys set.System, f format.Format) error {
	return writeSystemProgress(s, o.path, sys, f, format.Options{Base: o.base}, o.progress)
}

// prepare applies --enumerate and checks the options; it returns the format
// to write.
func (o *outputOptions) prepare(ctx context.Context, sys *set.System) (format.Format, error) {
	f, err := outputFormat(o.path, o.format)
	if err != nil {
		return "", err
	}
	if o.base != 0 && o.base != 1 {
		return "", usageErrorf("--output-base must be 0 or 1, not %d", o.base)
	}
	if o.enumerate {
		if err := enumerateThresholds(ctx, sys, o.limit); err != nil {
			return "", err
		}
		if err := enumerateImplicit(ctx, sys, o.limit); err != nil {
			return "", err
		}
	}
	if f == format.Dat {
		if err := refuseImplicitDat(*sys); err != nil {
			return "", err
		}
		for _, fam := range sys.Families() {
			if isThreshold(fam) {
				return "", usageErrorf("the .dat format lists quorums, and this is a threshold system (all %d-subsets of %d nodes, %s quorums): add --enumerate (with --limit if needed), or write json, text or csv",
					fam.Threshold, fam.N, approxCount(fam.Count()))
			}
		}
		if sys.HK != nil {
			return "", usageErrorf("the .dat format holds one list of quorums: write this (h,k)-arbiter as json, text or csv")
		}
	}
	return f, nil
}

// enumerateThresholds replaces every threshold family of sys by its list of
// quorums, refusing politely above limit.
func enumerateThresholds(ctx context.Context, sys *set.System, limit int) error {
	for i, fam := range sys.Families() {
		if !isThreshold(fam) {
			continue
		}
		g, err := fam.EnumerateContext(ctx, limit)
		if errors.Is(err, set.ErrTooMany) {
			return usageErrorf("%s quorums (all %d-subsets of %d nodes) are more than --limit %d: raise --limit, or keep the threshold form, which every command handles",
				approxCount(fam.Count()), fam.Threshold, fam.N, limit)
		}
		if err != nil {
			return err
		}
		if sys.HK != nil {
			sys.HK.Levels[i] = g
		} else {
			sys.Family = g
		}
	}
	return nil
}

func newGenerateCmd(s *streams) *cobra.Command {
	var list, asJSON bool
	cmd := &cobra.Command{
		Use:   "generate KIND [params]",
		Short: "Build a quorum system (see --list for the kinds)",
		Long: `Build one of the quorum systems of the papers and write it as JSON, text, CSV
or .dat. Every kind is a subcommand with its own parameters:

  coterie generate fpp --order 4 -o plane.json
  coterie generate --list`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unknown kind %q: 'coterie generate --list' shows the kinds", args[0])
			}
			if list {
				return listKinds(s, asJSON)
			}
			return usageErrorf("generate needs a kind, such as 'coterie generate fpp --order 3': 'coterie generate --list' shows them all")
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list every kind with its parameters")
	cmd.Flags().BoolVar(&asJSON, "json", false, "with --list, as JSON")
	for _, spec := range construct.Specs() {
		cmd.AddCommand(newKindCmd(s, spec))
	}
	return cmd
}

// newKindCmd turns a registered construction into "coterie generate KIND".
func newKindCmd(s *streams, spec construct.Spec) *cobra.Command {
	var out outputOptions
	var force bool
	ints := map[string]*int{}
	bools := map[string]*bool{}
	strs := map[string]*string{}
	cmd := &cobra.Command{
		Use:   spec.Name + " " + flagSynopsis(spec),
		Short: spec.Summary,
		Long:  spec.Summary + ".\nSource: " + spec.Source + ".",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			vals := map[string]any{}
			for _, p := range spec.Params {
				if !cmd.Flags().Changed(p.Name) {
					continue
				}
				switch p.Type {
				case construct.Int:
					vals[p.Name] = *ints[p.Name]
				case construct.Bool:
					vals[p.Name] = *bools[p.Name]
				case construct.String:
					vals[p.Name] = *strs[p.Name]
				}
			}
			args, err := construct.NewArgs(spec, vals)
			if err != nil {
				if msg, ok := flagError(err); ok {
					return usageErrorf("%s: %s", spec.Name, msg)
				}
				return usageErrorf("%s", construct.Describe(err, "", nil))
			}
			return runGenerate(cmd.Context(), s, spec, args, &out, force)
		},
	}
	for _, p := range spec.Params {
		usage := p.Usage
		switch p.Type {
		case construct.Int:
			d, _ := p.Default.(int)
			if p.Required {
				usage += " (required)"
			}
			usage += " [" + p.Range() + "]"
			ints[p.Name] = cmd.Flags().Int(p.Name, d, usage)
		case construct.Bool:
			d, _ := p.Default.(bool)
			bools[p.Name] = cmd.Flags().Bool(p.Name, d, usage)
		case construct.String:
			d, _ := p.Default.(string)
			strs[p.Name] = cmd.Flags().String(p.Name, d, usage)
		}
	}
	addOutputFlags(cmd, &out)
	addImplicitFlag(cmd, spec, &out)
	cmd.Flags().BoolVar(&force, "force", false, "write the output even if it would be larger than 1 GiB")
	return cmd
}

// maxOutput is the largest output generate writes without --force.
const maxOutput = 1 << 30

func runGenerate(ctx context.Context, s *streams, spec construct.Spec, args construct.Args, out *outputOptions, force bool) error {
	if done, err := generateImplicit(ctx, s, spec, args, out); done {
		return err
	}
	if spec.Stream != nil {
		f, err := outputFormat(out.path, out.format)
		if err != nil {
			return err
		}
		if out.base != 0 && out.base != 1 {
			return usageErrorf("--output-base must be 0 or 1, not %d", out.base)
		}
		opt := format.Options{Base: out.base}
		meta, quorums, err := spec.Stream(args)
		if err != nil {
			return buildError(spec, err)
		}
		n := meta.N
		size, exact, err := format.EstimateStream(meta, quorums, f, opt)
		if err != nil {
			return buildError(spec, err)
		}
		if size > maxOutput && !force {
			about := "about "
			if exact {
				about = ""
			}
			return usageErrorf("generate %s: the output would be %s%s (%d bytes), more than the 1 GiB that generate writes without --force: add --force to write it anyway, or choose smaller parameters",
				spec.Name, about, humanBytes(size), size)
		}
		return writeOutput(s, out.path, func(w io.Writer) error {
			pr := newWriteProgress(s, "generate "+spec.Name, int64(n), out.progress)
			defer pr.Done()
			meta, quorums, err := spec.Stream(args)
			if err != nil {
				return buildError(spec, err)
			}
			sw, err := format.NewWriter(w, f, meta, opt)
			if err != nil {
				return buildError(spec, err)
			}
			done := 0
			for q, owner := range quorums {
				done++
				if done%64 == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
					pr.Update(int64(done))
				}
				if err := sw.Quorum(q, owner); err != nil {
					return buildError(spec, err)
				}
			}
			return sw.Close()
		})
	}
	sys, err := spec.BuildContext(ctx, args)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return buildError(spec, err)
	}
	if out.enumerate && !force && sys.Family != nil && isThreshold(sys.Family) &&
		sys.Family.Count().Cmp(big.NewInt(int64(out.limit))) <= 0 { // else --limit refuses
		// Estimate before listing: the list may not even fit in memory.
		f, err := outputFormat(out.path, out.format)
		if err != nil {
			return err
		}
		if size := format.EstimateThreshold(sys.Family, f); size > maxOutput {
			return usageErrorf("generate %s --enumerate: the output would be about %s, more than the 1 GiB that generate writes without --force: add --force to write it anyway, keep the threshold form (without --enumerate), or choose smaller parameters",
				spec.Name, humanBytes(size))
		}
	}
	f, err := out.prepare(ctx, &sys)
	if err != nil {
		return err
	}
	if fam := sys.Family; fam != nil && !force {
		size, err := format.EstimateFamily(fam, f, format.Options{Base: out.base})
		if err != nil {
			return err
		}
		if size > maxOutput {
			return usageErrorf("generate %s: the output would be about %s (%d bytes), more than the 1 GiB that generate writes without --force: add --force to write it anyway, or choose smaller parameters",
				spec.Name, humanBytes(size), size)
		}
	}
	return out.write(s, sys, f)
}

// approxCount writes a count people can read: exactly up to 15 digits,
// else as "about 3.2 × 10^30100".
func approxCount(c *big.Int) string {
	d := c.String()
	if len(d) <= 15 {
		return d
	}
	return fmt.Sprintf("about %c.%c × 10^%d", d[0], d[1], len(d)-1)
}

// humanBytes writes a size the way people read it: 13.7 GB, 512 KB.
func humanBytes(b int64) string {
	units := []string{"bytes", "KB", "MB", "GB", "TB", "PB", "EB"}
	v := float64(b)
	i := 0
	for v >= 1000 && i < len(units)-1 {
		v /= 1000
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d bytes", b)
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

// buildError reports a construction's refusal (bad parameters): exit 2.
func buildError(spec construct.Spec, err error) error {
	if msg, ok := flagError(err); ok {
		return &codeError{code: exitError, err: fmt.Errorf("generate %s: %s", spec.Name, msg)}
	}
	return &codeError{code: exitError, err: fmt.Errorf("generate %s: %s", spec.Name, construct.Describe(err, spec.Name, nil))}
}

// flagSynopsis is a one-line synopsis of the flags that set spec's
// parameters, such as "--order ORDER [--x]".
func flagSynopsis(spec construct.Spec) string {
	var parts []string
	for _, p := range spec.Params {
		f := "--" + p.Name
		if p.Type != construct.Bool {
			f += " " + strings.ToUpper(p.Name)
		}
		if !p.Required {
			f = "[" + f + "]"
		}
		parts = append(parts, f)
	}
	return strings.Join(parts, " ")
}

// flagError says what is wrong with the parameters of a construction in
// terms of the flags that set them: "--q 8 must be odd and at least 3",
// "--cwlog needs --n"; ok is false when err is not about parameters.
func flagError(err error) (msg string, ok bool) {
	var pe *construct.ParamError
	if errors.As(err, &pe) {
		if pe.Value == nil {
			return fmt.Sprintf("--%s %s", pe.Param, pe.Reason), true
		}
		return fmt.Sprintf("--%s %v %s", pe.Param, pe.Value, pe.Reason), true
	}
	var combo *construct.ComboError
	if errors.As(err, &combo) {
		return combo.Describe(func(p string) string { return "--" + p }), true
	}
	return "", false
}

func listKinds(s *streams, asJSON bool) error {
	var kinds []jsonreport.GenerateKind
	var rows [][]string
	for _, spec := range construct.Specs() {
		kinds = append(kinds, jsonreport.NewGenerateKind(spec))
		rows = append(rows, []string{spec.Name, flagSynopsis(spec), spec.Summary, spec.Source})
	}
	if asJSON {
		return writeOutput(s, "", func(w io.Writer) error { return writeJSON(w, kinds) })
	}
	if len(rows) == 0 {
		fmt.Fprintln(s.out, "no constructions are registered")
		return nil
	}
	return writeOutput(s, "", func(w io.Writer) error {
		return renderTable(w, []string{"kind", "parameters", "system", "source"}, rows)
	})
}
