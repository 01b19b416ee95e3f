package set

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// redundantBrute is the definition: a quorum is redundant if it contains
// another properly or equals an earlier one.
func redundantBrute(qs []Set) []bool {
	red := make([]bool, len(qs))
	for i := range qs {
		for j := range qs {
			if i == j || !Subset(&qs[j], &qs[i]) {
				continue
			}
			if !Equal(&qs[j], &qs[i]) || j < i {
				red[i] = true
			}
		}
	}
	return red
}

// The engines of Redundant (the subset table, the probe buckets, the
// block patterns and the size-sorted comparison) agree with the definition on random lists with repeats and
// containments, over universes of 1 to 22 and of 27 to 86 nodes.
func TestRedundantEngines(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	for trial := 0; trial < 400; trial++ {
		n := 1 + rng.IntN(22)
		if trial%10 == 0 {
			n = 27 + rng.IntN(60) // past the table
		}
		m := 1 + rng.IntN(60)
		qs := make([]Set, m)
		for i := range qs {
			if i > 0 && rng.IntN(5) == 0 { // a repeat
				qs[i].Copy(&qs[rng.IntN(i)])
				continue
			}
			for qs[i].IsEmpty() {
				for v := range n {
					if rng.IntN(3) == 0 {
						qs[i].Add(v)
					}
				}
			}
		}
		want := redundantBrute(qs)
		var used Set
		for i := range qs {
			used.Union(&used, &qs[i])
		}
		byTable := make([]bool, m)
		if used.Len() <= tableSupport {
			if err := redundantByTable(context.Background(), qs, used.Elements(), byTable); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(byTable, want) {
				t.Fatalf("n=%d m=%d: table %v, want %v", n, m, byTable, want)
			}
		}
		byProbes := make([]bool, m)
		if err := redundantByProbes(context.Background(), qs, n, byProbes); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(byProbes, want) {
			t.Fatalf("n=%d m=%d: by probes %v, want %v", n, m, byProbes, want)
		}
		byBlocks := make([]bool, m)
		if err := redundantByBlocks(context.Background(), qs, used.Elements(), n, byBlocks); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(byBlocks, want) {
			t.Fatalf("n=%d m=%d: by blocks %v, want %v", n, m, byBlocks, want)
		}
		bySize := make([]bool, m)
		if err := redundantBySize(context.Background(), qs, bySize); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(bySize, want) {
			t.Fatalf("n=%d m=%d: by size %v, want %v", n, m, bySize, want)
		}
		f := &Family{N: n, K: 1, Quorums: qs}
		got, err := f.Redundant(context.Background())
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("n=%d m=%d: Redundant %v, %v; want %v", n, m, got, err, want)
		}
	}
}

// All 11-subsets of 21 nodes, written out, are minimal; one more copy and
// one superset are redundant (the table engine, on 352,716 quorums).
func TestRedundantThresholdList(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	var qs []Set
	for c := uint32(0); c < 1<<21; c++ {
		if popcount(c) == 11 {
			var s Set
			for v := range 21 {
				if c&(1<<v) != 0 {
					s.Add(v)
				}
			}
			qs = append(qs, s)
		}
	}
	if len(qs) != 352716 { // C(21, 11)
		t.Fatalf("%d quorums", len(qs))
	}
	var dup, sup Set
	dup.Copy(&qs[7])
	sup.Copy(&qs[9])
	sup.Add(20)
	sup.Add(19)
	sup.Add(18)
	qs = append(qs, dup, sup)
	f := &Family{N: 21, K: 1, Quorums: qs}
	red, err := f.Redundant(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range red {
		if want := i >= 352716 && (i == 352716 || sup.Len() > 11); r != want {
			t.Fatalf("quorum %d: redundant %v, want %v", i, r, want)
		}
	}
}

func popcount(c uint32) int {
	n := 0
	for ; c != 0; c &= c - 1 {
		n++
	}
	return n
}

// On a list of dense quorums big enough for Redundant to take the probe
// buckets, with planted repeats and supersets, it agrees with the
// size-sorted comparison.
func TestRedundantDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 5))
	const n, m = 64, 6000
	qs := make([]Set, m)
	for i := range qs {
		switch {
		case i > 10 && i%97 == 0:
			qs[i].Copy(&qs[rng.IntN(i)]) // a repeat
		case i > 10 && i%89 == 0:
			qs[i].Copy(&qs[rng.IntN(i)]) // a superset
			qs[i].Add(rng.IntN(n))
			qs[i].Add(rng.IntN(n))
		default:
			for v := range n {
				if rng.IntN(2) == 0 {
					qs[i].Add(v)
				}
			}
		}
	}
	f := &Family{N: n, K: 1, Quorums: qs}
	got, err := f.Redundant(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := make([]bool, m)
	if err := redundantBySize(context.Background(), qs, want); err != nil {
		t.Fatal(err)
	}
	marked := 0
	for i := range want {
		if want[i] {
			marked++
		}
	}
	if !slices.Equal(got, want) || marked < 60 {
		t.Fatalf("probe buckets and size-sorted comparison differ (%d redundant)", marked)
	}
}

// The block engine on what it is for: dense quorums of sizes in a narrow
// range, with planted subsets (a quorum less a few nodes) and supersets
// (a quorum and a few more), against the definition; and Redundant picks
// it for 10^4 random quorums of 101 to 120 of 200 nodes, where it agrees
// with the probe engine.
func TestRedundantBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	for trial := 0; trial < 200; trial++ {
		n := 20 + rng.IntN(100)
		m := 2 + rng.IntN(200)
		qs := make([]Set, m)
		for i := range qs {
			if i > 0 && rng.IntN(4) == 0 {
				qs[i].Copy(&qs[rng.IntN(i)])
				for range 1 + rng.IntN(8) {
					if rng.IntN(2) == 0 {
						qs[i].Add(rng.IntN(n))
					} else if v, ok := qs[i].Next(rng.IntN(n)); ok && qs[i].Len() > 1 {
						qs[i].Remove(v)
					}
				}
				continue
			}
			for qs[i].Len() < n/2+rng.IntN(9) {
				qs[i].Add(rng.IntN(n))
			}
		}
		var used Set
		for i := range qs {
			used.Union(&used, &qs[i])
		}
		got := make([]bool, m)
		if err := redundantByBlocks(context.Background(), qs, used.Elements(), n, got); err != nil {
			t.Fatal(err)
		}
		if want := redundantBrute(qs); !slices.Equal(got, want) {
			t.Fatalf("n=%d m=%d: by blocks %v, want %v", n, m, got, want)
		}
	}
	const n, m = 200, 10000
	qs := make([]Set, m)
	for i := range qs {
		size := 101 + rng.IntN(20)
		for qs[i].Len() < size {
			qs[i].Add(rng.IntN(n))
		}
	}
	qs[m-1].Copy(&qs[7])
	qs[m-1].Add(0)
	qs[m-1].Add(1)
	sup := Full(n).Elements()
	if !blocksCheaper(qs, sup, n) {
		t.Error("blocks not chosen for random quorums of 101 to 120 of 200 nodes")
	}
	byBlocks, byProbes := make([]bool, m), make([]bool, m)
	if err := redundantByBlocks(context.Background(), qs, sup, n, byBlocks); err != nil {
		t.Fatal(err)
	}
	if err := redundantByProbes(context.Background(), qs, n, byProbes); err != nil {
		t.Fatal(err)
	}
	for i := range qs {
		if byBlocks[i] != byProbes[i] {
			holds := -1
			for j := range qs {
				if j != i && Subset(&qs[j], &qs[i]) && (!Equal(&qs[j], &qs[i]) || j < i) {
					holds = j
				}
			}
			t.Fatalf("quorum %d: blocks %v, probes %v; it holds quorum %d", i, byBlocks[i], byProbes[i], holds)
		}
	}
}

// The block engine agrees with the definition on lists it is chosen for
// (dense quorums of a narrow range of sizes) with nested pairs, repeats
// and pairs one node apart planted at random positions, first and last
// included.
func TestRedundantBlocksPlanted(t *testing.T) {
	if testing.Short() {
		t.Skip("brute force over 4,096² pairs")
	}
	rng := rand.New(rand.NewPCG(27, 9))
	for _, c := range []struct{ n, lo, hi int }{{200, 101, 120}, {64, 33, 40}, {90, 40, 41}} {
		const m = 4096
		qs := make([]Set, m)
		for i := range qs {
			size := c.lo + rng.IntN(c.hi-c.lo+1)
			for qs[i].Len() < size {
				qs[i].Add(rng.IntN(c.n))
			}
		}
		for _, at := range [][2]int{{0, m - 1}, {m - 1, 0}, {rng.IntN(m), rng.IntN(m)}, {rng.IntN(m), rng.IntN(m)}, {5, 6}} {
			from, to := at[0], at[1]
			if from == to {
				continue
			}
			qs[to].Copy(&qs[from])
			switch rng.IntN(3) {
			case 0: // to lies in from
				if v, ok := qs[to].Next(rng.IntN(c.n)); ok {
					qs[to].Remove(v)
				}
			case 1: // to holds from
				for range 1 + rng.IntN(c.hi-c.lo+1) {
					qs[to].Add(rng.IntN(c.n))
				}
			}
		}
		sup := Full(c.n).Elements()
		if !blocksCheaper(qs, sup, c.n) {
			t.Errorf("%+v: blocks not chosen", c)
		}
		got := make([]bool, m)
		if err := redundantByBlocks(context.Background(), qs, sup, c.n, got); err != nil {
			t.Fatal(err)
		}
		want := redundantBrute(qs)
		if !slices.Equal(got, want) {
			t.Fatalf("%+v: by blocks differs from brute force", c)
		}
		if !slices.Contains(want, true) {
			t.Fatalf("%+v: nothing planted took", c)
		}
	}
}

// go test ./set -run '^$' -bench RedundantRandomMajor
//
// 200,000 random quorums of 101 to 120 of 200 nodes, none holding another
// (the block engine); `coterie verify` on 10^6 of them is a case of
// scripts/bench-commands.sh.
func BenchmarkRedundantRandomMajor(b *testing.B) {
	rng := rand.New(rand.NewPCG(27, 10))
	const n, m = 200, 200000
	f := &Family{N: n, K: 1, Quorums: make([]Set, m)}
	for i := range f.Quorums {
		size := 101 + rng.IntN(20)
		for f.Quorums[i].Len() < size {
			f.Quorums[i].Add(rng.IntN(n))
		}
	}
	b.ResetTimer()
	for b.Loop() {
		red, err := f.Redundant(context.Background())
		if err != nil || slices.Contains(red, true) {
			b.Fatal("a random quorum was found redundant", err)
		}
	}
}
