package main

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/report"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// rwOptions are the flags that describe a read-write system and the
// workload its strategies serve.
type rwOptions struct {
	reads, writes, nodes string
	domains, down        string // failure domains: domainflags.go
	readFraction         string
	f                    int
	optimize             string
	loadLimit            string
	latencyLimit         string
	networkLimit         string
	requireWW            bool
	limit                int

	// anyK lets a k-arbiter's file in as R = W, for availability, whose
	// definition is the same for every k.
	anyK bool
	// pNode is --p-node: nodes' own probabilities, over the p column of
	// --nodes.
	pNode string
	// ps are info's --p: the availability is given at each.
	ps []float64
}

// maxRWNodes bounds the nodes of a read-write system (each carries its
// attributes).
const maxRWNodes = 1 << 20

// rwInput are the flags of a command that reads a read-write system: a
// file's format, and --reads, --writes, --nodes and --limit.
type rwInput struct {
	in inputOptions
	rw rwOptions
}

// addRWInputFlags adds the input flags (--input-format, --base) and the
// read-write system's (see [addRWSystemFlags]).
func addRWInputFlags(cmd *cobra.Command, o *rwInput) {
	addInputFlags(cmd, &o.in)
	addRWSystemFlags(cmd, &o.rw)
}

// addRWSystemFlags adds --reads, --writes and --nodes.
func addRWSystemFlags(cmd *cobra.Command, o *rwOptions) {
	cmd.Flags().StringVar(&o.reads, "reads", "", "read quorums as an expression, e.g. 'a*b*c + d*e*f' or 'choose(2, a, b, c)' (alone: the writes are its dual)")
	cmd.Flags().StringVar(&o.writes, "writes", "", "write quorums as an expression (alone: the reads are its dual)")
	cmd.Flags().StringVar(&o.nodes, "nodes", "", "CSV of node attributes: node,label,capacity,read_capacity,write_capacity,latency,p (any column but node optional)")
	cmd.Flags().IntVar(&o.limit, "limit", rw.DefaultListLimit, "most quorums to list where a side must be listed")
	addDomainsFlag(cmd, o)
}

// addWorkloadFlags adds the strategy flags: workload, f, objective, limits.
func addWorkloadFlags(cmd *cobra.Command, o *rwOptions) {
	cmd.Flags().StringVar(&o.readFraction, "read-fraction", "", "share of reads, e.g. 0.25, or a distribution value:weight,... e.g. 0.1:1,0.75:1")
	cmd.Flags().IntVar(&o.f, "f", 0, "use only f-resilient quorums (sets that stay quorums after any F failures)")
	cmd.Flags().StringVar(&o.optimize, "optimize", "load", "what the strategy minimises: load|latency|network")
	cmd.Flags().StringVar(&o.loadLimit, "load-limit", "", "largest load allowed (1/capacity)")
	addSecondsFlag(cmd, &o.latencyLimit, "latency-limit", "largest expected latency allowed: a duration (500ms, 3.5s) or a number of seconds")
	cmd.Flags().StringVar(&o.networkLimit, "network-limit", "", "largest expected number of nodes contacted")
	_ = cmd.RegisterFlagCompletionFunc("optimize", completeWords("load", "latency", "network"))
}

// rwWanted reports whether a command should take the read-write path: a
// read-write flag was given, or the file holds "reads"/"writes".
func rwWanted(cmd *cobra.Command, s *streams, args []string) bool {
	for _, name := range []string{"reads", "writes", "nodes", "read-fraction", "f", "optimize", "load-limit", "latency-limit", "network-limit", "require-ww", "domains", "down"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			return true
		}
	}
	if len(args) == 1 && args[0] == "-" && stdinConfigIsRW(cmd, s) {
		return true
	}
	// Only a file small enough to read twice is sniffed: read-write files
	// are small, and a large coterie file is not read an extra time.
	if len(args) == 1 && args[0] != "-" {
		if st, err := os.Stat(args[0]); err == nil && st.Mode().IsRegular() && st.Size() < 16<<20 {
			if data, err := os.ReadFile(args[0]); err == nil {
				return format.IsRWAny(data) || configIsRW(cmd, args[0], data)
			}
		}
	}
	return false
}

// exprError turns an expression syntax error into a usage error that shows
// the column.
func exprError(flag, text string, err error) error {
	var se *expr.SyntaxError
	if errors.As(err, &se) {
		return usageErrorf("--%s: column %d: %s\n  %s\n  %s^", flag, se.Col, se.Msg, text, strings.Repeat(" ", se.Col-1))
	}
	return usageErrorf("--%s: %v", flag, err)
}

// loadRWRows reads the system of a read-write command: --reads/--writes,
// or a file (a read-write JSON file, or any coterie file, taken as R = W),
// with the attributes of --nodes, which it also returns row by row.
func loadRWRows(ctx context.Context, s *streams, o rwOptions, in inputOptions, args []string) (*rw.System, []format.NodeAttrs, *rwSource, error) {
	nodesName := displayName(o.nodes)
	var nodesData []byte
	if o.nodes != "" {
		var err error
		if nodesData, err = readData(ctx, s, o.nodes, in); err != nil {
			return nil, nil, nil, err
		}
	}
	nodesErr := func(err error) error {
		var fe *format.SyntaxError
		if errors.As(err, &fe) {
			return asInputError(nodesName, fe.Line, fe.Msg)
		}
		return asInputError(nodesName, 0, err.Error())
	}
	var src *rwSource
	var err error
	switch {
	case o.reads != "" || o.writes != "":
		if len(args) > 0 {
			return nil, nil, nil, usageErrorf("give a system file or --reads/--writes, not both")
		}
		src, err = rwFromExprs(o, nodesData, nodesErr)
	case len(args) == 1:
		src, err = rwFromFile(ctx, s, args[0], in, o.anyK)
	default:
		return nil, nil, nil, usageErrorf("give a system file or --reads EXPR [--writes EXPR]")
	}
	if err != nil {
		return nil, nil, nil, err
	}
	re, we, rl, wl, u := src.reads, src.writes, src.readList, src.writeList, src.u
	if re == nil && we == nil {
		return nil, nil, nil, usageErrorf("no read or write quorums")
	}
	// Which nodes the quorums use: for expressions, a nodes-file row for
	// any other node is an error (a file's nodes are 1..n).
	used := new(set.Set)
	for _, e := range []*expr.Expr{re, we} {
		if e != nil {
			used.Union(used, e.Nodes())
		}
	}
	var rows []format.NodeAttrs
	if nodesData != nil {
		rows, err = format.ReadNodes(nodesData, func(name string) (int, bool) {
			v, ok := u.Lookup(name)
			return v, ok && (u.Fixed || used.Has(v))
		})
		if err != nil {
			return nil, nil, nil, nodesErr(err)
		}
	}
	n := u.N
	if n > maxRWNodes {
		return nil, nil, nil, usageErrorf("%d nodes: read-write systems are limited to %d", n, maxRWNodes)
	}
	nodes := nodesWith(n, u.Labels, append(slices.Clone(src.fileNodes), rows...))
	var sys *rw.System
	if rl != nil && (wl != nil || we == nil) {
		rl.Labels = u.Labels
		sys, err = rw.FromFamilies(ctx, rl, wl, nodes)
	} else {
		sys, err = rw.NewContext(ctx, n, re, we, nodes)
		if err == nil {
			if rl != nil && !isThreshold(rl) {
				sys.Reads.List = rl
			}
			if wl != nil && !isThreshold(wl) {
				sys.Writes.List = wl
			}
		}
	}
	if err != nil {
		if isStopped(err) {
			return nil, nil, nil, err
		}
		return nil, nil, nil, usageErrorf("%v", err)
	}
	if o.pNode != "" {
		labels := make([]string, sys.N)
		for v := range labels {
			labels[v] = sys.Label(v)
		}
		own, err := parsePNode(o.pNode, sys.N, labels)
		if err != nil {
			return nil, nil, nil, err
		}
		for v, p := range own {
			sys.Nodes[v].P = new(big.Rat).SetFloat64(p)
		}
	}
	return sys, rows, src, nil
}

// rwSource is a read-write system as given: its names of nodes, and its
// read and write quorums as expressions, lists, or both.
type rwSource struct {
	u                   *format.Universe
	reads, writes       *expr.Expr
	readList, writeList *set.Family
	// The file's own "nodes" and "domains", and its name.
	fileNodes   []format.NodeAttrs
	fileDomains []format.DomainP
	fileName    string
}

// rwFromExprs reads --reads and --writes. The nodes file's labels number
// the nodes first, in its order; then the expressions' other names, as
// they appear.
func rwFromExprs(o rwOptions, nodesData []byte, nodesErr func(error) error) (*rwSource, error) {
	src := &rwSource{u: format.NewUniverse(0, nil, false)}
	var err error
	if o.reads != "" {
		if src.reads, err = expr.Parse(o.reads); err != nil {
			return nil, exprError("reads", o.reads, err)
		}
	}
	if o.writes != "" {
		if src.writes, err = expr.Parse(o.writes); err != nil {
			return nil, exprError("writes", o.writes, err)
		}
	}
	if nodesData != nil {
		if _, err := format.ReadNodes(nodesData, func(name string) (int, bool) {
			b, err := src.u.Bind(expr.Named(name))
			if err != nil {
				return 0, false
			}
			return b[0].Node, true
		}); err != nil {
			return nil, nodesErr(err)
		}
	}
	bound, err := src.u.Bind(src.reads, src.writes)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	src.reads, src.writes = bound[0], bound[1]
	return src, nil
}

// rwFromFile reads a read-write system file, or a coterie's file, whose
// quorums are then both its reads and its writes.
func rwFromFile(ctx context.Context, s *streams, arg string, in inputOptions, anyK bool) (*rwSource, error) {
	name := displayName(arg)
	data, err := readData(ctx, s, arg, in)
	if err != nil {
		return nil, err
	}
	if sf, ok := systemFormat(arg, data, in.format); ok {
		return configRWSource(inputContext(in), name, data, sf)
	}
	if format.IsRWAny(data) {
		// A quarter of the budget for the expressions' trees: they are
		// bound (copied) once read, and the rest is for the work.
		f, err := format.ReadRWAnyLimit(data, maxMemory(in.cmd)/4)
		if err != nil {
			var fe *format.SyntaxError
			if errors.As(err, &fe) {
				if errors.Is(err, set.ErrMemoryBudget) {
					return nil, asInputError(name, fe.Line, fe.Msg+" ("+budgetHint(in.cmd)+")")
				}
				return nil, asInputError(name, fe.Line, fe.Msg)
			}
			return nil, asInputError(name, 0, err.Error())
		}
		return &rwSource{u: format.NewUniverse(f.N, f.Labels, true),
			reads: f.Reads, writes: f.Writes, readList: f.ReadList, writeList: f.WriteList,
			fileNodes: f.Nodes, fileDomains: f.Domains, fileName: name}, nil
	}
	sys, err := readSystemData(name, data, arg, in)
	if err != nil {
		return nil, err
	}
	if sys.Family == nil || sys.Family.K != 1 && !anyK {
		return nil, usageErrorf("%s: read-write figures are for coteries (k = 1) and read-write systems", name)
	}
	f := sys.Family
	// The quorums as an expression, one tree for both sides, within the
	// share of the budget the expressions read from a file have.
	if mm := maxMemory(in.cmd); mm > 0 && expr.FamilyBytes(f) > mm/4 {
		return nil, asInputError(name, 0, fmt.Sprintf("%d quorums: as read and write quorums they take more than a quarter of the memory budget (%s)", len(f.Quorums), budgetHint(in.cmd)))
	}
	e, err := expr.FromFamilyContext(ctx, f)
	if err != nil {
		return nil, err
	}
	return &rwSource{u: format.NewUniverse(f.N, f.Labels, true),
		reads: e, writes: e, readList: f, writeList: f}, nil
}

// readSystemData parses a coterie file already read into data.
func readSystemData(name string, data []byte, path string, in inputOptions) (set.System, error) {
	f, err := inputFormat(path, data, in.format)
	if err != nil {
		return set.System{}, err
	}
	sys, err := format.ReadBytes(data, f, format.Options{Base: in.base, Name: name, MaxMemory: maxMemory(in.cmd)})
	if err != nil {
		var fe *format.SyntaxError
		if errors.As(err, &fe) {
			if errors.Is(err, set.ErrMemoryBudget) {
				return set.System{}, asInputError(name, fe.Line, fe.Msg+" ("+budgetHint(in.cmd)+")")
			}
			return set.System{}, asInputError(name, fe.Line, fe.Msg)
		}
		return set.System{}, asInputError(name, 0, err.Error())
	}
	return sys, nil
}

// parseRat reads a flag's exact number; "" is nil.
func parseRat(flag, v string) (*big.Rat, error) {
	if v == "" {
		return nil, nil
	}
	r, ok := new(big.Rat).SetString(v)
	if !ok {
		return nil, usageErrorf("--%s: %q is not a number", flag, v)
	}
	return r, nil
}

// strategyOptions turns the workload flags into rw.Options; ok is false
// when no --read-fraction was given.
func strategyOptions(o rwOptions) (rw.Options, bool, error) {
	if o.readFraction == "" {
		return rw.Options{}, false, nil
	}
	w, err := rw.ParseWorkload(o.readFraction)
	if err != nil {
		return rw.Options{}, false, usageErrorf("--read-fraction: %s", rwMsg(err))
	}
	opts := rw.Options{Workload: w, F: o.f, Optimize: rw.Objective(o.optimize), ListLimit: o.limit}
	switch opts.Optimize {
	case rw.MinLoad, rw.MinLatency, rw.MinNetwork:
	default:
		return opts, false, usageErrorf("--optimize must be load, latency or network, not %q", o.optimize)
	}
	if o.f < 0 {
		return opts, false, usageErrorf("--f must not be negative")
	}
	for _, l := range []struct {
		flag, v string
		dst     **big.Rat
	}{{"load-limit", o.loadLimit, &opts.LoadLimit}, {"latency-limit", o.latencyLimit, &opts.LatencyLimit}, {"network-limit", o.networkLimit, &opts.NetworkLimit}} {
		r, err := parseRat(l.flag, l.v)
		if err != nil {
			return opts, false, err
		}
		*l.dst = r
	}
	if opts.Optimize == rw.MinLoad && opts.LoadLimit != nil ||
		opts.Optimize == rw.MinLatency && opts.LatencyLimit != nil ||
		opts.Optimize == rw.MinNetwork && opts.NetworkLimit != nil {
		return opts, false, usageErrorf("--%s-limit cannot be set when optimising %s", opts.Optimize, opts.Optimize)
	}
	return opts, true, nil
}

// strategyError maps rw's errors to exit statuses: no strategy meets the
// limits → 1, with the message.
func strategyError(s *streams, err error) error {
	if errors.Is(err, rw.ErrNoStrategy) {
		fmt.Fprintln(s.err, "coterie: no strategy meets the limits")
		return failed()
	}
	if errors.Is(err, set.ErrTooMany) {
		return usageErrorf("%v (raise --limit)", err)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return usageErrorf("%v", err)
}

// noLatency is the latency of a node whose latency no file gives: 1, as
// quoracle takes it; a system none of whose nodes has a latency of its own
// has no latency to report (see [latencyGiven]).
var noLatency = big.NewRat(1, 1)

// latencyGiven reports whether some node has a latency of its own.
func latencyGiven(nodes []rw.Node) bool {
	for _, nd := range nodes {
		if nd.Latency != noLatency {
			return true
		}
	}
	return false
}

// secondsText writes a number of seconds, given exactly, in the unit a
// person reads: 3.91 s, 33.3 ms, 250 µs. The exact value stays in JSON.
func secondsText(exact string) string {
	r, ok := new(big.Rat).SetString(exact)
	if !ok {
		return exact
	}
	if r.Sign() == 0 {
		return "0 s"
	}
	return report.Seconds(ratFloat(r))
}

// ratFloat returns r as a float64 for display.
func ratFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

// nodesWith returns n nodes with quoracle's defaults and the given labels,
// then the attributes each row of a nodes file sets (a capacity sets both
// the read and the write capacity; read_capacity and write_capacity
// override it).
func nodesWith(n int, labels []string, rows []format.NodeAttrs) []rw.Node {
	nodes := rw.DefaultNodes(n)
	for v := range n {
		nodes[v].Label = labels[v]
		nodes[v].Latency = noLatency
	}
	for _, r := range rows {
		nd := &nodes[r.Node]
		if r.Label != "" {
			nd.Label = r.Label
		}
		if r.Capacity != nil {
			nd.ReadCapacity, nd.WriteCapacity = r.Capacity, r.Capacity
		}
		if r.ReadCapacity != nil {
			nd.ReadCapacity = r.ReadCapacity
		}
		if r.WriteCapacity != nil {
			nd.WriteCapacity = r.WriteCapacity
		}
		if r.Latency != nil {
			nd.Latency = r.Latency
		}
		if r.P != nil {
			nd.P = r.P
		}
	}
	return nodes
}

// rwMsg is what an rw error says without the package's name, to follow
// the flag or file it is about.
func rwMsg(err error) string {
	var we *rw.WorkloadError
	var se *rw.StrategyError
	switch {
	case errors.As(err, &we):
		return we.Msg
	case errors.As(err, &se):
		return se.Msg
	}
	return err.Error()
}
