package measure

import (
	"math/big"

	"github.com/coterie-dev/coterie/set"
)

// Messages are the messages per critical-section entry that the papers'
// protocols cost on a family, counted as each paper counts them. With
// quorums of unequal size the counts use the mean size (every node equally
// likely to ask, as in Maekawa's Table II) or, for h-out-of-k, the largest
// quorum (Manabe and Tajima's bound).
type Messages struct {
	// MaekawaLight is 3(K−1) for quorums of size K: K−1 REQUESTs, LOCKEDs
	// and RELEASEs, the requester's own permission costing nothing
	// (Maekawa 1985, Section 8.1, Tables I and II).
	MaekawaLight *big.Rat
	// MaekawaHeavyMax is 5(K−1), the heavy-demand worst case: REQUEST,
	// INQUIRE, RELINQUISH, LOCKED and RELEASE per member (Section 8.2;
	// 4(K−1) is the expected heavy-demand count, with FAILED in place of
	// INQUIRE and RELINQUISH).
	MaekawaHeavyMax *big.Rat
	// Ordered is 3|q| for the ordered-locking protocol without timestamps
	// of Kakugawa, Fujita, Yamashita and Ae: a request, a PERMIT and a
	// RELEASE per member, asked one at a time.
	Ordered *big.Rat
	// HKBest and HKWorst are 3|q| and (3h+3)|q| for the h-out-of-k
	// algorithm with quorums of level h, |q| the largest quorum of the
	// level (Manabe and Tajima, Section 4.3); nil outside an
	// (h,k)-arbiter.
	HKBest, HKWorst *big.Rat
}

// MessagesOf counts the messages per entry on f (one level of an
// (h,k)-arbiter when f.H > 0).
func MessagesOf(f *set.Family) Messages {
	st := f.Stats()
	mean := st.MeanSize()
	one := big.NewRat(1, 1)
	k1 := new(big.Rat).Sub(mean, one) // K − 1
	m := Messages{
		MaekawaLight:    new(big.Rat).Mul(k1, big.NewRat(3, 1)),
		MaekawaHeavyMax: new(big.Rat).Mul(k1, big.NewRat(5, 1)),
		Ordered:         new(big.Rat).Mul(mean, big.NewRat(3, 1)),
	}
	if f.H > 0 {
		q := big.NewRat(int64(st.MaxSize), 1)
		m.HKBest = new(big.Rat).Mul(q, big.NewRat(3, 1))
		m.HKWorst = new(big.Rat).Mul(q, big.NewRat(int64(3*f.H+3), 1))
	}
	return m
}
