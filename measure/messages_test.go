package measure

import (
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// TestFormula evaluates every formula three ways, which must agree: with
// rationals, floats and whole numbers.
func TestFormula(t *testing.T) {
	for _, tt := range []struct {
		name            string
		f               Formula
		n, size, remote int
		want            int64
	}{
		{"Maekawa light, K = 4", MaekawaLight(), 13, 4, 3, 9},
		{"Maekawa heavy, K = 4", MaekawaHeavyMax(), 13, 4, 3, 15},
		{"ordered, |q| = 4", Ordered(), 13, 4, 3, 12},
		{"h-out-of-k best, |q| = 5", HKBest(), 9, 5, 4, 15},
		{"h-out-of-k worst, h = 2, |q| = 5", HKWorst(2), 9, 5, 4, 45},
		{"Ricart-Agrawala, N = 13", RicartAgrawala(), 13, 4, 3, 24},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f.Int(tt.n, tt.size, tt.remote); got != tt.want {
				t.Errorf("Int = %d, want %d", got, tt.want)
			}
			if got := tt.f.Float(tt.n, float64(tt.size), float64(tt.remote)); got != float64(tt.want) {
				t.Errorf("Float = %v, want %d", got, tt.want)
			}
			r := tt.f.Rat(tt.n, big.NewRat(int64(tt.size), 1), big.NewRat(int64(tt.remote), 1))
			if r.Cmp(big.NewRat(tt.want, 1)) != 0 {
				t.Errorf("Rat = %v, want %d", r, tt.want)
			}
		})
	}
}

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
	// Ricart and Agrawala: 2(N−1) whatever the quorums (Maekawa's Table I:
	// 12 for N = 7).
	if got := MessagesOf(fano()).RicartAgrawala.RatString(); got != "12" {
		t.Errorf("Fano, Ricart-Agrawala: %s, want 12", got)
	}
	// A threshold family: every quorum has w nodes.
	if got := MessagesOf(set.NewThreshold(7, 4)).MaekawaLight.RatString(); got != "9" {
		t.Errorf("majority of 7: %s", got)
	}
}
