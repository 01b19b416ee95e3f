package main

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/jsonreport"
)

type compareOptions struct {
	in      inputOptions
	asJSON  bool
	format  string
	figures figureOptions
	ps      []float64
	pNode   string
	noAV    bool
	wide    bool
	rw      compareRWOptions
}

func newCompareCmd(s *streams) *cobra.Command {
	var o compareOptions
	cmd := &cobra.Command{
		Use:   "compare FILE...",
		Short: "Compare quorum systems side by side: size, messages, load, capacity, resilience",
		Long: `Print the figures engineers choose a quorum system by, one row per system (one
per level for an (h,k)-arbiter): quorums, mean quorum size, messages per entry
under Maekawa's algorithm (light demand), load and capacity (Naor and Wool),
network load, resilience, and availability AV(p) at each --p (exact from the
availability polynomial; "≈" marks a Monte Carlo estimate where no exact
method fits). --format csv gives one CSV row per system, --json the full
reports.

The files are read and measured one at a time, and each system is let go
before the next is read, so each has the whole --max-memory budget: the
budget bounds the largest file, not their sum. (A figure left out at its
--budget is stopped, and its system let go with it.)

A table wider than the terminal (COLUMNS, or 120 columns when the output is
not a terminal) is turned, one column per system and one row per figure;
--wide keeps one row per system.

--timeout or Ctrl-C prints the rows measured so far, marked partial.

With read-write systems (--reads EXPR, repeatable, each with the --writes of
the same position or its dual; --nodes; read-write files; or
--read-fraction), every system — a coterie file too, as R = W — is compared
by its read, write and overall resilience, with --read-fraction the load and
capacity of an optimal strategy (exact; --f for f-resilient quorums), and
the availability of reads and of writes at each --p.

  coterie compare plane.json grid.json billiard.json --p 0.9,0.99
  coterie compare --reads 'a*b*c + d*e*f' --reads 'choose(4, a, b, c, d, e, f)' --read-fraction 0.25`,
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("reads") || cmd.Flags().Changed("writes") {
				return nil
			}
			return needFiles("one or more quorum FILEs (or --reads EXPR)", 1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f := o.format
			if o.asJSON {
				f = "json"
			}
			if f == "" {
				f = "table"
			}
			if f != "table" && f != "csv" && f != "json" {
				return usageErrorf("--format %q: want table, csv or json", f)
			}
			if compareRWWanted(cmd, s, args) {
				o.rw.rw.pNode = o.pNode
				return runRWCompare(cmd.Context(), s, o, o.rw, args, f)
			}
			var rows []jsonreport.CompareRow
			var stopped error // --timeout or Ctrl-C: the rows so far are printed, marked partial
			for _, path := range args {
				sys, err := readSystem(s, path, o.in)
				if err != nil {
					return err
				}
				o.figures.maxMem = maxMemory(cmd)
				res, err := analysis.Measure(cmd.Context(), sys, o.figures.options())
				if res == nil {
					return err
				}
				stopped = err
				own, err := parseAvPNode(o.pNode, sys)
				if err != nil {
					return err
				}
				if !o.noAV && stopped == nil {
					ao := o.figures.options()
					ao.Points, ao.Override = o.ps, own
					if err := res.MeasureAvailability(cmd.Context(), ao); err != nil {
						if cmd.Context().Err() == nil {
							return err
						}
						stopped = err
					}
				}
				rep := jsonreport.FromInfo(res, o.figures.reportOptions(false, true))
				rows = append(rows, jsonreport.CompareRows(displayName(path), rep)...)
				if stopped != nil {
					break
				}
			}
			werr := writeOutput(s, "", func(w io.Writer) error {
				switch f {
				case "json":
					return writeJSON(w, jsonreport.Compare{Systems: rows, Partial: stopped != nil})
				case "csv":
					return compareCSV(w, rows)
				}
				if err := compareTable(w, rows, outputWidth(s), o.wide); err != nil || stopped == nil {
					return err
				}
				_, err := fmt.Fprintf(w, "partial: stopped while measuring %s; %d of %d files shown\n", rows[len(rows)-1].File, len(rows), len(args))
				return err
			})
			if stopped != nil {
				return stopped
			}
			return werr
		},
	}
	addInputFlags(cmd, &o.in)
	addFigureFlags(cmd, &o.figures)
	addCompareRWFlags(cmd, &o.rw)
	addProbsFlag(cmd, &o.ps, []float64{0.9}, "node up-probabilities at which to give the availability (comma-separated)")
	addPNodeFlag(cmd, &o.pNode)
	cmd.Flags().BoolVar(&o.noAV, "no-availability", false, "skip the availability")
	cmd.Flags().BoolVar(&o.wide, "wide", false, "one row per system however wide the table (by default a table wider than the terminal, or than COLUMNS, or 120 columns when not a terminal, is turned: one column per system)")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the reports as JSON (same as --format json)")
	cmd.Flags().StringVar(&o.format, "format", "", "table, csv or json (default table)")
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords("table", "csv", "json"))
	addOutputFlag(cmd, s)
	return cmd
}

func compareName(r jsonreport.CompareRow) string {
	if r.H > 0 {
		return fmt.Sprintf("%s (h=%d)", r.File, r.H)
	}
	return r.File
}

// figure formats an optional measured value, exactly when it is known.
func figure(v *float64, exact string) string {
	switch {
	case v == nil:
		return "–"
	case exact != "":
		r, _ := new(big.Rat).SetString(exact)
		if r.IsInt() {
			return exact
		}
		return exact + " ≈ " + strconv.FormatFloat(*v, 'f', 4, 64)
	}
	return strconv.FormatFloat(*v, 'f', 4, 64)
}

// avHeaders names the availability columns of the first row that has
// them (every row is evaluated at the same p).
func avHeaders(rows []jsonreport.CompareRow) []float64 {
	for _, r := range rows {
		if len(r.Availability) > 0 {
			ps := make([]float64, len(r.Availability))
			for i, a := range r.Availability {
				ps[i] = a.P
			}
			return ps
		}
	}
	return nil
}

func compareAVCell(r jsonreport.CompareRow, i int) string {
	if i >= len(r.Availability) {
		return "–"
	}
	a := r.Availability[i]
	// Six decimals, or enough to show how far from 1 a highly available
	// system is (0.999999850 rather than 1.000000), from the exact 1 − AV.
	digits := 6
	u, _ := a.U.Float64()
	if u > 0 && u < 1e-4 {
		digits = int(math.Ceil(availability.Nines(a.U))) + 2
	}
	if digits > 15 {
		one := new(big.Float).SetPrec(a.U.Prec()).SetInt64(1)
		return one.Sub(one, a.U).Text('f', min(digits, 60))
	}
	v := strconv.FormatFloat(a.Availability, 'f', digits, 64)
	if !a.Exact {
		return "≈" + v
	}
	return v
}

func compareTable(w io.Writer, rows []jsonreport.CompareRow, width int, wide bool) error {
	header := []string{"system", "kind", "n", "k", "quorums", "mean |Q|", "messages", "load", "capacity", "net load", "resilience"}
	ps := avHeaders(rows)
	for _, p := range ps {
		v := strconv.FormatFloat(p, 'g', -1, 64)
		header = append(header, "AV("+v+")", "nines("+v+")", "downtime/year("+v+")")
	}
	var cells [][]string
	for _, r := range rows {
		res := "–"
		if r.Resilience != nil {
			res = strconv.Itoa(*r.Resilience)
		}
		net := "–"
		if r.NetworkLoad != nil {
			net = strconv.FormatFloat(*r.NetworkLoad, 'f', 4, 64)
		}
		cells = append(cells, []string{
			compareName(r), r.Kind, strconv.Itoa(r.N), strconv.Itoa(r.K), r.Quorums.String(),
			strconv.FormatFloat(r.QuorumSize.Mean.Float64(), 'f', 4, 64), decimal(r.MessagesExact.MaekawaLight),
			figure(r.Load, r.LoadExact), figure(r.Capacity, r.CapacityExact), net, res,
		})
		for i := range ps {
			nines, down := "–", "–"
			if i < len(r.Availability) {
				a := r.Availability[i]
				mark := ""
				if !a.Exact {
					mark = "≈"
				}
				nines, down = mark+ninesText(a.U), mark+downtimeText(availability.Downtime(a.U))
			}
			cells[len(cells)-1] = append(cells[len(cells)-1], compareAVCell(r, i), nines, down)
		}
	}
	if err := renderFitted(w, width, wide, header, cells); err != nil {
		return err
	}
	for _, r := range rows {
		for _, n := range r.Notes {
			if _, err := fmt.Fprintf(w, "%s: %s\n", compareName(r), n); err != nil {
				return err
			}
		}
	}
	return nil
}

func compareCSV(w io.Writer, rows []jsonreport.CompareRow) error {
	cw := newCSVReport(w)
	header := []string{"file", "h", "kind", "n", "k", "quorums", "quorum_size_mean", "messages_per_entry",
		"load", "load_exact", "capacity", "network_load", "resilience"}
	ps := avHeaders(rows)
	for _, p := range ps {
		v := strconv.FormatFloat(p, 'g', -1, 64)
		header = append(header, "av_"+v, "av_exact_"+v, "unavailability_"+v, "nines_"+v, "downtime_per_year_"+v)
	}
	_ = cw.Write(header)
	opt := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'g', -1, 64)
	}
	for _, r := range rows {
		h, res := "", ""
		if r.H > 0 {
			h = strconv.Itoa(r.H)
		}
		if r.Resilience != nil {
			res = strconv.Itoa(*r.Resilience)
		}
		rec := []string{r.File, h, r.Kind, strconv.Itoa(r.N), strconv.Itoa(r.K), r.Quorums.String(),
			strconv.FormatFloat(r.QuorumSize.Mean.Float64(), 'g', -1, 64), strconv.FormatFloat(r.MessagesPerEntry, 'g', -1, 64),
			opt(r.Load), r.LoadExact, opt(r.Capacity), opt(r.NetworkLoad), res}
		for i := range ps {
			if i < len(r.Availability) {
				a := r.Availability[i]
				rec = append(rec, strconv.FormatFloat(a.Availability, 'g', -1, 64), strconv.FormatBool(a.Exact),
					string(a.Unavailability), ninesNumber(a.U), string(a.DowntimePerYear))
			} else {
				rec = append(rec, "", "", "", "", "")
			}
		}
		_ = cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}
