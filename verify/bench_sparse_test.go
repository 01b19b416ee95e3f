package verify

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// wideLists returns m random quorums of 2 to 20 nodes over the ids
// 0..n-1, as a sparse family; with star, node 0 is in every quorum.
func wideLists(m, n int, star bool) *set.Family {
	rng := rand.New(rand.NewPCG(1, 2))
	var l set.Lists
	var q []int32
	seen := map[int32]bool{}
	for range m {
		clear(seen)
		q = q[:0]
		if star {
			q = append(q, 0)
			seen[0] = true
		}
		for k := 2 + rng.IntN(19); len(q) < k; {
			v := int32(rng.IntN(n))
			if !seen[v] {
				seen[v] = true
				q = append(q, v)
			}
		}
		slices.Sort(q)
		l.Append(q)
	}
	f := set.NewFamily(n)
	f.Sparse = &l
	return f
}

// BenchmarkSparseWide verifies 10^5 random quorums over ids up to 10^6
// held as lists: a disjoint pair comes at once, minimality by the index.
func BenchmarkSparseWide(b *testing.B) { benchSparse(b, wideLists(100000, 1000000, false)) }

// BenchmarkSparseStar verifies 10^5 quorums that all hold node 1: every
// pair meets, which the index shows one quorum at a time.
func BenchmarkSparseStar(b *testing.B) { benchSparse(b, wideLists(100000, 1000000, true)) }

func benchSparse(b *testing.B, f *set.Family) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Verify(context.Background(), set.System{Family: f}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
