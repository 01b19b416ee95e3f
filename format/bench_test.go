package format_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// big is a family the size of PG(2,256): 65,793 quorums of 257 nodes over
// 65,793 nodes (random quorums: the formats do not care about structure).
var big = sync.OnceValue(func() set.System {
	const n, size = 65793, 257
	r := rand.New(rand.NewPCG(1, 1))
	f := set.NewFamily(n)
	f.Quorums = make([]set.Set, 0, n)
	for i := range n {
		q := set.New(n)
		for c := 0; c < size; {
			if v := r.IntN(n); !q.Has(v) {
				q.Add(v)
				c++
			}
		}
		f.Add(q, i)
	}
	return set.System{Family: f}
})

var bigFiles = sync.OnceValue(func() map[format.Format][]byte {
	m := map[format.Format][]byte{}
	for _, f := range format.Formats() {
		var buf bytes.Buffer
		if err := format.Write(&buf, big(), f, format.DefaultOptions()); err != nil {
			panic(err)
		}
		m[f] = buf.Bytes()
	}
	return m
})

func BenchmarkWriteLarge(b *testing.B) {
	sys, files := big(), bigFiles()
	for _, f := range format.Formats() {
		b.Run(string(f), func(b *testing.B) {
			b.SetBytes(int64(len(files[f])))
			for b.Loop() {
				if err := format.Write(io.Discard, sys, f, format.DefaultOptions()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkReadLarge(b *testing.B) {
	files := bigFiles()
	for _, f := range format.Formats() {
		data := files[f]
		b.Run(string(f), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := format.ReadBytes(data, f, format.DefaultOptions()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadPairs reads 10^6 quorums of two nodes, the shape of a large
// hypergraph file: with ids up to 1000 it is read; with ids up to 100,000
// the 512 MiB budget stops it early, having allocated little.
func BenchmarkReadPairs(b *testing.B) {
	for _, top := range []int{1000, 100000} {
		data := pairs(1000000, top)
		b.Run(fmt.Sprintf("ids-to-%d", top), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			opt := format.Options{Base: 1, MaxMemory: 512 << 20}
			for b.Loop() {
				_, err := format.ReadBytes(data, format.Text, opt)
				if top == 1000 && err != nil || top > 1000 && !errors.Is(err, set.ErrMemoryBudget) {
					b.Fatal(err)
				}
			}
		})
	}
}
