package verify

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/coterie-dev/coterie/set"
)

// findPair returns the first pair of disjoint quorums (smallest i, then
// smallest j > i), or (-1, -1) if every two quorums meet, or ctx.Err().
//
// Two bit-parallel strategies, chosen by an estimate of their cost, run on
// all cores over chunks of i taken in order:
//   - incidence: the quorums disjoint from Q_i are the intersection, over v
//     in Q_i, of the quorums avoiding v; cost Σ|Q_i|·m/128 words, best for
//     sparse quorums such as projective planes;
//   - direct: test every pair word by word, stopping at the first common
//     word; best when quorums are dense and meet in their first words.
func findPair(ctx context.Context, p *set.Packed, progress func(done, total int)) (int, int, error) {
	m := p.Len()
	if m < 2 {
		return -1, -1, nil
	}
	useIncidence := p.TableBytes() <= maxIncidenceBytes && incidenceCheaper(p)
	if useIncidence {
		if err := buildAvoiders(p); err != nil {
			return -1, -1, err
		}
	}
	const chunk = 32
	chunks := (m + chunk - 1) / chunk
	var (
		best     atomic.Int64 // smallest i known to have a partner
		next     atomic.Int64
		done     atomic.Int64
		mu       sync.Mutex
		wg       sync.WaitGroup
		partner  = make([]int32, m)
		canceled atomic.Bool
	)
	best.Store(math.MaxInt64)
	workers := min(runtime.GOMAXPROCS(0), chunks)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := set.MakeWords(m)
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				if ctx.Err() != nil {
					canceled.Store(true)
					return
				}
				for i := c * chunk; i < min(m, (c+1)*chunk); i++ {
					if int64(i) > best.Load() {
						break
					}
					var j int
					if useIncidence {
						j = disjointAfterIncidence(p, i, acc)
					} else {
						j = disjointAfterDirect(p, i)
					}
					if j >= 0 {
						partner[i] = int32(j)
						for {
							cur := best.Load()
							if int64(i) >= cur || best.CompareAndSwap(cur, int64(i)) {
								break
							}
						}
						break
					}
				}
				d := done.Add(1)
				if progress != nil {
					mu.Lock()
					progress(int(d), chunks)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if i := best.Load(); i != math.MaxInt64 {
		return int(i), int(partner[i]), nil
	}
	if canceled.Load() {
		return -1, -1, ctx.Err()
	}
	return -1, -1, nil
}

// incidenceCheaper estimates whether the incidence strategy beats the
// direct one: per pair, incidence costs about (mean quorum size)/64 words,
// direct about the number of words scanned before the first common one.
func incidenceCheaper(p *set.Packed) bool {
	mean := float64(p.Ones()) / float64(p.Len())
	rho := mean / float64(p.N())
	// Probability that a 64-node word holds a node of both quorums, if
	// nodes were spread evenly.
	hit := 1 - math.Pow(1-rho*rho, 64)
	direct := float64(set.WordsFor(p.N()))
	if hit > 0 {
		direct = math.Min(direct, 1/hit)
	}
	return mean/64 < direct
}

// disjointAfterIncidence returns the smallest j > i with Q_j ∩ Q_i = ∅, or -1.
func disjointAfterIncidence(p *set.Packed, i int, acc set.Words) int {
	lo := (i + 1) >> 6
	if lo >= len(acc) {
		return -1
	}
	acc = acc[lo:]
	acc.Fill(len(acc) * 64)
	// Bits 0..i of the first word are quorums already paired with i.
	acc[0] &^= (uint64(1) << ((i + 1) & 63)) - 1
	q := p.Row(i)
	for v := q.Next(0); v >= 0; v = q.Next(v + 1) {
		if !acc.And(p.Avoiders(v)[lo:]) {
			return -1
		}
	}
	if j := acc.Next(0); j >= 0 {
		return lo<<6 + j
	}
	return -1
}

// disjointAfterDirect returns the smallest j > i with Q_j ∩ Q_i = ∅, or -1.
func disjointAfterDirect(p *set.Packed, i int) int {
	a := p.Row(i)
	for j := i + 1; j < p.Len(); j++ {
		if !a.Intersects(p.Row(j)) {
			return j
		}
	}
	return -1
}
