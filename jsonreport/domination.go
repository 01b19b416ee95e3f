package jsonreport

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/format"
)

// Domination is the JSON report of `coterie domination` (docs/formats.md),
// written on one line and spaced as there:
// {"nondominated": false, "k": 1, "witness": [1, 2, 5]}. Nodes are 1-based.
type Domination struct {
	Nondominated bool  `json:"nondominated"`
	K            int   `json:"k"`
	Witness      []int `json:"witness,omitempty"`
	// Smallest: --smallest proved the witness smallest (by Proof:
	// "solver", "bruen", "bruen+solver", "bruen+solver+symmetry",
	// "exhaustive" or "closed-form"; see domination.Proof). Proof is
	// "theorem" for the verdict on an implicit family too large to list.
	Smallest bool   `json:"smallest,omitempty"`
	Proof    string `json:"proof,omitempty"`
	// Partial: --smallest stopped before proving its witness smallest;
	// LowerBound is what it had proved: no witness has fewer nodes.
	Partial    bool `json:"partial,omitempty"`
	LowerBound int  `json:"lower_bound,omitempty"`
	// Structure names what was recognised in the list and decided by
	// theorem ("threshold", "projective-plane", "join"; see
	// domination.Result.Structure); Inner are the nodes of a join's
	// inner system.
	Structure string `json:"structure,omitempty"`
	Inner     []int  `json:"inner,omitempty"`
	// With --make-nd: the witnesses added, the written system's size and
	// where it was written.
	Added   *int   `json:"added,omitempty"`
	Quorums *int   `json:"quorums,omitempty"`
	Output  string `json:"output,omitempty"`
}

// NewDomination is the report on r; smallest says whether --smallest was
// asked (and finished).
func NewDomination(r *domination.Result, smallest bool) Domination {
	rep := Domination{Nondominated: r.Nondominated, K: r.K, Smallest: smallest && r.Smallest, Structure: r.Structure}
	if rep.Smallest {
		rep.Proof = string(r.Proof)
	}
	if r.Witness != nil {
		for v := range r.Witness.All() {
			rep.Witness = append(rep.Witness, v+1)
		}
	}
	if r.Inner != nil {
		for v := range r.Inner.All() {
			rep.Inner = append(rep.Inner, v+1)
		}
	}
	return rep
}

// MarshalJSON writes the report on one line, its fields in the order of
// docs/formats.md: a partial --smallest says "smallest": false with its
// lower bound.
func (rep Domination) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, `{"nondominated": %t, "k": %d`, rep.Nondominated, rep.K)
	if rep.Witness != nil {
		fmt.Fprintf(&b, `, "witness": [%s]`, dominationInts(rep.Witness))
	}
	if rep.Partial {
		fmt.Fprintf(&b, `, "smallest": false, "lower_bound": %d, "partial": true`, rep.LowerBound)
	}
	if rep.Smallest {
		b.WriteString(`, "smallest": true`)
		if rep.Proof != "" {
			fmt.Fprintf(&b, `, "proof": %s`, dominationString(rep.Proof))
		}
	} else if rep.Proof == "theorem" {
		b.WriteString(`, "proof": "theorem"`) // an implicit family's verdict
	}
	if rep.Structure != "" {
		fmt.Fprintf(&b, `, "structure": %q`, rep.Structure)
		if rep.Inner != nil {
			fmt.Fprintf(&b, `, "inner": [%s]`, dominationInts(rep.Inner))
		}
	}
	if rep.Added != nil && rep.Quorums != nil {
		fmt.Fprintf(&b, `, "added": %d, "quorums": %d, "output": %s`, *rep.Added, *rep.Quorums, dominationString(rep.Output))
	}
	b.WriteString("}")
	return []byte(b.String()), nil
}

// dominationInts writes xs as the elements of a JSON array, spaced.
func dominationInts(xs []int) string {
	ids := make([]string, len(xs))
	for i, v := range xs {
		ids[i] = fmt.Sprint(v)
	}
	return strings.Join(ids, ", ")
}

// dominationString is s as a JSON string, with every control character escaped
// (format.EscapeJSONControls).
func dominationString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(format.EscapeJSONControls(b))
}
