package measure

import (
	"math/big"

	"github.com/coterie-dev/coterie/set"
)

// Formula is a count of messages per critical-section entry, linear in the
// request it prices: Remote messages per member of the requester's quorum
// other than the requester, Member per member of the quorum, and Other per
// node of the system other than the requester. Every message count in
// coterie (the figures of [MessagesOf], the paper's expectation a
// simulation is compared with) is one of the formulas below.
type Formula struct {
	Remote, Member, Other int
}

// Rat evaluates f for a system of n nodes and a quorum of size members,
// remote of them other than the requester (means, for a count over many
// requests).
func (f Formula) Rat(n int, size, remote *big.Rat) *big.Rat {
	r := new(big.Rat).Mul(remote, big.NewRat(int64(f.Remote), 1))
	r.Add(r, new(big.Rat).Mul(size, big.NewRat(int64(f.Member), 1)))
	return r.Add(r, big.NewRat(int64(f.Other)*int64(n-1), 1))
}

// Float evaluates f as [Formula.Rat] does, in floating point.
func (f Formula) Float(n int, size, remote float64) float64 {
	return float64(f.Remote)*remote + float64(f.Member)*size + float64(f.Other)*float64(n-1)
}

// Int evaluates f for one request, with whole numbers.
func (f Formula) Int(n, size, remote int) int64 {
	return int64(f.Remote)*int64(remote) + int64(f.Member)*int64(size) + int64(f.Other)*int64(n-1)
}

// MaekawaLight is 3(K−1): K−1 REQUESTs, LOCKEDs and RELEASEs, the
// requester's own permission costing nothing (Maekawa 1985, Section 8.1,
// Tables I and II).
func MaekawaLight() Formula { return Formula{Remote: 3} }

// MaekawaHeavyMax is 5(K−1), Maekawa's heavy-demand worst case: REQUEST,
// INQUIRE, RELINQUISH, LOCKED and RELEASE per member (Section 8.2; 4(K−1)
// is the expected heavy-demand count, with FAILED in place of INQUIRE and
// RELINQUISH).
func MaekawaHeavyMax() Formula { return Formula{Remote: 5} }

// Ordered is 3|q| for the ordered-locking protocol without timestamps of
// Kakugawa, Fujita, Yamashita and Ae: a request, a PERMIT and a RELEASE per
// member, asked one at a time.
func Ordered() Formula { return Formula{Member: 3} }

// HKBest is 3|q|, the h-out-of-k algorithm without conflict (Manabe and
// Tajima, Section 4.3).
func HKBest() Formula { return Formula{Member: 3} }

// HKWorst is (3h+3)|q|, the h-out-of-k algorithm's bound for a request of
// h units (Manabe and Tajima, Section 4.3).
func HKWorst(h int) Formula { return Formula{Member: 3*h + 3} }

// RicartAgrawala is 2(N−1): a REQUEST to and a REPLY from every other node
// (Ricart and Agrawala 1981; Maekawa, Table I).
func RicartAgrawala() Formula { return Formula{Other: 2} }

// Messages are the messages per critical-section entry that the papers'
// protocols cost on a family, counted as each paper counts them. With
// quorums of unequal size the counts use the mean size (every node equally
// likely to ask, as in Maekawa's Table II, with the requester in its
// quorum: K−1 remote members) or, for h-out-of-k, the largest quorum
// (Manabe and Tajima's bound).
type Messages struct {
	// MaekawaLight is [MaekawaLight]: 3(K−1) for quorums of size K.
	MaekawaLight *big.Rat
	// MaekawaHeavyMax is [MaekawaHeavyMax]: 5(K−1).
	MaekawaHeavyMax *big.Rat
	// Ordered is [Ordered]: 3|q|.
	Ordered *big.Rat
	// HKBest and HKWorst are [HKBest] and [HKWorst], 3|q| and (3h+3)|q|,
	// with |q| the largest quorum of the level; nil outside an
	// (h,k)-arbiter.
	HKBest, HKWorst *big.Rat
	// RicartAgrawala is [RicartAgrawala]: 2(N−1), the baseline.
	RicartAgrawala *big.Rat
	// Err, when not nil, says why the counts are missing: an implicit
	// family with too many quorums to list (it wraps set.ErrTooMany).
	Err error
}

// MessagesOf counts the messages per entry on f (one level of an
// (h,k)-arbiter when f.H > 0).
//
// For an implicit family too large to list, every count is nil and Err
// says why (see [set.Stats]).
func MessagesOf(f *set.Family) Messages {
	st := f.Stats()
	if st.Err != nil {
		return Messages{Err: st.Err}
	}
	mean := st.MeanSize()
	remote := new(big.Rat).Sub(mean, big.NewRat(1, 1)) // K − 1
	m := Messages{
		MaekawaLight:    MaekawaLight().Rat(f.N, mean, remote),
		MaekawaHeavyMax: MaekawaHeavyMax().Rat(f.N, mean, remote),
		Ordered:         Ordered().Rat(f.N, mean, remote),
		RicartAgrawala:  RicartAgrawala().Rat(f.N, mean, remote),
	}
	if f.H > 0 {
		q := big.NewRat(int64(st.MaxSize), 1)
		qr := new(big.Rat).Sub(q, big.NewRat(1, 1))
		m.HKBest = HKBest().Rat(f.N, q, qr)
		m.HKWorst = HKWorst(f.H).Rat(f.N, q, qr)
	}
	return m
}
