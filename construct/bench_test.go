package construct

import (
	"fmt"
	"testing"
)

// BenchmarkPlaneOwners measures the Hopcroft–Karp owner matching of
// PG(2,q) on its implicit incidence graph.
func BenchmarkPlaneOwners(b *testing.B) {
	for _, q := range []int{64, 256, 1024} {
		pl, err := newPlane(q)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(q), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				pl.owners()
			}
		})
	}
}

// BenchmarkStreamPlane measures generating every line of PG(2,q) through
// the spec's Stream, field and matching included, with a no-op consumer.
func BenchmarkStreamPlane(b *testing.B) {
	for _, q := range []int{64, 256} {
		a, err := NewArgs(fppSpec, map[string]any{"order": q})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(q), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, lines, err := fppSpec.Stream(a)
				if err != nil {
					b.Fatal(err)
				}
				for range lines {
				}
			}
		})
	}
}

// BenchmarkProjectivePlane measures building the explicit family.
func BenchmarkProjectivePlane(b *testing.B) {
	for _, q := range []int{64, 256} {
		b.Run(fmt.Sprint(q), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ProjectivePlane(q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMaekawa measures Method 1 with our map, plane and matchings
// included, for N just above a plane (many removed points) and below one.
func BenchmarkMaekawa(b *testing.B) {
	for _, n := range []int{1000, 16300} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := newMaekawaPlan(n, MapMin); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
