package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// readStrategy reads a strategy file: {"reads": [{"quorum": [1, 2], "p":
// "1/2"}, …], "writes": […]} with 1-based node ids.
func readStrategy(path string, n int) (*rw.Strategy, error) {
	name := displayName(path)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, asInputError(name, 0, "cannot read: "+unwrapPath(err).Error())
	}
	var sj jsonreport.Strategy
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sj); err != nil {
		return nil, asInputError(name, 0, "not a strategy file: "+err.Error())
	}
	st, err := sj.RW(n)
	if err != nil {
		return nil, asInputError(name, 0, err.Error())
	}
	return st, nil
}

// runRWInfo is `coterie info` on a read-write system.
func runRWInfo(ctx context.Context, s *streams, o rwOptions, in inputOptions, args []string, strategyFile string, asJSON bool) error {
	if strategyFile != "" && len(args) == 1 && o.reads == "" && o.writes == "" && !fileExists(args[0]) {
		return asInputError(args[0], 0, "cannot read: no such file")
	}
	ld, err := loadRWDomains(ctx, s, o, in, args)
	if err != nil {
		return err
	}
	sys := ld.sys
	opts, ok, err := strategyOptions(o)
	if err != nil {
		return err
	}
	if !ok && strategyFile != "" {
		return usageErrorf("--strategy FILE needs --read-fraction: the workload to evaluate it under")
	}
	ao := analysis.RWOptions{Limit: o.limit, Domains: ld.tree, Intersection: true, WriteWrite: true, Points: o.ps}
	if ok {
		ao.Strategy = &opts
		if strategyFile != "" {
			if ao.Evaluate, err = readStrategy(strategyFile, sys.N); err != nil {
				return err
			}
		}
	}
	res, err := analysis.ReadWrite(ctx, sys, ao)
	if err != nil {
		return rwAnalysisError(s, err, "", strategyFile)
	}
	ro := jsonreport.RWInfoOptions{Down: ld.downNames, Domains: ld.tree, Evaluated: strategyFile != "", Latency: latencyGiven(sys.Nodes)}
	if ok {
		ro.Strategy = &opts
	}
	rep := jsonreport.FromRWInfo(sys, res, ro)
	return writeOutput(s, "", func(w io.Writer) error {
		if asJSON {
			return writeJSON(w, rep)
		}
		return rwInfoTable(w, rep, outputWidth(s))
	})
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func rwInfoTable(w io.Writer, rep *jsonreport.RWInfo, width int) error {
	var rows [][]string
	add := func(k, v string) { rows = append(rows, []string{k, v}) }
	add("nodes", fmt.Sprint(rep.N))
	// An expression too long for the output goes on several rows.
	for _, e := range []struct{ k, v string }{{"reads", rep.Reads}, {"writes", rep.Writes}} {
		for i, part := range wrapExpr(e.v, width-len("│ writes meet writes │  │")) {
			if i == 0 {
				add(e.k, part)
			} else {
				add("", part)
			}
		}
	}
	if rep.ReadQuorums != nil {
		add("read quorums", rep.ReadQuorums.String())
	}
	if rep.WriteQuorums != nil {
		add("write quorums", rep.WriteQuorums.String())
	}
	names := func(ids []int) string {
		var out []string
		for _, v := range ids {
			if v-1 < len(rep.Labels) && rep.Labels[v-1] != "" {
				out = append(out, rep.Labels[v-1])
			} else {
				out = append(out, fmt.Sprint(v))
			}
		}
		return "{" + strings.Join(out, ", ") + "}"
	}
	add("read resilience", fmt.Sprintf("%d (%s fail: no read quorum)", rep.ReadResilience, names(rep.ReadFailures)))
	add("write resilience", fmt.Sprintf("%d (%s fail: no write quorum)", rep.WriteResilience, names(rep.WriteFailures)))
	for _, j := range rep.DomainResilience {
		add(domainResLabel(j), domainResText(j))
	}
	if rep.Down != nil {
		add("down", strings.Join(rep.Down, ", "))
	}
	add("resilience", fmt.Sprint(rep.Resilience))
	if rep.Intersection != nil {
		add("reads meet writes", fmt.Sprint(*rep.Intersection))
	}
	if rep.WriteWrite != nil {
		add("writes meet writes", fmt.Sprint(*rep.WriteWrite))
	}
	exact := func(k string, v *float64, e string) {
		if v != nil {
			add(k, fmt.Sprintf("%.10g (%s)", *v, e))
		}
	}
	if rep.ReadFraction != "" {
		add("read fraction", rep.ReadFraction)
	}
	exact("load", rep.Load, rep.LoadExact)
	exact("capacity", rep.Capacity, rep.CapacityExact)
	if rep.Latency != nil {
		add("latency", secondsText(rep.LatencyExact))
	}
	exact("network load", rep.NetworkLoad, rep.NetworkLoadExact)
	if st := rep.Strategy; st != nil && !st.Uniform {
		for _, c := range st.Reads {
			add("read "+names(c.Quorum), strings.Trim(string(c.P), `"`))
		}
		for _, c := range st.Writes {
			add("write "+names(c.Quorum), strings.Trim(string(c.P), `"`))
		}
	}
	for _, a := range rep.Availability {
		mark := ""
		if !a.Exact {
			mark = "≈"
		}
		v := strconv.FormatFloat(a.P, 'g', -1, 64)
		add("reads AV("+v+")", mark+strconv.FormatFloat(a.Reads, 'f', 6, 64))
		add("writes AV("+v+")", mark+strconv.FormatFloat(a.Writes, 'f', 6, 64))
	}
	for _, n := range rep.Notes {
		add("note", n)
	}
	return renderTable(w, []string{"figure", "value"}, rows)
}

// nodeNames formats a set with the system's labels: {a, b}.
func nodeNames(sys *rw.System, q *set.Set) string {
	var names []string
	for _, v := range q.Elements() {
		names = append(names, sys.Label(v))
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// runRWVerify checks a read-write system: every read quorum meets every
// write quorum (a failure names a disjoint pair), and, as information or
// with requireWW as a check, every two write quorums meet.
func runRWVerify(ctx context.Context, s *streams, o rwOptions, in inputOptions, args []string, asJSON bool) error {
	sys, err := loadRW(ctx, s, o, in, args)
	if err != nil {
		return err
	}
	rwRes, err := sys.ReadWrite(ctx, o.limit)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return usageErrorf("%v (raise --limit)", err)
	}
	var wwp *rw.Intersection
	ww, err := sys.WriteWrite(ctx, o.limit)
	switch {
	case err == nil:
		wwp = &ww
	case o.requireWW:
		return usageErrorf("write intersection: %v (raise --limit)", err)
	}
	rep := jsonreport.FromRWVerify(sys, rwRes, wwp, o.requireWW)
	err = writeOutput(s, "", func(w io.Writer) error {
		if asJSON {
			return writeJSON(w, rep)
		}
		for _, c := range rep.Checks {
			verdict := "ok"
			if !c.OK {
				verdict = "FAILS"
				if c.Info {
					verdict = "no (information)"
				}
			}
			fmt.Fprintf(w, "%-20s %s", c.Name, verdict)
			if c.Text != "" {
				fmt.Fprintf(w, ": %s", c.Text)
			}
			fmt.Fprintln(w)
		}
		if rep.Valid {
			_, err := fmt.Fprintln(w, "valid read-write quorum system")
			return err
		}
		_, err := fmt.Fprintln(w, "NOT a valid read-write quorum system")
		return err
	})
	if err != nil {
		return err
	}
	if !rep.Valid {
		return failed()
	}
	return nil
}

// rwAnalysisError maps the failure of a read-write figure to the command's
// error: label, when not empty, names the system; strategyFile is the
// strategy evaluated, if any.
func rwAnalysisError(s *streams, err error, label, strategyFile string) error {
	var fe *analysis.FigureError
	if !errors.As(err, &fe) {
		return err
	}
	prefix := ""
	if label != "" {
		prefix = label + ": "
	}
	switch fe.Figure {
	case analysis.ReadResilience, analysis.WriteResilience:
		return rwFigureError(fe.Err, "%s%s: %v", prefix, fe.Figure, fe.Err)
	case analysis.Strategy:
		if strategyFile != "" {
			return asInputError(displayName(strategyFile), 0, rwMsg(fe.Err))
		}
		if label != "" {
			return strategyError(s, fmt.Errorf("%s: %w", label, fe.Err))
		}
		return strategyError(s, fe.Err)
	case analysis.Availability:
		if errors.Is(fe.Err, set.ErrTooMany) {
			return usageErrorf("availability: %v", fe.Err)
		}
	case analysis.DomainResilience:
		if label != "" {
			return fmt.Errorf("%s: %w", label, fe.Err)
		}
	}
	return fe.Err
}
