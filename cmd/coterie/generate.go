package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// outputOptions are the flags of commands that write a quorum file.
type outputOptions struct {
	path      string
	format    string
	base      int
	enumerate bool
	limit     int
}

func addOutputFlags(cmd *cobra.Command, o *outputOptions) {
	cmd.Flags().StringVarP(&o.path, "output", "o", "", "write to `FILE` (default: standard output); the extension picks the format")
	cmd.Flags().StringVar(&o.format, "format", "", "write json|text|csv|dat (default: by the output's extension, else json)")
	cmd.Flags().IntVar(&o.base, "output-base", 1, "number of the first node when writing .dat: 1 or 0")
	cmd.Flags().BoolVar(&o.enumerate, "enumerate", false, "list the quorums of threshold systems (every w-subset) instead of writing the threshold")
	cmd.Flags().IntVar(&o.limit, "limit", 100000, "with --enumerate, refuse to list more than this many quorums")
	_ = cmd.RegisterFlagCompletionFunc("format", completeFormats)
}

// prepare applies --enumerate and checks the options; it returns the format
// to write.
func (o *outputOptions) prepare(sys *set.System) (format.Format, error) {
	f, err := outputFormat(o.path, o.format)
	if err != nil {
		return "", err
	}
	if o.base != 0 && o.base != 1 {
		return "", usageErrorf("--output-base must be 0 or 1, not %d", o.base)
	}
	if o.enumerate {
		if err := enumerateThresholds(sys, o.limit); err != nil {
			return "", err
		}
	}
	if f == format.Dat {
		for _, fam := range sys.Families() {
			if fam.IsThreshold() {
				return "", usageErrorf("the .dat format lists quorums, and this is a threshold system (all %d-subsets of %d nodes, %s quorums): add --enumerate (with --limit if needed), or write json, text or csv",
					fam.Threshold, fam.N, fam.Count())
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
func enumerateThresholds(sys *set.System, limit int) error {
	for i, fam := range sys.Families() {
		if !fam.IsThreshold() {
			continue
		}
		g, err := fam.Enumerate(limit)
		if errors.Is(err, set.ErrTooMany) {
			return usageErrorf("%s quorums (all %d-subsets of %d nodes) are more than --limit %d: raise --limit, or keep the threshold form, which every command handles",
				fam.Count(), fam.Threshold, fam.N, limit)
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
			return cmd.Help()
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
	ints := map[string]*int{}
	bools := map[string]*bool{}
	strs := map[string]*string{}
	cmd := &cobra.Command{
		Use:   spec.Name + " " + spec.Usage(),
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
				var pe *construct.ParamError
				if errors.As(err, &pe) {
					return usageErrorf("%s: %s", spec.Name, flagError(pe))
				}
				return usageErrorf("%s", strings.TrimPrefix(err.Error(), "construct: "))
			}
			return runGenerate(s, spec, args, &out)
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
	return cmd
}

func runGenerate(s *streams, spec construct.Spec, args construct.Args, out *outputOptions) error {
	if spec.Stream != nil {
		f, err := outputFormat(out.path, out.format)
		if err != nil {
			return err
		}
		return writeOutput(s, out.path, func(w io.Writer) error {
			var sw *format.Writer
			err := spec.Stream(args,
				func(meta *set.Family) error {
					var err error
					sw, err = format.NewWriter(w, f, meta, format.Options{Base: out.base})
					return err
				},
				func(q *set.Set, owner int) error { return sw.Quorum(q, owner) })
			if err != nil {
				return buildError(spec, err)
			}
			return sw.Close()
		})
	}
	sys, err := spec.Build(args)
	if err != nil {
		return buildError(spec, err)
	}
	f, err := out.prepare(&sys)
	if err != nil {
		return err
	}
	return writeSystem(s, out.path, sys, f, format.Options{Base: out.base})
}

// buildError reports a construction's refusal (bad parameters): exit 2.
func buildError(spec construct.Spec, err error) error {
	var pe *construct.ParamError
	if errors.As(err, &pe) {
		return &codeError{code: exitError, err: fmt.Errorf("generate %s: %s", spec.Name, flagError(pe))}
	}
	msg := strings.TrimPrefix(err.Error(), "construct: ")
	msg = strings.TrimPrefix(msg, spec.Name+": ")
	return &codeError{code: exitError, err: fmt.Errorf("generate %s: %s", spec.Name, msg)}
}

// flagError says what is wrong with a parameter in terms of the flag that
// sets it: "--q 8 must be odd and at least 3".
func flagError(pe *construct.ParamError) string {
	if pe.Value == nil {
		return fmt.Sprintf("--%s %s", pe.Param, pe.Reason)
	}
	return fmt.Sprintf("--%s %v %s", pe.Param, pe.Value, pe.Reason)
}

func listKinds(s *streams, asJSON bool) error {
	type param struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Usage    string `json:"usage"`
		Default  any    `json:"default,omitempty"`
		Required bool   `json:"required,omitempty"`
		Range    string `json:"range,omitempty"`
	}
	type kind struct {
		Name    string  `json:"name"`
		Summary string  `json:"summary"`
		Source  string  `json:"source"`
		Params  []param `json:"params"`
	}
	var kinds []kind
	var rows [][]string
	for _, spec := range construct.Specs() {
		k := kind{Name: spec.Name, Summary: spec.Summary, Source: spec.Source, Params: []param{}}
		for _, p := range spec.Params {
			q := param{Name: p.Name, Usage: p.Usage, Default: p.Default, Required: p.Required}
			switch p.Type {
			case construct.Int:
				q.Type, q.Range = "int", p.Range()
			case construct.Bool:
				q.Type = "bool"
			case construct.String:
				q.Type = "string"
			}
			k.Params = append(k.Params, q)
		}
		kinds = append(kinds, k)
		rows = append(rows, []string{spec.Name, spec.Usage(), spec.Summary, spec.Source})
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
