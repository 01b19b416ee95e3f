package jsonreport

import (
	"encoding/json"
	"fmt"
	"math/big"
	"time"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Info is the report of `coterie info --json` on a quorum system: the
// figures of one family (a coterie or k-arbiter) inline, or one entry of
// Levels per level of an (h,k)-arbiter.
type Info struct {
	N      int        `json:"n"`
	K      int        `json:"k"`
	Kind   string     `json:"kind,omitempty"`
	Params set.Params `json:"params,omitempty"`
	*Family
	Levels []Family `json:"levels,omitempty"`
	// Partial is set when --timeout or Ctrl-C stopped the report: the
	// figures present are proved, a note names the one stopped, and the
	// levels after it of an (h,k)-arbiter are missing.
	Partial bool `json:"partial,omitempty"`
}

// Spread is the smallest, mean and largest of a figure (quorum sizes,
// node degrees).
type Spread struct {
	Min  Number `json:"min"`
	Mean Real   `json:"mean"`
	Max  Number `json:"max"`
}

// Maekawa are Maekawa's properties (b), (c) and (d).
type Maekawa struct {
	OwnerInQuorum       *bool `json:"owner_in_quorum"` // null: the file has no owners
	EqualSize           bool  `json:"equal_size"`
	EqualResponsibility bool  `json:"equal_responsibility"`
}

// Family is the report on one family (a whole coterie or k-arbiter, or
// one level of an (h,k)-arbiter).
type Family struct {
	H                int      `json:"h,omitempty"`
	Quorums          Number   `json:"quorums"`
	Threshold        int      `json:"threshold,omitempty"`
	QuorumSize       Spread   `json:"quorum_size"`
	Degree           Spread   `json:"degree"`
	Maekawa          Maekawa  `json:"maekawa"`
	MessagesPerEntry float64  `json:"messages_per_entry"`
	Messages         Messages `json:"messages"`

	Load              *float64        `json:"load,omitempty"`
	LoadExact         string          `json:"load_exact,omitempty"`
	LoadMethod        string          `json:"load_method,omitempty"`
	Capacity          *float64        `json:"capacity,omitempty"`
	CapacityExact     string          `json:"capacity_exact,omitempty"`
	NetworkLoad       *float64        `json:"network_load,omitempty"`
	Strategy          []StrategyEntry `json:"strategy,omitempty"`
	Resilience        *int            `json:"resilience,omitempty"`
	ResilienceWitness []int           `json:"resilience_witness,omitempty"`
	// Availability is given at each --p (info --p, compare).
	Availability []AvPoint `json:"availability,omitempty"`
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
	// (Malkhi–Reiter).
	ByzantineBMax              *int `json:"byzantine_b_max,omitempty"`
	ByzantineBMaxDissemination *int `json:"byzantine_b_max_dissemination,omitempty"`

	// MessagesExact are the exact messages per entry behind Messages,
	// for a table; they are not in the JSON.
	MessagesExact measure.Messages `json:"-"`
}

// Messages are the messages per entry of each protocol (see
// measure.Messages).
type Messages struct {
	MaekawaLight    float64  `json:"maekawa_light"`
	MaekawaHeavyMax float64  `json:"maekawa_heavy_max"`
	OrderedLocking  float64  `json:"ordered_locking"`
	HKBest          *float64 `json:"hk_best,omitempty"`
	HKWorst         *float64 `json:"hk_worst,omitempty"`
}

// StrategyEntry is one quorum of an optimal strategy and its probability.
type StrategyEntry struct {
	Quorum int     `json:"quorum"` // 1-based position
	Weight float64 `json:"weight"`
	Exact  string  `json:"exact,omitempty"`
}

// AvPoint is the availability at one p in [Family].
type AvPoint struct {
	P            float64 `json:"p"`
	Availability float64 `json:"availability"`
	Exact        bool    `json:"exact"`
	// Unavailability is 1 − AV (from the exact polynomial when exact),
	// Nines −log10(1 − AV) (null when AV = 1), DowntimePerYear the
	// expected seconds down in a year of 365.25 days.
	Unavailability  json.Number  `json:"unavailability"`
	Nines           *json.Number `json:"nines"`
	DowntimePerYear json.Number  `json:"downtime_per_year"`
	// U is 1 − AV as computed, for a table; it is not in the JSON.
	U *big.Float `json:"-"`
}

// InfoOptions say how the figures of an [analysis.System] were asked for,
// which the notes of the report name.
type InfoOptions struct {
	// Budget is --budget, MaxMemory --max-memory in bytes (0 = none).
	Budget    time.Duration
	MaxMemory int64
	// Strategy lists the load's optimal strategy.
	Strategy bool
	// PartialAvailability keeps the availability points found before the
	// command was stopped, with a note (compare), where info leaves them
	// out.
	PartialAvailability bool
}

// FromInfo is the report on the figures of a system.
func FromInfo(res *analysis.System, o InfoOptions) *Info {
	rep := &Info{N: res.N, K: res.K, Kind: res.Kind, Params: res.Params,
		Partial: res.Stopped != 0 && res.Stopped != analysis.Availability}
	for i := range res.Families {
		fi := FromFamily(&res.Families[i], o)
		if !res.Levels {
			rep.Family = &fi
			break
		}
		rep.Levels = append(rep.Levels, fi)
	}
	return rep
}

// Families are the reports on each family of rep: the one family, or
// every level.
func (rep *Info) Families() []Family {
	if rep.Family != nil {
		return []Family{*rep.Family}
	}
	return rep.Levels
}

// FromFamily is the report on the figures of one family.
func FromFamily(fa *analysis.Family, o InfoOptions) Family {
	f, st := fa.F, fa.Stats
	fi := Family{
		H:         f.H,
		Quorums:   Number{st.Quorums},
		Threshold: f.Threshold,
		QuorumSize: Spread{Min: Number{big.NewInt(int64(st.MinSize))}, Mean: Real{st.MeanSize()},
			Max: Number{big.NewInt(int64(st.MaxSize))}},
		Degree:  Spread{Min: Number{st.MinDegree}, Mean: Real{st.MeanDegree()}, Max: Number{st.MaxDegree}},
		Maekawa: Maekawa{EqualSize: st.EqualSize(), EqualResponsibility: st.EqualDegree()},
	}
	if st.HasOwners {
		ok := st.OwnersInQuorums
		fi.Maekawa.OwnerInQuorum = &ok
	}
	m := fa.Messages
	fi.MessagesExact = m
	fi.MessagesPerEntry = ratFloat(m.MaekawaLight)
	fi.Messages = Messages{
		MaekawaLight:    ratFloat(m.MaekawaLight),
		MaekawaHeavyMax: ratFloat(m.MaekawaHeavyMax),
		OrderedLocking:  ratFloat(m.Ordered),
	}
	if m.HKBest != nil {
		b, w := ratFloat(m.HKBest), ratFloat(m.HKWorst)
		fi.Messages.HKBest, fi.Messages.HKWorst = &b, &w
	}
	fi.setLoad(fa, o)
	fi.setResilience(fa, o.Budget)
	fi.setByzantine(fa)
	fi.setAvailability(fa, o)
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

func (fi *Family) note(n string) {
	if n != "" {
		fi.Notes = append(fi.Notes, n)
	}
}

// setLoad sets load, capacity, network load and the strategy.
func (fi *Family) setLoad(fa *analysis.Family, o InfoOptions) {
	l := fa.Load
	if l == nil {
		fi.note(statusNote("load", fa.LoadStatus, o.Budget))
		return
	}
	if l.Method == measure.MethodBounds {
		lo, up := ratFloat(l.Lower), ratFloat(l.Upper)
		fi.LoadMethod = string(l.Method)
		fi.LoadLower, fi.LoadUpper = &lo, &up
		fi.LoadLowerExact, fi.LoadUpperExact = l.Lower.RatString(), l.Upper.RatString()
		fi.note("load: the exact linear program is beyond the work limit; proved bounds only, from a strategy (upper) and a distribution on the nodes (lower)")
		return
	}
	value, network := l.Value, l.NetworkLoad
	fi.Load, fi.LoadMethod = &value, string(l.Method)
	cv, ce := l.Capacity()
	fi.Capacity, fi.NetworkLoad = &cv, &network
	if l.Exact != nil {
		fi.LoadExact, fi.CapacityExact = l.Exact.RatString(), ce.RatString()
	}
	if o.Strategy {
		for _, w := range l.Strategy {
			e := StrategyEntry{Quorum: w.Quorum + 1, Weight: w.W}
			if w.Exact != nil {
				e.Exact = w.Exact.RatString()
			}
			fi.Strategy = append(fi.Strategy, e)
		}
		if _, ok := quorum.ThresholdOf(quorum.Of(fa.F)); ok {
			fi.note("strategy: uniform over all quorums (every w-subset equally likely)")
		}
	}
}

// setResilience sets the resilience (or its bounds) and the witness.
func (fi *Family) setResilience(fa *analysis.Family, budget time.Duration) {
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
	if _, ok := quorum.ThresholdOf(quorum.Of(fa.F)); !ok {
		fi.ResilienceWitness = plus1(r.Witness.Elements())
	}
}

// setByzantine sets byzantine_b_max (b-masking) and
// byzantine_b_max_dissemination, each left out when there is none.
func (fi *Family) setByzantine(fa *analysis.Family) {
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
func (fi *Family) setAvailability(fa *analysis.Family, o InfoOptions) {
	switch fa.AvailabilityStatus.Reason {
	case analysis.OutOfBudget:
		fi.note(fmt.Sprintf("availability: not found within --budget %s; raise it, or 0 for no limit", o.Budget))
		return
	case analysis.OverMemory:
		fi.note(fmt.Sprintf("availability: not found within the memory budget (--max-memory %s); raise it, or 0 for no limit", format.ByteSize(o.MaxMemory)))
		return
	case analysis.Stopped:
		if !o.PartialAvailability {
			return
		}
	}
	for _, pt := range fa.Availability {
		u := pt.U
		fi.Availability = append(fi.Availability, AvPoint{P: pt.P, Availability: pt.AV, Exact: pt.Exact, U: u,
			Unavailability: json.Number(Unavailability(u, 10)), DowntimePerYear: json.Number(Downtime(u)), Nines: ninesNumber(u)})
	}
	if fa.AvailabilityStatus.Reason == analysis.Stopped {
		fi.note("availability: stopped before it was found (partial report)")
	}
}

// Compare is the report of `coterie compare --json` on quorum systems:
// one row per system, one per level of an (h,k)-arbiter.
type Compare struct {
	Systems []CompareRow `json:"systems"`
	Partial bool         `json:"partial,omitempty"`
}

// CompareRow is one system (or one level of an (h,k)-arbiter) in a
// comparison: its file, and the report on its family.
type CompareRow struct {
	File string `json:"file"`
	N    int    `json:"n"`
	K    int    `json:"k"`
	Kind string `json:"kind,omitempty"`
	Family
}

// CompareRows are the rows of rep in a comparison, named file.
func CompareRows(file string, rep *Info) []CompareRow {
	var rows []CompareRow
	for _, fi := range rep.Families() {
		rows = append(rows, CompareRow{File: file, N: rep.N, K: rep.K, Kind: rep.Kind, Family: fi})
	}
	return rows
}
