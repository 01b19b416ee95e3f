package protocol

// Event kinds of the simulator.
const (
	evDeliver uint8 = iota // deliver msg
	evExit                 // msg.To leaves the critical section
	evArrive               // a Poisson request arrives at msg.To
)

// event is one scheduled event. Events are values: the queue holds them
// inline and the simulator allocates nothing per message.
type event struct {
	at   float64
	seq  uint64 // insertion order: breaks ties, so FIFO channels stay FIFO
	msg  Message
	kind uint8
}

func (a *event) less(b *event) bool {
	return a.at < b.at || a.at == b.at && a.seq < b.seq
}

// eventQueue is a 4-ary min-heap of events ordered by (at, seq): shallower
// than a binary heap, and the four children of a node share a cache line or
// two.
type eventQueue struct {
	h []event
}

func (q *eventQueue) len() int { return len(q.h) }

func (q *eventQueue) push(e event) {
	q.h = append(q.h, e)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

func (q *eventQueue) pop() event {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	q.h = h[:n]
	h = h[:n]
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for j := c + 1; j < end; j++ {
			if h[j].less(&h[m]) {
				m = j
			}
		}
		if !h[m].less(&last) {
			break
		}
		h[i] = h[m]
		i = m
	}
	if n > 0 {
		h[i] = last
	}
	return top
}
