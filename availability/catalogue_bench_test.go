package availability

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/construct"
)

// BenchmarkWallPolynomialCWlog1000: the exact polynomial of the CWlog wall
// over 1,000 nodes.
func BenchmarkWallPolynomialCWlog1000(b *testing.B) {
	w := construct.CWlogWidths(1000)
	for b.Loop() {
		if _, err := WallPolynomial(context.Background(), w); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWallPolynomialTriangle1035: the triangle of 45 rows, 1,035 nodes.
func BenchmarkWallPolynomialTriangle1035(b *testing.B) {
	w := make([]int, 45)
	for i := range w {
		w[i] = i + 1
	}
	for b.Loop() {
		if _, err := WallPolynomial(context.Background(), w); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTreePolynomialBinary10: the binary tree of height 10, 2,047 nodes.
func BenchmarkTreePolynomialBinary10(b *testing.B) {
	for b.Loop() {
		if _, err := TreePolynomial(context.Background(), 2, 10); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTreePolynomialTernary6: the ternary tree of height 6, 1,093 nodes.
func BenchmarkTreePolynomialTernary6(b *testing.B) {
	for b.Loop() {
		if _, err := TreePolynomial(context.Background(), 3, 6); err != nil {
			b.Fatal(err)
		}
	}
}
