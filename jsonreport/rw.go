package jsonreport

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// RWInfo is the report of `coterie info --json` on a read-write system;
// the strategy fields appear with --read-fraction.
type RWInfo struct {
	N             int      `json:"n"`
	Labels        []string `json:"labels,omitempty"`
	Reads         string   `json:"reads"`
	Writes        string   `json:"writes"`
	WritesDerived bool     `json:"writes_derived,omitempty"`
	ReadsDerived  bool     `json:"reads_derived,omitempty"`
	ReadQuorums   *Number  `json:"read_quorums,omitempty"`
	WriteQuorums  *Number  `json:"write_quorums,omitempty"`
	RWResilience
	// ReadFailures and WriteFailures are smallest sets of nodes whose
	// failure leaves no read (write) quorum.
	ReadFailures  []int `json:"read_failures"`
	WriteFailures []int `json:"write_failures"`
	Intersection  *bool `json:"intersection,omitempty"`
	WriteWrite    *bool `json:"write_write_intersection,omitempty"`
	// DomainResilience gives, per level of the failure domains, how many
	// domains may fail; Down what --down failed.
	DomainResilience []DomainResilience `json:"domain_resilience,omitempty"`
	Down             []string           `json:"down,omitempty"`

	ReadFraction string `json:"read_fraction,omitempty"`
	F            int    `json:"f,omitempty"`
	Optimize     string `json:"optimize,omitempty"`
	RWMetrics
	Strategy     *Strategy   `json:"strategy,omitempty"`
	Availability []RWAvPoint `json:"availability,omitempty"`
	Notes        []string    `json:"notes,omitempty"`
}

// RWResilience is a read-write system's resilience, as its reports give
// it: how many node failures leave a read quorum, a write quorum, and
// both.
type RWResilience struct {
	ReadResilience  int `json:"read_resilience"`
	WriteResilience int `json:"write_resilience"`
	Resilience      int `json:"resilience"`
}

// NewRWResilience is the resilience of a system whose reads survive read
// failures and writes write failures.
func NewRWResilience(read, write int) RWResilience {
	return RWResilience{read, write, min(read, write)}
}

// RWLoad is a strategy's load and capacity, as a float and an exact
// fraction each.
type RWLoad struct {
	Load          *float64 `json:"load,omitempty"`
	LoadExact     string   `json:"load_exact,omitempty"`
	Capacity      *float64 `json:"capacity,omitempty"`
	CapacityExact string   `json:"capacity_exact,omitempty"`
}

// RWMetrics is every figure of a strategy, as reports give them.
type RWMetrics struct {
	RWLoad
	Latency          *float64 `json:"latency,omitempty"`
	LatencyExact     string   `json:"latency_exact,omitempty"`
	NetworkLoad      *float64 `json:"network_load,omitempty"`
	NetworkLoadExact string   `json:"network_load_exact,omitempty"`
}

// FromRWMetrics is m as reports give it; a capacity of 0 is left out.
func FromRWMetrics(m *rw.Metrics) RWMetrics {
	f := func(r *big.Rat) (*float64, string) {
		if r == nil {
			return nil, ""
		}
		v := ratFloat(r)
		return &v, r.RatString()
	}
	var j RWMetrics
	j.Load, j.LoadExact = f(m.Load)
	if m.Capacity != nil && m.Capacity.Sign() > 0 {
		j.Capacity, j.CapacityExact = f(m.Capacity)
	}
	j.Latency, j.LatencyExact = f(m.Latency)
	j.NetworkLoad, j.NetworkLoadExact = f(m.Network)
	return j
}

// StrategyFormat tags a saved strategy file.
const StrategyFormat = "coterie-strategy/1"

// Strategy is a read-write strategy as reports and strategy files
// (`coterie strategy --format json`) hold it; nodes 1-based.
type Strategy struct {
	Format       string   `json:"format,omitempty"`
	N            int      `json:"n,omitempty"`
	Labels       []string `json:"labels,omitempty"`
	ReadFraction string   `json:"read_fraction,omitempty"`
	Uniform      bool     `json:"uniform,omitempty"`
	Reads        []Choice `json:"reads"`
	Writes       []Choice `json:"writes"`
}

// Choice is a quorum of a strategy and its probability.
type Choice struct {
	Quorum []int           `json:"quorum"`
	P      json.RawMessage `json:"p"` // "1/2" on output; a string or number on input
}

// FromStrategy is st as reports give it.
func FromStrategy(st *rw.Strategy) *Strategy {
	out := &Strategy{Uniform: st.Uniform, Reads: []Choice{}, Writes: []Choice{}}
	for _, side := range []struct {
		in  []rw.Choice
		dst *[]Choice
	}{{st.Reads, &out.Reads}, {st.Writes, &out.Writes}} {
		for _, c := range side.in {
			p, _ := json.Marshal(c.P.RatString())
			*side.dst = append(*side.dst, Choice{Quorum: ids(c.Quorum), P: p})
		}
	}
	return out
}

// StrategyFile is the strategy file of st for a system of sys under the
// workload named readFraction.
func StrategyFile(sys *rw.System, st *rw.Strategy, readFraction string) *Strategy {
	sj := FromStrategy(st)
	sj.Format, sj.N, sj.ReadFraction, sj.Labels = StrategyFormat, sys.N, readFraction, givenLabels(sys)
	return sj
}

// RW is the strategy sj holds, over n nodes: its probabilities may be
// written as strings ("1/2") or numbers.
func (sj *Strategy) RW(n int) (*rw.Strategy, error) {
	if sj.Uniform {
		return &rw.Strategy{Uniform: true}, nil
	}
	st := &rw.Strategy{}
	for _, side := range []struct {
		in  []Choice
		dst *[]rw.Choice
		who string
	}{{sj.Reads, &st.Reads, "reads"}, {sj.Writes, &st.Writes, "writes"}} {
		for i, c := range side.in {
			q := set.New(n)
			for _, v := range c.Quorum {
				if v < 1 || v > n {
					return nil, fmt.Errorf("%s entry %d: node %d is not in 1..%d", side.who, i+1, v, n)
				}
				q.Add(v - 1)
			}
			var ps string
			if json.Unmarshal(c.P, &ps) != nil {
				ps = string(c.P)
			}
			p, ok := new(big.Rat).SetString(ps)
			if !ok {
				return nil, fmt.Errorf("%s entry %d: probability %s is not a number", side.who, i+1, c.P)
			}
			*side.dst = append(*side.dst, rw.Choice{Quorum: q, P: p})
		}
	}
	return st, nil
}

// RWAvPoint is a read-write system's availability at one p.
type RWAvPoint struct {
	P      float64 `json:"p"`
	Reads  float64 `json:"reads"`
	Writes float64 `json:"writes"`
	Exact  bool    `json:"exact"`
}

// FromRWAvPoints is the availability of reads and writes as reports give
// it.
func FromRWAvPoints(pts []rw.AvPoint) []RWAvPoint {
	if pts == nil {
		return nil
	}
	out := make([]RWAvPoint, len(pts))
	for i, pt := range pts {
		out[i] = RWAvPoint(pt)
	}
	return out
}

// RWInfoOptions are what the report on a read-write system says besides
// the figures of analysis.RW.
type RWInfoOptions struct {
	// Down names the nodes --down failed.
	Down []string
	// Domains are the failure domains (nil: none).
	Domains *domain.Tree
	// Strategy is the workload and limits of the strategy, nil without
	// --read-fraction; Evaluated says the strategy was read from a file
	// rather than found (the report then has no f and no objective).
	Strategy  *rw.Options
	Evaluated bool
	// Latency says some node has a latency of its own; without, the
	// report gives no latency.
	Latency bool
}

// maxExprReport is the longest expression a report holds; a longer one (a
// long list of quorums) is summarised.
const maxExprReport = 4096

// SideExpr is a side's expression with the system's labels, or says how
// to list it when it is too long to read; name is "reads" or "writes".
func SideExpr(sys *rw.System, sd *rw.Side, name string) string {
	labels := make([]string, sys.N)
	for v := range labels {
		labels[v] = sys.Label(v)
	}
	e := sd.Expr.Relabel(labels).String()
	if len(e) <= maxExprReport {
		return e
	}
	return fmt.Sprintf("(%d characters; list the quorums with 'coterie quorums --side %s')", len(e), name)
}

// givenLabels are the nodes' labels as given ("" for a node without
// one), or nil when no node has one.
func givenLabels(sys *rw.System) []string {
	for v := range sys.N {
		if sys.Nodes[v].Label != "" {
			labels := make([]string, sys.N)
			for u := range sys.N {
				labels[u] = sys.Nodes[u].Label
			}
			return labels
		}
	}
	return nil
}

// ids returns a set's nodes numbered from 1.
func ids(q *set.Set) []int { return plus1(q.Elements()) }

// FromRWInfo is the report on the figures res of the read-write system
// sys.
func FromRWInfo(sys *rw.System, res *analysis.RW, o RWInfoOptions) *RWInfo {
	rep := &RWInfo{N: sys.N, Down: o.Down, Reads: SideExpr(sys, &sys.Reads, "reads"), Writes: SideExpr(sys, &sys.Writes, "writes"),
		WritesDerived: sys.WritesDerived, ReadsDerived: sys.ReadsDerived, Labels: givenLabels(sys)}
	if res.ReadQuorums != nil {
		rep.ReadQuorums = &Number{V: res.ReadQuorums}
	}
	if res.WriteQuorums != nil {
		rep.WriteQuorums = &Number{V: res.WriteQuorums}
	}
	rep.RWResilience = NewRWResilience(res.Read.F, res.Write.F)
	rep.ReadFailures, rep.WriteFailures = ids(res.Read.Witness), ids(res.Write.Witness)
	if o.Domains != nil {
		var notes []string
		rep.DomainResilience, notes = FromDomainResilience(res, o.Domains)
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
	if opts := o.Strategy; opts != nil {
		rep.ReadFraction = opts.Workload.String()
		if !o.Evaluated {
			rep.F, rep.Optimize = opts.F, string(opts.Optimize)
		}
		st, m := res.Strategy, res.Metrics
		rep.RWMetrics = FromRWMetrics(m)
		rep.Strategy = FromStrategy(st)
		if st.Uniform {
			rep.Notes = append(rep.Notes, "strategy: uniform over the smallest quorums of each side (closed form: the system is symmetric and the capacities equal)")
		}
		switch {
		case !o.Latency:
			rep.Latency, rep.LatencyExact = nil, ""
		case m.Latency == nil:
			rep.Notes = append(rep.Notes, "latency: not computed for the uniform strategy over unequal latencies")
		}
	} else {
		rep.Notes = append(rep.Notes, "give --read-fraction for load, capacity, latency and network load")
	}
	rep.Availability = FromRWAvPoints(res.Availability)
	return rep
}

// RWVerify is the report of `coterie verify --json` on a read-write
// system.
type RWVerify struct {
	Valid  bool      `json:"valid"`
	N      int       `json:"n"`
	Checks []RWCheck `json:"checks"`
}

// RWCheck is one check of an [RWVerify] report: the read-write
// intersection, or (information unless required) the write-write one.
type RWCheck struct {
	Name    string         `json:"name"`
	OK      bool           `json:"ok"`
	Info    bool           `json:"info,omitempty"`
	Witness map[string]any `json:"witness,omitempty"`
	Detail  string         `json:"detail,omitempty"`

	// Text is the witness for people, with labels; it is not in the
	// JSON.
	Text string `json:"-"`
}

// nodeNames formats a set with the system's labels: {a, b}.
func nodeNames(sys *rw.System, q *set.Set) string {
	var names []string
	for _, v := range q.Elements() {
		names = append(names, sys.Label(v))
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// FromRWVerify is the report on the checks of sys: rwRes the read-write
// intersection, ww the write-write one (nil: not made), a check only
// when requireWW.
func FromRWVerify(sys *rw.System, rwRes rw.Intersection, ww *rw.Intersection, requireWW bool) *RWVerify {
	rep := &RWVerify{Valid: true, N: sys.N}
	c := RWCheck{Name: "intersection", OK: rwRes.OK}
	if !rwRes.OK {
		c.Witness = map[string]any{"read": ids(rwRes.Read), "write": ids(rwRes.Write)}
		c.Text = fmt.Sprintf("read quorum %s misses write quorum %s", nodeNames(sys, rwRes.Read), nodeNames(sys, rwRes.Write))
		rep.Valid = false
	}
	rep.Checks = append(rep.Checks, c)
	if ww != nil {
		c := RWCheck{Name: "write_intersection", OK: ww.OK, Info: !requireWW}
		if !ww.OK {
			c.Witness = map[string]any{"writes": [][]int{ids(ww.Read), ids(ww.Write)}}
			c.Text = fmt.Sprintf("write quorums %s and %s do not meet", nodeNames(sys, ww.Read), nodeNames(sys, ww.Write))
			if requireWW {
				rep.Valid = false
			}
		}
		rep.Checks = append(rep.Checks, c)
	}
	return rep
}

// SideVerdict says whether one side of a read-write system is as large as
// it can be: every set that meets all quorums of the other side holds a
// quorum of this side. Witness is a set that meets every quorum of the
// other side and holds none of this side's: it could be added.
type SideVerdict struct {
	Nondominated bool  `json:"nondominated"`
	Witness      []int `json:"witness,omitempty"`
}

// NewSideVerdict is the verdict of rw.System.Nondominated.
func NewSideVerdict(ok bool, witness *set.Set) *SideVerdict {
	if ok {
		return &SideVerdict{Nondominated: true}
	}
	return &SideVerdict{Witness: ids(witness)}
}

// RWDomination is the report of `coterie domination --json` on a
// read-write system.
type RWDomination struct {
	Intersection bool         `json:"intersection"`
	Reads        *SideVerdict `json:"reads,omitempty"`
	Writes       *SideVerdict `json:"writes,omitempty"`
}

// RWCompare is the report of `coterie compare --json` on read-write
// systems.
type RWCompare struct {
	Systems []RWCompareRow `json:"systems"`
}

// RWCompareRow is one read-write system in a comparison.
type RWCompareRow struct {
	File   string `json:"file"`
	N      int    `json:"n"`
	Reads  string `json:"reads"`
	Writes string `json:"writes"`
	RWResilience
	ReadFraction string `json:"read_fraction,omitempty"`
	RWLoad
	Availability []RWAvPoint `json:"availability,omitempty"`
	// Figures are the exact availability of reads, writes and both;
	// DomainResilience the resilience to failures of whole domains, and
	// Down what --down failed.
	Figures          *RWAvailability    `json:"availability_figures,omitempty"`
	DomainResilience []DomainResilience `json:"domain_resilience,omitempty"`
	Down             []string           `json:"down,omitempty"`
}

// FromRWCompare is the row of the read-write system sys named file, with
// the figures res: its load with a strategy (nil: none), its availability
// unless noAV, its resilience under the domains t (nil: none).
func FromRWCompare(file string, sys *rw.System, res *analysis.RW, strategy *rw.Options, noAV bool, t *domain.Tree) RWCompareRow {
	row := RWCompareRow{File: file, N: sys.N, Reads: SideExpr(sys, &sys.Reads, "reads"), Writes: SideExpr(sys, &sys.Writes, "writes")}
	row.RWResilience = NewRWResilience(res.Read.F, res.Write.F)
	if strategy != nil {
		row.ReadFraction = strategy.Workload.String()
		row.RWLoad = FromRWMetrics(res.Metrics).RWLoad
	}
	if !noAV {
		row.Availability = FromRWAvPoints(res.Availability)
	}
	if t != nil {
		row.DomainResilience, _ = FromDomainResilience(res, t)
	}
	return row
}

// DomainResilience is the resilience of a read-write system to failures
// of whole domains of one level: how many of them may fail with a read
// quorum, a write quorum, and both left, with a smallest set of domains
// whose failure stops reads (writes, either) as the witness; a witness is
// null when no failure of domains of the level stops that side.
type DomainResilience struct {
	Level           int      `json:"level"`
	Name            string   `json:"name,omitempty"`
	Domains         int      `json:"domains"`
	ReadResilience  int      `json:"read_resilience"`
	WriteResilience int      `json:"write_resilience"`
	Resilience      int      `json:"resilience"`
	ReadKilling     []string `json:"read_killing"`
	WriteKilling    []string `json:"write_killing"`
	Killing         []string `json:"killing"`
}

// FromDomainResilience is the resilience at every level of t computed in
// res, with a note for each level it could not compute (a side too large
// to list).
func FromDomainResilience(res *analysis.RW, t *domain.Tree) ([]DomainResilience, []string) {
	var out []DomainResilience
	var notes []string
	for _, m := range res.Missing {
		notes = append(notes, fmt.Sprintf("domain resilience at level %s not computed: %v (raise --limit)", t.LevelName(m.Level), m.Err))
	}
	for _, d := range res.Domains {
		l, r, w := d.Level, d.Read, d.Write
		name := t.LevelName(l)
		if name == strconv.Itoa(l) {
			name = "" // levels without names are numbered
		}
		j := DomainResilience{Level: l, Name: name, Domains: r.Domains,
			ReadResilience: r.K, WriteResilience: w.K, Resilience: min(r.K, w.K),
			ReadKilling: DomainPaths(t, r.Killing), WriteKilling: DomainPaths(t, w.Killing)}
		switch {
		case r.Killing != nil && (w.Killing == nil || len(r.Killing) <= len(w.Killing)):
			j.Killing = j.ReadKilling
		case w.Killing != nil:
			j.Killing = j.WriteKilling
		}
		out = append(out, j)
	}
	return out, notes
}

// DomainPaths are the paths of the domains ds of t; nil stays nil (no
// set of domains), and an empty list is [].
func DomainPaths(t *domain.Tree, ds []int) []string {
	if ds == nil {
		return nil
	}
	out := []string{}
	for _, d := range ds {
		out = append(out, t.Path(d))
	}
	return out
}

// RWAvailability is the report of `coterie availability --json` on a
// read-write system.
type RWAvailability struct {
	N      int    `json:"n"`
	Reads  RWSide `json:"reads"`
	Writes RWSide `json:"writes"`
	// Both is the probability that a read and a write quorum are up at
	// once; Domains the failure domains and Down what --down failed.
	Both    *RWSide  `json:"both,omitempty"`
	Domains []Domain `json:"domains,omitempty"`
	Down    []string `json:"down,omitempty"`
}

// RWSide is the availability report of one side of a read-write system.
type RWSide struct {
	Exact        bool          `json:"exact"`
	Method       string        `json:"method"`
	Coefficients []string      `json:"coefficients,omitempty"`
	Points       []SideAvPoint `json:"points"`
}

// SideAvPoint is the availability of a side at one p.
type SideAvPoint struct {
	P            float64 `json:"p"`
	Availability float64 `json:"availability"`
	// 1 − AV, its nines and the downtime per year in seconds (of
	// 365.25 days), when the exact figures were had.
	Unavailability  json.Number  `json:"unavailability,omitempty"`
	Nines           *json.Number `json:"nines,omitempty"`
	DowntimePerYear json.Number  `json:"downtime_per_year,omitempty"`
	// U is 1 − AV as computed, for a table; it is not in the JSON.
	U *big.Float `json:"-"`
}

// SetUnavailability sets 1 − AV (u), its nines and the downtime per year.
func (pt *SideAvPoint) SetUnavailability(u *big.Float) {
	pt.U = u
	pt.Unavailability = json.Number(Unavailability(u, 10))
	pt.DowntimePerYear = json.Number(Downtime(u))
	pt.Nines = ninesNumber(u)
}

// SetSideFigures gives every point of reads and writes its 1 − AV, nines
// and downtime from the figures already there, when no exact method gave
// them: from the coefficients when the side is exact and every node is
// up with p (uniform), from the rounded AV otherwise.
func (rep *RWAvailability) SetSideFigures(uniform bool) {
	for _, side := range []*RWSide{&rep.Reads, &rep.Writes} {
		poly := polyOf(side.Coefficients)
		for i := range side.Points {
			if poly != nil && uniform && side.Exact {
				// Exact: from the coefficients, not from a rounded AV.
				side.Points[i].SetUnavailability(poly.Unavailability(side.Points[i].P))
				continue
			}
			side.Points[i].SetUnavailability(big.NewFloat(math.Max(0, 1-side.Points[i].Availability)))
		}
	}
}

// SetExact puts the exact availability of reads, writes and both at each
// point into rep, found by method; under failure domains (withDomains)
// they replace the independent figures of reads and writes.
func (rep *RWAvailability) SetExact(method availability.Method, pts []analysis.RWExact, withDomains bool) {
	rep.Both = &RWSide{Exact: true, Method: string(method)}
	if withDomains {
		for _, side := range []*RWSide{&rep.Reads, &rep.Writes} {
			side.Exact, side.Method, side.Coefficients = true, string(method), nil
		}
	}
	for i, e := range pts {
		rep.Both.Points = append(rep.Both.Points, SideAvPoint{P: e.P})
		for _, x := range []struct {
			side *RWSide
			av   *big.Rat
		}{{&rep.Reads, e.Reads}, {&rep.Writes, e.Writes}, {rep.Both, e.Both}} {
			pt := &x.side.Points[i]
			pt.Availability, _ = x.av.Float64()
			u := new(big.Rat).Sub(big.NewRat(1, 1), x.av)
			pt.SetUnavailability(new(big.Float).SetPrec(256).SetRat(u))
		}
	}
}

// FromRWAvailability is the report on av, the availability of sys at
// each p of ps under the failure domains t (nil: none); down names the
// nodes --down failed.
func FromRWAvailability(sys *rw.System, av *analysis.RWAv, ps []float64, t *domain.Tree, down []string) *RWAvailability {
	rep := &RWAvailability{N: sys.N}
	for _, side := range []struct {
		av  *analysis.SideAv
		dst *RWSide
	}{{av.Reads, &rep.Reads}, {av.Writes, &rep.Writes}} {
		if side.av == nil {
			// The figures under the domains replace the independent
			// ones: not computed.
			for _, p := range ps {
				side.dst.Points = append(side.dst.Points, SideAvPoint{P: p})
			}
			continue
		}
		side.dst.Exact, side.dst.Method = side.av.Exact, string(side.av.Method)
		if side.av.Poly != nil {
			side.dst.Coefficients = side.av.Poly.Strings()
		}
		for _, pt := range side.av.Points {
			side.dst.Points = append(side.dst.Points, SideAvPoint{P: pt.P, Availability: pt.AV})
		}
	}
	rep.SetFigures(sys, av.ExactMethod, av.Exact, av.NoExact == nil, t, down)
	return rep
}

// SetFigures adds to rep, the report on sys, the exact figures pts found
// by method when exact (otherwise no exact method fit), the failure
// domains t and the nodes --down failed: see [RWAvailability.SetExact]
// and [RWAvailability.SetSideFigures].
func (rep *RWAvailability) SetFigures(sys *rw.System, method availability.Method, pts []analysis.RWExact, exact bool, t *domain.Tree, down []string) {
	if t != nil {
		rep.Domains = FromDomains(t)
	}
	rep.Down = down
	if exact {
		rep.SetExact(method, pts, analysis.Correlated(t))
		return
	}
	uniform := true
	for _, nd := range sys.Nodes {
		uniform = uniform && nd.P == nil
	}
	rep.SetSideFigures(uniform)
}

// polyOf is the availability polynomial of decimal coefficients A_0..A_n,
// or nil.
func polyOf(coef []string) *availability.Polynomial {
	if len(coef) == 0 {
		return nil
	}
	p := availability.NewPolynomial(len(coef) - 1)
	for i, c := range coef {
		if _, ok := p.A[i].SetString(c, 10); !ok {
			return nil
		}
	}
	return p
}

// Domain is a failure domain as reports list it.
type Domain struct {
	Domain string `json:"domain"`
	Level  int    `json:"level"`
	Nodes  []int  `json:"nodes"`
	P      string `json:"p"`
}

// FromDomains lists every domain of t, with its nodes (1-based) and its
// probability of being up ("1" when not given).
func FromDomains(t *domain.Tree) []Domain {
	var out []Domain
	for l := 1; l <= t.Depth(); l++ {
		for _, d := range t.AtLevel(l) {
			nodes := []int{}
			for _, v := range t.Under(d) {
				nodes = append(nodes, v+1)
			}
			out = append(out, Domain{Domain: t.Path(d), Level: l, Nodes: nodes, P: domain.RatString(t.P(d))})
		}
	}
	return out
}
