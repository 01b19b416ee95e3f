package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

type availabilityOptions struct {
	rw         rwOptions
	in         inputOptions
	ps         []float64
	rng        string
	format     string
	asJSON     bool
	polynomial bool
	plot       string
	pNode      string
	method     string
	maxNodes   int
	exactTime  time.Duration
	samples    int
	seed       uint64
	digits     int
	log        bool
	shard      string
	shards     string
	checkpoint string
}

// avDefaultPoints are evaluated when neither --p nor --range is given.
var avDefaultPoints = []float64{0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99}

func newAvailabilityCmd(s *streams) *cobra.Command {
	var o availabilityOptions
	cmd := &cobra.Command{
		Use:   "availability FILE...",
		Short: "Exact availability polynomial, values, curves and plots",
		Long: `Compute the availability AV(p) of each system: the probability that the live
nodes contain a quorum when every node is up independently with probability p
(Kuo 2001, Section 5; the same definition for coteries and k-arbiters; for an
(h,k)-arbiter, each level h separately).

The exact polynomial AV(p) = Σ A_i p^i (1−p)^(n−i) is computed first:
A_i, the number of i-node sets containing a quorum, is exact whatever its
size. Threshold systems, grids, cubes, projective planes and joins use
closed forms or dedicated counts; any other system a BDD within --max-nodes.
When no exact method fits, the output says so: the coefficients that can be
proved, bounds, and a Monte Carlo estimate with a 95% interval (--samples,
--seed), always labelled as an estimate.

Each p also gets 1−AV (from the exact polynomial, so that 0.99999999998 is not
rounded to 1), the number of nines −log10(1−AV) and the expected downtime per
year of 365.25 days; --log plots 1−AV on a log scale.

--p-node gives some nodes their own probability: "3=0.9,5=0.8" (nodes 1..n,
or labels) or a file with one "NODE PROB" per line; the other nodes take p.

A read-write system (--reads/--writes, or a file with "reads" and "writes")
gets the availability of reads and of writes separately; the p column of
--nodes gives nodes their own probability.

Several files are compared side by side, and drawn on one plot with a legend
by --plot OUT.svg or OUT.png.

Long runs: --shard I/N does one share of the work and prints a partial result
that 'coterie merge' puts together with the others (--shard auto takes I from
a Kubernetes Indexed Job or a Slurm array, with --shards N); --checkpoint FILE
saves an exact search by BDD (or the plane sweep of PG(2,8)) piece by piece and
resumes it where it stopped.
--method estimate skips the exact search.`,
		Example: `  coterie availability plane.json --p 0.9,0.99
  coterie availability grid.json --range 0.5:1:0.05 --format csv
  coterie availability maj.json grid.json plane.json --plot compare.svg
  coterie availability plane.json --polynomial --format json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if rwWanted(cmd, s, args) {
				return cobra.MaximumNArgs(1)(cmd, args)
			}
			return needFiles("one or more quorum FILEs (or --reads EXPR)", 1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("p") {
				o.ps = nil // the default is taken only when --range is not given either
			}
			if rwWanted(cmd, s, args) {
				o.rw.anyK = true // a k-arbiter's availability is that of R = W
				return runRWAvailability(cmd.Context(), s, o, o.rw, args, cmd.Flags().Changed("p") || cmd.Flags().Changed("range"))
			}
			return runAvailability(cmd.Context(), s, o, args, cmd.Flags().Changed("p") || cmd.Flags().Changed("range"))
		},
	}
	addInputFlags(cmd, &o.in)
	addRWSystemFlags(cmd, &o.rw)
	addDownFlag(cmd, &o.rw)
	f := cmd.Flags()
	addProbsFlag(cmd, &o.ps, avDefaultPoints, "probabilities to evaluate, comma-separated")
	f.StringVar(&o.rng, "range", "", "probabilities A, A+STEP, ... up to B, written `A:B:STEP`")
	f.StringVar(&o.format, "format", "table", "output as table, csv or json")
	f.BoolVar(&o.asJSON, "json", false, "shorthand for --format json")
	f.BoolVar(&o.polynomial, "polynomial", false, "print the coefficients A_0..A_n")
	f.StringVar(&o.plot, "plot", "", "draw the curves of all inputs to `OUT.svg` or OUT.png")
	addPNodeFlag(cmd, &o.pNode)
	f.StringVar(&o.method, "method", "auto", "exact method: auto, bdd or brute-force (n ≤ 30); or estimate: only the proved coefficients, bounds and a Monte Carlo estimate")
	f.IntVar(&o.maxNodes, "max-nodes", availability.DefaultBudget, "BDD node budget (about 30 bytes a node)")
	f.DurationVar(&o.exactTime, "exact-time", 30*time.Second, "time allowed to look for an exact result by BDD (or by the plane sweep of PG(2,8), which takes tens of minutes or more) before settling for proved coefficients, bounds and an estimate (0 = no limit)")
	f.IntVar(&o.samples, "samples", 0, "Monte Carlo samples per point when no exact method fits (0 = 1048576, fewer for systems so large that a point would read more than about 5·10^8 node words)")
	f.Uint64Var(&o.seed, "seed", 1, "Monte Carlo seed")
	f.IntVar(&o.digits, "digits", 10, "significant digits of the values printed")
	f.BoolVar(&o.log, "log", false, "with --plot, draw the unavailability 1−AV on a log scale")
	f.StringVar(&o.shard, "shard", "", "do shard `I/N` of the work (or auto: the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, with --shards) and print a partial result for 'coterie merge'")
	f.StringVar(&o.shards, "shards", "", shardsUsage)
	f.StringVar(&o.checkpoint, "checkpoint", "", "save the exact search by BDD (or the plane sweep of PG(2,8)) piece by piece in `FILE`, and resume from it")
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords("table", "csv", "json"))
	_ = cmd.RegisterFlagCompletionFunc("method", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"auto", "bdd", "brute-force", "estimate"}, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("plot", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"svg", "png"}, cobra.ShellCompDirectiveFilterFileExt
	})
	addOutputFlag(cmd, s)
	return cmd
}

// avFamily is the result for one family: a whole file, or one level h of
// an (h,k)-arbiter.
type avFamily struct {
	h      int
	res    *availability.Result
	points []availability.Point
}

// avInput is the results for one input file.
type avInput struct {
	name     string
	override map[int]float64 // --p-node, 0-based
	n, k     int
	fams     []avFamily
	hk       bool
}

func runAvailability(ctx context.Context, s *streams, o availabilityOptions, args []string, pointsGiven bool) error {
	if o.asJSON {
		o.format = "json"
	}
	switch o.format {
	case "table", "csv", "json":
	default:
		return usageErrorf("--format must be table, csv or json, not %q", o.format)
	}
	ps, err := parseAvPoints(o.ps, o.rng)
	if err != nil {
		return err
	}
	if !pointsGiven {
		ps = slices.Clone(avDefaultPoints)
		if o.polynomial {
			ps = nil // only the coefficients
		}
	}
	if o.polynomial && pointsGiven && o.format == "csv" {
		return usageErrorf("--format csv prints either the points or, with --polynomial, the coefficients: drop --p/--range or --polynomial")
	}
	method, err := availability.ParseMethod(o.method)
	if err != nil {
		return usageErrorf("--method %v", err)
	}
	sp, err := avShardSpec(o)
	if err != nil {
		return err
	}
	sharded := sp.Count > 0
	if sharded {
		switch {
		case len(args) != 1:
			return usageErrorf("--shard splits the work on one file, not %d", len(args))
		case o.plot != "":
			return usageErrorf("--shard writes a partial result: draw the plot from the merged result instead of --plot")
		case o.pNode != "":
			return usageErrorf("--shard works with one probability for every node: drop --p-node")
		}
	}
	if o.maxNodes < 1000 {
		return usageErrorf("--max-nodes must be at least 1000, not %d", o.maxNodes)
	}
	if o.samples != 0 && o.samples < 64 {
		return usageErrorf("--samples must be at least 64, not %d", o.samples)
	}
	if o.digits < 1 || o.digits > 17 {
		return usageErrorf("--digits must be between 1 and 17, not %d", o.digits)
	}
	if o.log && o.plot == "" {
		return usageErrorf("--log draws the --plot on a log scale: give --plot OUT.svg or OUT.png")
	}
	plotFormat := ""
	if o.plot != "" {
		var err error
		if plotFormat, err = plotFormatOf(o.plot); err != nil {
			return err
		}
	}
	var inputs []*avInput
	for _, path := range args {
		sys, err := readSystem(s, path, o.in)
		if err != nil {
			return err
		}
		name := displayName(path)
		override, err := parseAvPNode(o.pNode, sys)
		if err != nil {
			return err
		}
		in := &avInput{name: name, n: sys.N(), k: sys.K(), hk: sys.HK != nil, override: override}
		if len(override) == sys.N() && !pointsGiven && len(args) == 1 && len(ps) > 1 {
			// Every node has its own probability: p does not matter, and
			// one row says all there is.
			ps = ps[:1]
		}
		hash := ""
		if sharded || o.checkpoint != "" {
			if hash, err = inputHash(sys); err != nil {
				return err
			}
		}
		if sharded {
			return computeAvShard(ctx, s, name, sys, method, o, sp, ps, pointsGiven, hash)
		}
		var ckp *avCheckpointer
		for fi, fam := range sys.Families() {
			var res *availability.Result
			if o.checkpoint != "" && availability.SplittableContext(ctx, fam, method) {
				if ckp == nil {
					if ckp, err = loadAvCheckpoint(o.checkpoint, hash, shard.Spec{Index: 1, Count: 1}); err != nil {
						return fmt.Errorf("%s%s: %w", name, avLevelSuffix(fam), err)
					}
				}
				res, err = computeAvCheckpointed(ctx, s, name, fam, fi, o, method, ckp)
			} else {
				res, err = computeAvFamily(ctx, s, name, fam, method, o.maxNodes, o.exactTime, maxMemory(o.in.cmd))
			}
			if err != nil {
				return err
			}
			if !res.Exact {
				fmt.Fprintf(s.err, "coterie: note: %s%s: no exact result: %s; showing the proved coefficients, bounds and a Monte Carlo estimate (%d samples, seed %d)\n",
					name, avLevelSuffix(fam), avReason(res), availability.EstimateSamples(fam, o.samples), o.seed)
			}
			eo := availability.EvalOptions{Override: override, Samples: o.samples, Seed: o.seed, Budget: o.maxNodes}
			pts, err := res.Evaluate(ctx, ps, eo)
			if err != nil {
				return err
			}
			in.fams = append(in.fams, avFamily{h: fam.H, res: res, points: pts})
		}
		inputs = append(inputs, in)
	}
	if o.plot != "" {
		if err := writeAvailabilityPlot(ctx, s, o, plotFormat, inputs, args); err != nil {
			return err
		}
	}
	return writeAvailabilityResults(s, o, inputs, ps, pointsGiven)
}

// writeAvailabilityResults prints the results in the format of o; the
// merge of partial results prints through it too.
func writeAvailabilityResults(s *streams, o availabilityOptions, inputs []*avInput, ps []float64, pointsGiven bool) error {
	return writeOutput(s, "", func(w io.Writer) error {
		switch o.format {
		case "json":
			return writeAvailabilityJSON(w, o, inputs, pointsGiven || !o.polynomial)
		case "csv":
			if o.polynomial {
				return writeAvCoefficientsCSV(w, inputs)
			}
			return writeAvPointsCSV(w, o, inputs)
		}
		if o.polynomial {
			if err := writeAvCoefficientsTable(w, inputs); err != nil {
				return err
			}
			if len(ps) == 0 {
				return nil
			}
			fmt.Fprintln(w)
		}
		return writeAvPointsTable(w, o, inputs)
	})
}

func avLevelSuffix(f *set.Family) string {
	if f.H > 0 {
		return fmt.Sprintf(" (h=%d)", f.H)
	}
	return ""
}

// computeAvFamily runs availability.Compute with a progress bar on stderr.
// maxMem is the --max-memory budget in bytes (0 = none).
func computeAvFamily(ctx context.Context, s *streams, name string, f *set.Family, m availability.Method, budget int, exactTime time.Duration, maxMem int64) (*availability.Result, error) {
	res, err := computeAvFamilyPlain(ctx, s, name, f, m, budget, exactTime, maxMem)
	if err != nil {
		return nil, fmt.Errorf("%s%s: %w", name, avLevelSuffix(f), err)
	}
	return res, nil
}

// computeAvFamilyPlain is computeAvFamily without the name on its errors.
func computeAvFamilyPlain(ctx context.Context, s *streams, name string, f *set.Family, m availability.Method, budget int, exactTime time.Duration, maxMem int64) (*availability.Result, error) {
	// Compute returns within a moment of ctx ending; progress reports
	// that come after the bar is done are dropped.
	var (
		mu      sync.Mutex
		bar     *progress
		stage   string
		stopped bool
	)
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		bar.Done()
	}()
	res, err := availability.Compute(ctx, f, availability.Options{
		Method: m, Budget: budget, Time: exactTime, MaxMemory: maxMem,
		Progress: func(st string, done, total int64) {
			mu.Lock()
			defer mu.Unlock()
			if stopped {
				return
			}
			if st != stage {
				bar.Done()
				stage = st
				bar = newProgress(s, "availability: "+name+avLevelSuffix(f)+": "+st)
			}
			bar.Update(done, total)
		},
	})
	if err != nil && !(res != nil && errors.Is(err, set.ErrMemoryBudget)) {
		return nil, err
	}
	// Past the memory budget the result holds what was proved, and its
	// Reason says so.
	return res, nil
}

// parseAvPoints reads --p and --range into one increasing list without
// repeats.
func parseAvPoints(list []float64, rng string) ([]float64, error) {
	ps, err := availability.Points(list, rng)
	if errors.Is(err, availability.ErrRangeSyntax) {
		return nil, usageErrorf("--range %v, not %q", err, rng)
	}
	if err != nil {
		return nil, usageErrorf("--range %s: %v", rng, err)
	}
	return ps, nil
}

// parseAvPNode reads --p-node: inline "NODE=P,..." or a file of "NODE P"
// lines ("#" comments); NODE is 1..n or a label. It returns 0-based nodes.
func parseAvPNode(spec string, sys set.System) (map[int]float64, error) {
	return parsePNode(spec, sys.N(), sys.Labels())
}

// parsePNode reads --p-node for n nodes with the given labels (nil: none).
func parsePNode(spec string, n int, labels []string) (map[int]float64, error) {
	if spec == "" {
		return nil, nil
	}
	if _, err := os.Stat(spec); err != nil && strings.Contains(spec, "=") {
		out, err := format.ParsePNode(spec, n, labels)
		if err != nil {
			return nil, usageErrorf("--p-node: %v", err)
		}
		return out, nil
	}
	data, err := os.ReadFile(spec)
	if err != nil {
		return nil, asInputError(spec, 0, "cannot read: "+unwrapPath(err).Error())
	}
	out, err := format.ReadPNode(data, n, labels)
	var se *format.SyntaxError
	if errors.As(err, &se) {
		return nil, asInputError(spec, se.Line, se.Msg)
	}
	return out, err
}

// avNum formats a value with the significant digits of --digits.
func avNum(x float64, digits int) string {
	return strconv.FormatFloat(x, 'g', digits, 64)
}

func avP(p float64) string { return strconv.FormatFloat(p, 'g', -1, 64) }

// columnName names an input (and level) in tables and plots.
func (in *avInput) columnName(f avFamily, many bool) string {
	name := ""
	if many {
		name = in.name
	}
	if in.hk {
		if name != "" {
			name += " "
		}
		name += fmt.Sprintf("h=%d", f.h)
	}
	if name == "" {
		name = "availability"
	}
	return name
}

func avCell(pt availability.Point, digits int) string {
	if pt.Exact {
		return avNum(pt.AV, digits)
	}
	e := pt.Estimate
	d := min(digits, 6)
	return fmt.Sprintf("≈%s estimate (95%% CI %s–%s; bounds %s–%s)", avNum(pt.AV, d), avNum(e.Lo, d), avNum(e.Hi, d), avNum(pt.Lo, d), avNum(pt.Hi, d))
}

func writeAvPointsTable(w io.Writer, o availabilityOptions, inputs []*avInput) error {
	many := len(inputs) > 1
	header := []string{"p"}
	var cols []func(i int) string
	for _, in := range inputs {
		for _, f := range in.fams {
			name := in.columnName(f, many)
			prefix := ""
			if many || in.hk {
				prefix = name + " "
			}
			header = append(header, name, prefix+"1−AV", prefix+"nines", prefix+"downtime/year")
			cols = append(cols, func(i int) string {
				if !f.points[i].Exact {
					return avCell(f.points[i], o.digits)
				}
				return avShow(f.points[i], avUnavailability(in, f, f.points[i]), o.digits)
			}, func(i int) string {
				return avMark(f.points[i]) + u2s(avUnavailability(in, f, f.points[i]), o.digits)
			}, func(i int) string {
				return avMark(f.points[i]) + ninesText(avUnavailability(in, f, f.points[i]))
			}, func(i int) string {
				return avMark(f.points[i]) + downtimeText(availability.Downtime(avUnavailability(in, f, f.points[i])))
			})
		}
	}
	var rows [][]string
	pts := inputs[0].fams[0].points
	allOwn := true
	for _, in := range inputs {
		allOwn = allOwn && len(in.override) == in.n
	}
	for i := range pts {
		row := []string{avP(pts[i].P)}
		if allOwn {
			row[0] = "each node's own"
		}
		for _, c := range cols {
			row = append(row, c(i))
		}
		rows = append(rows, row)
	}
	for _, in := range inputs {
		for _, f := range in.fams {
			how := "exact (" + string(f.res.Method) + ")"
			if !f.res.Exact {
				how = "estimate"
			}
			fmt.Fprintf(w, "%s%s: n = %d, %s\n", in.name, avHSuffix(in, f), in.n, how)
		}
		if len(in.override) > 0 {
			vs := make([]int, 0, len(in.override))
			for v := range in.override {
				vs = append(vs, v)
			}
			slices.Sort(vs)
			var items []string
			for _, v := range vs {
				items = append(items, fmt.Sprintf("%d=%s", v+1, avP(in.override[v])))
			}
			if len(in.override) == in.n {
				fmt.Fprintf(w, "%s: every node has its own probability: %s\n", in.name, strings.Join(items, ", "))
			} else {
				fmt.Fprintf(w, "%s: nodes with their own probability: %s; the others are up with p\n", in.name, strings.Join(items, ", "))
			}
		}
	}
	return renderTable(w, header, rows)
}

func avHSuffix(in *avInput, f avFamily) string {
	if in.hk {
		return fmt.Sprintf(" h=%d", f.h)
	}
	return ""
}

func writeAvCoefficientsTable(w io.Writer, inputs []*avInput) error {
	for k, in := range inputs {
		for _, f := range in.fams {
			if k > 0 {
				fmt.Fprintln(w)
			}
			how := "exact (" + string(f.res.Method) + ")"
			if !f.res.Exact {
				how = "partial: ? marks a coefficient no method could reach"
			}
			fmt.Fprintf(w, "%s%s: n = %d, %s; A_i = number of i-node sets containing a quorum\n", in.name, avHSuffix(in, f), in.n, how)
			coef := jsonreport.Coefficients(f.res)
			rows := make([][]string, len(coef))
			for i, c := range coef {
				v := "?"
				if c != nil {
					v = *c
				}
				rows[i] = []string{strconv.Itoa(i), v}
			}
			if err := renderTable(w, []string{"i", "A_i"}, rows); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeAvCoefficientsCSV(w io.Writer, inputs []*avInput) error {
	cw := newCSVReport(w)
	many := len(inputs) > 1
	hk := slices.ContainsFunc(inputs, func(in *avInput) bool { return in.hk })
	header := []string{"i", "coefficient"}
	if hk {
		header = append([]string{"h"}, header...)
	}
	if many {
		header = append([]string{"file"}, header...)
	}
	cw.Write(header)
	for _, in := range inputs {
		for _, f := range in.fams {
			for i, c := range jsonreport.Coefficients(f.res) {
				v := ""
				if c != nil {
					v = *c
				}
				row := []string{strconv.Itoa(i), v}
				if hk {
					row = append([]string{strconv.Itoa(f.h)}, row...)
				}
				if many {
					row = append([]string{in.name}, row...)
				}
				cw.Write(row)
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeAvPointsCSV(w io.Writer, o availabilityOptions, inputs []*avInput) error {
	cw := newCSVReport(w)
	many := len(inputs) > 1
	hk := slices.ContainsFunc(inputs, func(in *avInput) bool { return in.hk })
	inexact := false
	for _, in := range inputs {
		for _, f := range in.fams {
			for _, pt := range f.points {
				inexact = inexact || !pt.Exact
			}
		}
	}
	header := []string{"p", "availability"}
	if inexact {
		header = append(header, "estimate", "ci_low", "ci_high", "bound_low", "bound_high")
	}
	header = append(header, "unavailability", "nines", "downtime_per_year")
	if hk {
		header = append([]string{"h"}, header...)
	}
	if many {
		header = append([]string{"file"}, header...)
	}
	cw.Write(header)
	for _, in := range inputs {
		for _, f := range in.fams {
			for _, pt := range f.points {
				u := avUnavailability(in, f, pt)
				row := []string{avP(pt.P), avShow(pt, u, o.digits)}
				if inexact {
					if pt.Exact {
						row = append(row, "false", "", "", "", "")
					} else {
						row = append(row, "true", avNum(pt.Estimate.Lo, o.digits), avNum(pt.Estimate.Hi, o.digits),
							avNum(pt.Lo, o.digits), avNum(pt.Hi, o.digits))
					}
				}
				row = append(row, u2s(u, o.digits), ninesNumber(u), downtimeNumber(u))
				if hk {
					row = append([]string{strconv.Itoa(f.h)}, row...)
				}
				if many {
					row = append([]string{in.name}, row...)
				}
				cw.Write(row)
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeAvailabilityJSON writes the report of package jsonreport on the
// inputs.
func writeAvailabilityJSON(w io.Writer, o availabilityOptions, inputs []*avInput, withPoints bool) error {
	var systems []jsonreport.AvailabilitySystem
	for _, in := range inputs {
		js := jsonreport.AvailabilitySystem{Name: in.name, N: in.n, K: in.k, HK: in.hk, Override: in.override}
		for _, f := range in.fams {
			r := jsonreport.AvailabilityResult{H: f.h, Result: f.res, Points: f.points}
			if !f.res.Exact {
				r.Reason = avReason(f.res)
			}
			js.Families = append(js.Families, r)
		}
		systems = append(systems, js)
	}
	return writeJSON(w, jsonreport.FromAvailability(systems, o.digits, withPoints))
}

// avPlotPoints are the p of the plotted curves.
const avPlotPoints = 101

// writeAvailabilityPlot draws one curve per input (per level for (h,k)-arbiters) over
// p = 0..1. A curve without an exact result is a Monte Carlo estimate with
// a sixteenth of the samples per point, dashed and labelled as such.
func writeAvailabilityPlot(ctx context.Context, s *streams, o availabilityOptions, format string, inputs []*avInput, args []string) error {
	ps := make([]float64, avPlotPoints)
	for i := range ps {
		ps[i] = float64(i) / (avPlotPoints - 1)
	}
	title := "Availability"
	if len(inputs) == 1 {
		title += " of " + inputs[0].name
	}
	chart := avChart(title, o.log)
	for _, in := range inputs {
		for _, f := range in.fams {
			eo := availability.EvalOptions{Override: in.override, Samples: max(availability.EstimateSamples(f.res.Family(), o.samples)/16, 1<<12), Seed: o.seed, Budget: o.maxNodes}
			pts, err := f.res.Evaluate(ctx, ps, eo)
			if err != nil {
				return err
			}
			label := in.name
			if in.hk {
				label = in.columnName(f, true)
			}
			chart.Series = append(chart.Series, avSeries(label, pts, func(pt availability.Point) float64 {
				if o.log {
					v, _ := avUnavailability(in, f, pt).Float64()
					return v
				}
				return pt.AV
			}))
		}
	}
	return writeOutput(s, o.plot, func(w io.Writer) error { return chart.Write(w, format) })
}

// avChart is the picture of availability curves: p from 0 to 1 against
// AV(p), or (log) against 1 − AV(p) on a log axis, where nines are read.
func avChart(title string, log bool) *draw.Chart {
	c := &draw.Chart{
		Title: title,
		X:     draw.Axis{Label: "p (probability a node is up)", Include: []float64{0, 1}},
		Y:     draw.Axis{Label: "availability AV(p)", Include: []float64{0, 1}},
		Grid:  true,
	}
	if log {
		c.Title = "Un" + strings.ToLower(title[:1]) + title[1:]
		c.Y = draw.Axis{Label: "unavailability 1 − AV(p)", Include: []float64{1}, Log: true}
		c.Legend = draw.BottomLeft
	}
	return c
}

// avSeries is the curve through the points pts, each at value(pt):
// dashed, and labelled so, when a point is a Monte Carlo estimate.
func avSeries(label string, pts []availability.Point, value func(availability.Point) float64) draw.Series {
	c := draw.Series{Label: label}
	for _, pt := range pts {
		c.X, c.Y = append(c.X, pt.P), append(c.Y, value(pt))
		c.Dashed = c.Dashed || !pt.Exact
	}
	if c.Dashed {
		c.Label += " (estimate)"
	}
	return c
}

// plotFormatOf returns the picture format that --plot path's extension
// names: svg or png.
func plotFormatOf(path string) (string, error) {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "svg" && format != "png" {
		return "", usageErrorf("--plot %s: the file name must end in .svg or .png", path)
	}
	return format, nil
}

// avReason says why res is not exact, and which flags would change that.
func avReason(res *availability.Result) string { return avReasonOf(res.Reason, res.Cause) }

// avReasonOf is avReason of a result's reason and cause.
func avReasonOf(reason string, cause availability.Cause) string {
	switch cause {
	case availability.CauseAsked:
		return reason + " (--method estimate)"
	case availability.CauseBudget:
		return reason + "; raise --max-nodes or --exact-time, or rely on the bounds and estimate"
	case availability.CauseMemory:
		return reason + "; raise --max-memory, or rely on the bounds and estimate"
	case availability.CauseTime:
		return reason + "; raise --exact-time (it needs tens of minutes or more), or rely on the bounds and estimate"
	}
	return reason
}
