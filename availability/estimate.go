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
// is given: the 95% interval is then at most ±0.001 wide.
const DefaultSamples = 1 << 20

// EstimateAV samples live sets with node v up with probability p[v],
// independently, and counts those containing a quorum of f, 64 samples per
// machine word, in fixed pieces seeded from seed so that the result does
// not depend on the number of cores. samples is rounded up to a multiple of
// 64. Threshold families are enumerated first only if small; for large
// ones use the closed form.
func EstimateAV(ctx context.Context, f *set.Family, p []float64, samples int, seed uint64) (Estimate, error) {
	if len(p) != f.N {
		return Estimate{}, fmt.Errorf("availability: estimate: %d probabilities for %d nodes", len(p), f.N)
	}
	if samples <= 0 {
		samples = DefaultSamples
	}
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
	words := (samples + 63) / 64
	hits := make([]int, chunks)
	parallelRange(words, func(k, lo, hi int) {
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		up := make([]uint64, f.N)
		h := 0
		for w := lo; w < hi; w++ {
			if w&0xff == 0 && ctx.Err() != nil {
				return
			}
			for v := range up {
				up[v] = bernoulliWord(rng, thresh[v])
			}
			var any uint64
			for _, q := range qs {
				all := ^uint64(0)
				for _, v := range q {
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
		hits[k] = h
	})
	if err := ctx.Err(); err != nil {
		return Estimate{}, fmt.Errorf("availability: estimate: %w", err)
	}
	e := Estimate{Samples: words * 64, Seed: seed}
	for _, h := range hits {
		e.Hits += h
	}
	e.Value = float64(e.Hits) / float64(e.Samples)
	e.Lo, e.Hi = wilson(e.Hits, e.Samples)
	return e, nil
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
