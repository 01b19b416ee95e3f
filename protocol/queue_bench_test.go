package protocol

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The queue returns events in time order, whatever the order of pushes,
// and equal times in a fixed order.
func TestEventQueueOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var q eventQueue
	var want []uint64
	now := uint64(0)
	for range 20000 {
		// Push a few events at or after now, then pop one.
		for range r.IntN(3) {
			at := now + uint64(r.IntN(50))
			q.add(at, Message{})
			want = append(want, at)
		}
		if q.len() == 0 {
			continue
		}
		slices.Sort(want)
		at, _ := q.pop()
		if at != want[0] {
			t.Fatalf("pop = %d, want %d", at, want[0])
		}
		want = want[1:]
		now = at
	}
	if q.len() != len(want) {
		t.Fatalf("len = %d, want %d", q.len(), len(want))
	}
}

// The event queue in the steady state of the PG(2,16) heavy run: about 4400
// pending events, each pop followed by a push one exponential delay later.
func BenchmarkEventQueue(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var q eventQueue
	for range 4400 {
		q.add(toTicks(r.ExpFloat64()), Message{})
	}
	b.ReportAllocs()
	for b.Loop() {
		now, _ := q.pop()
		q.add(now+toTicks(r.ExpFloat64())+1, Message{})
	}
}
