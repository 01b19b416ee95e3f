package galois_test

import (
	"fmt"
	"testing"

	"github.com/coterie-dev/coterie/galois"
)

func BenchmarkNew(b *testing.B) {
	for _, q := range []int{256, 1024, 59049, 65521, 65536} {
		b.Run(fmt.Sprint(q), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := galois.New(q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkArith(b *testing.B) {
	for _, q := range []int{256, 59049, 65521} {
		f := galois.MustNew(q)
		b.Run(fmt.Sprintf("Add/%d", q), func(b *testing.B) {
			s := 0
			for b.Loop() {
				for a := 1; a < 1024; a++ {
					s = f.Add(s, a%q)
				}
			}
			_ = s
		})
		b.Run(fmt.Sprintf("Mul/%d", q), func(b *testing.B) {
			s := 1
			for b.Loop() {
				for a := 1; a < 1024; a++ {
					s = f.Mul(s, a%(q-1)+1)
				}
			}
			_ = s
		})
	}
}
