package set

import (
	"context"
	"math/big"
)

// Stats are the structural figures of a family that Maekawa's paper and
// `coterie info` report. Counts are exact big integers because a threshold
// family's counts outgrow 64 bits.
type Stats struct {
	Quorums          *big.Int // number of quorums
	MinSize, MaxSize int      // smallest and largest quorum
	SizeSum          *big.Int // total of the quorum sizes
	MinDegree        *big.Int // fewest quorums any node is in
	MaxDegree        *big.Int // most quorums any node is in
	N                int
	// HasOwners tells whether OwnersInQuorums means anything: it is false
	// for a family without owners.
	HasOwners bool
	// OwnersInQuorums is Maekawa's property (b): every owned quorum holds
	// its owner.
	OwnersInQuorums bool
	// Err, for an implicit family, says why the figures could not all be
	// computed (too many quorums to list: it wraps [ErrTooMany]). Then
	// Quorums (when the construction counts them, else 0), MinSize and
	// MaxSize (when it knows them, else 0) are its construction's, and
	// the other figures are zero.
	Err error
}

// Stats computes f's figures in one pass over the quorums (in closed form
// for a threshold family). An implicit family's quorums are listed by its
// construction (package construct, which every program holding an
// implicit family links) when there are few enough; otherwise see
// [Stats.Err].
func (f *Family) Stats() Stats {
	st, _ := f.StatsContext(context.Background())
	return st
}

// StatsContext is [Family.Stats] watching ctx where the work is large:
// the binomial coefficients of a threshold family over millions of
// nodes. Once ctx is done it returns ctx's error.
func (f *Family) StatsContext(ctx context.Context) (Stats, error) {
	if f.IsImplicit() {
		return implicitStats(ctx, f), ctx.Err()
	}
	st := Stats{N: f.N, SizeSum: new(big.Int)}
	if f.IsThreshold() {
		w := f.Threshold
		var err error
		if st.Quorums, err = BinomialContext(ctx, f.N, w); err != nil {
			return Stats{}, err
		}
		st.MinSize, st.MaxSize = w, w
		st.SizeSum.Mul(st.Quorums, big.NewInt(int64(w)))
		d, err := BinomialContext(ctx, f.N-1, w-1)
		if err != nil {
			return Stats{}, err
		}
		st.MinDegree, st.MaxDegree = d, new(big.Int).Set(d)
		return st, nil
	}
	st.Quorums = big.NewInt(int64(f.quorumCount()))
	sum := 0
	for i := range f.quorumCount() {
		l := f.QuorumSize(i)
		if i == 0 || l < st.MinSize {
			st.MinSize = l
		}
		st.MaxSize = max(st.MaxSize, l)
		sum += l
		if o := f.Owner(i); o != NoOwner {
			if !st.HasOwners {
				st.HasOwners, st.OwnersInQuorums = true, true
			}
			if !f.QuorumHas(i, o) {
				st.OwnersInQuorums = false
			}
		}
	}
	st.SizeSum.SetInt64(int64(sum))
	deg := f.Degrees()
	lo, hi := 0, 0
	for i, d := range deg {
		if i == 0 || d < lo {
			lo = d
		}
		hi = max(hi, d)
	}
	st.MinDegree, st.MaxDegree = big.NewInt(int64(lo)), big.NewInt(int64(hi))
	return st, nil
}

// EqualSize is Maekawa's property (c): every quorum has the same size.
func (st Stats) EqualSize() bool { return st.MinSize == st.MaxSize }

// EqualDegree is Maekawa's property (d): every node is in the same number
// of quorums (bears equal responsibility).
func (st Stats) EqualDegree() bool { return st.MinDegree.Cmp(st.MaxDegree) == 0 }

// MeanSize is the mean quorum size, exactly.
func (st Stats) MeanSize() *big.Rat {
	if st.Quorums.Sign() == 0 {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(st.SizeSum, st.Quorums)
}

// MeanDegree is the mean number of quorums a node is in, exactly.
func (st Stats) MeanDegree() *big.Rat {
	return new(big.Rat).SetFrac(st.SizeSum, big.NewInt(int64(st.N)))
}
