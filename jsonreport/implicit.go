package jsonreport

import (
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/set"
)

// ImplicitInfo is the report of `coterie info --json` on an implicit
// family too large to list: the figures its construction gives (the
// count, the quorum sizes, the closed-form load and capacity), with notes
// on what is not computed.
type ImplicitInfo struct {
	N             int          `json:"n"`
	K             int          `json:"k"`
	Kind          string       `json:"kind"`
	Params        set.Params   `json:"params,omitempty"`
	Implicit      bool         `json:"implicit"`
	Quorums       *Number      `json:"quorums,omitempty"`
	QuorumSize    *QuorumSizes `json:"quorum_size,omitempty"`
	Load          *float64     `json:"load,omitempty"`
	LoadExact     string       `json:"load_exact,omitempty"`
	LoadMethod    string       `json:"load_method,omitempty"`
	Capacity      *float64     `json:"capacity,omitempty"`
	CapacityExact string       `json:"capacity_exact,omitempty"`
	Notes         []string     `json:"notes"`
}

// QuorumSizes is the smallest and largest quorum of a construction.
type QuorumSizes struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// NewImplicitInfo describes the implicit family f from its construction
// (analysis.ImplicitFigures); limit is the --limit it has more quorums
// than.
func NewImplicitInfo(f *set.Family, limit int) *ImplicitInfo {
	fig := analysis.ImplicitFigures(f)
	r := &ImplicitInfo{N: f.N, K: f.K, Kind: f.Kind, Params: f.Params, Implicit: true}
	if fig.Count != nil {
		r.Quorums = &Number{V: fig.Count}
	}
	if fig.Sized {
		r.QuorumSize = &QuorumSizes{Min: fig.MinSize, Max: fig.MaxSize}
	}
	if l := fig.Load; l != nil {
		inv := new(big.Rat).Inv(l.Exact)
		c, _ := inv.Float64()
		value := l.Value
		r.Load, r.LoadExact, r.LoadMethod = &value, l.Exact.RatString(), string(l.Method)
		r.Capacity, r.CapacityExact = &c, inv.RatString()
	} else {
		r.Notes = append(r.Notes, "load: no closed form for this construction, and the linear program needs the quorums")
	}
	r.Notes = append(r.Notes,
		fmt.Sprintf("an implicit family with more than --limit %d quorums: figures come from the construction; node degrees, messages and resilience need the quorums and are not computed", limit))
	return r
}
