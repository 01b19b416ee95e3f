package set

import (
	"context"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// tableSupport is the most nodes in use for which [Family.Redundant]
// decides containment with a table of one bit per subset (2^26 bits, 8 MiB,
// two of them).
const tableSupport = 26

// Redundant reports, for each quorum of the explicit family f, whether it
// is redundant: it contains another quorum properly, or it equals an
// earlier quorum of the list. The quorums that are not redundant are the
// minimal ones, each once (the first of equal ones): what
// [Family.Minimalize] keeps. Owners play no part. It returns ctx's error
// once ctx is done.
//
// Cost, with m quorums on u nodes in use: when u ≤ 26 (and the table is
// worth it), a table of the 2^u subsets closed upwards, u·2^u/64 word
// operations, then |Q| look-ups for each quorum Q; otherwise equal quorums
// are found by hashing, and each quorum Q is compared only with the
// strictly smaller quorums filed under its nodes, so a list of quorums of
// one size (a threshold written out) costs a pass. Lists of many sizes
// over many nodes still cost O(m²) word operations at worst.
func (f *Family) Redundant(ctx context.Context) ([]bool, error) {
	if f.IsThreshold() || f.IsImplicit() {
		panic("set: Redundant of a threshold or implicit family")
	}
	m := f.quorumCount()
	red := make([]bool, m)
	if m < 2 {
		return red, ctx.Err()
	}
	if f.IsSparse() {
		return red, redundantSparse(ctx, f, red)
	}
	var used Set
	for i := range f.Quorums {
		used.Union(&used, &f.Quorums[i])
	}
	sup := used.Elements()
	u := len(sup)
	if u <= tableSupport && (u <= 16 || m >= 1<<(u-12)) {
		return red, redundantByTable(ctx, f.Quorums, sup, red)
	}
	if m >= 1<<12 && u >= 2*probeBits {
		total := 0
		for i := range f.Quorums {
			total += f.Quorums[i].Len()
		}
		if 8*total >= m*u { // dense: a quorum holds an eighth of the nodes or more
			if blocksCheaper(f.Quorums, sup, f.N) {
				return red, redundantByBlocks(ctx, f.Quorums, sup, f.N, red)
			}
			return red, redundantByProbes(ctx, f.Quorums, f.N, red)
		}
	}
	return red, redundantBySize(ctx, f.Quorums, red)
}

// redundantByTable marks red[i] with the subset tables: seen holds the
// quorums met so far (equal ones are redundant after the first), up the
// upward closure of all quorums; Q is a proper superset of a quorum iff
// Q minus one of its nodes is in up.
func redundantByTable(ctx context.Context, qs []Set, sup []int, red []bool) error {
	u := len(sup)
	index := make(map[int]uint32, u)
	for i, v := range sup {
		index[v] = uint32(i)
	}
	nw := max(1, (1<<u)/64)
	codes := make([]uint32, len(qs))
	seen := make([]uint64, nw)
	up := make([]uint64, nw)
	for i := range qs {
		if i&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var c uint32
		for v := range qs[i].All() {
			c |= 1 << index[v]
		}
		codes[i] = c
		if seen[c>>6]&(1<<(c&63)) != 0 {
			red[i] = true
		}
		seen[c>>6] |= 1 << (c & 63)
	}
	copy(up, seen)
	// Upward closure, one node at a time: every set with bit b gets what
	// the set without it has. Within a word by shifts, across words by
	// whole words.
	low := [6]uint64{0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f,
		0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 0x00000000ffffffff}
	for b := 0; b < min(u, 6); b++ {
		for i, x := range up {
			up[i] = x | (x&low[b])<<(1<<b)
		}
	}
	for b := 6; b < u; b++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		stride := 1 << (b - 6)
		for i := range up {
			if i&stride == 0 {
				up[i|stride] |= up[i]
			}
		}
	}
	for i, c := range codes {
		if red[i] {
			continue
		}
		for r := c; r != 0; r &= r - 1 {
			d := c &^ (1 << bits.TrailingZeros32(r))
			if up[d>>6]&(1<<(d&63)) != 0 {
				red[i] = true
				break
			}
		}
	}
	return nil
}

// probeBits is the least number of nodes redundantByProbes needs beyond
// its probes for the probes to be worth it, and its fewest probes.
const probeBits = 18

// probeCount returns how many probe nodes key the buckets of
// redundantByProbes, for m quorums over n nodes, the best probe lying in
// d of them (density p = d/m). A quorum looks up the 2^(p·t) buckets of
// the sub-patterns of its pattern on t probes, and finds in them about
// m·(1 − p(1−p))^t candidates; the two are equal at
// t = ln m / (p·ln 2 − ln(1 − p(1−p))), which is taken, between
// probeBits and 24.
func probeCount(d, m, n int) int {
	p := float64(d) / float64(m)
	t := probeBits
	if den := p*math.Ln2 - math.Log(1-p*(1-p)); den > 0 {
		t = int(math.Ceil(math.Log(float64(m)) / den))
	}
	return min(max(t, probeBits), 24, n)
}

// redundantByProbes marks red[i] for lists of dense quorums over many
// nodes, where filing a quorum under one of its nodes prunes nothing.
// A quorum P can lie in Q only if P's pattern on a few probe nodes lies in
// Q's: the quorums are filed in buckets by their pattern on probeBits
// probes, and Q looks only in the buckets of the sub-patterns of its own;
// a second pattern, on 64 more probes, rejects most candidates in one
// word before the subset test. The probes are the nodes that split the
// quorums most evenly (a node in half of them rejects a quarter of the
// pairs). Equal quorums are found by hash; then each quorum is checked on
// its own, so the quorums are shared out to all cores.
func redundantByProbes(ctx context.Context, qs []Set, n int, red []bool) error {
	m := len(qs)
	deg := make([]int, n)
	size := make([]int32, m)
	for i := range qs {
		for v := range qs[i].All() {
			deg[v]++
		}
		size[i] = int32(qs[i].Len())
	}
	nodes := make([]int, n)
	for v := range nodes {
		nodes[v] = v
	}
	// Most even first: largest deg·(m − deg); ties by node.
	slices.SortStableFunc(nodes, func(a, b int) int {
		ea, eb := int64(deg[a])*int64(m-deg[a]), int64(deg[b])*int64(m-deg[b])
		switch {
		case ea > eb:
			return -1
		case ea < eb:
			return 1
		}
		return 0
	})
	pb := probeCount(deg[nodes[0]], m, n)
	key := make([]uint32, m)
	sig := make([]uint64, m)
	for i := range qs {
		for b, v := range nodes[:pb] {
			if qs[i].Has(v) {
				key[i] |= 1 << b
			}
		}
		for b, v := range nodes[pb:min(n, pb+64)] {
			if qs[i].Has(v) {
				sig[i] |= 1 << b
			}
		}
	}
	// The buckets, as one array sorted by key (counting sort).
	start := make([]int32, 1<<pb+1)
	for _, k := range key {
		start[k+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	// filed, and each quorum's size and second pattern beside it, in
	// bucket order: a bucket is scanned in one sequential sweep.
	filed := make([]int32, m)
	fsize := make([]int32, m)
	fsig := make([]uint64, m)
	fill := slices.Clone(start[:1<<pb])
	for i, k := range key {
		at := fill[k]
		filed[at], fsize[at], fsig[at] = int32(i), size[i], sig[i]
		fill[k]++
	}
	if err := markRepeats(ctx, qs, red); err != nil {
		return err
	}
	workers := runtime.GOMAXPROCS(0)
	var next atomic.Int64
	var wg sync.WaitGroup
	const chunk = 256
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= m || ctx.Err() != nil {
					return
				}
				for i := lo; i < min(lo+chunk, m); i++ {
					if red[i] {
						continue
					}
					kq, sq, zq := key[i], sig[i], size[i]
					q := &qs[i]
					// Every sub-pattern s of kq, kq first.
				sub:
					for s := kq; ; s = (s - 1) & kq {
						for at := start[s]; at < start[s+1]; at++ {
							if fsize[at] < zq && fsig[at]&^sq == 0 && Subset(&qs[filed[at]], q) {
								red[i] = true
								break sub
							}
						}
						if s == 0 {
							break
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// markRepeats marks red[i] when quorum i equals an earlier one. The
// quorums are sorted by hash (a few bytes a quorum, where a map of
// buckets took tens) and each run of equal hashes compared in order.
func markRepeats(ctx context.Context, qs []Set, red []bool) error {
	m := len(qs)
	hash := make([]uint64, m)
	order := make([]int32, m)
	for i := range qs {
		if i&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		hash[i], order[i] = qs[i].Hash(), int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if hash[a] != hash[b] {
			if hash[a] < hash[b] {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	var firsts []int32 // the distinct quorums of the run so far
	for k := 0; k < m; {
		e := k + 1
		for e < m && hash[order[e]] == hash[order[k]] {
			e++
		}
		if e-k > 1 {
			firsts = firsts[:0]
			for _, i := range order[k:e] {
				for _, j := range firsts {
					if Equal(&qs[j], &qs[i]) {
						red[i] = true
						break
					}
				}
				if !red[i] {
					firsts = append(firsts, i)
				}
			}
		}
		k = e
	}
	return ctx.Err()
}

// redundantBySize marks red[i] without a table: equal quorums by hash,
// proper containment by comparing each quorum with the strictly smaller
// minimal quorums filed under its smallest node.
func redundantBySize(ctx context.Context, qs []Set, red []bool) error {
	m := len(qs)
	size := make([]int, m)
	order := make([]int, m)
	for i := range qs {
		size[i] = qs[i].Len()
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return size[a] - size[b] })
	first := make(map[uint64][]int, m) // hash -> quorums met with it
	byMin := make(map[int][]int)       // smallest node -> minimal quorums of smaller sizes
	var pending []int                  // minimal quorums of the current size
	for k, i := range order {
		if k&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if k > 0 && size[i] != size[order[k-1]] {
			for _, j := range pending {
				if v, ok := qs[j].Min(); ok {
					byMin[v] = append(byMin[v], j)
				}
			}
			pending = pending[:0]
		}
		q := &qs[i]
		h := q.Hash()
		dup := false
		for _, j := range first[h] {
			if Equal(&qs[j], q) {
				dup = true
				break
			}
		}
		if dup {
			red[i] = true
			continue
		}
		first[h] = append(first[h], i)
		if len(byMin) > 0 {
			for v := range q.All() {
				for _, j := range byMin[v] {
					if Subset(&qs[j], q) {
						red[i] = true
						break
					}
				}
				if red[i] {
					break
				}
			}
		}
		if !red[i] {
			pending = append(pending, i)
		}
	}
	return nil
}

// EverySubset reports whether the explicit family f is exactly the set of
// all w-subsets of the nodes its quorums use (a threshold written out),
// and returns those nodes, increasing, and w. It is checked, never
// assumed: every quorum has w nodes, no two are equal, and there are
// C(|nodes|, w) of them, so they are all the w-subsets. One pass, with a
// hash of each quorum.
func (f *Family) EverySubset() (nodes []int, w int, ok bool) {
	if f.IsThreshold() || f.IsImplicit() || f.quorumCount() == 0 {
		return nil, 0, false
	}
	if f.IsSparse() {
		return f.everySubsetSparse()
	}
	w = f.Quorums[0].Len()
	var used Set
	for i := range f.Quorums {
		if f.Quorums[i].Len() != w {
			return nil, 0, false
		}
		used.Union(&used, &f.Quorums[i])
	}
	nodes = used.Elements()
	if !binomialIs(len(nodes), w, len(f.Quorums)) {
		return nil, 0, false
	}
	seen := make(map[uint64][]int32, len(f.Quorums))
	for i := range f.Quorums {
		q := &f.Quorums[i]
		h := q.Hash()
		for _, j := range seen[h] {
			if Equal(&f.Quorums[j], q) {
				return nil, 0, false
			}
		}
		seen[h] = append(seen[h], int32(i))
	}
	return nodes, w, true
}

// binomialIs reports whether C(n, r) = m, without overflow.
func binomialIs(n, r, m int) bool {
	if r < 0 || r > n {
		return m == 0
	}
	r = min(r, n-r)
	b := 1
	for i := 1; i <= r; i++ {
		// b·(n−r+i)/i is C(n−r+i, i), an integer; the sequence only
		// grows, so stop once it passes m.
		b = b * (n - r + i) / i
		if b > m {
			return false
		}
	}
	return b == m
}
