package jsonreport

import (
	"math/big"

	"github.com/coterie-dev/coterie/verify"
)

// Verify is the report of `coterie verify --json` on a quorum system, as
// docs/formats.md shows it: positions and nodes 1-based.
type Verify struct {
	Valid     bool `json:"valid"`
	Undecided bool `json:"undecided,omitempty"`
	N         int  `json:"n"`
	K         int  `json:"k"`
	// Quorums is a [Number], or the string "too many to count".
	Quorums any     `json:"quorums"`
	Checks  []Check `json:"checks"`
}

// Check is one property of a [Verify] report; Info marks one that never
// makes a system invalid.
type Check struct {
	Name      string   `json:"name"`
	OK        bool     `json:"ok"`
	Info      bool     `json:"info,omitempty"`
	Undecided bool     `json:"undecided,omitempty"`
	H         int      `json:"h,omitempty"`
	Witness   *Witness `json:"witness,omitempty"`
	Detail    string   `json:"detail,omitempty"`
}

// Witness is what makes a check fail: quorums by their 1-based
// positions, a request pattern with its requests, the quorums' nodes
// (threshold systems), or nodes.
type Witness struct {
	Quorums  []int     `json:"quorums,omitempty"`
	Pattern  []int     `json:"pattern,omitempty"`
	Requests []Request `json:"requests,omitempty"`
	Sets     [][]int   `json:"sets,omitempty"`
	Nodes    []int     `json:"nodes,omitempty"`
}

// Request is one request of a request pattern's witness: its h and the
// quorum's position in level h, or the quorum's nodes.
type Request struct {
	H      int   `json:"h"`
	Quorum int   `json:"quorum,omitempty"`
	Set    []int `json:"set,omitempty"`
}

// QuorumCount is a count of quorums as reports give it: a [Number], or
// "too many to count" when c is nil.
func QuorumCount(c *big.Int) any {
	if c == nil {
		return "too many to count"
	}
	return Number{c}
}

// FromVerify is the report on r.
func FromVerify(r *verify.Report) Verify {
	out := Verify{Valid: r.Valid, Undecided: r.Undecided, N: r.N, K: r.K,
		Quorums: QuorumCount(r.Quorums), Checks: []Check{}}
	for _, c := range r.Checks {
		cj := Check{Name: c.Name, OK: c.OK, Info: c.Info, Undecided: c.Undecided, H: c.H, Detail: c.Detail}
		if w := c.Witness; w != nil {
			wj := &Witness{Quorums: plus1(w.Quorums), Pattern: w.Pattern, Nodes: plus1(w.Nodes)}
			for _, s := range w.Sets {
				wj.Sets = append(wj.Sets, plus1(s))
			}
			for _, rq := range w.Requests {
				rj := Request{H: rq.H, Set: plus1(rq.Set)}
				if rq.Quorum >= 0 {
					rj.Quorum = rq.Quorum + 1
				}
				wj.Requests = append(wj.Requests, rj)
			}
			cj.Witness = wj
		}
		out.Checks = append(out.Checks, cj)
	}
	return out
}

// Patterns is the report of `coterie verify --patterns K --json`: the
// critical conflicting request patterns of k, and their count. The
// command streams it; the shape is this.
type Patterns struct {
	K        int     `json:"k"`
	Patterns [][]int `json:"patterns"`
	Count    int     `json:"count"`
}
