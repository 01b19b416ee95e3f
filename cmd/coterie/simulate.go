package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/protocol"
	"github.com/coterie-dev/coterie/set"
)

type simulateOptions struct {
	sideInput
	k          int
	protocols  []string
	load       string
	entries    int
	seed       uint64
	delay      string
	cs         string
	asJSON     bool
	format     string
	plot       string
	explore    bool
	requests   int
	rounds     int
	requesters string
	maxStates  int
	maxDepth   int
	// --shard, --shards (with --explore): simulate_shard.go;
	// --checkpoint: simulate_checkpoint.go.
	shard      string
	shards     string
	checkpoint string
}

func newSimulateCmd(s *streams) *cobra.Command {
	var o simulateOptions
	cmd := &cobra.Command{
		Use:   "simulate FILE...",
		Short: "Run Maekawa's, ordered, h-out of-k or Ricart–Agrawala mutual exclusion on a system",
		Long: `Run a mutual exclusion protocol on a quorum system, in a deterministic
discrete-event simulation, and report messages per critical-section entry
(in all and by message type, counted as the protocol's paper counts them),
entry delay and waiting-time percentiles in mean message delays,
throughput, and the safety and deadlock verdicts.

Protocols (--protocol, a comma-separated list runs each):
  maekawa-fixed    Maekawa's √N algorithm with the fix its proof needs: a
                   waiting REQUEST overtaken by an earlier one is told so
                   with FAILED (the default on a coterie)
  maekawa          the algorithm as printed (ACM TOCS 1985, Section 4); it can
                   deadlock: a member locked for a later REQUEST sends
                   INQUIRE, not FAILED, so a requester overtaken by a still
                   earlier one is never told it lost and defers the INQUIREs
                   it receives for ever (four requests on the Fano plane;
                   heavy demand on larger planes). simulate reports the
                   deadlock with its wait-for cycle and exits 1
  ordered          Kakugawa et al.'s protocol A: ordered locking, no timestamps
  hk               Manabe and Tajima's h-out of-k algorithm (Fig. 1), on
                   (h,k)-arbiters and k-arbiters; requests of random h
  ricart-agrawala  the 2(N−1) baseline, which ignores the quorums
The default is maekawa-fixed on a coterie, hk on an arbiter. Node i uses the
quorum it owns; a node owning several picks one at random per request, one
owning none any quorum.

Loads: light (one request at a time, the requester uniform), heavy (every
node asks again as soon as it leaves), poisson:R (each node asks at rate R
per unit of time). Delays and critical-section lengths are const:X,
exp:MEAN or uniform:A:B, in the same unit of time; reports give times in
mean message delays.

After every event the run checks that at most one node (for hk: k units) is
inside, and that pending requests still have messages moving or someone
inside. A safety violation or a deadlock makes simulate exit 1 and print the
events that led to it; a deadlock names its wait-for cycle.

--explore instead tries every delivery order of a small instance (--requests
requests in all, at most --rounds per node, by the nodes of --requesters) and
proves or refutes safety, deadlock freedom and termination, printing the
shortest counterexample. A large exploration splits across machines:
--explore --shard I/N expands one share of the state space and prints a
partial result, which 'coterie merge' puts together with the others into
exactly the unsplit report (--shard auto takes I from a Kubernetes Indexed
Job or a Slurm array, with --shards N). --checkpoint FILE saves a long
exploration (of one protocol on one file, whole or one shard) as it goes:
the states found and those still to expand, every few seconds and when it
stops (Ctrl-C, --timeout); run again with the same FILE, it goes on from
there and prints exactly what an uninterrupted run prints. A stopped run
prints no partial report; one stopped by the memory budget exits 2 and
resumes with more --max-memory (without --checkpoint, an exploration stopped
by the memory budget prints what it proved, marked INCOMPLETE, and exits 2); a search that reaches --max-states is
explored again without the checkpoint (it stops there anyway).

With several files, --plot draws messages per entry against N, one line per
protocol (.svg, .png or .pdf).

The protocols are for coteries: a read-write system (--reads/--writes or a
read-write file) is simulated only when its read and write quorums are the
same, and refused otherwise (exit 2).`,
		Example: `  coterie generate fpp --order 4 -o p4.json
  coterie simulate p4.json --load heavy --entries 100000
  coterie simulate p4.json --protocol maekawa-fixed,ordered,ricart-agrawala --json
  coterie simulate p2.json p3.json p4.json p5.json --plot messages.svg
  coterie simulate p7.json --protocol maekawa --load heavy --entries 1000   # the printed algorithm deadlocks: exit 1
  coterie simulate fano.txt --explore --requests 3 --checkpoint fano.ck --timeout 10s   # run again to go on; 8 MB`,
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("reads") || cmd.Flags().Changed("writes") {
				return cobra.MaximumNArgs(1)(cmd, args)
			}
			return needFiles("one or more quorum FILEs (or --reads EXPR)", 1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{""} // the system of --reads/--writes
			}
			if o.asJSON {
				if cmd.Flags().Changed("format") && o.format != "json" {
					return usageErrorf("--json and --format %s disagree", o.format)
				}
				o.format = "json"
			}
			if o.explore {
				return runExplore(cmd.Context(), s, o, args)
			}
			if o.shard != "" || o.shards != "" || o.checkpoint != "" {
				return usageErrorf("--shard, --shards and --checkpoint go with --explore")
			}
			return runSimulate(cmd.Context(), s, o, args)
		},
	}
	o.side.sameSides = true
	addSideInputFlags(cmd, &o.sideInput, "")
	f := cmd.Flags()
	f.IntVar(&o.k, "k", 0, "run the file as a k-arbiter with this k (default: the file's k)")
	f.StringSliceVar(&o.protocols, "protocol", nil, "protocol(s) to run: "+strings.Join(protocol.Names(), "|"))
	f.StringVar(&o.load, "load", "light", "light|heavy|poisson:RATE")
	f.IntVar(&o.entries, "entries", 10000, "critical-section entries to simulate")
	f.Uint64Var(&o.seed, "seed", 1, "random seed: the same seed gives the same run")
	f.StringVar(&o.delay, "delay", protocol.DefaultDelay().String(), "message delay: const:X|exp:MEAN|uniform:A:B")
	f.StringVar(&o.cs, "cs", protocol.DefaultCS().String(), "critical-section length, in the delay's time unit")
	f.BoolVar(&o.asJSON, "json", false, "print the report as JSON (same as --format json)")
	f.StringVar(&o.format, "format", "table", "report format: table|json|csv")
	f.StringVar(&o.plot, "plot", "", "plot messages per entry against N to `FILE` (.svg, .png, .pdf)")
	f.BoolVar(&o.explore, "explore", false, "explore every delivery order of a small instance instead of simulating")
	f.IntVar(&o.requests, "requests", 2, "with --explore: requests in all")
	f.IntVar(&o.rounds, "rounds", 1, "with --explore: requests one node may make, one after another")
	f.StringVar(&o.requesters, "requesters", "", "with --explore: the nodes that may request, such as 2,3,4 (default: all)")
	f.IntVar(&o.maxStates, "max-states", 4_000_000, "with --explore: stop after this many states")
	f.IntVar(&o.maxDepth, "max-depth", 0, "with --explore: explore executions up to this many steps (0: all)")
	f.StringVar(&o.shard, "shard", "", "with --explore: explore shard `I/N` of the state space (or auto: the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, with --shards) and print a partial result for 'coterie merge'")
	f.StringVar(&o.shards, "shards", "", shardsUsage)
	f.StringVar(&o.checkpoint, "checkpoint", "", "with --explore, save the search as it goes in `FILE`, and resume from it")
	_ = cmd.RegisterFlagCompletionFunc("protocol", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return protocol.Names(), cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("load", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"light", "heavy", "poisson:"}, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords("table", "json", "csv"))
	addOutputFlag(cmd, s)
	return cmd
}

// simInput is one file, read and prepared.
type simInput struct {
	name string
	sys  set.System
	ps   *protocol.System
}

func readSimInputs(s *streams, o simulateOptions, args []string) ([]simInput, error) {
	var ins []simInput
	stdin := 0
	for _, path := range args {
		if path == "-" {
			if stdin++; stdin > 1 {
				return nil, usageErrorf("standard input (-) can be read only once")
			}
		}
		sys, err := readSystem(s, path, o.in)
		if err != nil {
			return nil, err
		}
		if o.k != 0 {
			if o.k < 1 {
				return nil, usageErrorf("--k must be at least 1, not %d", o.k)
			}
			if sys.HK != nil {
				if o.k != sys.HK.K {
					return nil, usageErrorf("--k %d: %s is an (h,k)-arbiter with k = %d, which its levels depend on", o.k, displayName(path), sys.HK.K)
				}
			} else {
				f := *sys.Family // a shallow copy: only K changes
				f.K = o.k
				sys.Family = &f
			}
		}
		ps, err := protocol.NewSystem(sys)
		if err != nil {
			return nil, asInputError(displayName(path), 0, protocolMsg(err))
		}
		ins = append(ins, simInput{name: displayName(path), sys: sys, ps: ps})
	}
	return ins, nil
}

// specsFor returns the protocols to run on in: those asked for, or the
// default for its kind of system.
func specsFor(o simulateOptions, in simInput) ([]protocol.Spec, error) {
	names := o.protocols
	if len(names) == 0 {
		names = []string{protocol.Default(in.ps).Name}
	}
	var out []protocol.Spec
	for _, n := range names {
		sp, ok := protocol.Lookup(strings.TrimSpace(n))
		if !ok {
			return nil, usageErrorf("--protocol %q: want one of %s", n, strings.Join(protocol.Names(), ", "))
		}
		out = append(out, sp)
	}
	return out, nil
}

// simRun is one protocol on one file.
type simRun struct {
	file string
	res  *protocol.Result
}

func runSimulate(ctx context.Context, s *streams, o simulateOptions, args []string) error {
	load, err := protocol.ParseLoad(o.load)
	if err != nil {
		return usageErrorf("--load: %s", protocolMsg(err))
	}
	delay, err := protocol.ParseDist(o.delay)
	if err != nil {
		return usageErrorf("--delay: %s", protocolMsg(err))
	}
	if delay.Mean() <= 0 {
		return usageErrorf("--delay %s: the mean delay must be positive", o.delay)
	}
	cs, err := protocol.ParseDist(o.cs)
	if err != nil {
		return usageErrorf("--cs: %s", protocolMsg(err))
	}
	if o.entries < 1 {
		return usageErrorf("--entries must be at least 1, not %d", o.entries)
	}
	switch o.format {
	case "table", "json", "csv":
	default:
		return usageErrorf("--format %q: want table, json or csv", o.format)
	}
	if o.plot != "" {
		if err := checkPlotName(o.plot); err != nil {
			return err
		}
	}
	ins, err := readSimInputs(s, o, args)
	if err != nil {
		return err
	}
	var runs []simRun
	for _, in := range ins {
		specs, err := specsFor(o, in)
		if err != nil {
			return err
		}
		for _, sp := range specs {
			bar := newProgress(s, fmt.Sprintf("simulate %s on %s", sp.Name, in.name))
			res, err := protocol.Simulate(ctx, sp, in.ps, protocol.Config{
				Load: load, Entries: o.entries, Seed: o.seed, Delay: &delay, CS: &cs,
				Progress: func(_ string, done, total int64) { bar.Update(done, total) },
			})
			bar.Done()
			if err != nil {
				if ctx.Err() != nil {
					return &codeError{code: exitError, err: fmt.Errorf("simulate: %w", ctx.Err())}
				}
				return usageErrorf("%s: %s", in.name, protocolMsg(err))
			}
			runs = append(runs, simRun{file: in.name, res: res})
		}
	}
	if err := writeOutput(s, "", func(w io.Writer) error {
		switch o.format {
		case "json":
			return writeSimJSON(w, runs)
		case "csv":
			return writeSimCSV(w, runs)
		}
		return writeSimTable(w, runs)
	}); err != nil {
		return err
	}
	if o.plot != "" {
		if err := writeOutput(s, o.plot, func(w io.Writer) error {
			return plotMessages(w, o.plot, runs, load)
		}); err != nil {
			return err
		}
	}
	for _, r := range runs {
		if r.res.SafetyViolations > 0 || r.res.Deadlock {
			return failed()
		}
	}
	return nil
}

// protocolMsg is what a protocol error says, without the package's prefix,
// to follow the name of the option or file it is about.
func protocolMsg(err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return pe.Msg
	}
	return err.Error()
}

// num formats a measurement briefly and exactly enough.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func num3(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

func writeSimCSV(w io.Writer, runs []simRun) error {
	cw := newCSVReport(w)
	_ = cw.Write([]string{"file", "protocol", "n", "k", "load", "entries", "seed", "delay", "cs",
		"messages_per_entry", "by_type", "paper_low", "paper_high", "mean_wait", "p50_wait", "p90_wait", "p99_wait",
		"max_wait", "throughput", "safety_violations", "deadlock", "anomalies"})
	for _, run := range runs {
		r := run.res
		var bt []string
		for _, k := range r.Kinds() {
			bt = append(bt, k+"="+num(r.ByType[k]))
		}
		_ = cw.Write([]string{run.file, r.Protocol, fmt.Sprint(r.N), fmt.Sprint(r.K), r.Load, fmt.Sprint(r.Entries),
			fmt.Sprint(r.Seed), r.Delay, r.CS, num(r.MessagesPerEntry), strings.Join(bt, ";"), num(r.Paper.Low), num(r.Paper.High),
			num(r.MeanWait), num(r.P50Wait), num(r.P90Wait), num(r.P99Wait), num(r.MaxWait), num(r.Throughput),
			fmt.Sprint(r.SafetyViolations), fmt.Sprint(r.Deadlock), fmt.Sprint(r.Anomalies)})
	}
	cw.Flush()
	return cw.Error()
}

func writeSimTable(w io.Writer, runs []simRun) error {
	if len(runs) > 1 {
		var rows [][]string
		for _, run := range runs {
			r := run.res
			rows = append(rows, []string{run.file, r.Protocol, fmt.Sprint(r.N), fmt.Sprint(r.Entries),
				num3(r.MessagesPerEntry), paperRange(r.Paper), num3(r.MeanWait), num3(r.P99Wait), num3(r.MaxWait),
				num3(r.Throughput), fmt.Sprint(r.SafetyViolations), yesNo(r.Deadlock)})
		}
		if err := renderTable(w, []string{"file", "protocol", "n", "entries", "msgs/entry", "paper", "mean wait",
			"p99 wait", "max wait", "throughput", "violations", "deadlock"}, rows); err != nil {
			return err
		}
		if len(runs) > 0 {
			fmt.Fprintf(w, "load %s, seed %d, delays %s, critical sections %s; times in mean message delays\n",
				runs[0].res.Load, runs[0].res.Seed, runs[0].res.Delay, runs[0].res.CS)
		}
	}
	for _, run := range runs {
		if len(runs) == 1 {
			if err := writeSimReport(w, run); err != nil {
				return err
			}
		}
		writeFindings(w, run, len(runs) > 1)
	}
	return nil
}

func paperRange(e protocol.Expectation) string {
	if num3(e.Low) == num3(e.High) {
		return num3(e.Low)
	}
	return num3(e.Low) + "–" + num3(e.High)
}

func writeSimReport(w io.Writer, run simRun) error {
	r := run.res
	rows := [][]string{
		{"file", run.file},
		{"protocol", r.Protocol},
		{"nodes (n), k", fmt.Sprintf("%d, %d", r.N, r.K)},
		{"load, seed", fmt.Sprintf("%s, %d", r.Load, r.Seed)},
		{"delays, critical sections", fmt.Sprintf("%s, %s (times below in mean message delays)", r.Delay, r.CS)},
		{"entries", fmt.Sprint(r.Entries)},
		{"messages per entry", num3(r.MessagesPerEntry)},
	}
	for _, k := range r.Kinds() {
		rows = append(rows, []string{"  " + k, num3(r.ByType[k])})
	}
	if r.SelfMessages > 0 {
		sp, _ := protocol.Lookup(r.Protocol)
		how := "not counted"
		if sp.CountSelf {
			how = "counted"
		}
		rows = append(rows, []string{"  to itself (" + how + ", as the paper counts)",
			num3(float64(r.SelfMessages) / float64(max(r.Entries, 1)))})
	}
	rows = append(rows,
		[]string{"paper: " + r.Paper.Formula, paperRange(r.Paper) + " (" + r.Paper.Source + ")"},
		[]string{"mean quorum size", num3(r.MeanQuorum)},
	)
	if r.MeanUnits != 1 {
		rows = append(rows, []string{"mean units (h)", num3(r.MeanUnits)})
	}
	rows = append(rows,
		[]string{"entry delay", fmt.Sprintf("mean %s, p50 %s, p90 %s, p99 %s", num3(r.MeanWait), num3(r.P50Wait), num3(r.P90Wait), num3(r.P99Wait))},
		[]string{"longest wait", num3(r.MaxWait)},
		[]string{"throughput", num3(r.Throughput) + " entries per message delay"},
		[]string{"safety violations", fmt.Sprint(r.SafetyViolations)},
		[]string{"deadlock", yesNo(r.Deadlock)},
	)
	if r.Anomalies > 0 {
		rows = append(rows, []string{"undefined steps (anomalies)", fmt.Sprint(r.Anomalies)})
	}
	return renderTable(w, []string{"measure", "value"}, rows)
}

// writeFindings prints a violation, a deadlock or anomalies with the events
// that show them.
func writeFindings(w io.Writer, run simRun, named bool) {
	r := run.res
	prefix := ""
	if named {
		prefix = run.file + ", " + r.Protocol + ": "
	}
	if v := r.Violation; v != nil {
		fmt.Fprintf(w, "\n%sSAFETY VIOLATION at t = %s: nodes %s inside, %d units in use, at most %d allowed (%d violations in all)\n",
			prefix, num3(v.Time), joinInts(v.Inside), v.Units, v.Limit, r.SafetyViolations)
		fmt.Fprintf(w, "the events of nodes %s since their requests:\n", joinInts(v.Inside))
		writeTrace(w, v.Trace)
	}
	if d := r.DeadlockInfo; d != nil {
		fmt.Fprintf(w, "\n%sDEADLOCK at t = %s: nodes %s wait, no message is in flight and nobody is inside\n",
			prefix, num3(d.Time), joinInts(d.Waiting))
		if len(d.Cycle) > 0 {
			fmt.Fprintf(w, "wait-for cycle: %s\n", protocol.CycleText(d.Cycle, d.Via))
		}
		for _, f := range d.Free {
			fmt.Fprintf(w, "node %d waits for member %d, whose permission is free: a lost message\n", f[0], f[1])
		}
		fmt.Fprintln(w, "the events of those nodes since their requests:")
		writeTrace(w, d.Trace)
	}
	if r.Anomalies > 0 {
		fmt.Fprintf(w, "\n%s%d steps the printed protocol does not define, handled as documented; the first:\n", prefix, r.Anomalies)
		for _, a := range r.AnomalyExamples {
			fmt.Fprintf(w, "  %s\n", a)
		}
	}
}

func writeTrace(w io.Writer, tr []protocol.TraceEvent) {
	for _, e := range tr {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

func runExplore(ctx context.Context, s *streams, o simulateOptions, args []string) error {
	if o.format == "csv" {
		return usageErrorf("--explore reports as a table or JSON, not CSV")
	}
	if o.plot != "" {
		return usageErrorf("--plot goes with simulations, not --explore")
	}
	if o.requests < 1 || o.rounds < 1 || o.maxStates < 1 || o.maxDepth < 0 {
		return usageErrorf("--requests, --rounds and --max-states must be positive, --max-depth not negative")
	}
	if o.checkpoint != "" {
		return runExploreCheckpointed(ctx, s, o, args)
	}
	if o.shard != "" || o.shards != "" {
		return runExploreShard(ctx, s, o, args)
	}
	ins, err := readSimInputs(s, o, args)
	if err != nil {
		return err
	}
	var runs []exploreRun
	for _, in := range ins {
		specs, err := specsFor(o, in)
		if err != nil {
			return err
		}
		var who []int
		if o.requesters != "" {
			if who, err = format.ParseNodes(o.requesters, in.ps.N); err != nil {
				return usageErrorf("--requesters: %v", err)
			}
		}
		for _, sp := range specs {
			bar := newProgress(s, fmt.Sprintf("explore %s on %s", sp.Name, in.name))
			res, err := protocol.Explore(ctx, sp, in.ps, protocol.ExploreConfig{
				Requests: o.requests, Rounds: o.rounds, Requesters: who, MaxStates: o.maxStates, MaxDepth: o.maxDepth,
				MaxMemory: maxMemory(o.in.cmd),
				Progress:  func(_ string, states, total int64) { bar.Update(states, total) },
			})
			bar.Done()
			switch {
			case err != nil && res != nil && errors.Is(err, set.ErrMemoryBudget):
				// Say what was proved, marked partial, then stop as a
				// result cut short does (exit 2).
				runs = append(runs, exploreRun{in.name, res, "stopped at the memory budget"})
				if werr := writeExplore(s, o, runs); werr != nil {
					return werr
				}
				return usageErrorf("explore %s on %s: stopped after %d states at the memory budget (partial result); %s: allow more with --max-memory, or bound the search with --requests, --max-depth or --max-states",
					sp.Name, in.name, res.States, budgetHint(o.in.cmd))
			case err != nil && res != nil && ctx.Err() != nil:
				// Say what was proved, then stop as interrupted.
				why := "interrupted"
				if errors.Is(ctx.Err(), context.DeadlineExceeded) {
					why = "stopped at the --timeout limit"
				}
				runs = append(runs, exploreRun{in.name, res, why})
				if werr := writeExplore(s, o, runs); werr != nil {
					return werr
				}
				return &codeError{code: exitError, err: fmt.Errorf("explore: %w", ctx.Err())}
			case err != nil && ctx.Err() != nil:
				return &codeError{code: exitError, err: fmt.Errorf("explore: %w", ctx.Err())}
			case err != nil:
				return usageErrorf("%s: %s", in.name, protocolMsg(err))
			}
			runs = append(runs, exploreRun{in.name, res, ""})
		}
	}
	if err := writeExplore(s, o, runs); err != nil {
		return err
	}
	for _, r := range runs {
		if !r.res.Safe || !r.res.DeadlockFree || r.res.Terminates != nil && !*r.res.Terminates {
			return failed()
		}
	}
	return nil
}

// exploreRun is the result of exploring one protocol on one input.
type exploreRun struct {
	file string
	res  *protocol.ExploreResult
	why  string // why a cancelled search stopped, in words
}

// writeExplore writes the results of --explore, as JSON or text.
func writeExplore(s *streams, o simulateOptions, runs []exploreRun) error {
	return writeOutput(s, "", func(w io.Writer) error {
		if o.format == "json" {
			return writeExploreJSON(w, runs)
		}
		for i, r := range runs {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeExploreText(w, r, o)
		}
		return nil
	})
}

func writeExploreText(w io.Writer, run exploreRun, o simulateOptions) {
	file, r := run.file, run.res
	per := "one per node"
	if r.Rounds > 1 {
		per = fmt.Sprintf("at most %d per node", r.Rounds)
	}
	fmt.Fprintf(w, "%s: %s on %d nodes (k = %d), %d requests (%s), every delivery order\n",
		file, r.Protocol, r.N, r.K, r.Requests, per)
	state := "complete: the verdicts are proofs for this instance"
	if !r.Complete {
		why := fmt.Sprintf("stopped at --max-states %d or --max-depth %d", o.maxStates, o.maxDepth)
		switch r.Stopped {
		case "max_states":
			why = fmt.Sprintf("stopped at --max-states %d", o.maxStates)
		case "max_depth":
			why = fmt.Sprintf("stopped at --max-depth %d", o.maxDepth)
		case "max_memory":
			why = "stopped at the memory budget, " + budgetHint(o.in.cmd)
		case "cancelled":
			why = run.why
		}
		state = fmt.Sprintf("INCOMPLETE (%s): no counterexample in the %d states explored", why, r.States)
	}
	fmt.Fprintf(w, "%d states, %d transitions, depth %d; %s\n\n", r.States, r.Transitions, r.Depth, state)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	verdict := func(name string, ok bool, c *protocol.Counterexample) {
		v := "holds"
		if !ok {
			v = fmt.Sprintf("FAILS (shortest counterexample: %d steps)", c.Len())
		}
		fmt.Fprintf(tw, "%s\t%s\n", name, v)
	}
	verdict("mutual exclusion", r.Safe, r.Violation)
	verdict("deadlock freedom", r.DeadlockFree, r.Deadlock)
	if r.Terminates != nil {
		verdict("termination", *r.Terminates, r.Livelock)
	} else {
		fmt.Fprintf(tw, "termination\tnot decided (the search is incomplete)\n")
	}
	if r.AnomalyFree {
		fmt.Fprintf(tw, "undefined steps\tnone\n")
	} else {
		fmt.Fprintf(tw, "undefined steps\tFOUND (shortest: %d steps)\n", r.Anomaly.Len())
	}
	tw.Flush()
	for _, c := range []*protocol.Counterexample{r.Violation, r.Deadlock, r.Livelock, r.Anomaly} {
		if c == nil {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", c.What)
		if len(c.Cycle) > 0 {
			fmt.Fprintf(w, "wait-for cycle at the end: %s\n", protocol.CycleText(c.Cycle, c.Via))
		}
		for _, e := range c.Steps {
			mark := " "
			if c.Loop > 0 && e.Step == c.Loop {
				mark = "↻"
			}
			fmt.Fprintf(w, "%s %s\n", mark, e)
		}
	}
}

func checkPlotName(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg", ".png", ".pdf", ".eps":
		return nil
	}
	return usageErrorf("--plot %s: the name must end in .svg, .png, .pdf or .eps", path)
}
