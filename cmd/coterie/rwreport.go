package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/report"
	"github.com/coterie-dev/coterie/rw"
)

// reportRWOptions are report's read-write flags.
type reportRWOptions struct {
	rw     rwOptions
	reads  []string
	wanted bool
}

func addReportRWFlags(cmd *cobra.Command, o *reportRWOptions) {
	o.rw.limit, o.rw.optimize = rw.DefaultListLimit, string(rw.MinLoad)
	cmd.Flags().StringArrayVar(&o.reads, "reads", nil, "a read-write system's read quorums as an expression (repeatable: one system each; the writes are the dual)")
	cmd.Flags().StringVar(&o.rw.writes, "writes", "", "the write quorums of a single --reads system (alone: the reads are the dual)")
	cmd.Flags().StringVar(&o.rw.nodes, "nodes", "", "CSV of node attributes for the --reads/--writes systems")
	addDomainsFlag(cmd, &o.rw)
	addDownFlag(cmd, &o.rw)
	cmd.Flags().StringVar(&o.rw.readFraction, "read-fraction", "", "read-write systems: the optimal strategy and its load at this share of reads (default 1/2)")
}

// reportRWWanted reports whether report takes the read-write path.
func reportRWWanted(cmd *cobra.Command, s *streams, args []string) bool {
	for _, name := range []string{"reads", "writes", "nodes", "read-fraction", "domains", "down"} {
		if cmd.Flags().Changed(name) {
			return true
		}
	}
	for _, a := range args {
		if rwWanted(cmd, s, []string{a}) {
			return true
		}
	}
	return false
}

// runRWReport is `coterie report` with read-write systems: every system, a
// coterie file too (R = W), gets its read and write figures, the optimal
// strategy and the availability of both sides.
func runRWReport(ctx context.Context, s *streams, o reportOptions, ro reportRWOptions, args []string, form string) error {
	if len(ro.reads) > 1 && ro.rw.writes != "" {
		return usageErrorf("--writes goes with a single --reads")
	}
	frac := ro.rw.readFraction
	if frac == "" {
		frac = "1/2"
	}
	wl, err := rw.ParseWorkload(frac)
	if err != nil {
		return usageErrorf("--read-fraction: %v", err)
	}
	type input struct {
		label string
		ro    rwOptions
		args  []string
	}
	var inputs []input
	for _, path := range args {
		inputs = append(inputs, input{displayName(path), ro.rw, []string{path}})
	}
	for _, e := range ro.reads {
		r := ro.rw
		r.reads = e
		inputs = append(inputs, input{e, r, nil})
	}
	if len(ro.reads) == 0 && ro.rw.writes != "" {
		inputs = append(inputs, input{"writes " + ro.rw.writes, ro.rw, nil})
	}
	var systems []*report.RWSystem
	for _, in := range inputs {
		ld, err := loadRWDomains(ctx, s, in.ro, o.in, in.args)
		if err != nil {
			return err
		}
		sys := ld.sys
		r, err := report.AnalyzeRW(ctx, in.label, sys, report.RWOptions{Workload: wl, Points: o.ps, Budget: o.budget, AvailabilityBudget: o.budget})
		if err != nil {
			return err
		}
		if ld.tree != nil {
			if err := report.AnalyzeRWDomains(ctx, r, ld.tree, report.RWOptions{Workload: wl, Points: o.ps, Budget: o.budget}); err != nil {
				return err
			}
		}
		systems = append(systems, r)
	}
	return writeOutput(s, o.out, func(w io.Writer) error {
		if form == "md" {
			return report.WriteRWMarkdown(w, systems)
		}
		return report.WriteRWHTML(w, systems)
	})
}
