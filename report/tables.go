package report

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// table is a titled table that both renderers print.
type table struct {
	head []string
	rows [][]string
}

// fl formats a float as encoding/json does for the values of `info --json`.
func fl(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// short formats a figure the way the explorer does: an integer whole, any
// other value to four significant digits ("2.833", "0.3077").
func short(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// rat formats an exact value: the integer, or the fraction with a short
// decimal when it is not one: "4/13 ≈ 0.3077".
func rat(r *big.Rat) string {
	v, _ := r.Float64()
	if r.IsInt() {
		return r.Num().String()
	}
	return r.RatString() + " ≈ " + short(v)
}

// nodes formats 0-based nodes 1-based: "{1 2 3}".
func nodes(vs []int) string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, v := range vs {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if i == 40 {
			fmt.Fprintf(&sb, "… (%d nodes)", len(vs))
			break
		}
		sb.WriteString(strconv.Itoa(v + 1))
	}
	sb.WriteByte('}')
	return sb.String()
}

// Verdict is the first line of `coterie verify`: "valid as a coterie (n =
// 7, 7 quorums)", "INVALID as a 2-arbiter ...".
func Verdict(sys set.System, r *verify.Report) string {
	if r == nil {
		return "not verified within the time budget"
	}
	verdict := "valid"
	switch {
	case r.Failed() != nil:
		verdict = "INVALID"
	case r.Undecided:
		verdict = "UNDECIDED within the limit"
	}
	what := "a coterie"
	switch {
	case sys.HK != nil:
		what = fmt.Sprintf("an (h,%d)-arbiter", r.K)
	case r.K > 1:
		what = fmt.Sprintf("a %d-arbiter", r.K)
	}
	count := "too many to count"
	if r.Quorums != nil {
		count = r.Quorums.String()
	}
	return fmt.Sprintf("%s as %s (n = %d, %s quorums)", verdict, what, r.N, count)
}

// CheckStatus is how a check's outcome is shown: ok or FAIL for a
// property, yes or no for an informational check, ?? when undecided.
func CheckStatus(c verify.Check) string {
	switch {
	case c.Undecided:
		return "??"
	case c.Info && c.OK:
		return "yes"
	case c.Info:
		return "no"
	case !c.OK:
		return "FAIL"
	}
	return "ok"
}

// CheckLabel is a check's name as shown: its level for an (h,k)-arbiter,
// and "info: " before an informational check.
func CheckLabel(c verify.Check) string {
	name := c.Name
	if c.H > 0 {
		name += fmt.Sprintf(" (h = %d)", c.H)
	}
	if c.Info {
		name = "info: " + name
	}
	return name
}

// checksTable lists the checks of a verification with their witnesses.
func checksTable(sys set.System, r *verify.Report) table {
	t := table{head: []string{"status", "check", "detail", "witness"}}
	if r == nil {
		return t
	}
	for _, c := range r.Checks {
		status, name := CheckStatus(c), CheckLabel(c)
		w := ""
		if c.Witness != nil && !c.OK {
			w = strings.Join(witness(sys, c), "; ")
		}
		t.rows = append(t.rows, []string{status, name, c.Detail, w})
	}
	return t
}

// witness describes a check's witness: quorums by position and nodes.
func witness(sys set.System, c verify.Check) []string {
	w := c.Witness
	var out []string
	fam := sys.Families()[0]
	if sys.HK != nil && c.H > 0 {
		fam = sys.HK.Level(c.H)
	}
	if len(w.Pattern) > 0 {
		out = append(out, "request pattern "+verify.FormatPattern(w.Pattern))
		for _, rq := range w.Requests {
			out = append(out, fmt.Sprintf("h = %d: %s", rq.H, nodes(rq.Set)))
		}
		return out
	}
	for _, s := range w.Sets {
		out = append(out, "quorum "+nodes(s))
	}
	if fam != nil {
		// A quorum cited by position is one of the listed ones (a
		// threshold family lists none).
		for _, i := range w.Quorums {
			if i >= 0 && i < len(fam.Quorums) {
				out = append(out, fmt.Sprintf("quorum %d %s", i+1, nodes(fam.Quorums[i].Elements())))
			}
		}
	}
	if len(w.Nodes) > 0 {
		out = append(out, "nodes "+nodes(w.Nodes))
	}
	return out
}

// metricsTable gives the figures of `coterie info` for one family, with
// the numbers `info --json` prints.
func metricsTable(f Family) table {
	st := f.Stats
	t := table{head: []string{"metric", "value"}}
	add := func(k, v string) { t.rows = append(t.rows, []string{k, v}) }
	if f.F.H > 0 {
		add("level h", strconv.Itoa(f.F.H))
	}
	add("quorums", st.Quorums.String())
	var threshold quorum.Thresholder
	if sys, err := construct.Typed(f.F); err == nil {
		threshold, _ = sys.(quorum.Thresholder)
	}
	if threshold != nil {
		add("threshold", strconv.Itoa(threshold.Threshold()))
	}
	mean := func(r *big.Rat) string { v, _ := r.Float64(); return short(v) }
	add("quorum size (min / mean / max)", fmt.Sprintf("%d / %s / %d", st.MinSize, mean(st.MeanSize()), st.MaxSize))
	add("degree (min / mean / max)", fmt.Sprintf("%s / %s / %s", st.MinDegree, mean(st.MeanDegree()), st.MaxDegree))
	add("messages per entry", mean(measure.MessagesOf(f.F).MaekawaLight))
	if l := f.Load; l != nil {
		cv, ce := l.Capacity()
		if l.Exact != nil {
			add("load", rat(l.Exact))
			add("capacity", rat(ce))
		} else {
			add("load", short(l.Value))
			add("capacity", short(cv))
		}
		add("network load", short(l.NetworkLoad))
	}
	if r := f.Resilience; r != nil {
		add("resilience", strconv.Itoa(r.F))
		if r.Witness != nil && threshold == nil {
			add("resilience witness (these failing stop every quorum)", nodes(r.Witness.Elements()))
		}
	}
	for _, n := range f.Notes {
		add("note", n)
	}
	return t
}

// messagesTable gives the messages per critical-section entry of each
// protocol (measure.Messages).
func messagesTable(f Family) table {
	m := f.Messages
	v := func(r *big.Rat) string { x, _ := r.Float64(); return short(x) }
	t := table{head: []string{"protocol", "messages per entry"}}
	t.rows = append(t.rows,
		[]string{"Maekawa, light demand: 3(K−1)", v(m.MaekawaLight)},
		[]string{"Maekawa, heavy demand, worst case: 5(K−1)", v(m.MaekawaHeavyMax)},
		[]string{"ordered locking without timestamps (Kakugawa et al.): 3|q|", v(m.Ordered)})
	if m.HKBest != nil {
		t.rows = append(t.rows,
			[]string{"h-out of-k, best: 3|q|", v(m.HKBest)},
			[]string{"h-out of-k, worst: (3h+3)|q|", v(m.HKWorst)})
	}
	return t
}

// AVText formats AV so that a value below 1 never prints as 1.
func AVText(pt Point) string {
	s := strconv.FormatFloat(pt.AV, 'g', 10, 64)
	if !pt.Exact {
		return "≈" + strconv.FormatFloat(pt.AV, 'g', 6, 64)
	}
	if pt.U.Sign() == 0 || (s != "1" && !strings.HasPrefix(s, "0.9999")) {
		return s
	}
	dec := int(math.Floor(availability.Nines(pt.U))) + 3
	if dec <= 10 || dec > 60 {
		return s
	}
	one := new(big.Float).SetPrec(pt.U.Prec()).SetInt64(1)
	t := strings.TrimRight(one.Sub(one, pt.U).Text('f', dec), "0")
	return strings.TrimSuffix(t, ".")
}

// NinesText is −log10(1 − AV) with two decimals, "∞" when AV = 1.
func NinesText(pt Point) string {
	n := availability.Nines(pt.U)
	if math.IsInf(n, 1) {
		return "∞"
	}
	if n == 0 {
		n = 0
	}
	s := strconv.FormatFloat(n, 'f', 2, 64)
	if !pt.Exact {
		s = "≈" + s
	}
	return s
}

// DowntimeText is the expected downtime per year in a readable unit.
func DowntimeText(pt Point) string { return Seconds(availability.Downtime(pt.U)) }

// Seconds formats a duration in seconds in the largest unit that keeps
// the figure at least 1, three significant digits: "8.77 h", "31.6 ms".
func Seconds(sec float64) string {
	if sec == 0 {
		return "0"
	}
	for _, u := range []struct {
		name string
		s    float64
	}{{"d", 86400}, {"h", 3600}, {"min", 60}, {"s", 1}, {"ms", 1e-3}, {"µs", 1e-6}, {"ns", 1e-9}} {
		if sec >= u.s {
			return strconv.FormatFloat(sec/u.s, 'g', 3, 64) + " " + u.name
		}
	}
	return strconv.FormatFloat(sec, 'g', 3, 64) + " s"
}

// availabilityTable lists AV, 1 − AV, nines and downtime at each p.
func availabilityTable(s *System) table {
	t := table{head: []string{"p", "AV", "1 − AV", "nines", "downtime per year"}}
	for _, pt := range s.Table {
		u := "0"
		if pt.U.Sign() != 0 {
			u = pt.U.Text('g', 6)
		}
		t.rows = append(t.rows, []string{fl(pt.P), AVText(pt), u, NinesText(pt), DowntimeText(pt)})
	}
	return t
}

// dominationText says whether the system is dominated, with the witness.
func dominationText(s *System) string {
	switch {
	case s.Domination == nil:
		return s.DominationNote
	case s.Domination.Witness == nil:
		return "nondominated: no coterie is strictly better"
	}
	return "dominated; witness H = " + nodes(s.Domination.Witness.Elements()) +
		" (H contains no quorum and meets every quorum, so adding H as a quorum gives a better system)"
}

// comparisonTable puts the systems side by side.
func comparisonTable(systems []*System) table {
	t := table{head: []string{"system", "n", "k", "quorums", "mean |Q|", "messages", "load", "resilience"}}
	var ps []float64
	if len(systems) > 0 {
		for _, pt := range systems[0].Table {
			ps = append(ps, pt.P)
			t.head = append(t.head, "AV("+fl(pt.P)+")", "nines("+fl(pt.P)+")")
		}
	}
	for _, s := range systems {
		f := s.Families[0]
		mean, _ := f.Stats.MeanSize().Float64()
		msg, _ := measure.MessagesOf(f.F).MaekawaLight.Float64()
		load, res := "–", "–"
		if f.Load != nil {
			load = short(f.Load.Value)
			if f.Load.Exact != nil {
				load = rat(f.Load.Exact)
			}
		}
		if f.Resilience != nil {
			res = strconv.Itoa(f.Resilience.F)
		}
		row := []string{s.Name, strconv.Itoa(s.Sys.N()), strconv.Itoa(s.Sys.K()), f.Stats.Quorums.String(),
			short(mean), short(msg), load, res}
		for i := range ps {
			if i < len(s.Table) {
				row = append(row, AVText(s.Table[i]), NinesText(s.Table[i]))
			} else {
				row = append(row, "–", "–")
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// AvailabilityText writes an availability known as a float64 with its
// nines: "0.9990234375 (3.01 nines)"; one that rounds to 1 at ten digits
// as 1 − (1 − AV) with the digits that the float64 keeps: "1 − 2.2e-15
// (14.7 nines)".
func AvailabilityText(av float64) string {
	if av >= 1 {
		return "1"
	}
	u := 1 - av
	nines := fmt.Sprintf("%.2f", -math.Log10(u))
	text := fmt.Sprintf("%.10g", av)
	if text == "1" {
		// av is a float64 within about 2e-16 of the exact value: 1 − av
		// keeps log10(1 − av) + 15.6 good digits.
		digits := max(1, min(3, int(math.Floor(math.Log10(u)+15.6))))
		text = fmt.Sprintf("1 − %.*g", digits, u)
		if digits < 3 {
			nines = fmt.Sprintf("%.1f", -math.Log10(u))
		}
	}
	return fmt.Sprintf("%s (%s nines)", text, nines)
}
