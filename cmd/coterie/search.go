package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/rw"
)

type searchOptions struct {
	rw         rwOptions
	n          int
	resilience int
	seed       uint64
	shuffles   int
	budget     time.Duration
	ps         []float64
	pNode      string
	partitions int
	asJSON     bool
	survive    string // search_domains.go
}

func newSearchCmd(s *streams) *cobra.Command {
	var o searchOptions
	cmd := &cobra.Command{
		Use:   "search --nodes NODES.csv --read-fraction F",
		Short: "Search for the read-write quorum system that best serves a workload",
		Long: `Search a space of read-write quorum systems over the given nodes for the one
whose optimal strategy (see 'coterie strategy') minimises --optimize under the
workload and limits, and report it with the Pareto front of load, latency and
availability (the systems no other beats on all three).

The candidates, in order: thresholds (read k of n, write n−k+1); grids of
every shape r×c = n, rows read or rows written, with the nodes ordered by
capacity, by latency and in --shuffles random orders drawn from --seed; the
projective plane and Maekawa's grid when n fits; and, up to
--max-partition-nodes nodes, the two-level expressions choose(k, E1, …, Em)
over every partition of the nodes (quoracle's search space), each Ei a
choose of its block. Systems below --resilience, or with no strategy within
the limits, are skipped.

The search stops after --budget (reporting "complete": false); the same
options and seed give the same answer.`,
		Example: `  coterie search --nodes nodes.csv --read-fraction 0.75 --f 1 --resilience 1 --latency-limit 4 --network-limit 4
  coterie search --n 9 --read-fraction 0.9 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(cmd.Context(), s, o)
		},
	}
	cmd.Flags().StringVar(&o.rw.nodes, "nodes", "", "CSV of the nodes: node,label,capacity,read_capacity,write_capacity,latency,p")
	cmd.Flags().IntVar(&o.n, "n", 0, "search over N identical nodes instead of a nodes file")
	addWorkloadFlags(cmd, &o.rw)
	cmd.Flags().IntVar(&o.resilience, "resilience", 1, "least overall resilience a system must have (how many node failures it survives; 0 allows systems that one failure stops)")
	addDomainsFlag(cmd, &o.rw)
	cmd.Flags().StringVar(&o.survive, "survive", "", "keep only systems that survive any K domains of a level failing: `LEVEL:K` (zone:1, or 2:1 with levels numbered from 1, the outermost); the domains are the domain column of --nodes")
	cmd.Flags().Uint64Var(&o.seed, "seed", 1, "seed of the random node orders tried for grids")
	cmd.Flags().IntVar(&o.shuffles, "shuffles", 2, "random node orders tried per grid shape")
	cmd.Flags().DurationVar(&o.budget, "budget", 30*time.Second, "time allowed for the search (0 = no limit)")
	addProbsFlag(cmd, &o.ps, []float64{0.99}, "probabilities a node is up, for availability, where the nodes file has no p (the first ranks the systems; each is reported)")
	addPNodeFlag(cmd, &o.pNode)
	cmd.Flags().IntVar(&o.partitions, "max-partition-nodes", 7, "largest n for which every partition of the nodes is tried")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	addOutputFlag(cmd, s)
	return cmd
}

// searchReport is the report (jsonreport.Search) with what its table
// says besides.
type searchReport struct {
	jsonreport.Search
	// stop says what stopped an incomplete search.
	stop string
	// noLatency: no node has a latency, so none is shown.
	noLatency bool
}

func runSearch(ctx context.Context, s *streams, o searchOptions) error {
	if (o.rw.nodes == "") == (o.n == 0) {
		return usageErrorf("search needs --nodes NODES.csv or --n N")
	}
	if o.n < 0 || o.n > 64 {
		return usageErrorf("--n must be in 1..64")
	}
	opts, ok, err := strategyOptions(o.rw)
	if err != nil {
		return err
	}
	if !ok {
		return usageErrorf("search needs --read-fraction")
	}
	var nodes []rw.Node
	var rows []format.NodeAttrs
	if o.n > 0 {
		nodes = nodesWith(o.n, make([]string, o.n), nil)
	} else {
		if nodes, rows, err = searchNodes(o.rw.nodes); err != nil {
			return err
		}
	}
	tree, level, k, err := searchDomains(o, nodes, rows)
	if err != nil {
		return err
	}
	if o.pNode != "" {
		labels := rw.OwnLabels(nodes)
		own, err := parsePNode(o.pNode, len(nodes), labels)
		if err != nil {
			return err
		}
		for v, p := range own {
			nodes[v].P = new(big.Rat).SetFloat64(p)
		}
	}
	sctx := ctx
	if o.budget > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, o.budget)
		defer cancel()
	}
	res, err := rw.Search(sctx, nodes, rw.SearchOptions{Options: opts, Resilience: o.resilience, Seed: o.seed,
		Shuffles: o.shuffles, P: o.ps[0], MaxPartitionNodes: o.partitions, Domains: tree, SurviveLevel: level, SurviveK: k})
	interrupted := ctx.Err() != nil
	if err != nil && !interrupted && !errors.Is(err, context.DeadlineExceeded) {
		if errors.Is(err, rw.ErrNoStrategy) {
			fmt.Fprintf(s.err, "coterie: no system among the %d tried meets the limits\n", res.Tried)
			return failed()
		}
		return usageErrorf("%v", err)
	}
	labels := make([]string, len(nodes))
	for v := range nodes {
		labels[v] = nodes[v].Label
		if labels[v] == "" {
			labels[v] = fmt.Sprint(v + 1)
		}
	}
	rep := &searchReport{Search: *jsonreport.FromSearch(res, len(nodes), labels, tree, interrupted)}
	if !latencyGiven(nodes) {
		rep.noLatency = true
	}
	switch {
	case res.Complete:
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		rep.stop = "stopped by --timeout"
	case ctx.Err() != nil:
		rep.stop = "interrupted"
	default:
		rep.stop = fmt.Sprintf("stopped by --budget %s", o.budget)
	}
	// The availability at every --p, for the systems reported (the search
	// ranked them by the first).
	at := func(c *rw.Candidate, j *jsonreport.SearchCandidate) error {
		if len(o.ps) < 2 || interrupted {
			return nil
		}
		avs, err := c.AvailabilityAt(ctx, nodes, tree, o.ps)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		for i, p := range o.ps {
			j.AvailabilityAt = append(j.AvailabilityAt, jsonreport.SearchAvPoint{P: p, Availability: avs[i]})
		}
		return nil
	}
	if rep.Best != nil {
		if err := at(res.Best, rep.Best); err != nil {
			return usageErrorf("%v", err)
		}
	}
	for i, c := range res.Pareto {
		if err := at(c, &rep.Pareto[i]); err != nil {
			return usageErrorf("%v", err)
		}
	}
	if werr := writeOutput(s, "", func(w io.Writer) error {
		if o.asJSON {
			return writeJSON(w, rep)
		}
		return rep.table(w)
	}); werr != nil {
		return werr
	}
	if interrupted {
		return ctx.Err()
	}
	if rep.Best == nil {
		fmt.Fprintf(s.err, "coterie: no system among the %d tried within the budget meets the limits\n", res.Tried)
		return failed()
	}
	return nil
}

// searchNodes reads the nodes file of a search: it defines the nodes, in
// its order.
func searchNodes(path string) ([]rw.Node, []format.NodeAttrs, error) {
	name := displayName(path)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, asInputError(name, 0, "cannot read: "+unwrapPath(err).Error())
	}
	u := format.NewUniverse(0, nil, false)
	rows, err := format.ReadNodes(data, func(name string) (int, bool) {
		b, err := u.Bind(expr.Named(name))
		if err != nil {
			return 0, false
		}
		return b[0].Node, true
	})
	if err != nil {
		var fe *format.SyntaxError
		if errors.As(err, &fe) {
			return nil, nil, asInputError(name, fe.Line, fe.Msg)
		}
		return nil, nil, asInputError(name, 0, err.Error())
	}
	if u.N == 0 {
		return nil, nil, asInputError(name, 0, "no nodes")
	}
	if u.N > 64 {
		return nil, nil, asInputError(name, 0, fmt.Sprintf("%d nodes; search handles at most 64", u.N))
	}
	nodes := nodesWith(u.N, u.Labels, rows)
	return nodes, rows, nil
}

func (rep *searchReport) table(w io.Writer) error {
	if rep.Best != nil {
		b := rep.Best
		fmt.Fprintf(w, "best: reads %s\n      writes %s\n      (%s)\n", b.Reads, b.Writes, b.Source)
	}
	var rows [][]string
	header := []string{"Pareto front: reads", "load", "capacity", "latency", "network", "availability (min of reads, writes)", "resilience"}
	if len(rep.Pareto) > 0 && len(rep.Pareto[0].AvailabilityAt) > 0 {
		header = header[:5]
		for i, a := range rep.Pareto[0].AvailabilityAt {
			h := "AV(" + strconv.FormatFloat(a.P, 'g', -1, 64) + ")"
			if i == 0 {
				h += ", min of reads, writes"
			}
			header = append(header, h)
		}
		header = append(header, "resilience")
	}
	for _, c := range rep.Pareto {
		lat := "-"
		if c.Latency != nil && !rep.noLatency {
			lat = secondsText(c.LatencyExact)
		}
		row := []string{c.Reads, c.LoadExact, c.CapacityExact, lat, c.NetworkLoadExact}
		if len(c.AvailabilityAt) == 0 {
			row = append(row, fmt.Sprintf("%.10g", c.Availability))
		}
		for _, a := range c.AvailabilityAt {
			row = append(row, fmt.Sprintf("%.10g", a.Availability))
		}
		rows = append(rows, append(append(row, fmt.Sprint(c.Resilience)), domainSummary(c.DomainResilience)...))
	}
	if len(rep.Pareto) > 0 && rep.Pareto[0].DomainResilience != nil {
		header = append(header, "domain resilience")
	}
	if err := renderTable(w, header, rows); err != nil {
		return err
	}
	state := "complete"
	if !rep.Complete {
		state = rep.stop
	}
	if _, err := fmt.Fprintf(w, "%d systems tried, %d feasible; search %s\n", rep.Tried, rep.Feasible, state); err != nil {
		return err
	}
	for _, f := range []string{"threshold", "grid", "construction", "domains", "domain-vote", "two-level"} {
		if rep.TriedBy[f] > 0 {
			fmt.Fprintf(w, "  %-13s %d tried, %d feasible\n", f, rep.TriedBy[f], rep.FeasibleBy[f])
		}
	}
	return nil
}
