package set_test

import (
	"testing"

	"github.com/coterie-dev/coterie/set"
)

func TestSameQuorums(t *testing.T) {
	fam := func(n int, qs ...[]int) *set.Family {
		f := set.NewFamily(n)
		for _, q := range qs {
			f.Add(set.Of(q...), -1)
		}
		return f
	}
	for _, tt := range []struct {
		name string
		a, b *set.Family
		want bool
	}{
		{"same order", fam(4, []int{0, 1}, []int{2, 3}), fam(4, []int{0, 1}, []int{2, 3}), true},
		{"other order", fam(4, []int{0, 1}, []int{2, 3}), fam(4, []int{2, 3}, []int{0, 1}), true},
		{"one differs", fam(4, []int{0, 1}, []int{2, 3}), fam(4, []int{0, 1}, []int{1, 3}), false},
		{"fewer", fam(4, []int{0, 1}, []int{2, 3}), fam(4, []int{0, 1}), false},
		{"repeat against two", fam(4, []int{0, 1}, []int{0, 1}), fam(4, []int{0, 1}, []int{2, 3}), false},
		{"thresholds alike", set.NewThreshold(5, 3), set.NewThreshold(5, 3), true},
		{"thresholds differ", set.NewThreshold(5, 3), set.NewThreshold(5, 4), false},
		{"threshold and list", set.NewThreshold(2, 1), fam(2, []int{0}, []int{1}), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := set.SameQuorums(tt.a, tt.b); got != tt.want {
				t.Errorf("SameQuorums = %v, want %v", got, tt.want)
			}
		})
	}
}
