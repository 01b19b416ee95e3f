package domination

import (
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// typed returns f as a typed system ([construct.Typed]), asked once where
// a family enters the package; a family whose kind and params name no
// construction is its listed quorums.
func typed(f *set.Family) quorum.System {
	sys, err := construct.Typed(f)
	if err != nil {
		return quorum.Listed{F: f}
	}
	return sys
}

// thresholdOf returns w when sys is the threshold system of every w-subset
// of its nodes, held without its quorums listed (a [quorum.Thresholder]):
// it is then answered by closed forms.
func thresholdOf(sys quorum.System) (w int, ok bool) {
	t, ok := sys.(quorum.Thresholder)
	if !ok {
		return 0, false
	}
	return t.Threshold(), true
}
