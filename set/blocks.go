package set

import (
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
)

// redundantByBlocks marks red[i] for lists of dense quorums whose sizes
// lie in a narrow range, such as random subsets of 101 to 120 of 200
// nodes, where the probes of redundantByProbes prune little.
//
// If P ⊊ Q, then Q \ P holds d = |Q| − |P| nodes; split the nodes in use
// into d+1 blocks and one block holds none of them, so P and Q have the
// same nodes in that block. So, for every two sizes a < b and each of the
// d+1 blocks in turn, the quorums of size a are filed by their pattern on
// the block, and a quorum of size b is compared only with those of the
// same pattern. Equal quorums are found by hash first.
//
// The nodes in use are renumbered 0..u−1 so that a block is a run of
// consecutive bits (its pattern is read with a shift, or hashed when
// wider than a word); the quorums of each size are copied next to each
// other, and the index of one block holds, beside each quorum, its
// pattern and one more word of it, which rejects almost every candidate
// that shares the pattern by chance without reading the quorum: the
// work stays in a few hundred KiB (a trie over the sorted nodes, the
// other way to ask for subsets, visits thousands of nodes for each
// quorum on such lists). The sizes b are shared out to all cores, the
// largest first (each marks only its own quorums).
func redundantByBlocks(ctx context.Context, qs []Set, sup []int, n int, red []bool) error {
	if err := markRepeats(ctx, qs, red); err != nil {
		return err
	}
	u := len(sup)
	pos := make([]int, n)
	for k, v := range sup {
		pos[v] = k
	}
	groups := sizeGroups(qs)
	sizes := make([]int, 0, len(groups))
	for s := range groups {
		sizes = append(sizes, s)
	}
	slices.Sort(sizes)
	// rows[g] holds the quorums of size sizes[g], renumbered, in order.
	nw := WordsFor(u)
	same := true // the nodes in use are 0..u−1: the words are copied as they are
	for k, v := range sup {
		same = same && v == k
	}
	rows := make([][]uint64, len(sizes))
	for g, s := range sizes {
		r := make([]uint64, len(groups[s])*nw)
		for k, q := range groups[s] {
			w := Words(r[k*nw : (k+1)*nw])
			if same {
				qw := qs[q].b.Words()
				copy(w, qw[:min(len(qw), nw)])
				continue
			}
			for v := range qs[q].All() {
				w.Add(pos[v])
			}
		}
		rows[g] = r
	}
	work := make(chan int, len(sizes))
	for g := len(sizes) - 1; g > 0; g-- { // largest first: they have the most pairs
		work <- g
	}
	close(work)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(sizes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ix blockIndex
			for gb := range work {
				b, qb := sizes[gb], groups[sizes[gb]]
				for ga, a := range sizes[:gb] {
					d := b - a
					blocks, whole := d+1, false
					if blocks > u { // only from an empty quorum: compare every pair
						blocks, whole = 1, true
					}
					for j := range blocks {
						if ctx.Err() != nil {
							return
						}
						lo, hi := j*u/blocks, (j+1)*u/blocks
						if whole {
							lo, hi = 0, 0
						}
						ix.build(rows[ga], nw, lo, hi, u)
						for k, q := range qb {
							if !red[q] && ix.holdsSubset(Words(rows[gb][k*nw:(k+1)*nw])) {
								red[q] = true
							}
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// sizeGroups returns the positions of the quorums of each size, in order.
func sizeGroups(qs []Set) map[int][]int32 {
	g := make(map[int][]int32)
	for i := range qs {
		s := qs[i].Len()
		g[s] = append(g[s], int32(i))
	}
	return g
}

// blockIndex files rows by their pattern on one block, the bits lo..hi−1:
// the entries sorted by bucket (a hash of the pattern), each with a hash
// of the pattern, one more word of its row to check and the row's
// position; kept small, so that it stays in a core's cache.
type blockIndex struct {
	lo, hi, fw int      // the block, and the word the check word is taken from
	rows       []uint64 // the filed rows, nw words each
	nw         int
	shift      uint
	start      []int32 // first entry of each bucket, and one past the last
	entries    []blockEntry
	hash       []uint64 // scratch: the hash of each row's pattern
}

type blockEntry struct {
	key   uint32 // the pattern's hash, low half
	who   int32  // the row
	check uint64 // the row's word fw
}

// patternHash returns a hash of row's pattern on the block: equal
// patterns have equal hashes.
func (ix *blockIndex) patternHash(row Words) uint64 {
	lo, hi := ix.lo, ix.hi
	if hi == lo {
		return 0
	}
	if hi-lo <= 64 {
		x := row[lo>>6] >> (lo & 63)
		if k := lo>>6 + 1; k < len(row) && lo&63 != 0 {
			x |= row[k] << (64 - lo&63)
		}
		if w := hi - lo; w < 64 {
			x &= 1<<w - 1
		}
		x *= 0x9e3779b97f4a7c15
		return x ^ x>>29
	}
	h := uint64(0x9e3779b97f4a7c15)
	for k := lo >> 6; k <= (hi-1)>>6; k++ {
		w := row[k]
		if k == lo>>6 {
			w &^= 1<<(lo&63) - 1
		}
		if k == (hi-1)>>6 && hi&63 != 0 {
			w &= 1<<(hi&63) - 1
		}
		h ^= w
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return h
}

// build files the rows of rows (nw words each; a repeated quorum is filed
// like any other, harmlessly) under their pattern on bits lo..hi−1 of u.
func (ix *blockIndex) build(rows []uint64, nw, lo, hi, u int) {
	ix.lo, ix.hi, ix.rows, ix.nw = lo, hi, rows, nw
	// The check word: the word with the most bits in use outside the block.
	best := -1
	for k := range nw {
		out := 0
		for v := k * 64; v < min(u, k*64+64); v++ {
			if v < lo || v >= hi {
				out++
			}
		}
		if out > best {
			ix.fw, best = k, out
		}
	}
	m := len(rows) / nw
	b := max(bitsFor(m)-2, 1) // about four entries a bucket
	ix.shift = uint(64 - b)
	nb := 1 << b
	ix.start = slices.Grow(ix.start[:0], nb+1)[:nb+1]
	clear(ix.start)
	ix.hash = slices.Grow(ix.hash[:0], m)[:m]
	for k := range m {
		h := ix.patternHash(Words(rows[k*nw : (k+1)*nw]))
		ix.hash[k] = h
		ix.start[h>>ix.shift+1]++
	}
	for s := 1; s <= nb; s++ {
		ix.start[s] += ix.start[s-1]
	}
	ix.entries = slices.Grow(ix.entries[:0], m)[:m]
	for k := range m {
		h := ix.hash[k]
		s := h >> ix.shift
		at := ix.start[s]
		ix.entries[at] = blockEntry{key: uint32(h), who: int32(k), check: rows[k*nw+ix.fw]}
		ix.start[s]++
	}
	// start[s] is now the end of bucket s: shift back.
	copy(ix.start[1:], ix.start[:nb])
	ix.start[0] = 0
}

// holdsSubset reports whether row (of a quorum larger than the filed
// ones) holds a filed row.
func (ix *blockIndex) holdsSubset(row Words) bool {
	h := ix.patternHash(row)
	s := h >> ix.shift
	key, c := uint32(h), row[ix.fw]
	for _, e := range ix.entries[ix.start[s]:ix.start[s+1]] {
		if e.key != key || e.check&^c != 0 {
			continue
		}
		k := int(e.who)
		if Words(ix.rows[k*ix.nw : (k+1)*ix.nw]).SubsetOf(row) {
			return true
		}
	}
	return false
}

// bitsFor returns the number of bits that hold x.
func bitsFor(x int) int {
	b := 0
	for x > 0 {
		b++
		x >>= 1
	}
	return b
}

// blocksCost estimates the work of redundantByBlocks on quorums of the
// given sizes (size → count) over u nodes in use whose densities (the
// share of the quorums holding each) are dens: filing and looking up
// every quorum under d+1 blocks for every two sizes, plus the pairs that
// share a block's pattern by chance, two nodes agreeing with probability
// g = mean of p² + (1−p)².
func blocksCost(count map[int]int, dens []float64) float64 {
	u := len(dens)
	if u == 0 {
		return 0
	}
	g := 0.0
	for _, p := range dens {
		g += p*p + (1-p)*(1-p)
	}
	g /= float64(u)
	sizes := make([]int, 0, len(count))
	for s := range count {
		sizes = append(sizes, s)
	}
	slices.Sort(sizes)
	cost := 0.0
	for k, b := range sizes {
		for _, a := range sizes[:k] {
			blocks := float64(min(b-a+1, u))
			ca, cb := float64(count[a]), float64(count[b])
			cost += (ca+cb)*blocks + ca*cb*blocks*math.Pow(g, float64(u)/blocks)
		}
	}
	return cost
}

// probesCost estimates the work of redundantByProbes with t probes, the
// densest probe in a share p of the m quorums: per quorum, the buckets of
// the sub-patterns of its pattern and the candidates in them.
func probesCost(p float64, m, t int) float64 {
	return float64(m) * (math.Pow(2, p*float64(t)) + float64(m)*math.Pow(1-p*(1-p), float64(t)))
}

// blocksCheaper reports whether redundantByBlocks is expected to do less
// work than redundantByProbes on qs, whose nodes in use are sup.
func blocksCheaper(qs []Set, sup []int, n int) bool {
	m := len(qs)
	deg := make([]int, n)
	count := make(map[int]int)
	for i := range qs {
		for v := range qs[i].All() {
			deg[v]++
		}
		count[qs[i].Len()]++
	}
	dens := make([]float64, len(sup))
	best := 0
	for k, v := range sup {
		dens[k] = float64(deg[v]) / float64(m)
		if int64(deg[v])*int64(m-deg[v]) > int64(best)*int64(m-best) {
			best = deg[v]
		}
	}
	return blocksCost(count, dens) < probesCost(float64(best)/float64(m), m, probeCount(best, m, n))
}
