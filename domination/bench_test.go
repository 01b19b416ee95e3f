package domination

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// go test ./domination -run '^$' -bench 'Decide'
func BenchmarkDecide(b *testing.B) {
	for _, bb := range []struct {
		name string
		f    *set.Family
	}{{"PG(2,31)", pg(b, 31)}, {"PG(2,64)", pg(b, 64)}, {"grid32x32", grid(32, 32)}} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := Decide(context.Background(), bb.f)
				if err != nil || r.Nondominated {
					b.Fatal(r, err)
				}
			}
		})
	}
}

func BenchmarkDecideSmallest(b *testing.B) {
	for _, q := range []int{3, 4, 5} {
		f := pg(b, q)
		b.Run(f.Kind+string(rune('0'+q)), func(b *testing.B) {
			for b.Loop() {
				if _, err := DecideSmallest(context.Background(), f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
