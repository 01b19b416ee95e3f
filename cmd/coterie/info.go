package main

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
)

type infoOptions struct {
	in       inputOptions
	asJSON   bool
	strategy string // "print" for the bare flag, or a strategy file
	figures  figureOptions
	rw       rwOptions
	ps       []float64
	pNode    string
}

// figureOptions control the figures that can take long: load (a linear
// program) and resilience (a smallest transversal).
type figureOptions struct {
	budget       time.Duration
	noLoad       bool
	noResilience bool
	// maxMem is --max-memory in bytes (0 = none), set by the command.
	maxMem int64
}

func addFigureFlags(cmd *cobra.Command, o *figureOptions) {
	addFigureFlagsBudget(cmd, o, 10*time.Second)
}

// addFigureFlagsBudget is addFigureFlags with --budget's default. info's is
// 0: its figures are bounded by counts of work (the simplex's estimated
// work, the branch and bound's nodes) and end in proved bounds past them,
// so that its output is the same on a slow machine and a fast one.
func addFigureFlagsBudget(cmd *cobra.Command, o *figureOptions, budget time.Duration) {
	cmd.Flags().DurationVar(&o.budget, "budget", budget, "time allowed for each of load and resilience; a figure not found in time is left out with a note (0 = no limit: past fixed work limits they give proved bounds)")
	cmd.Flags().BoolVar(&o.noLoad, "no-load", false, "skip the load, capacity and network load")
	cmd.Flags().BoolVar(&o.noResilience, "no-resilience", false, "skip the resilience")
}

func newInfoCmd(s *streams) *cobra.Command {
	var o infoOptions
	cmd := &cobra.Command{
		Use:   "info [FILE]",
		Short: "Sizes, degrees, Maekawa's properties and messages per entry",
		Long: `Describe a quorum system: number of nodes and quorums, quorum sizes and node
degrees (min, mean, max), Maekawa's properties (b) every owner lies in its own
quorum, (c) equal quorum size, (d) equal responsibility, the messages per
critical-section entry under light demand, 3·(mean quorum size − 1), as in
Maekawa's Tables I and II, and what the papers' protocols cost; the load
(Naor and Wool: the busiest node's access probability under the best
strategy, exact as a fraction when proved), capacity = 1/load, network load
(expected quorum size under that strategy), and resilience (the most node
failures that always leave a live quorum), with the nodes whose failure
stops every quorum. "-" reads standard input.

Read-write systems — --reads/--writes expressions, a file with "reads" and
"writes", or any coterie file with --read-fraction or --nodes — get the read,
write and overall resilience and, with --read-fraction F (or a distribution
F1:W1,F2:W2), the load, capacity, latency and network load of an optimal
strategy, exactly, under per-node capacities and latencies (--nodes), --f,
--optimize and the limits; "no strategy meets the limits" exits 1.
--strategy=FILE evaluates a strategy saved by 'coterie strategy' instead.`,
		Args: cobra.RangeArgs(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("p") {
				o.ps = nil
			}
			if rwWanted(cmd, s, args) || len(args) != 1 || o.strategy != "" && o.strategy != "print" {
				o.rw.ps, o.rw.pNode = o.ps, o.pNode
				if len(o.rw.ps) == 0 && o.pNode != "" {
					o.rw.ps = []float64{0.9}
				}
				return runRWInfoArgs(cmd.Context(), s, o.rw, o.in, args, o.strategy, o.asJSON)
			}
			sys, err := readSystem(s, args[0], o.in)
			if err != nil {
				return err
			}
			if done, err := implicitInfoReport(cmd.Context(), cmd, s, args[0], &sys, o.asJSON); done {
				return err
			}
			o.figures.maxMem = maxMemory(cmd)
			res, err := analysis.Measure(cmd.Context(), sys, o.figures.options())
			if res == nil {
				return err
			}
			if err == nil && (len(o.ps) > 0 || o.pNode != "") {
				err = infoAvailability(cmd.Context(), res, sys, o)
			}
			rep := jsonreport.FromInfo(res, o.figures.reportOptions(o.strategy != "", false))
			// A stopped report (err != nil) is printed, marked partial,
			// before the command ends with its error.
			werr := writeOutput(s, "", func(w io.Writer) error {
				if o.asJSON {
					return writeJSON(w, rep)
				}
				return infoTable(w, rep, displayName(args[0]))
			})
			if err != nil {
				return err
			}
			return werr
		},
	}
	addInputFlags(cmd, &o.in)
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&o.strategy, "strategy", "", "also print an optimal access strategy (the quorums' probabilities); --strategy=FILE evaluates a saved read-write strategy under --read-fraction")
	cmd.Flags().Lookup("strategy").NoOptDefVal = "print"
	addRWSystemFlags(cmd, &o.rw)
	addDownFlag(cmd, &o.rw)
	addWorkloadFlags(cmd, &o.rw)
	cmd.Flags().BoolVar(&o.rw.requireWW, "require-ww", false, "read-write systems: report whether every two write quorums meet")
	addFigureFlagsBudget(cmd, &o.figures, 0)
	addProbsFlag(cmd, &o.ps, nil, "also give the availability at each P (comma-separated; default: none, or 0.9 with --p-node)")
	addPNodeFlag(cmd, &o.pNode)
	addOutputFlag(cmd, s)
	return cmd
}

// infoAvailability adds the availability at each --p (with --p-node) to
// every family of the report, as compare gives it.
func infoAvailability(ctx context.Context, res *analysis.System, sys set.System, o infoOptions) error {
	own, err := parseAvPNode(o.pNode, sys)
	if err != nil {
		return err
	}
	ps := o.ps
	if len(ps) == 0 {
		ps = []float64{0.9}
	}
	ao := o.figures.options()
	ao.Points, ao.Override = ps, own
	return res.MeasureAvailability(ctx, ao)
}

// options are the analysis options of the figure flags.
func (o figureOptions) options() analysis.Options {
	return analysis.Options{Budget: o.budget, StrictBudget: true, NoLoad: o.noLoad, NoResilience: o.noResilience, MaxMemory: o.maxMem}
}

// reportOptions are the report options of the figure flags: strategy lists
// the load's optimal strategy, partialAV keeps the availability found
// before a stop (compare).
func (o figureOptions) reportOptions(strategy, partialAV bool) jsonreport.InfoOptions {
	return jsonreport.InfoOptions{Budget: o.budget, MaxMemory: o.maxMem, Strategy: strategy, PartialAvailability: partialAV}
}

// decimal formats an exact rational briefly: "6", "4.8", "8.1428…".
func decimal(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	s := r.FloatString(4)
	s = strings.TrimRight(s, "0")
	exact := new(big.Rat)
	if _, ok := exact.SetString(s); ok && exact.Cmp(r) == 0 {
		return s
	}
	return s + "…"
}

func infoTable(w io.Writer, rep *jsonreport.Info, name string) error {
	kind := rep.Kind
	if kind == "" {
		kind = "(not recorded)"
	}
	if len(rep.Params) > 0 {
		keys := make([]string, 0, len(rep.Params))
		for k := range rep.Params {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var ps []string
		for _, k := range keys {
			ps = append(ps, fmt.Sprintf("%s=%v", k, rep.Params[k]))
		}
		kind += " (" + strings.Join(ps, ", ") + ")"
	}
	rows := [][]string{
		{"file", name},
		{"kind", kind},
		{"nodes (n)", fmt.Sprint(rep.N)},
		{"k", fmt.Sprint(rep.K)},
	}
	for _, fi := range rep.Families() {
		prefix := ""
		if fi.H > 0 {
			prefix = fmt.Sprintf("h=%d: ", fi.H)
		}
		q := fi.Quorums.String()
		if fi.Threshold > 0 {
			q += fmt.Sprintf(" (every %d-subset)", fi.Threshold)
		}
		owner := "no owners recorded"
		if fi.Maekawa.OwnerInQuorum != nil {
			owner = yesNo(*fi.Maekawa.OwnerInQuorum)
		}
		rows = append(rows,
			[]string{prefix + "quorums", q},
			[]string{prefix + "quorum size", spreadString(fi.QuorumSize)},
			[]string{prefix + "node degree", spreadString(fi.Degree)},
			[]string{prefix + "(b) owner in own quorum", owner},
			[]string{prefix + "(c) equal quorum size", yesNo(fi.Maekawa.EqualSize)},
			[]string{prefix + "(d) equal responsibility", yesNo(fi.Maekawa.EqualResponsibility)},
			[]string{prefix + "messages per entry (light demand)", decimal(fi.MessagesExact.MaekawaLight)},
			[]string{prefix + "  Maekawa, heavy demand (at most)", decimal(fi.MessagesExact.MaekawaHeavyMax)},
			[]string{prefix + "  ordered locking (Kakugawa et al.)", decimal(fi.MessagesExact.Ordered)},
		)
		if fi.MessagesExact.HKBest != nil {
			rows = append(rows, []string{prefix + "  h-out-of-k (no conflict / worst)",
				decimal(fi.MessagesExact.HKBest) + " / " + decimal(fi.MessagesExact.HKWorst)})
		}
		if fi.Load != nil {
			load := decimal(new(big.Rat).SetFloat64(*fi.Load))
			capacity := decimal(new(big.Rat).SetFloat64(*fi.Capacity))
			if exact, ok := new(big.Rat).SetString(fi.LoadExact); ok {
				load = fi.LoadExact + " = " + decimal(exact)
				c := new(big.Rat).Inv(exact)
				capacity = fi.CapacityExact + " = " + decimal(c)
			}
			rows = append(rows,
				[]string{prefix + "load (" + fi.LoadMethod + ")", load},
				[]string{prefix + "capacity", capacity},
				[]string{prefix + "network load", decimal(new(big.Rat).SetFloat64(*fi.NetworkLoad))},
			)
		}
		if fi.LoadLower != nil {
			rows = append(rows, []string{prefix + "load (bounds)",
				fmt.Sprintf("between %s = %s and %s = %s", fi.LoadLowerExact, decimal(new(big.Rat).SetFloat64(*fi.LoadLower)),
					fi.LoadUpperExact, decimal(new(big.Rat).SetFloat64(*fi.LoadUpper)))})
		}
		if fi.Resilience != nil {
			res := fmt.Sprint(*fi.Resilience)
			if len(fi.ResilienceWitness) > 0 {
				res += fmt.Sprintf(" (failing %s stops every quorum)", nodeList(minus1(fi.ResilienceWitness)))
			}
			rows = append(rows, []string{prefix + "resilience", res})
		}
		if fi.ResilienceLower != nil {
			res := fmt.Sprintf("between %d and %d", *fi.ResilienceLower, *fi.ResilienceUpper)
			if len(fi.ResilienceWitness) > 0 {
				res += fmt.Sprintf(" (failing %s stops every quorum)", nodeList(minus1(fi.ResilienceWitness)))
			}
			rows = append(rows, []string{prefix + "resilience (bounds)", res})
		}
		for _, e := range fi.Strategy {
			wt := decimal(new(big.Rat).SetFloat64(e.Weight))
			if e.Exact != "" {
				wt = e.Exact
			}
			rows = append(rows, []string{prefix + fmt.Sprintf("strategy: quorum %d", e.Quorum), wt})
		}
		for k, a := range fi.Availability {
			v := strconv.FormatFloat(a.P, 'g', -1, 64)
			c := jsonreport.CompareRow{Family: fi}
			mark := ""
			if !a.Exact {
				mark = "≈"
			}
			rows = append(rows, []string{prefix + "availability AV(" + v + ")", compareAVCell(c, k)},
				[]string{prefix + "  nines, downtime per year", mark + ninesText(a.U) + ", " + mark + downtimeText(availability.Downtime(a.U))})
		}
		for _, n := range fi.Notes {
			rows = append(rows, []string{prefix + "note", n})
		}
	}
	return renderTable(w, []string{"property", "value"}, rows)
}

func spreadString(s jsonreport.Spread) string {
	if s.Min.V.Cmp(s.Max.V) == 0 {
		return s.Min.String()
	}
	return fmt.Sprintf("min %s, mean %s, max %s", s.Min, s.Mean.Text(), s.Max)
}

// minus1 numbers 1-based nodes from 0.
func minus1(v []int) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = x - 1
	}
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
