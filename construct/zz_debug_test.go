package construct

import "testing"

func TestDebugStages(t *testing.T) {
	for _, n := range []int{32, 33, 36, 37, 382, 393, 394} {
		mp, _ := newMaekawaPlan(n, MapPaper)
		pl := mp.pl
		lineOwner := make([]int32, pl.n)
		for p, l := range mp.owners {
			lineOwner[l] = int32(p)
		}
		m1 := maxMatching(removedToLines{pl, n, lineOwner, 1})
		s2 := -1
		if m1.size == pl.n-n {
			s2 = maxMatching(removedToPoints{pl, n, m1.l}).size
		}
		m3 := maxMatching(removedToKept{pl, n, lineOwner})
		t.Logf("n=%d q=%d removed=%d stage1=%d stage2=%d fallback=%d", n, pl.q, pl.n-n, m1.size, s2, m3.size)
	}
}
