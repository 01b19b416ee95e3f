package protocol

import (
	"math/bits"
	"slices"
)

// The simulator's own events travel as Messages with these kinds (any
// other kind is a delivery).
const (
	evExit   uint8 = MaxKind + iota // msg.To leaves the critical section
	evArrive                        // a Poisson request arrives at msg.To
)

// Simulated time is fixed point: tick = 2^-timeBits of a mean message delay.
// Integer times let a FIFO channel deliver each message at least one tick
// after the one before it, and make the queue's buckets exact.
const (
	timeBits = 20
	tick     = 1.0 / (1 << timeBits)
	maxTime  = 1 << 61 // in ticks: about 2e12 mean message delays
)

func toTicks(t float64) uint64 { return uint64(t * (1 << timeBits)) }

func fromTicks(k uint64) float64 { return float64(k) * tick }

// item is a pending event: its time and message.
type item struct {
	at  uint64
	msg Message
}

// The near tier has between minBuckets and maxBuckets buckets, about twice
// as many as there are events pending.
const (
	minBuckets = 64
	maxBuckets = 1 << 16
)

// eventQueue is a calendar queue (after R. Brown, CACM 31(10), 1988) with
// two tiers, for the simulator's monotone event times (no event is ever
// scheduled before the last one taken). The near tier is an array of
// buckets, each 2^shift ticks wide, covering [base, base + len(buckets) <<
// shift); later events wait unsorted in the far tier. A bucket is sorted
// when the queue reaches it, and pops come from its front, so add and pop
// take constant time on average. Each time the near tier is used up the
// queue re-bases at the earliest far event, sizes the buckets to hold about
// three events each at the rate it has just seen, and keeps about twice as
// many buckets as events pending, so that a queue of a few dozen events
// stays in the first-level cache and one of a million still finds them in
// constant time.
//
// Events with equal times come out in an order fixed by the order of the
// calls, so runs are deterministic. Buckets keep their capacity: scheduling
// allocates nothing in the steady state.
type eventQueue struct {
	n       int
	base    uint64
	shift   uint
	cur     int // the bucket being consumed (sorted); len(buckets) when none
	head    int // next item of buckets[cur]
	popped  int // pops since the last re-base
	buckets [][]item
	full    []uint64 // bit i: buckets[i] not empty
	far     []item
}

func (q *eventQueue) len() int { return q.n }

// add schedules m at time at, which must not precede the last time taken.
func (q *eventQueue) add(at uint64, m Message) {
	q.n++
	d := (at - q.base) >> q.shift
	if d >= uint64(len(q.buckets)) || q.cur == len(q.buckets) {
		q.far = append(q.far, item{at: at, msg: m})
		return
	}
	i := int(d)
	if i != q.cur {
		q.buckets[i] = append(q.buckets[i], item{at, m})
		q.full[i>>6] |= 1 << (i & 63)
		return
	}
	// The bucket being consumed is sorted: insert in order, after any
	// equal time.
	b := append(q.buckets[i], item{at, m})
	q.buckets[i] = b
	k := len(b) - 1
	for k > q.head && b[k-1].at > at {
		b[k] = b[k-1]
		k--
	}
	b[k] = item{at, m}
}

// pop removes an earliest event and returns its time and message. The queue
// must not be empty.
func (q *eventQueue) pop() (uint64, Message) {
	for {
		if q.cur < len(q.buckets) {
			b := q.buckets[q.cur]
			if q.head < len(b) {
				it := &b[q.head]
				q.head++
				q.n--
				q.popped++
				return it.at, it.msg
			}
			q.buckets[q.cur] = b[:0]
			q.full[q.cur>>6] &^= 1 << (q.cur & 63)
			q.head = 0
			if q.next() {
				continue
			}
		}
		q.rebase()
	}
}

// next moves cur to the next non-empty bucket and sorts it, or returns
// false at the end of the near tier.
func (q *eventQueue) next() bool {
	w := q.cur >> 6
	word := q.full[w] &^ (1<<(q.cur&63) - 1)
	for word == 0 {
		w++
		if w == len(q.full) {
			q.cur = len(q.buckets)
			return false
		}
		word = q.full[w]
	}
	q.cur = w<<6 + bits.TrailingZeros64(word)
	b := q.buckets[q.cur]
	if len(b) <= 16 {
		for i := 1; i < len(b); i++ {
			x := b[i]
			k := i
			for k > 0 && b[k-1].at > x.at {
				b[k] = b[k-1]
				k--
			}
			b[k] = x
		}
	} else {
		slices.SortStableFunc(b, func(x, y item) int {
			switch {
			case x.at < y.at:
				return -1
			case x.at > y.at:
				return 1
			}
			return 0
		})
	}
	return true
}

// rebase starts a new near tier at the earliest far event, with buckets
// sized from the rate of the tier just used up. Every near bucket is empty.
func (q *eventQueue) rebase() {
	m := q.far[0].at
	for _, it := range q.far[1:] {
		m = min(m, it.at)
	}
	if q.buckets == nil {
		q.shift = timeBits - 6 // a first guess: 1/64 of a mean delay
	} else if span := m - q.base; q.popped > 0 && m > q.base {
		// About three events per bucket at the rate just seen.
		w := 3 * float64(span) / float64(q.popped)
		s := 0
		if w > 1 {
			s = bits.Len64(uint64(w)) - 1
		}
		q.shift = uint(min(s, 40))
	}
	nb := minBuckets
	for nb < 2*q.n && nb < maxBuckets {
		nb *= 2
	}
	if nb > len(q.buckets) || 8*nb < len(q.buckets) {
		old := q.buckets
		q.buckets = make([][]item, nb)
		copy(q.buckets, old) // keep the empty buckets' storage
		q.full = make([]uint64, nb/64)
	}
	q.popped = 0
	q.base = m &^ (1<<q.shift - 1)
	keep := q.far[:0]
	for _, it := range q.far {
		d := (it.at - q.base) >> q.shift
		if d >= uint64(len(q.buckets)) {
			keep = append(keep, it)
			continue
		}
		i := int(d)
		q.buckets[i] = append(q.buckets[i], it)
		q.full[i>>6] |= 1 << (i & 63)
	}
	clear(q.far[len(keep):])
	q.far = keep
	q.cur, q.head = 0, 0
	q.next()
}
