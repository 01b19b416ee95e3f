package partfile

import (
	"encoding/json"
	"fmt"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// SmallestOptions are the options of `domination --smallest` that its parts
// record.
type SmallestOptions struct {
	Name string `json:"name"`
	JSON bool   `json:"json"`
}

// smResult is a shard's share of --smallest, nodes 1-based.
type smResult struct {
	// System is the family judged (canonical JSON, with its k).
	System json.RawMessage `json:"system"`
	// The split: sizes Lower .. Lower+Sizes−1 below the first witness,
	// Cubes cubes each.
	Sizes   int        `json:"sizes"`
	Cubes   int        `json:"cubes,omitempty"`
	Lower   int        `json:"lower,omitempty"`
	First   []int      `json:"first,omitempty"`
	Answers []smAnswer `json:"answers,omitempty"`
	// Whole is the whole result of a run that is not split.
	Whole *smWhole `json:"whole,omitempty"`
}

// smAnswer is the answer for at most Size nodes in cube Cube: a witness,
// or null.
type smAnswer struct {
	Size    int   `json:"size"`
	Cube    int   `json:"cube"`
	Witness []int `json:"witness"`
}

// smWhole is a whole domination.Result.
type smWhole struct {
	Nondominated bool   `json:"nondominated"`
	Witness      []int  `json:"witness,omitempty"`
	Smallest     bool   `json:"smallest"`
	Proof        string `json:"proof,omitempty"`
	PlaneOrder   int    `json:"plane_order,omitempty"`
	ClosedForm   bool   `json:"closed_form,omitempty"`
	LowerBound   int    `json:"lower_bound,omitempty"`
	Structure    string `json:"structure,omitempty"`
	Inner        []int  `json:"inner,omitempty"`
}

// smCheckpoint is the checkpoint of --smallest: the answers so far.
type smCheckpoint struct {
	head
	Answers []smAnswer `json:"answers"`
}

// nodes1 returns the nodes of h numbered from 1 (nil for nil).
func nodes1(h *set.Set) []int {
	if h == nil {
		return nil
	}
	out := []int{}
	for v := range h.All() {
		out = append(out, v+1)
	}
	return out
}

// setOf1 reads nodes numbered from 1 as a set over n nodes (nil for nil).
func setOf1(n int, vs []int) (*set.Set, error) {
	if vs == nil {
		return nil, nil
	}
	h := set.New(n)
	for _, v := range vs {
		if v < 1 || v > n {
			return nil, fmt.Errorf("node %d is not 1..%d", v, n)
		}
		h.Add(v - 1)
	}
	return h, nil
}

func answers1(as []domination.SizeAnswer) []smAnswer {
	var out []smAnswer
	for _, a := range as {
		out = append(out, smAnswer{Size: a.Size, Cube: a.Cube, Witness: nodes1(a.Witness)})
	}
	return out
}

func answersOf(n int, as []smAnswer) ([]domination.SizeAnswer, error) {
	var out []domination.SizeAnswer
	for _, a := range as {
		h, err := setOf1(n, a.Witness)
		if err != nil {
			return nil, err
		}
		out = append(out, domination.SizeAnswer{Size: a.Size, Cube: a.Cube, Witness: h})
	}
	return out, nil
}

// SmallestPart returns the part of shard sp of --smallest on the family
// whose canonical JSON and input hash are canon and hash (see
// [Canonical]): the part carries the family, for the merge.
func SmallestPart(sp shard.Spec, hash string, canon []byte, o SmallestOptions, p *domination.SmallestPart) (*shard.Part, error) {
	r := smResult{System: canon, Sizes: p.Sizes, Cubes: p.Cubes, Lower: p.Lower, First: nodes1(p.First), Answers: answers1(p.Answers)}
	if w := p.Whole; w != nil {
		r.Whole = &smWhole{Nondominated: w.Nondominated, Witness: nodes1(w.Witness), Smallest: w.Smallest, Proof: string(w.Proof),
			PlaneOrder: w.PlaneOrder, ClosedForm: w.ClosedForm, LowerBound: w.LowerBound,
			Structure: w.Structure, Inner: nodes1(w.Inner)}
	}
	return shard.New(KindSmallest, sp, hash, o, r)
}

// DecodeSmallest reads the options, the family and the shards' parts of
// checked --smallest parts (see shard.Check). A family that does not hash
// to the parts' input hash, or answers that are not sets of its nodes,
// are refused with a *shard.MergeError.
func DecodeSmallest(parts []*shard.Part) (SmallestOptions, *set.Family, []*domination.SmallestPart, error) {
	o, err := shard.DecodeOptions[SmallestOptions](parts[0])
	if err != nil {
		return o, nil, nil, err
	}
	rs, err := shard.Decode[smResult](parts)
	if err != nil {
		return o, nil, nil, err
	}
	sys, err := carried(parts[0], rs[0].System)
	if err != nil {
		return o, nil, nil, err
	}
	if sys.Family == nil {
		return o, nil, nil, &shard.MergeError{Shard: parts[0].Spec(), Msg: fmt.Sprintf("shard %s: the system it carries: %v", parts[0].Shard, "not a coterie or k-arbiter")}
	}
	f := sys.Family
	out := make([]*domination.SmallestPart, len(rs))
	for i, r := range rs {
		bad := func(err error) error {
			return &shard.MergeError{Shard: parts[i].Spec(), Msg: fmt.Sprintf("shard %s: %v", parts[i].Shard, err)}
		}
		p := &domination.SmallestPart{Sizes: r.Sizes, Cubes: r.Cubes, Lower: r.Lower}
		if p.First, err = setOf1(f.N, r.First); err != nil {
			return o, nil, nil, bad(err)
		}
		if p.Answers, err = answersOf(f.N, r.Answers); err != nil {
			return o, nil, nil, bad(err)
		}
		if w := r.Whole; w != nil {
			h, err := setOf1(f.N, w.Witness)
			if err != nil {
				return o, nil, nil, bad(err)
			}
			inner, err := setOf1(f.N, w.Inner)
			if err != nil {
				return o, nil, nil, bad(err)
			}
			p.Whole = &domination.Result{Nondominated: w.Nondominated, K: f.K, Witness: h, Smallest: w.Smallest,
				Proof: domination.Proof(w.Proof), PlaneOrder: w.PlaneOrder, ClosedForm: w.ClosedForm, LowerBound: w.LowerBound,
				Structure: w.Structure, Inner: inner}
		}
		out[i] = p
	}
	return o, f, out, nil
}

// carried reads the system a part carries and checks that it is the
// input the part's hash names.
func carried(p *shard.Part, data json.RawMessage) (set.System, error) {
	sys, err := format.ReadBytes(data, format.JSON, format.DefaultOptions())
	if err != nil {
		return sys, &shard.MergeError{Shard: p.Spec(), Msg: fmt.Sprintf("shard %s: the system it carries: %v", p.Shard, err)}
	}
	if h, err := InputHash(sys); err != nil || h != p.InputSHA256 {
		return sys, &shard.MergeError{Shard: p.Spec(), Msg: fmt.Sprintf("shard %s: the system it carries is not the input its input_sha256 names", p.Shard)}
	}
	return sys, nil
}

// SmallestCheckpoint returns the checkpoint file of the answers of p, the
// progress of shard sp on the input with the given hash.
func SmallestCheckpoint(hash string, sp shard.Spec, p *domination.SmallestPart) any {
	ck := smCheckpoint{head: newHead(KindSmallest, hash, sp), Answers: answers1(p.Answers)}
	if ck.Answers == nil {
		ck.Answers = []smAnswer{}
	}
	return ck
}

// ReadSmallestCheckpoint reads the answers saved in the checkpoint data
// of shard sp of a family over n nodes, with the given input hash.
func ReadSmallestCheckpoint(data []byte, hash string, sp shard.Spec, n int) ([]domination.SizeAnswer, error) {
	var w smCheckpoint
	if err := shard.ReadCheckpoint(data, shard.CheckpointHead{Kind: KindSmallest, InputSHA256: hash, Shard: sp}, &w); err != nil {
		return nil, err
	}
	as, err := answersOf(n, w.Answers)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %v", err)
	}
	return as, nil
}
