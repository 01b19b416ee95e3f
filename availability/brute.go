package availability

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"sync"

	"github.com/coterie-dev/coterie/set"
)

// MaxBruteNodes is the largest universe [Brute] accepts: 2^30 subsets, one
// bit each, is 128 MiB.
const MaxBruteNodes = 30

// Brute returns the exact coefficient vector of an explicit family over at
// most [MaxBruteNodes] nodes by looking at every subset: it marks the
// quorums in a table of 2^n bits, closes it upward (S ⊇ some quorum) one
// node at a time — 64 subsets per machine word, the word range split over
// all cores — and counts the marked subsets of each size with popcounts.
// Cost: n·2^n/64 word operations and 2^n/8 bytes. It is the oracle the
// tests hold every faster method to.
func Brute(ctx context.Context, f *set.Family) (*Polynomial, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	tab, err := bruteTable(ctx, f)
	if err != nil {
		return nil, err
	}
	n := f.N
	res := NewPolynomial(n)
	if n < 6 {
		for s := 0; s < 1<<n; s++ {
			if tab[0]>>s&1 == 1 {
				res.A[bits.OnesCount(uint(s))].Add(res.A[bits.OnesCount(uint(s))], big.NewInt(1))
			}
		}
		return res, nil
	}
	// byWeight[w] has bit s set when the 6-bit index s has weight w.
	var byWeight [7]uint64
	for s := 0; s < 64; s++ {
		byWeight[bits.OnesCount(uint(s))] |= 1 << s
	}
	counts := parallelWords(len(tab), func(lo, hi int) []uint64 {
		c := make([]uint64, n+1)
		for i := lo; i < hi; i++ {
			x := tab[i]
			if x == 0 {
				continue
			}
			hw := bits.OnesCount(uint(i))
			if x == ^uint64(0) {
				for w := range 7 {
					c[hw+w] += uint64(bits.OnesCount64(byWeight[w]))
				}
				continue
			}
			for w := range 7 {
				c[hw+w] += uint64(bits.OnesCount64(x & byWeight[w]))
			}
		}
		return c
	})
	for _, c := range counts {
		for i, v := range c { // nil for unused pieces
			res.A[i].Add(res.A[i], new(big.Int).SetUint64(v))
		}
	}
	return res, nil
}

// BruteProbability returns AV for per-node probabilities p by the same
// table as [Brute]: the sum of the probabilities of the subsets that
// contain a quorum.
func BruteProbability(ctx context.Context, f *set.Family, p []float64) (float64, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return 0, err
	}
	tab, err := bruteTable(ctx, f)
	if err != nil {
		return 0, err
	}
	n := f.N
	lowBits := min(n, 6)
	// prob of each pattern of the low bits, and of the high bits.
	low := make([]float64, 1<<lowBits)
	for s := range low {
		low[s] = patternProb(p[:lowBits], s)
	}
	if n <= 6 {
		sum := 0.0
		for s := range low {
			if tab[0]>>s&1 == 1 {
				sum += low[s]
			}
		}
		return sum, nil
	}
	high := p[6:]
	// Split the high bits in two halves with their own tables.
	h1 := len(high) / 2
	t1 := make([]float64, 1<<h1)
	for s := range t1 {
		t1[s] = patternProb(high[:h1], s)
	}
	t2 := make([]float64, 1<<(len(high)-h1))
	for s := range t2 {
		t2[s] = patternProb(high[h1:], s)
	}
	sums := parallelWordsFloat(len(tab), func(lo, hi int) float64 {
		total := 0.0
		for i := lo; i < hi; i++ {
			x := tab[i]
			if x == 0 {
				continue
			}
			s := 0.0
			for x != 0 {
				b := bits.TrailingZeros64(x)
				s += low[b]
				x &= x - 1
			}
			total += s * t1[i&(1<<h1-1)] * t2[i>>h1]
		}
		return total
	})
	total := 0.0
	for _, s := range sums {
		total += s
	}
	return total, nil
}

func patternProb(p []float64, s int) float64 {
	pr := 1.0
	for i, x := range p {
		if s>>i&1 == 1 {
			pr *= x
		} else {
			pr *= 1 - x
		}
	}
	return pr
}

// bruteTable returns the upward closure of the quorums as a bit table
// indexed by subset.
func bruteTable(ctx context.Context, f *set.Family) ([]uint64, error) {
	n := f.N
	if n > MaxBruteNodes {
		return nil, fmt.Errorf("availability: brute force: %d nodes exceed the limit of %d", n, MaxBruteNodes)
	}
	ef, err := f.Enumerate(1 << 24)
	if err != nil {
		return nil, fmt.Errorf("availability: brute force: %w", err)
	}
	words := 1
	if n > 6 {
		words = 1 << (n - 6)
	}
	tab := make([]uint64, words)
	for i := range ef.Quorums {
		m := 0
		for v := range ef.Quorums[i].All() {
			m |= 1 << v
		}
		tab[m>>6] |= 1 << (m & 63)
	}
	// Within a word: bit b < 6 moves subsets up by 1<<b positions.
	inWord := [6]uint64{
		0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f,
		0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 0x00000000ffffffff,
	}
	for b := 0; b < min(n, 6); b++ {
		sh := uint(1) << b
		m := inWord[b]
		parallelRange(len(tab), func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				x := tab[i]
				tab[i] = x | (x&m)<<sh
			}
		})
	}
	for b := 6; b < n; b++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("availability: brute force: %w", err)
		}
		step := 1 << (b - 6)
		parallelRange(len(tab), func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				if i&step != 0 {
					tab[i] |= tab[i^step]
				}
			}
		})
	}
	return tab, nil
}

// chunks is the fixed number of pieces parallel loops split their range
// into, whatever the number of cores, so that floating-point sums are
// added in the same order on every machine.
const chunks = 64

// parallelEach runs fn(0), ..., fn(n−1) on all cores.
func parallelEach(n int, fn func(i int)) {
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// parallelRange runs fn over [0, n) split into pieces, on all cores; fn
// gets the index of its piece.
func parallelRange(n int, fn func(k, lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < 1<<12 {
		fn(0, 0, n)
		return
	}
	size := (n + chunks - 1) / chunks
	next := make(chan int, chunks)
	for k := 0; k*size < n; k++ {
		next <- k
	}
	close(next)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				fn(k, k*size, min((k+1)*size, n))
			}
		}()
	}
	wg.Wait()
}

func parallelWords(n int, fn func(lo, hi int) []uint64) [][]uint64 {
	out := make([][]uint64, chunks)
	parallelRange(n, func(k, lo, hi int) { out[k] = fn(lo, hi) })
	return out
}

func parallelWordsFloat(n int, fn func(lo, hi int) float64) []float64 {
	out := make([]float64, chunks)
	parallelRange(n, func(k, lo, hi int) { out[k] = fn(lo, hi) })
	return out
}
