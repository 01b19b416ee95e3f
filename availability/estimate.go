package availability

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/coterie-dev/coterie/set"
)

// Estimate is a Monte Carlo estimate of AV: the fraction of sampled live
// sets that contain a quorum, with a 95% Wilson score interval. It is an
// estimate, never an exact value: every report labels it so.
type Estimate struct {
	Value   float64
	Lo, Hi  float64 // 95% confidence interval
	Samples int
	Hits    int
	Seed    uint64
}

// DefaultSamples is the number of Monte Carlo samples per point when none
// is given: the 95% interval is then at most ±0.001 wide. Very large
// systems take fewer (see [EstimateSamples]).
const DefaultSamples = 1 << 20

// estimateWork bounds the work of an estimate whose number of samples is
// left to [EstimateSamples]: words of 64 samples times the total size of
// the quorums, the most node words a point can read.
const estimateWork = 1 << 29

// EstimatePieces is the number of pieces the samples of an estimate are
// split into, each with its own random stream (seed, piece): the result
// does not depend on the number of cores, and [EstimateShare] hands the
// pieces to shards.
const EstimatePieces = 64

// EstimateSamples returns the number of samples an estimate of f takes
// when asked for samples (0 = automatic): samples rounded up to a multiple
// of 64; automatically [DefaultSamples], or fewer when f is so large that
// they would read more than about 5·10^8 node words of its listed quorums
// — a count of work, so the choice is the same on every machine (a family
// that lists none, such as a threshold family, takes DefaultSamples). The
// estimate's interval says how precise it is.
func EstimateSamples(f *set.Family, samples int) int {
	if samples > 0 {
		return (samples + 63) / 64 * 64
	}
	total := 0
	for i := range f.Quorums {
		total += f.Quorums[i].Len()
	}
	words := DefaultSamples / 64
	if total > 0 {
		words = min(words, max(estimateWork/total, EstimatePieces))
	}
	return 64 * words
}

// EstimateAV samples live sets with node v up with probability p[v],
// independently, and counts those containing a quorum of f, 64 samples per
// machine word, in [EstimatePieces] pieces seeded from seed so that the
// result does not depend on the number of cores. The number of samples is
// [EstimateSamples](f, samples). Threshold families are enumerated first
// only if small; for large ones use the closed form.
func EstimateAV(ctx context.Context, f *set.Family, p []float64, samples int, seed uint64) (Estimate, error) {
	return EstimateShare(ctx, f, p, samples, seed, 1, 1)
}

// EstimateShare is the part of [EstimateAV] that shard `shard` of
// `shards` (1 ≤ shard ≤ shards) samples: the pieces k with
// k mod shards = shard − 1. Its Hits and Samples count that part only;
// [MergeEstimates] of the shares of every shard is EstimateAV's result,
// exactly.
func EstimateShare(ctx context.Context, f *set.Family, p []float64, samples int, seed uint64, shard, shards int) (Estimate, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return Estimate{}, err
	}
	if len(p) != f.N {
		return Estimate{}, fmt.Errorf("availability: estimate: %d probabilities for %d nodes", len(p), f.N)
	}
	if shards < 1 || shard < 1 || shard > shards {
		return Estimate{}, fmt.Errorf("availability: estimate: shard %d/%d", shard, shards)
	}
	samples = EstimateSamples(f, samples)
	ef, err := f.Enumerate(1 << 22)
	if err != nil {
		return Estimate{}, fmt.Errorf("availability: estimate: %w", err)
	}
	qs := make([][]int, len(ef.Quorums))
	for i := range ef.Quorums {
		qs[i] = ef.Quorums[i].Elements()
	}
	// Smaller quorums first: they are the likeliest to be up, so the
	// word fills sooner.
	slices.SortStableFunc(qs, func(a, b []int) int { return len(a) - len(b) })
	thresh := make([]uint64, f.N) // p as a 32-bit binary fraction
	for v, x := range p {
		switch {
		case x <= 0:
		case x >= 1:
			thresh[v] = 1 << 32
		default:
			thresh[v] = uint64(math.Round(x * (1 << 32)))
		}
	}
	words := samples / 64
	pieces := min(EstimatePieces, words)
	var mine []int
	for k := shard - 1; k < pieces; k += shards {
		mine = append(mine, k)
	}
	// Many or large quorums: look at the context at every word.
	check := 0xff
	if len(qs)*f.N > 1<<20 {
		check = 0
	}
	hits := make([]int, len(mine))
	done := make([]int, len(mine))
	parallelEach(len(mine), func(i int) {
		k := mine[i]
		hits[i], done[i] = estimatePiece(ctx, qs, thresh, seed, k, k*words/pieces, (k+1)*words/pieces, check)
	})
	if err := ctx.Err(); err != nil {
		return Estimate{}, fmt.Errorf("availability: estimate: %w", err)
	}
	e := Estimate{Seed: seed}
	for i := range mine {
		e.Hits += hits[i]
		e.Samples += done[i] * 64
	}
	if e.Samples > 0 {
		e.Value = float64(e.Hits) / float64(e.Samples)
		e.Lo, e.Hi = wilson(e.Hits, e.Samples)
	}
	return e, nil
}

// MergeEstimates adds up the shares of an estimate (see [EstimateShare]):
// hits and samples add, and the value and interval follow from them.
func MergeEstimates(shares ...Estimate) Estimate {
	var e Estimate
	for i, s := range shares {
		if i == 0 {
			e.Seed = s.Seed
		}
		e.Hits += s.Hits
		e.Samples += s.Samples
	}
	if e.Samples > 0 {
		e.Value = float64(e.Hits) / float64(e.Samples)
		e.Lo, e.Hi = wilson(e.Hits, e.Samples)
	}
	return e
}

// estimatePiece samples the words [lo, hi) of piece k with the stream
// (seed, k) and returns the hits and the words done.
func estimatePiece(ctx context.Context, qs [][]int, thresh []uint64, seed uint64, k, lo, hi, check int) (hits, words int) {
	{
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		// A node's word is drawn when a quorum first looks at it
		// (stamp[v] == w+1): the quorums that die early leave most nodes
		// undrawn, and an undrawn node cannot change the sample.
		up := make([]uint64, len(thresh))
		stamp := make([]int, len(thresh))
		h := 0
		for w := lo; w < hi; w++ {
			if w&check == 0 && ctx.Err() != nil {
				return h, w - lo
			}
			var any uint64
			for _, q := range qs {
				all := ^uint64(0)
				for _, v := range q {
					if stamp[v] != w+1 {
						stamp[v] = w + 1
						up[v] = bernoulliWord(rng, thresh[v])
					}
					all &= up[v]
					if all == 0 {
						break
					}
				}
				any |= all
				if any == ^uint64(0) {
					break
				}
			}
			h += bits.OnesCount64(any)
		}
		return h, hi - lo
	}
}

// bernoulliWord returns 64 independent bits, each 1 with probability
// t/2^32, by combining random words along the binary expansion of t from
// its lowest set bit: a 1 bit ORs in a fresh word, a 0 bit ANDs one.
func bernoulliWord(rng *rand.Rand, t uint64) uint64 {
	switch t {
	case 0:
		return 0
	case 1 << 32:
		return ^uint64(0)
	}
	var w uint64
	for b := bits.TrailingZeros64(t); b < 32; b++ {
		if t>>b&1 == 1 {
			w |= rng.Uint64()
		} else {
			w &= rng.Uint64()
		}
	}
	return w
}

// wilson returns the 95% Wilson score interval for h successes in n trials.
func wilson(h, n int) (lo, hi float64) {
	const z = 1.959963984540054
	ph := float64(h) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	c := (ph + z*z/(2*nn)) / den
	r := z * math.Sqrt(ph*(1-ph)/nn+z*z/(4*nn*nn)) / den
	return math.Max(0, c-r), math.Min(1, c+r)
}
