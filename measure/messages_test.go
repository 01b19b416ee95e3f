package measure

import (
	"testing"

	"github.com/coterie-dev/coterie/set"
)

func TestMessages(t *testing.T) {
	// Fano plane, K = 3: Maekawa's Table I gives 6 messages (N = 7).
	m := MessagesOf(fano())
	if m.MaekawaLight.RatString() != "6" || m.MaekawaHeavyMax.RatString() != "10" || m.Ordered.RatString() != "9" || m.HKBest != nil {
		t.Errorf("Fano: %v %v %v %v", m.MaekawaLight, m.MaekawaHeavyMax, m.Ordered, m.HKBest)
	}
	// Maekawa's N = 5 degenerate sets: mean size 13/5, Table II prints 4.8.
	m = MessagesOf(fam(5, []int{1, 2, 3}, []int{2, 4}, []int{3, 5, 4}, []int{1, 4, 5}, []int{2, 5}))
	if m.MaekawaLight.RatString() != "24/5" {
		t.Errorf("N = 5: %v, want 24/5 = 4.8", m.MaekawaLight)
	}
	// One level h = 2 of an (h,k)-arbiter with largest quorum 3:
	// 3|q| = 9 without conflict, (3h+3)|q| = 27 at worst.
	l := fam(4, []int{1, 2, 3}, []int{2, 3})
	l.H, l.K = 2, 3
	m = MessagesOf(l)
	if m.HKBest.RatString() != "9" || m.HKWorst.RatString() != "27" {
		t.Errorf("h = 2: %v %v", m.HKBest, m.HKWorst)
	}
	// A threshold family: every quorum has w nodes.
	if got := MessagesOf(set.NewThreshold(7, 4)).MaekawaLight.RatString(); got != "9" {
		t.Errorf("majority of 7: %s", got)
	}
}
