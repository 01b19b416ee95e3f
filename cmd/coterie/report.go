package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/report"
)

type reportOptions struct {
	in     inputOptions
	out    string
	format string
	budget time.Duration
	ps     []float64
	pNode  string
	rw     reportRWOptions
}

func newReportCmd(s *streams) *cobra.Command {
	var o reportOptions
	cmd := &cobra.Command{
		Use:   "report FILE... -o OUT.html|OUT.md",
		Short: "One-page report: drawing, verification, metrics, domination, availability in nines",
		Long: `Write one page on the systems in FILE...: for each its drawing, the
verification with witnesses, the metrics of 'coterie info', domination with
the witness drawn, the availability curve in nines, and the messages per
entry of the mutual exclusion protocols; for several files a comparison.

OUT.html is one self-contained page (inline SVG and CSS, nothing fetched from
the network); OUT.md is Markdown for a README or a paper's appendix (without
the drawings: use 'coterie draw'). Without -o the HTML goes to standard
output. Each long figure gets --budget; what does not fit is noted.

With read-write systems (--reads EXPR, repeatable, with --writes for a single
one; --nodes; read-write files; or --read-fraction) every system, a coterie
file too (R = W), gets a read-write section: the read side drawn, the read,
write and overall resilience, the optimal strategy and its exact load and
capacity at --read-fraction (default 1/2), and the availability of reads and
of writes at each --p.`,
		Example: `  coterie report plane.json -o plane.html
  coterie report fano.json grid.json billiard.json -o compare.md`,
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("reads") || cmd.Flags().Changed("writes") {
				return nil
			}
			return needFiles("one or more quorum FILEs (or --reads EXPR)", 1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.rw.wanted = reportRWWanted(cmd, s, args)
			return runReport(cmd.Context(), s, o, args)
		},
	}
	addInputFlags(cmd, &o.in)
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "write the report to `OUT.html` or OUT.md (default: HTML on standard output)")
	f.StringVar(&o.format, "format", "", "html or md (default: by the extension of -o)")
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords("html", "md"))
	f.DurationVar(&o.budget, "budget", report.DefaultBudget, "time allowed to each long figure (load, resilience, domination, exact availability)")
	addProbsFlag(cmd, &o.ps, report.DefaultPoints(), "probabilities of the availability table")
	addPNodeFlag(cmd, &o.pNode)
	addReportRWFlags(cmd, &o.rw)
	return cmd
}

func runReport(ctx context.Context, s *streams, o reportOptions, args []string) error {
	format := o.format
	if format == "" {
		switch strings.ToLower(filepath.Ext(o.out)) {
		case ".md", ".markdown":
			format = "md"
		case ".html", ".htm", "":
			format = "html"
		default:
			return usageErrorf("-o %s: the file name must end in .html or .md (or give --format)", o.out)
		}
	}
	if format != "html" && format != "md" {
		return usageErrorf("--format must be html or md, not %q", format)
	}
	if o.budget <= 0 {
		return usageErrorf("--budget must be positive, not %s", o.budget)
	}
	if o.rw.wanted {
		o.rw.rw.pNode = o.pNode
		return runRWReport(ctx, s, o, o.rw, args, format)
	}
	var systems []*report.System
	for _, path := range args {
		sys, err := readSystem(s, path, o.in)
		if err != nil {
			return err
		}
		own, err := parseAvPNode(o.pNode, sys)
		if err != nil {
			return err
		}
		r, err := report.Analyze(ctx, displayName(path), sys, report.Options{Budget: o.budget, Points: o.ps, Override: own})
		if err != nil {
			return err
		}
		systems = append(systems, r)
	}
	return writeOutput(s, o.out, func(w io.Writer) error {
		if format == "md" {
			return report.WriteMarkdown(w, systems)
		}
		return report.WriteHTML(w, systems)
	})
}
