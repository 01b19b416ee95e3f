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

// Channels stay FIFO: on every ordered pair, delivery times strictly
// increase in the order of sending, whether a sender tracks its channels in
// a list or, past fifoList of them, in a row, and the same as with the n×n
// table; and fifo never delays a message whose channel is clear.
func TestFIFO(t *testing.T) {
	const n = 80
	r := rand.New(rand.NewPCG(5, 6))
	s := &sim{sys: &System{N: n}, out: make([][]outRec, n), rows: make([][]uint64, n)}
	d := &sim{sys: &System{N: n}, dense: make([]uint64, n*n)}
	last := map[[2]int32]uint64{}
	var pending eventQueue // deliveries, to move time forward
	for range 200000 {
		for pending.len() > 20 {
			s.t, _ = pending.pop()
		}
		a := int32(r.IntN(n))
		to := []int32{a%7 + int32(r.IntN(3))} // a few receivers per sender...
		if a < 3 && r.IntN(20) == 0 {
			to = to[:0] // ... and now and then a broadcast from 1, 2 or 3
			for b := range int32(n) {
				to = append(to, b)
			}
		}
		for _, b := range to {
			want := s.t + uint64(r.IntN(2<<timeBits))
			got := s.fifo(a, b, want)
			d.t = s.t
			if dg := d.fifo(a, b, want); dg != got {
				t.Fatalf("fifo(%d, %d, %d): %d with lists, %d with the table", a, b, want, got, dg)
			}
			prev, seen := last[[2]int32{a, b}]
			switch {
			case got < want:
				t.Fatalf("fifo(%d, %d, %d) = %d: earlier than asked", a, b, want, got)
			case seen && got <= prev:
				t.Fatalf("fifo(%d, %d) = %d, not after the previous message at %d", a, b, got, prev)
			case got != want && (!seen || prev < want):
				t.Fatalf("fifo(%d, %d, %d) = %d, but the channel was clear", a, b, want, got)
			}
			last[[2]int32{a, b}] = got
			pending.add(got, Message{})
		}
	}
	rows := 0
	for _, row := range s.rows {
		if row != nil {
			rows++
		}
	}
	if rows == 0 || rows == n {
		t.Errorf("%d of %d senders use rows: the test should exercise both forms", rows, n)
	}
}
