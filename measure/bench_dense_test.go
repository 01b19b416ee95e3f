package measure

import (
	"context"
	"testing"
)

// The dense path on small systems: smallestNetwork on a LoadOf of 12
// nodes and 40 quorums of unequal sizes, and denseLoad itself.
func BenchmarkLoadSmallNetwork(b *testing.B) {
	f := irregular(12, 40, 0.35, 3)
	for b.Loop() {
		if _, err := LoadOf(context.Background(), f, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDenseLoad(b *testing.B) {
	f := irregular(12, 40, 0.35, 3)
	members := membersOf(f)
	for b.Loop() {
		if l, err := denseLoad(context.Background(), f, members); err != nil || l.Exact == nil {
			b.Fatal(l, err)
		}
	}
}
