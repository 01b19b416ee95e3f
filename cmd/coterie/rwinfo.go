package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// rwInfoReport is `coterie info`'s report on a read-write system; the
// strategy fields appear with --read-fraction.
type rwInfoReport struct {
	N             int      `json:"n"`
	Labels        []string `json:"labels,omitempty"`
	Reads         string   `json:"reads"`
	Writes        string   `json:"writes"`
	WritesDerived bool     `json:"writes_derived,omitempty"`
	ReadsDerived  bool     `json:"reads_derived,omitempty"`
	ReadQuorums   *number  `json:"read_quorums,omitempty"`
	WriteQuorums  *number  `json:"write_quorums,omitempty"`
	rwResilienceJSON
	// ReadFailures and WriteFailures are smallest sets of nodes whose
	// failure leaves no read (write) quorum.
	ReadFailures  []int `json:"read_failures"`
	WriteFailures []int `json:"write_failures"`
	Intersection  *bool `json:"intersection,omitempty"`
	WriteWrite    *bool `json:"write_write_intersection,omitempty"`
	// DomainResilience gives, per level of the failure domains, how many
	// domains may fail (domainres.go); Down what --down failed.
	DomainResilience []domainResJSON `json:"domain_resilience,omitempty"`
	Down             []string        `json:"down,omitempty"`

	ReadFraction string `json:"read_fraction,omitempty"`
	F            int    `json:"f,omitempty"`
	Optimize     string `json:"optimize,omitempty"`
	rwMetricsJSON
	Strategy     *strategyJSON `json:"strategy,omitempty"`
	Availability []rwAvPoint   `json:"availability,omitempty"`
	Notes        []string      `json:"notes,omitempty"`
}

// rwResilienceJSON is a read-write system's resilience, as its reports
// give it: how many node failures leave a read quorum, a write quorum, and
// both.
type rwResilienceJSON struct {
	ReadResilience  int `json:"read_resilience"`
	WriteResilience int `json:"write_resilience"`
	Resilience      int `json:"resilience"`
}

// newRWResilience is the resilience of a system whose reads survive read
// failures and writes write failures.
func newRWResilience(read, write int) rwResilienceJSON {
	return rwResilienceJSON{read, write, min(read, write)}
}

// rwLoadJSON is a strategy's load and capacity, as a float and an exact
// fraction each.
type rwLoadJSON struct {
	Load          *float64 `json:"load,omitempty"`
	LoadExact     string   `json:"load_exact,omitempty"`
	Capacity      *float64 `json:"capacity,omitempty"`
	CapacityExact string   `json:"capacity_exact,omitempty"`
}

// rwMetricsJSON is every figure of a strategy, as reports give them.
type rwMetricsJSON struct {
	rwLoadJSON
	Latency          *float64 `json:"latency,omitempty"`
	LatencyExact     string   `json:"latency_exact,omitempty"`
	NetworkLoad      *float64 `json:"network_load,omitempty"`
	NetworkLoadExact string   `json:"network_load_exact,omitempty"`
}

// strategyJSON is a strategy as reports and strategy files hold it.
type strategyJSON struct {
	Format       string       `json:"format,omitempty"`
	N            int          `json:"n,omitempty"`
	Labels       []string     `json:"labels,omitempty"`
	ReadFraction string       `json:"read_fraction,omitempty"`
	Uniform      bool         `json:"uniform,omitempty"`
	Reads        []choiceJSON `json:"reads"`
	Writes       []choiceJSON `json:"writes"`
}

type choiceJSON struct {
	Quorum []int           `json:"quorum"`
	P      json.RawMessage `json:"p"` // "1/2" on output; a string or number on input
}

// strategyFormat tags a saved strategy file.
const strategyFormat = "coterie-strategy/1"

func toStrategyJSON(st *rw.Strategy) *strategyJSON {
	out := &strategyJSON{Uniform: st.Uniform, Reads: []choiceJSON{}, Writes: []choiceJSON{}}
	for _, side := range []struct {
		in  []rw.Choice
		dst *[]choiceJSON
	}{{st.Reads, &out.Reads}, {st.Writes, &out.Writes}} {
		for _, c := range side.in {
			p, _ := json.Marshal(c.P.RatString())
			*side.dst = append(*side.dst, choiceJSON{Quorum: ids(c.Quorum), P: p})
		}
	}
	return out
}

// readStrategy reads a strategy file: {"reads": [{"quorum": [1, 2], "p":
// "1/2"}, …], "writes": […]} with 1-based node ids.
func readStrategy(path string, n int) (*rw.Strategy, error) {
	name := displayName(path)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, asInputError(name, 0, "cannot read: "+unwrapPath(err).Error())
	}
	var sj strategyJSON
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sj); err != nil {
		return nil, asInputError(name, 0, "not a strategy file: "+err.Error())
	}
	if sj.Uniform {
		return &rw.Strategy{Uniform: true}, nil
	}
	st := &rw.Strategy{}
	for _, side := range []struct {
		in  []choiceJSON
		dst *[]rw.Choice
		who string
	}{{sj.Reads, &st.Reads, "reads"}, {sj.Writes, &st.Writes, "writes"}} {
		for i, c := range side.in {
			q := set.New(n)
			for _, v := range c.Quorum {
				if v < 1 || v > n {
					return nil, asInputError(name, 0, fmt.Sprintf("%s entry %d: node %d is not in 1..%d", side.who, i+1, v, n))
				}
				q.Add(v - 1)
			}
			var ps string
			if json.Unmarshal(c.P, &ps) != nil {
				ps = string(c.P)
			}
			p, ok := new(big.Rat).SetString(ps)
			if !ok {
				return nil, asInputError(name, 0, fmt.Sprintf("%s entry %d: probability %s is not a number", side.who, i+1, c.P))
			}
			*side.dst = append(*side.dst, rw.Choice{Quorum: q, P: p})
		}
	}
	return st, nil
}

// metricsJSON is m as reports give it; a capacity of 0 is left out.
func metricsJSON(m *rw.Metrics) rwMetricsJSON {
	f := func(r *big.Rat) (*float64, string) {
		if r == nil {
			return nil, ""
		}
		v := ratFloat(r)
		return &v, r.RatString()
	}
	var j rwMetricsJSON
	j.Load, j.LoadExact = f(m.Load)
	if m.Capacity != nil && m.Capacity.Sign() > 0 {
		j.Capacity, j.CapacityExact = f(m.Capacity)
	}
	j.Latency, j.LatencyExact = f(m.Latency)
	j.NetworkLoad, j.NetworkLoadExact = f(m.Network)
	return j
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
	rep := &rwInfoReport{N: sys.N, Down: ld.downNames, Reads: shortExpr(sys, &sys.Reads, "reads"), Writes: shortExpr(sys, &sys.Writes, "writes"),
		WritesDerived: sys.WritesDerived, ReadsDerived: sys.ReadsDerived}
	for v := range sys.N {
		if sys.Nodes[v].Label != "" {
			rep.Labels = make([]string, sys.N)
			for u := range sys.N {
				rep.Labels[u] = sys.Nodes[u].Label
			}
			break
		}
	}
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
	if res.ReadQuorums != nil {
		rep.ReadQuorums = &number{V: res.ReadQuorums}
	}
	if res.WriteQuorums != nil {
		rep.WriteQuorums = &number{V: res.WriteQuorums}
	}
	rep.rwResilienceJSON = newRWResilience(res.Read.F, res.Write.F)
	rep.ReadFailures, rep.WriteFailures = ids(res.Read.Witness), ids(res.Write.Witness)
	if ld.tree != nil {
		var notes []string
		rep.DomainResilience, notes = domainResilience(res, ld.tree)
		rep.Notes = append(rep.Notes, notes...)
	}
	if res.Intersection != nil {
		rep.Intersection = &res.Intersection.OK
	} else if res.IntersectionErr != nil {
		rep.Notes = append(rep.Notes, "intersection not checked: "+res.IntersectionErr.Error())
	}
	if res.WriteWrite != nil {
		rep.WriteWrite = &res.WriteWrite.OK
	}
	if ok {
		rep.ReadFraction = opts.Workload.String()
		if strategyFile == "" {
			rep.F, rep.Optimize = opts.F, string(opts.Optimize)
		}
		st, m := res.Strategy, res.Metrics
		rep.rwMetricsJSON = metricsJSON(m)
		rep.Strategy = toStrategyJSON(st)
		if st.Uniform {
			rep.Notes = append(rep.Notes, "strategy: uniform over the smallest quorums of each side (closed form: the system is symmetric and the capacities equal)")
		}
		switch {
		case !latencyGiven(sys.Nodes):
			rep.Latency, rep.LatencyExact = nil, ""
		case m.Latency == nil:
			rep.Notes = append(rep.Notes, "latency: not computed for the uniform strategy over unequal latencies")
		}
	} else {
		rep.Notes = append(rep.Notes, "give --read-fraction for load, capacity, latency and network load")
	}
	rep.Availability = rwAvPoints(res.Availability)
	return writeOutput(s, "", func(w io.Writer) error {
		if asJSON {
			return writeJSON(w, rep)
		}
		return rep.table(w, outputWidth(s))
	})
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func (rep *rwInfoReport) table(w io.Writer, width int) error {
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

// rwVerifyReport is `coterie verify`'s report on a read-write system.
type rwVerifyReport struct {
	Valid  bool          `json:"valid"`
	N      int           `json:"n"`
	Checks []rwCheckJSON `json:"checks"`
}

type rwCheckJSON struct {
	Name    string         `json:"name"`
	OK      bool           `json:"ok"`
	Info    bool           `json:"info,omitempty"`
	Witness map[string]any `json:"witness,omitempty"`
	Detail  string         `json:"detail,omitempty"`

	text string // the witness for people, with labels
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
	rep := &rwVerifyReport{Valid: true, N: sys.N}
	rwRes, err := sys.ReadWrite(ctx, o.limit)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return usageErrorf("%v (raise --limit)", err)
	}
	c := rwCheckJSON{Name: "intersection", OK: rwRes.OK}
	if !rwRes.OK {
		c.Witness = map[string]any{"read": ids(rwRes.Read), "write": ids(rwRes.Write)}
		c.text = fmt.Sprintf("read quorum %s misses write quorum %s", nodeNames(sys, rwRes.Read), nodeNames(sys, rwRes.Write))
		rep.Valid = false
	}
	rep.Checks = append(rep.Checks, c)
	ww, err := sys.WriteWrite(ctx, o.limit)
	if err == nil {
		c := rwCheckJSON{Name: "write_intersection", OK: ww.OK, Info: !o.requireWW}
		if !ww.OK {
			c.Witness = map[string]any{"writes": [][]int{ids(ww.Read), ids(ww.Write)}}
			c.text = fmt.Sprintf("write quorums %s and %s do not meet", nodeNames(sys, ww.Read), nodeNames(sys, ww.Write))
			if o.requireWW {
				rep.Valid = false
			}
		}
		rep.Checks = append(rep.Checks, c)
	} else if o.requireWW {
		return usageErrorf("write intersection: %v (raise --limit)", err)
	}
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
			if c.text != "" {
				fmt.Fprintf(w, ": %s", c.text)
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

// maxExprReport is the longest expression info prints; a longer one (a long
// list of quorums) is summarised.
const maxExprReport = 4096

// shortExpr prints a side's expression, or says how to list it when it is
// too long to read.
func shortExpr(sys *rw.System, sd *rw.Side, name string) string {
	e := labelled(sys, sd.Expr)
	if len(e) <= maxExprReport {
		return e
	}
	return fmt.Sprintf("(%d characters; list the quorums with 'coterie quorums --side %s')", len(e), name)
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

// rwAvPoints is the availability of reads and writes as reports give it.
func rwAvPoints(pts []rw.AvPoint) []rwAvPoint {
	if pts == nil {
		return nil
	}
	out := make([]rwAvPoint, len(pts))
	for i, pt := range pts {
		out[i] = rwAvPoint(pt)
	}
	return out
}
