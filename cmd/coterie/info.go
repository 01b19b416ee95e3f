package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/measure"
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
			rep := newInfoReport(res, o.figures, o.strategy != "", false)
			// A stopped report (err != nil) is printed, marked partial,
			// before the command ends with its error.
			werr := writeOutput(s, "", func(w io.Writer) error {
				if o.asJSON {
					return writeJSON(w, rep)
				}
				return rep.table(w, displayName(args[0]))
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

// number is an exact count: a JSON number up to 2^53 in size, which every
// JSON reader holds exactly, and a decimal string beyond.
type number struct{ v *big.Int }

// maxExact is 2^53, the largest integer every JSON reader holds exactly.
var maxExact = new(big.Int).Lsh(big.NewInt(1), 53)

func (x number) MarshalJSON() ([]byte, error) {
	if new(big.Int).Abs(x.v).Cmp(maxExact) <= 0 {
		return []byte(x.v.String()), nil
	}
	return json.Marshal(x.v.String())
}

// real is a figure computed exactly and shown as a float. In JSON it keeps
// the rule of [number]: a JSON number up to 2^53 in size, and beyond (a
// mean degree of 5.9·10^16 or 10^308, say) a string: the exact decimal when
// the value is a whole number, otherwise scientific notation with 17
// significant digits. It is never Infinity.
type real struct{ r *big.Rat }

// float returns the value as a float64 (±Inf beyond the range).
func (x real) float() float64 { v, _ := x.r.Float64(); return v }

// huge reports whether the value is beyond a float64.
func (x real) huge() bool { return math.IsInf(x.float(), 0) }

func (x real) MarshalJSON() ([]byte, error) {
	if new(big.Rat).Abs(x.r).Cmp(new(big.Rat).SetInt(maxExact)) <= 0 {
		return json.Marshal(x.float())
	}
	if x.r.IsInt() {
		return json.Marshal(x.r.Num().String())
	}
	return json.Marshal(new(big.Float).SetPrec(128).SetRat(x.r).Text('e', 16))
}

func (x real) sci() string { return new(big.Float).SetRat(x.r).Text('e', 4) }

// text formats the value with at most four decimals, in scientific
// notation beyond a float64.
func (x real) text() string {
	if x.huge() {
		return x.sci()
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", x.float()), "0"), ".")
}

func (x number) String() string { return x.v.String() }

type spread struct {
	Min  number `json:"min"`
	Mean real   `json:"mean"`
	Max  number `json:"max"`
}

type maekawaProps struct {
	OwnerInQuorum       *bool `json:"owner_in_quorum"` // null: the file has no owners
	EqualSize           bool  `json:"equal_size"`
	EqualResponsibility bool  `json:"equal_responsibility"`
}

// familyInfo is the report on one family (a whole coterie or k-arbiter, or
// one level of an (h,k)-arbiter).
type familyInfo struct {
	H                int          `json:"h,omitempty"`
	Quorums          number       `json:"quorums"`
	Threshold        int          `json:"threshold,omitempty"`
	QuorumSize       spread       `json:"quorum_size"`
	Degree           spread       `json:"degree"`
	Maekawa          maekawaProps `json:"maekawa"`
	MessagesPerEntry float64      `json:"messages_per_entry"`
	Messages         messagesInfo `json:"messages"`

	Load              *float64        `json:"load,omitempty"`
	LoadExact         string          `json:"load_exact,omitempty"`
	LoadMethod        string          `json:"load_method,omitempty"`
	Capacity          *float64        `json:"capacity,omitempty"`
	CapacityExact     string          `json:"capacity_exact,omitempty"`
	NetworkLoad       *float64        `json:"network_load,omitempty"`
	Strategy          []strategyEntry `json:"strategy,omitempty"`
	Resilience        *int            `json:"resilience,omitempty"`
	ResilienceWitness []int           `json:"resilience_witness,omitempty"`
	// Availability is given at each --p (info --p, compare).
	Availability []avPoint `json:"availability,omitempty"`
	// Proved bounds where the exact figure is beyond the work limits:
	// load_method "bounds" with load_lower ≤ load ≤ load_upper (exact
	// fractions in the _exact fields), and resilience_lower ≤ resilience
	// ≤ resilience_upper (resilience_witness then reaches the upper one).
	LoadLower       *float64 `json:"load_lower,omitempty"`
	LoadUpper       *float64 `json:"load_upper,omitempty"`
	LoadLowerExact  string   `json:"load_lower_exact,omitempty"`
	LoadUpperExact  string   `json:"load_upper_exact,omitempty"`
	ResilienceLower *int     `json:"resilience_lower,omitempty"`
	ResilienceUpper *int     `json:"resilience_upper,omitempty"`
	Notes           []string `json:"notes,omitempty"`

	// The largest b of a b-masking and a b-dissemination system
	// (Malkhi–Reiter); see measureByzantine.
	ByzantineBMax              *int `json:"byzantine_b_max,omitempty"`
	ByzantineBMaxDissemination *int `json:"byzantine_b_max_dissemination,omitempty"`

	messagesExact *big.Rat
	resWitness    []int // 0-based
	msgs          measure.Messages
	loadExact     *big.Rat
}

// messagesInfo are the messages per entry of each protocol (see
// measure.Messages).
type messagesInfo struct {
	MaekawaLight    float64  `json:"maekawa_light"`
	MaekawaHeavyMax float64  `json:"maekawa_heavy_max"`
	OrderedLocking  float64  `json:"ordered_locking"`
	HKBest          *float64 `json:"hk_best,omitempty"`
	HKWorst         *float64 `json:"hk_worst,omitempty"`
}

type strategyEntry struct {
	Quorum int     `json:"quorum"` // 1-based position
	Weight float64 `json:"weight"`
	Exact  string  `json:"exact,omitempty"`
}

type infoReport struct {
	N      int        `json:"n"`
	K      int        `json:"k"`
	Kind   string     `json:"kind,omitempty"`
	Params set.Params `json:"params,omitempty"`
	*familyInfo
	Levels []familyInfo `json:"levels,omitempty"`
	// Partial is set when --timeout or Ctrl-C stopped the report: the
	// figures present are proved, a note names the one stopped, and the
	// levels after it of an (h,k)-arbiter are missing.
	Partial bool `json:"partial,omitempty"`
}

// options are the analysis options of the figure flags.
func (o figureOptions) options() analysis.Options {
	return analysis.Options{Budget: o.budget, StrictBudget: true, NoLoad: o.noLoad, NoResilience: o.noResilience, MaxMemory: o.maxMem}
}

// newFamilyInfo is the report on the figures of one family. budget is the
// --budget the notes name; strategy lists the load's optimal strategy;
// partialAV keeps the availability points found before the command was
// stopped, with a note (compare), where info leaves them out.
func newFamilyInfo(fa *analysis.Family, fo figureOptions, strategy, partialAV bool) familyInfo {
	budget := fo.budget
	f, st := fa.F, fa.Stats
	fl := func(r *big.Rat) float64 { v, _ := r.Float64(); return v }
	fi := familyInfo{
		H:         f.H,
		Quorums:   number{st.Quorums},
		Threshold: f.Threshold,
		QuorumSize: spread{Min: number{big.NewInt(int64(st.MinSize))}, Mean: real{st.MeanSize()},
			Max: number{big.NewInt(int64(st.MaxSize))}},
		Degree:  spread{Min: number{st.MinDegree}, Mean: real{st.MeanDegree()}, Max: number{st.MaxDegree}},
		Maekawa: maekawaProps{EqualSize: st.EqualSize(), EqualResponsibility: st.EqualDegree()},
	}
	if st.HasOwners {
		ok := st.OwnersInQuorums
		fi.Maekawa.OwnerInQuorum = &ok
	}
	fi.msgs = fa.Messages
	fi.messagesExact = fi.msgs.MaekawaLight
	fi.MessagesPerEntry = fl(fi.messagesExact)
	fi.Messages = messagesInfo{
		MaekawaLight:    fl(fi.msgs.MaekawaLight),
		MaekawaHeavyMax: fl(fi.msgs.MaekawaHeavyMax),
		OrderedLocking:  fl(fi.msgs.Ordered),
	}
	if fi.msgs.HKBest != nil {
		b, w := fl(fi.msgs.HKBest), fl(fi.msgs.HKWorst)
		fi.Messages.HKBest, fi.Messages.HKWorst = &b, &w
	}
	fi.setLoad(fa, budget, strategy)
	fi.setResilience(fa, budget)
	fi.setByzantine(fa)
	fi.setAvailability(fa, fo, partialAV)
	return fi
}

// statusNote is the note on a figure that was not had, or "" when there
// is nothing to say.
func statusNote(name string, st analysis.Status, budget time.Duration) string {
	switch st.Reason {
	case analysis.Unsupported:
		return name + ": " + st.Detail + "; not computed"
	case analysis.OutOfBudget:
		return fmt.Sprintf("%s: not found within --budget %s; raise it, or 0 for no limit", name, budget)
	case analysis.Stopped:
		return name + ": stopped before it was found (partial report)"
	}
	return ""
}

func (fi *familyInfo) note(n string) {
	if n != "" {
		fi.Notes = append(fi.Notes, n)
	}
}

// setLoad sets load, capacity, network load and the strategy.
func (fi *familyInfo) setLoad(fa *analysis.Family, budget time.Duration, strategy bool) {
	l := fa.Load
	if l == nil {
		fi.note(statusNote("load", fa.LoadStatus, budget))
		return
	}
	if l.Method == measure.MethodBounds {
		lo, _ := l.Lower.Float64()
		up, _ := l.Upper.Float64()
		fi.LoadMethod = string(l.Method)
		fi.LoadLower, fi.LoadUpper = &lo, &up
		fi.LoadLowerExact, fi.LoadUpperExact = l.Lower.RatString(), l.Upper.RatString()
		fi.note("load: the exact linear program is beyond the work limit; proved bounds only, from a strategy (upper) and a distribution on the nodes (lower)")
		return
	}
	value, network := l.Value, l.NetworkLoad
	fi.Load, fi.LoadMethod, fi.loadExact = &value, string(l.Method), l.Exact
	cv, ce := l.Capacity()
	fi.Capacity, fi.NetworkLoad = &cv, &network
	if l.Exact != nil {
		fi.LoadExact, fi.CapacityExact = l.Exact.RatString(), ce.RatString()
	}
	if strategy {
		for _, w := range l.Strategy {
			e := strategyEntry{Quorum: w.Quorum + 1, Weight: w.W}
			if w.Exact != nil {
				e.Exact = w.Exact.RatString()
			}
			fi.Strategy = append(fi.Strategy, e)
		}
		if fa.F.IsThreshold() {
			fi.note("strategy: uniform over all quorums (every w-subset equally likely)")
		}
	}
}

// setResilience sets the resilience (or its bounds) and the witness.
func (fi *familyInfo) setResilience(fa *analysis.Family, budget time.Duration) {
	r := fa.Resilience
	if r == nil {
		fi.note(statusNote("resilience", fa.ResilienceStatus, budget))
		return
	}
	f := r.F
	if r.Bounded {
		lo := r.Lower
		fi.ResilienceLower, fi.ResilienceUpper = &lo, &f
		fi.note("resilience: the smallest transversal is not proved within the work limit; proved bounds only")
	} else {
		fi.Resilience = &f
	}
	if !fa.F.IsThreshold() {
		fi.resWitness = r.Witness.Elements()
		for _, v := range fi.resWitness {
			fi.ResilienceWitness = append(fi.ResilienceWitness, v+1)
		}
	}
}

// setByzantine sets byzantine_b_max (b-masking) and
// byzantine_b_max_dissemination, each left out when there is none.
func (fi *familyInfo) setByzantine(fa *analysis.Family) {
	st := fa.ByzantineStatus
	switch {
	case fa.Byzantine != nil:
		if m := fa.Byzantine.Masking; m >= 0 {
			fi.ByzantineBMax = &m
		}
		if d := fa.Byzantine.Dissemination; d >= 0 {
			fi.ByzantineBMaxDissemination = &d
		}
	case st.Reason == analysis.TooLarge:
		fi.note(fmt.Sprintf("byzantine_b_max: not computed for more than %d quorums", analysis.MaxByzantineQuorums))
	case st.Reason == analysis.WorkLimit, st.Reason == analysis.OutOfBudget:
		fi.note("byzantine_b_max: " + st.Detail + "; not computed")
	}
}

// setAvailability sets the availability at each p.
func (fi *familyInfo) setAvailability(fa *analysis.Family, fo figureOptions, partial bool) {
	switch fa.AvailabilityStatus.Reason {
	case analysis.OutOfBudget:
		fi.note(fmt.Sprintf("availability: not found within --budget %s; raise it, or 0 for no limit", fo.budget))
		return
	case analysis.OverMemory:
		fi.note(fmt.Sprintf("availability: not found within the memory budget (--max-memory %s); raise it, or 0 for no limit", format.ByteSize(fo.maxMem)))
		return
	case analysis.Stopped:
		if !partial {
			return
		}
	}
	for _, pt := range fa.Availability {
		u := pt.U
		a := avPoint{P: pt.P, Availability: pt.AV, Exact: pt.Exact, u: u,
			Unavailability: json.Number(u2s(u, 10)), DowntimePerYear: json.Number(downtimeNumber(u))}
		if n := ninesNumber(u); n != "" {
			num := json.Number(n)
			a.Nines = &num
		}
		fi.Availability = append(fi.Availability, a)
	}
	if fa.AvailabilityStatus.Reason == analysis.Stopped {
		fi.note("availability: stopped before it was found (partial report)")
	}
}

// newInfoReport is the report on the figures of a system (see
// newFamilyInfo for the flags).
func newInfoReport(res *analysis.System, fo figureOptions, strategy, partialAV bool) *infoReport {
	rep := &infoReport{N: res.N, K: res.K, Kind: res.Kind, Params: res.Params,
		Partial: res.Stopped != 0 && res.Stopped != analysis.Availability}
	for i := range res.Families {
		fi := newFamilyInfo(&res.Families[i], fo, strategy, partialAV)
		if !res.Levels {
			rep.familyInfo = &fi
			break
		}
		rep.Levels = append(rep.Levels, fi)
	}
	return rep
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

func (rep *infoReport) table(w io.Writer, name string) error {
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
	fams := rep.Levels
	if rep.familyInfo != nil {
		fams = []familyInfo{*rep.familyInfo}
	}
	for _, fi := range fams {
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
			[]string{prefix + "messages per entry (light demand)", decimal(fi.messagesExact)},
			[]string{prefix + "  Maekawa, heavy demand (at most)", decimal(fi.msgs.MaekawaHeavyMax)},
			[]string{prefix + "  ordered locking (Kakugawa et al.)", decimal(fi.msgs.Ordered)},
		)
		if fi.msgs.HKBest != nil {
			rows = append(rows, []string{prefix + "  h-out-of-k (no conflict / worst)",
				decimal(fi.msgs.HKBest) + " / " + decimal(fi.msgs.HKWorst)})
		}
		if fi.Load != nil {
			load := decimal(new(big.Rat).SetFloat64(*fi.Load))
			capacity := decimal(new(big.Rat).SetFloat64(*fi.Capacity))
			if fi.loadExact != nil {
				load = fi.LoadExact + " = " + decimal(fi.loadExact)
				c := new(big.Rat).Inv(fi.loadExact)
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
				res += fmt.Sprintf(" (failing %s stops every quorum)", nodeList(fi.resWitness))
			}
			rows = append(rows, []string{prefix + "resilience", res})
		}
		if fi.ResilienceLower != nil {
			res := fmt.Sprintf("between %d and %d", *fi.ResilienceLower, *fi.ResilienceUpper)
			if len(fi.ResilienceWitness) > 0 {
				res += fmt.Sprintf(" (failing %s stops every quorum)", nodeList(fi.resWitness))
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
			c := compareRow{familyInfo: fi}
			mark := ""
			if !a.Exact {
				mark = "≈"
			}
			rows = append(rows, []string{prefix + "availability AV(" + v + ")", compareAVCell(c, k)},
				[]string{prefix + "  nines, downtime per year", mark + ninesText(a.u) + ", " + mark + downtimeText(availability.Downtime(a.u))})
		}
		for _, n := range fi.Notes {
			rows = append(rows, []string{prefix + "note", n})
		}
	}
	return renderTable(w, []string{"property", "value"}, rows)
}

func spreadString(s spread) string {
	if s.Min.v.Cmp(s.Max.v) == 0 {
		return s.Min.String()
	}
	return fmt.Sprintf("min %s, mean %s, max %s", s.Min, s.Mean.text(), s.Max)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
