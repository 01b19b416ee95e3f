package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/set"
)

type infoOptions struct {
	in     inputOptions
	asJSON bool
}

func newInfoCmd(s *streams) *cobra.Command {
	var o infoOptions
	cmd := &cobra.Command{
		Use:   "info FILE",
		Short: "Sizes, degrees, Maekawa's properties and messages per entry",
		Long: `Describe a quorum system: number of nodes and quorums, quorum sizes and node
degrees (min, mean, max), Maekawa's properties (b) every owner lies in its own
quorum, (c) equal quorum size, (d) equal responsibility, and the messages per
critical-section entry under light demand, 3·(mean quorum size − 1), as in
Maekawa's Tables I and II. "-" reads standard input.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sys, err := readSystem(s, args[0], o.in)
			if err != nil {
				return err
			}
			rep := newInfoReport(sys)
			return writeOutput(s, "", func(w io.Writer) error {
				if o.asJSON {
					return writeJSON(w, rep)
				}
				return rep.table(w, displayName(args[0]))
			})
		},
	}
	addInputFlags(cmd, &o.in)
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	return cmd
}

// number is an exact count: a JSON number when it fits in 64 bits, a
// decimal string beyond.
type number struct{ v *big.Int }

func (x number) MarshalJSON() ([]byte, error) {
	if x.v.IsInt64() {
		return []byte(x.v.String()), nil
	}
	return json.Marshal(x.v.String())
}

func (x number) String() string { return x.v.String() }

type spread struct {
	Min  number  `json:"min"`
	Mean float64 `json:"mean"`
	Max  number  `json:"max"`
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
	messagesExact    *big.Rat
}

type infoReport struct {
	N      int        `json:"n"`
	K      int        `json:"k"`
	Kind   string     `json:"kind,omitempty"`
	Params set.Params `json:"params,omitempty"`
	*familyInfo
	Levels []familyInfo `json:"levels,omitempty"`
}

func newFamilyInfo(f *set.Family) familyInfo {
	st := f.Stats()
	fl := func(r *big.Rat) float64 { v, _ := r.Float64(); return v }
	fi := familyInfo{
		H:         f.H,
		Quorums:   number{st.Quorums},
		Threshold: f.Threshold,
		QuorumSize: spread{Min: number{big.NewInt(int64(st.MinSize))}, Mean: fl(st.MeanSize()),
			Max: number{big.NewInt(int64(st.MaxSize))}},
		Degree:  spread{Min: number{st.MinDegree}, Mean: fl(st.MeanDegree()), Max: number{st.MaxDegree}},
		Maekawa: maekawaProps{EqualSize: st.EqualSize(), EqualResponsibility: st.EqualDegree()},
	}
	if st.HasOwners {
		ok := st.OwnersInQuorums
		fi.Maekawa.OwnerInQuorum = &ok
	}
	fi.messagesExact = st.MessagesPerEntry()
	fi.MessagesPerEntry = fl(fi.messagesExact)
	return fi
}

func newInfoReport(sys set.System) *infoReport {
	rep := &infoReport{N: sys.N(), K: sys.K(), Kind: sys.Kind()}
	if sys.HK != nil {
		rep.Params = sys.HK.Params
		for _, l := range sys.HK.Levels {
			rep.Levels = append(rep.Levels, newFamilyInfo(l))
		}
		return rep
	}
	rep.Params = sys.Family.Params
	fi := newFamilyInfo(sys.Family)
	rep.familyInfo = &fi
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
		)
	}
	return renderTable(w, []string{"property", "value"}, rows)
}

func spreadString(s spread) string {
	if s.Min.v.Cmp(s.Max.v) == 0 {
		return s.Min.String()
	}
	return fmt.Sprintf("min %s, mean %s, max %s", s.Min, strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", s.Mean), "0"), "."), s.Max)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
