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
// same nodes in that block. So, for every two sizes a < b, the quorums of
// size a are filed by their pattern on each of the d+1 blocks, and a
// quorum of size b is compared only with those that share one of its own
// d+1 patterns. Equal quorums are found by hash first. The sizes b are
// shared out to all cores (each marks only its own quorums).
func redundantByBlocks(ctx context.Context, qs []Set, sup []int, n int, red []bool) error {
	if err := markRepeats(ctx, qs, red); err != nil {
		return err
	}
	p := Pack(n, qs)
	groups := sizeGroups(qs)
	sizes := make([]int, 0, len(groups))
	for s := range groups {
		sizes = append(sizes, s)
	}
	slices.Sort(sizes)
	work := make(chan int, len(sizes))
	for k := len(sizes) - 1; k > 0; k-- { // largest first: they have the most pairs
		work <- k
	}
	close(work)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(sizes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ix blockIndex
			for k := range work {
				b := sizes[k]
				for _, a := range sizes[:k] {
					if ctx.Err() != nil {
						return
					}
					ix.build(p, groups[a], sup, b-a+1)
					for _, q := range groups[b] {
						if !red[q] && ix.holdsSubset(p, q) {
							red[q] = true
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

// blockIndex files quorums by their pattern on each block of a partition
// of the nodes in use: an open-addressing table from (block, pattern) hash
// to a chain of the quorums with it.
type blockIndex struct {
	blocks int
	masks  []uint64 // blocks rows of nw words
	nw     int
	slot   []uint64 // hash of each slot, or 0 for an empty one
	head   []int32  // first entry of each slot
	next   []int32  // next entry of the same hash
	who    []int32  // the quorum of each entry
}

// hash returns the hash, never 0, of row's pattern on block j.
func (ix *blockIndex) hash(row Words, j int) uint64 {
	h := uint64(j+1) * 0x9e3779b97f4a7c15
	m := ix.masks[j*ix.nw : (j+1)*ix.nw]
	for i, w := range row {
		h ^= w & m[i]
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return h | 1
}

// build files the quorums qs of p under blocks blocks (at most the nodes
// in use), node sup[k] going to block k mod blocks.
func (ix *blockIndex) build(p *Packed, qs []int32, sup []int, blocks int) {
	blocks = min(blocks, len(sup))
	ix.blocks, ix.nw = blocks, p.nw
	ix.masks = slices.Grow(ix.masks[:0], blocks*p.nw)[:blocks*p.nw]
	clear(ix.masks)
	for k, v := range sup {
		Words(ix.masks[(k%blocks)*p.nw:]).Add(v)
	}
	entries := len(qs) * blocks
	size := 1 << max(4, bitsFor(2*entries))
	if cap(ix.slot) >= size {
		ix.slot, ix.head = ix.slot[:size], ix.head[:size]
		clear(ix.slot)
	} else {
		ix.slot, ix.head = make([]uint64, size), make([]int32, size)
	}
	ix.next = slices.Grow(ix.next[:0], entries)[:entries]
	ix.who = slices.Grow(ix.who[:0], entries)[:entries]
	e := int32(0)
	for _, q := range qs {
		row := p.Row(int(q))
		for j := range blocks {
			h := ix.hash(row, j)
			s := ix.find(h)
			if ix.slot[s] == 0 {
				ix.slot[s], ix.head[s] = h, -1
			}
			ix.who[e], ix.next[e], ix.head[s] = q, ix.head[s], e
			e++
		}
	}
}

// find returns the slot of hash h, or the empty slot where it would go.
func (ix *blockIndex) find(h uint64) int {
	mask := len(ix.slot) - 1
	for s := int(h) & mask; ; s = (s + 1) & mask {
		if ix.slot[s] == h || ix.slot[s] == 0 {
			return s
		}
	}
}

// holdsSubset reports whether quorum q of p holds, properly, a quorum
// filed in ix (all of them smaller than q).
func (ix *blockIndex) holdsSubset(p *Packed, q int32) bool {
	row := p.Row(int(q))
	for j := range ix.blocks {
		s := ix.find(ix.hash(row, j))
		if ix.slot[s] == 0 {
			continue
		}
		for e := ix.head[s]; e >= 0; e = ix.next[e] {
			if p.Row(int(ix.who[e])).SubsetOf(row) {
				return true
			}
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
