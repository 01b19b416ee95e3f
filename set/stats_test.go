package set_test

import (
	"testing"

	"github.com/coterie-dev/coterie/set"
)

func TestStats(t *testing.T) {
	// Maekawa's N = 5 degenerate sets (Section 7): sizes 3, 2, 3, 3, 2.
	f := family(5, []int{0, 1, 2, 3, 4},
		[]int{0, 1, 2}, []int{1, 3}, []int{2, 4, 3}, []int{0, 3, 4}, []int{1, 4})
	st := f.Stats()
	if st.MinSize != 2 || st.MaxSize != 3 || st.EqualSize() {
		t.Errorf("sizes %d..%d", st.MinSize, st.MaxSize)
	}
	// The mean size is 13/5 (Table II's 4.8 messages = 3·(13/5 − 1)).
	if got := st.MeanSize().RatString(); got != "13/5" {
		t.Errorf("mean size = %s, want 13/5", got)
	}
	if !st.HasOwners || !st.OwnersInQuorums {
		t.Errorf("owners: %+v", st)
	}
	if st.MinDegree.Int64() != 2 || st.MaxDegree.Int64() != 3 || st.EqualDegree() {
		t.Errorf("degrees %v..%v", st.MinDegree, st.MaxDegree)
	}

	maj := set.NewThreshold(7, 4).Stats()
	if maj.Quorums.Int64() != 35 || maj.MinDegree.Int64() != 20 || !maj.EqualDegree() || maj.HasOwners {
		t.Errorf("majority of 7: %+v", maj)
	}
	// The mean degree is the total size over n: 4·35/7 = 20.
	if got := maj.MeanDegree().RatString(); got != "20" {
		t.Errorf("mean degree %s", got)
	}

	g := family(3, []int{1}, []int{0, 2})
	if st := g.Stats(); !st.HasOwners || st.OwnersInQuorums {
		t.Errorf("owner 2 is not in {1,3}: %+v", st)
	}
}
