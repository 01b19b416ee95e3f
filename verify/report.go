package verify

import (
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/set"
)

// Report is the outcome of [Verify]: the system's size and one [Check] per
// property. Positions and nodes in witnesses are 0-based; the command line
// prints them 1-based.
type Report struct {
	// Valid reports whether every check that is not informational holds.
	Valid bool
	// Undecided reports that some check did not finish (cancelled, timed
	// out); Valid is then false although no property was seen to fail.
	Undecided bool
	N, K      int
	// Quorums is the number of quorums (of all levels, for an
	// (h,k)-arbiter); for a threshold family, C(n, w). It is nil when a
	// threshold family makes the count too large to compute cheaply (more
	// than 65,536 bits).
	Quorums *big.Int
	Checks  []Check
}

// Check is the outcome of one property.
type Check struct {
	// Name is "intersection", "minimality", or, for the informational
	// checks, "owner_in_quorum" (Maekawa's property (b)), "equal_size"
	// ((c)), "equal_responsibility" ((d)) and "projective_plane" (every two
	// quorums meet in exactly one node).
	Name string
	// OK reports whether the property holds.
	OK bool
	// Info marks a property reported as information: it never makes the
	// report invalid.
	Info bool
	// Undecided marks a check that did not finish; OK is then false.
	Undecided bool
	// H is the level of an (h,k)-arbiter the check is about, or 0.
	H int
	// Witness shows why the property fails; nil when it holds (some
	// informational checks carry one either way, such as the extreme sizes).
	Witness *Witness
	// Detail is a short explanation for people, with no node or position
	// numbers (those are in Witness).
	Detail string
}

// Witness is the evidence of a check.
type Witness struct {
	// Quorums are positions in the family (in level H for an
	// (h,k)-arbiter's minimality): the quorums with no common node; for
	// minimality the pair [i, j] with quorum i ⊆ quorum j; for equal_size
	// a smallest and a largest quorum.
	Quorums []int
	// Pattern is the critical request pattern of an (h,k)-arbiter's
	// intersection failure, in increasing order.
	Pattern []int
	// Requests are the pattern's requests with the quorum assigned to
	// each; together they have no common node.
	Requests []Request
	// Sets lists quorums of a threshold family by their nodes (a threshold
	// family has no positions): these quorums already have no common node,
	// and any others may complete the choice.
	Sets [][]int
	// Nodes are nodes the check names: the owner missing from its quorum,
	// the least and most loaded node, the nodes two quorums share.
	Nodes []int
}

// Request is one request of a request pattern with the quorum assigned to
// it: a position in level H, or, when level H is a threshold family
// (Quorum = -1), the quorum's nodes in Set.
type Request struct {
	H      int
	Quorum int
	Set    []int
}

// Method selects how [Verify] decides intersection of explicit systems.
type Method int

const (
	// Search is the pruned, parallel cover search (the default).
	Search Method = iota
	// Brute tries every choice of quorums in turn: slow, independent,
	// for cross-checking. Threshold families are enumerated first, up to
	// a limit.
	Brute
)

// String returns "search" or "brute".
func (m Method) String() string {
	if names := [...]string{Search: "search", Brute: "brute"}; m >= 0 && int(m) < len(names) {
		return names[m]
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod returns the method called s ("search" or "brute"; "" is
// the search), the inverse of [Method.String].
func ParseMethod(s string) (Method, error) {
	if s == "" {
		return Search, nil
	}
	for _, m := range []Method{Search, Brute} {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("verify: unknown method %q (want search or brute)", s)
}

// Options tune [Verify]. The zero value uses the search.
type Options struct {
	Method Method
	// Progress, if not nil, is told how a long check is going: the stage
	// is the check's name ("intersection", "minimality"), and the units
	// of work are tasks, chunks, patterns or choices.
	Progress set.Progress
	// ListLimit is the most quorums of an implicit family (a construction
	// stored by its kind and params) that Verify lists to check them;
	// 0 means construct.ListLimit. Past it the construction's proof
	// answers. LimitName names the limit in the report's detail ("the
	// limit" when empty), so that a caller can name its own setting.
	ListLimit int
	LimitName string
}

func (o Options) progress(check string) func(done, total int) {
	return o.Progress.Stage(check)
}

// Failed returns the first check that is not informational and does not
// hold, or nil.
func (r *Report) Failed() *Check {
	for i := range r.Checks {
		if c := &r.Checks[i]; !c.Info && !c.OK && !c.Undecided {
			return c
		}
	}
	return nil
}

// Check returns the check called name (at level h, 0 for none), or nil.
func (r *Report) Check(name string, h int) *Check {
	for i := range r.Checks {
		if c := &r.Checks[i]; c.Name == name && c.H == h {
			return c
		}
	}
	return nil
}

// finish sets Valid and Undecided from the checks.
func (r *Report) finish() {
	r.Valid, r.Undecided = true, false
	for _, c := range r.Checks {
		if c.Info {
			continue
		}
		if c.Undecided {
			r.Undecided = true
		}
		if !c.OK {
			r.Valid = false
		}
	}
}
