package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/rw"
)

// runRWInfoArgs sorts info's arguments: the system (a file, or none with
// --reads/--writes) and the strategy file of --strategy FILE (which may
// come as the last argument when written with a space).
func runRWInfoArgs(ctx context.Context, s *streams, o rwOptions, in inputOptions, args []string, strategyArg string, asJSON bool) error {
	strategyFile := ""
	if strategyArg != "" && strategyArg != "print" {
		strategyFile = strategyArg
	}
	inline := o.reads != "" || o.writes != ""
	if strategyArg == "print" && (len(args) == 2 || inline && len(args) == 1) {
		strategyFile, args = args[len(args)-1], args[:len(args)-1]
	}
	if len(args) > 1 {
		return usageErrorf("info takes one system file")
	}
	return runRWInfo(ctx, s, o, in, args, strategyFile, asJSON)
}

type strategyCmdOptions struct {
	rwInput
	out    string
	format string
}

func newStrategyCmd(s *streams) *cobra.Command {
	var o strategyCmdOptions
	cmd := &cobra.Command{
		Use:   "strategy [FILE]",
		Short: "The optimal access strategy of a read-write system, exactly",
		Long: `Find the access strategy of a read-write quorum system (read quorums R, write
quorums W; a coterie file is R = W) that minimises the load, the latency or the
network load under a workload, with limits on the other two, and print it:
each read and write quorum with its probability, as exact fractions.

The system is a file (JSON with "reads"/"writes", or any coterie file) or
--reads/--writes expressions; --nodes gives capacities, latencies and
probabilities per node. --read-fraction is the share of reads (0.25) or a
distribution of shares (0.1:1,0.75:1, value:weight). --f F uses only sets that
stay quorums after any F failures.

Load and capacity follow Whittaker et al. (PaPoC 2021): node x's load is
fr·P[x read]/read_capacity(x) + (1−fr)·P[x written]/write_capacity(x), the load
is the busiest node's, and the capacity its inverse (the expectation of 1/load
over a distribution). A quorum's latency is the time until the responses of
its fastest nodes form a quorum; the network load is the expected number of
nodes contacted.

The output is a table, JSON (the strategy file 'coterie info --strategy=FILE'
re-evaluates under another workload) or CSV (side,quorum,p), by -o's
extension or --format. Exit status 1 with "no strategy meets the limits" when
the limits cannot be met.`,
		Example: `  coterie strategy --reads 'a*b*c + d*e*f' --read-fraction 0.25
  coterie strategy --reads 'a*b*c + d*e*f' --nodes nodes.csv --read-fraction 0.5 --optimize latency --load-limit 1/1500
  coterie strategy grid.json --read-fraction 0.9 -o s.json && coterie info grid.json --strategy=s.json --read-fraction 0.1`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStrategy(cmd.Context(), s, o, args)
		},
	}
	addRWInputFlags(cmd, &o.rwInput)
	addDownFlag(cmd, &o.rw)
	addWorkloadFlags(cmd, &o.rw)
	cmd.Flags().StringVarP(&o.out, "output", "o", "", "write the strategy to FILE (format by extension: .json, .csv, else a table)")
	cmd.Flags().StringVar(&o.format, "format", "", "table|json|csv (default: by -o's extension, else table)")
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords("table", "json", "csv"))
	return cmd
}

func runStrategy(ctx context.Context, s *streams, o strategyCmdOptions, args []string) error {
	if o.rw.readFraction == "" {
		return usageErrorf("strategy needs --read-fraction")
	}
	form := o.format
	if form == "" {
		switch {
		case strings.HasSuffix(strings.ToLower(o.out), ".json"):
			form = "json"
		case strings.HasSuffix(strings.ToLower(o.out), ".csv"):
			form = "csv"
		default:
			form = "table"
		}
	}
	if form != "table" && form != "json" && form != "csv" {
		return usageErrorf("--format must be table, json or csv, not %q", form)
	}
	opts, _, err := strategyOptions(o.rw)
	if err != nil {
		return err
	}
	sys, err := loadRW(ctx, s, o.rw, o.in, args)
	if err != nil {
		return err
	}
	if !sys.WritesDerived && !sys.ReadsDerived {
		if res, err := sys.ReadWrite(ctx, o.rw.limit); err == nil && !res.OK {
			fmt.Fprintf(s.err, "coterie: note: read quorum %s misses write quorum %s: not a read-write quorum system (see coterie verify)\n",
				nodeNames(sys, res.Read), nodeNames(sys, res.Write))
		}
	}
	st, m, err := sys.Optimal(ctx, opts)
	if err != nil {
		return strategyError(s, err)
	}
	sj := jsonreport.StrategyFile(sys, st, opts.Workload.String())
	return writeOutput(s, o.out, func(w io.Writer) error {
		switch form {
		case "json":
			return writeJSON(w, sj)
		case "csv":
			cw := csv.NewWriter(w)
			_ = cw.Write([]string{"side", "quorum", "p"})
			for _, side := range []struct {
				name string
				cs   []jsonreport.Choice
			}{{"read", sj.Reads}, {"write", sj.Writes}} {
				for _, c := range side.cs {
					_ = cw.Write([]string{side.name, spaceInts(c.Quorum), strings.Trim(string(c.P), `"`)})
				}
			}
			cw.Flush()
			return cw.Error()
		}
		return strategyTable(w, sys, st, m)
	})
}

func spaceInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, " ")
}

func strategyTable(w io.Writer, sys *rw.System, st *rw.Strategy, m *rw.Metrics) error {
	var rows [][]string
	if st.Uniform {
		rows = append(rows, []string{"both", "uniform over the smallest quorums", ""})
	}
	for _, side := range []struct {
		name string
		cs   []rw.Choice
	}{{"read", st.Reads}, {"write", st.Writes}} {
		for _, c := range side.cs {
			var names []string
			for _, v := range c.Quorum.Elements() {
				names = append(names, sys.Label(v))
			}
			rows = append(rows, []string{side.name, "{" + strings.Join(names, ", ") + "}", c.P.RatString()})
		}
	}
	if err := renderTable(w, []string{"side", "quorum", "p"}, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "load %s (%.10g), capacity %s (%.10g)", m.Load.RatString(), ratFloat(m.Load), m.Capacity.RatString(), ratFloat(m.Capacity))
	if m.Latency != nil && latencyGiven(sys.Nodes) {
		fmt.Fprintf(w, ", latency %s", secondsText(m.Latency.RatString()))
	}
	_, err := fmt.Fprintf(w, ", network load %s\n", m.Network.RatString())
	return err
}
