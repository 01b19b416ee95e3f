package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/rw"
)

// compareRWOptions are compare's read-write flags: --reads and --writes
// repeat, one system each.
type compareRWOptions struct {
	rw     rwOptions
	reads  []string
	writes []string
}

func addCompareRWFlags(cmd *cobra.Command, o *compareRWOptions) {
	o.rw.limit, o.rw.optimize = rw.DefaultListLimit, string(rw.MinLoad)
	cmd.Flags().StringArrayVar(&o.reads, "reads", nil, "a read-write system's read quorums as an expression (repeatable: one system each)")
	cmd.Flags().StringArrayVar(&o.writes, "writes", nil, "its write quorums (repeatable; paired with the --reads in order; alone, the reads are the dual)")
	cmd.Flags().StringVar(&o.rw.nodes, "nodes", "", "CSV of node attributes for the --reads/--writes systems")
	addDomainsFlag(cmd, &o.rw)
	addDownFlag(cmd, &o.rw)
	cmd.Flags().StringVar(&o.rw.readFraction, "read-fraction", "", "compare load and capacity of read-write systems at this share of reads (or a distribution value:weight,...)")
	cmd.Flags().IntVar(&o.rw.f, "f", 0, "with --read-fraction: use only f-resilient quorums")
}

// compareRWWanted reports whether compare takes the read-write path: a
// read-write flag, or a read-write file among the arguments.
func compareRWWanted(cmd *cobra.Command, s *streams, args []string) bool {
	for _, name := range []string{"reads", "writes", "nodes", "read-fraction", "f", "domains", "down"} {
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

// runRWCompare is `coterie compare` with read-write systems: every system,
// a coterie file too (R = W), is compared by its read and write figures.
func runRWCompare(ctx context.Context, s *streams, co compareOptions, o compareRWOptions, args []string, form string) error {
	if len(o.reads) > 0 && len(o.writes) > 0 && len(o.reads) != len(o.writes) {
		return usageErrorf("give as many --writes as --reads (they pair in order), or only one kind")
	}
	opts, withStrategy, err := strategyOptions(o.rw)
	if err != nil {
		return err
	}
	type input struct {
		label string
		load  func() (*rwLoaded, error)
	}
	var inputs []input
	for _, path := range args {
		// A file takes --nodes as info does: its capacities, latencies
		// and p.
		inputs = append(inputs, input{displayName(path), func() (*rwLoaded, error) {
			return loadRWDomains(ctx, s, o.rw, co.in, []string{path})
		}})
	}
	for i := range max(len(o.reads), len(o.writes)) {
		ro := o.rw
		label := ""
		if i < len(o.reads) {
			ro.reads, label = o.reads[i], o.reads[i]
		}
		if i < len(o.writes) {
			ro.writes = o.writes[i]
			if label == "" {
				label = "writes " + o.writes[i]
			}
		}
		inputs = append(inputs, input{label, func() (*rwLoaded, error) { return loadRWDomains(ctx, s, ro, co.in, nil) }})
	}
	var rows []jsonreport.RWCompareRow
	for _, in := range inputs {
		ld, err := in.load()
		if err != nil {
			return err
		}
		sys := ld.sys
		ao := analysis.RWOptions{Limit: o.rw.limit, Domains: ld.tree}
		if withStrategy {
			ao.Strategy = &opts
		}
		if !co.noAV {
			ao.Points = co.ps
		}
		res, err := analysis.ReadWrite(ctx, sys, ao)
		if err != nil {
			return rwAnalysisError(s, err, in.label, "")
		}
		row := jsonreport.FromRWCompare(in.label, sys, res, ao.Strategy, co.noAV, ld.tree)
		if err := addCompareDomains(ctx, &row, ld, co.ps, o.rw.limit, co.noAV); err != nil {
			return fmt.Errorf("%s: %w", in.label, err)
		}
		rows = append(rows, row)
	}
	return writeOutput(s, "", func(w io.Writer) error {
		if form == "json" {
			return writeJSON(w, jsonreport.RWCompare{Systems: rows})
		}
		header := []string{"system", "n", "read resilience", "write resilience", "resilience"}
		if withStrategy {
			header = append(header, "read fraction", "load", "capacity")
		}
		for _, p := range co.ps {
			if !co.noAV {
				v := strconv.FormatFloat(p, 'g', -1, 64)
				header = append(header, "reads AV("+v+")", "writes AV("+v+")")
			}
		}
		header = append(header, compareDomainHeader(rows, co.ps)...)
		var cells [][]string
		for _, r := range rows {
			c := []string{r.File, strconv.Itoa(r.N), strconv.Itoa(r.ReadResilience), strconv.Itoa(r.WriteResilience), strconv.Itoa(r.Resilience)}
			if withStrategy {
				c = append(c, r.ReadFraction, figure(r.Load, r.LoadExact), figure(r.Capacity, r.CapacityExact))
			}
			for _, a := range r.Availability {
				mark := ""
				if !a.Exact {
					mark = "≈"
				}
				c = append(c, mark+strconv.FormatFloat(a.Reads, 'f', 6, 64), mark+strconv.FormatFloat(a.Writes, 'f', 6, 64))
			}
			c = append(c, compareDomainCells(rows, r)...)
			cells = append(cells, c)
		}
		if form == "csv" {
			return rwCompareCSV(w, rows, withStrategy)
		}
		return renderFitted(w, outputWidth(s), co.wide, header, cells)
	})
}

func rwCompareCSV(w io.Writer, rows []jsonreport.RWCompareRow, withStrategy bool) error {
	cw := newCSVReport(w)
	header := []string{"file", "n", "reads", "writes", "read_resilience", "write_resilience", "resilience"}
	if withStrategy {
		header = append(header, "read_fraction", "load", "load_exact", "capacity", "capacity_exact")
	}
	if len(rows) > 0 {
		for _, a := range rows[0].Availability {
			v := strconv.FormatFloat(a.P, 'g', -1, 64)
			header = append(header, "reads_av_"+v, "writes_av_"+v)
		}
	}
	_ = cw.Write(header)
	opt := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'g', -1, 64)
	}
	for _, r := range rows {
		rec := []string{r.File, strconv.Itoa(r.N), r.Reads, r.Writes, strconv.Itoa(r.ReadResilience), strconv.Itoa(r.WriteResilience), strconv.Itoa(r.Resilience)}
		if withStrategy {
			rec = append(rec, r.ReadFraction, opt(r.Load), r.LoadExact, opt(r.Capacity), r.CapacityExact)
		}
		for _, a := range r.Availability {
			rec = append(rec, strconv.FormatFloat(a.Reads, 'g', -1, 64), strconv.FormatFloat(a.Writes, 'g', -1, 64))
		}
		_ = cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}
