package protocol

import (
	"context"
	"testing"
)

// One million entries of Maekawa's algorithm on PG(2,16) under heavy demand
// (the speed target: under 10 s).
func BenchmarkMaekawaPG16Heavy(b *testing.B) {
	sys := system(b, pg16())
	spec := mustSpec(b, "maekawa-fixed")
	b.ReportAllocs()
	var r *Result
	for b.Loop() {
		var err error
		r, err = Simulate(context.Background(), spec, sys, Config{Load: Load{Kind: Heavy}, Entries: 1_000_000, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(r.MessagesPerEntry, "msgs/entry")
	b.ReportMetric(float64(r.Messages)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}
