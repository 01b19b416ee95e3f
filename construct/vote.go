package construct

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// MaxVoteTotal bounds the total number of votes of a weighted voting
// system, so that the votes dynamic program of package availability stays
// small.
const MaxVoteTotal = 1 << 20

// VoteThreshold validates weights and a threshold (0 for the default) and
// returns the threshold in force: more than half the votes, ⌊W/2⌋+1, by
// default. A threshold of at most W/2 is refused (two disjoint sets could
// both reach it), and so is one above W.
func VoteThreshold(weights []int, t int) (int, error) {
	if len(weights) == 0 {
		return 0, errors.New("construct: vote: no weights")
	}
	if len(weights) > set.MaxNodes {
		return 0, errorf("vote", "%d nodes: more than %d", len(weights), set.MaxNodes)
	}
	total := 0
	for i, w := range weights {
		if w < 0 {
			return 0, errorf("vote", "node %d has %d votes: must be at least 0", i+1, w)
		}
		total += w
		if total > MaxVoteTotal {
			return 0, errorf("vote", "more than %d votes in all", MaxVoteTotal)
		}
	}
	if total == 0 {
		return 0, errors.New("construct: vote: no votes at all")
	}
	switch {
	case t == 0:
		return total/2 + 1, nil
	case 2*t <= total:
		return 0, errorf("vote", "threshold %d is at most half of the %d votes: two disjoint sets could both reach it", t, total)
	case t > total:
		return 0, fmt.Errorf("construct: vote: threshold %d exceeds the %d votes", t, total)
	}
	return t, nil
}

// Vote returns Gifford's weighted voting coterie ("Weighted voting for
// replicated data", SOSP 1979): node i has weights[i] votes and the quorums
// are the minimal sets holding at least t votes; t = 0 means more than
// half, ⌊W/2⌋+1 of the W votes. Any two such sets meet, since together
// they hold more than W votes.
//
// When every node has the same number of votes the family is the threshold
// system of all ⌈t/w⌉-subsets, stored symbolically like majority. Otherwise
// the minimal sets are listed (a set sorted by decreasing votes is minimal
// exactly when it first reaches t at its last node), and more than
// MaxCatalogueQuorums of them are refused: storing a general weighted
// threshold symbolically would need a weighted form in package set.
func Vote(weights []int, t int) (*set.Family, error) {
	return vote(context.Background(), weights, t)
}

// vote is [Vote] watching ctx.
func vote(ctx context.Context, weights []int, t int) (*set.Family, error) {
	t, err := VoteThreshold(weights, t)
	if err != nil {
		return nil, err
	}
	n := len(weights)
	params := set.Params{"weights": joinInts(weights), "threshold": t}
	if w := weights[0]; w > 0 && !slices.ContainsFunc(weights, func(x int) bool { return x != w }) {
		f := set.NewThreshold(n, (t+w-1)/w)
		f.Kind, f.Params = "vote", params
		return f, nil
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return weights[b] - weights[a] })
	suffix := make([]int, n+1) // suffix[j] = votes of order[j:]
	for j := n - 1; j >= 0; j-- {
		suffix[j] = suffix[j+1] + weights[order[j]]
	}
	f := set.NewFamily(n)
	f.Kind, f.Params = "vote", params
	s := set.New(n)
	var tooMany bool
	var stopErr error // ctx's, once it is done
	stop := poll{ctx: ctx}
	var rec func(j, votes int)
	rec = func(j, votes int) {
		for k := j; k < n && !tooMany && stopErr == nil; k++ {
			if stopErr = stop.stop(); stopErr != nil {
				return
			}
			w := weights[order[k]]
			if w == 0 || votes+suffix[k] < t {
				return
			}
			s.Add(order[k])
			if votes+w >= t {
				if len(f.Quorums) == MaxCatalogueQuorums {
					tooMany = true
				} else {
					f.Add(s, set.NoOwner)
				}
			} else {
				rec(k+1, votes+w)
			}
			s.Remove(order[k])
		}
	}
	rec(0, 0)
	if stopErr != nil {
		return nil, stopErr
	}
	if tooMany {
		return nil, fmt.Errorf("construct: vote: more than %d minimal quorums; coterie lists at most that many (availability has a votes recurrence that needs no list)", MaxCatalogueQuorums)
	}
	if err := checkExplicit("vote", n, len(f.Quorums)); err != nil {
		return nil, err
	}
	f.Canonical()
	return f, nil
}

var voteSpec = Spec{
	Name:    "vote",
	Summary: "weighted voting: minimal sets with more than half (or ≥ T) of the votes",
	Source:  "Gifford 1979",
	Params: []Param{
		{Name: "weights", Usage: "votes of nodes 1, 2, …, such as 3,1,1,1,1", Type: String, Required: true},
		{Name: "threshold", Usage: "votes a quorum needs (default: more than half)", Type: Int, Default: 0, Min: 1, Max: MaxVoteTotal},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		weights, err := ParseInts("vote", "weights", a.String("weights"), 0)
		if err != nil {
			return set.System{}, err
		}
		return system(vote(ctx, weights, a.Int("threshold")))
	},
	Typed: func(a Args) (quorum.System, error) {
		weights, err := ParseInts("vote", "weights", a.String("weights"), 0)
		if err != nil {
			return nil, err
		}
		return NewVoteSystem(weights, a.Int("threshold"))
	},
}

// VoteSystem is [Vote] as a typed construction: the sets holding at least
// Threshold of the votes.
type VoteSystem struct {
	implicitBase
	Weights   []int
	Threshold int
}

// NewVoteSystem returns weighted voting with these weights and threshold
// t (0: more than half of the votes).
func NewVoteSystem(weights []int, t int) (*VoteSystem, error) {
	t, err := VoteThreshold(weights, t)
	if err != nil {
		return nil, err
	}
	params := set.Params{"weights": joinInts(weights), "threshold": t}
	return &VoteSystem{implicitBase{kind: "vote", params: params, n: len(weights)}, slices.Clone(weights), t}, nil
}

// HasQuorum reports whether live holds at least Threshold votes.
func (s *VoteSystem) HasQuorum(live *set.Set) bool {
	votes := 0
	for v := range live.All() {
		if v < len(s.Weights) {
			votes += s.Weights[v]
			if votes >= s.Threshold {
				return true
			}
		}
	}
	return false
}

// IntersectionProof cites why two quorums meet.
func (s *VoteSystem) IntersectionProof() string {
	return "Gifford 1979: two sets of at least t > W/2 votes hold more than W votes together, so they share a node"
}

// NondominatedByTheorem applies when the total of the votes is odd and a
// quorum needs a majority of them.
func (s *VoteSystem) NondominatedByTheorem() (string, bool) {
	total := 0
	for _, w := range s.Weights {
		total += w
	}
	if total%2 == 1 && s.Threshold == total/2+1 {
		// Of a set and its complement, exactly one holds more than half
		// of an odd total, so it holds a quorum: the coterie is
		// self-dual, hence nondominated.
		return "Garcia-Molina and Barbara 1985: majority voting with an odd total of votes is nondominated (of every set and its complement, one holds a majority)", true
	}
	return "", false
}
