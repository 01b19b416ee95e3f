package protocol

import (
	"fmt"
)

// Maekawa's message kinds (Section 4).
const (
	mkRequest uint8 = iota
	mkLocked
	mkFailed
	mkInquire
	mkRelinquish
	mkRelease
)

var maekawaSpec = Spec{
	Name:    "maekawa",
	Summary: "Maekawa's √N algorithm: REQUEST, LOCKED, FAILED, INQUIRE, RELINQUISH, RELEASE",
	Source:  "M. Maekawa, ACM TOCS 3(2), 1985, Section 4",
	Kinds:   []string{"REQUEST", "LOCKED", "FAILED", "INQUIRE", "RELINQUISH", "RELEASE"},
	New:     newMaekawa,
}

// mkReq identifies a REQUEST by its sequence number and origin; failed
// records, in the fixed variant, that the member has sent it FAILED.
type mkReq struct {
	seq    int64
	node   int32
	failed bool
}

// precedes is Maekawa's order: the smaller sequence number, ties broken by
// the smaller node number.
func (a mkReq) precedes(b mkReq) bool {
	return a.seq < b.seq || a.seq == b.seq && a.node < b.node
}

// mkQueue is a member's WAITING QUEUE, in order of precedence: q[h] is the
// most preceding REQUEST. A new REQUEST usually carries the largest sequence
// number and goes to the back, and the lock always takes the front, so both
// are O(1) in the common case.
type mkQueue struct {
	q []mkReq
	h int
}

func (m *mkQueue) len() int { return len(m.q) - m.h }

// front returns the most preceding REQUEST; the queue must not be empty.
func (m *mkQueue) front() *mkReq { return &m.q[m.h] }

// push inserts r in order of precedence.
func (m *mkQueue) push(r mkReq) {
	if m.h > 0 && m.h == len(m.q) {
		m.q, m.h = m.q[:0], 0
	}
	m.q = append(m.q, r)
	k := len(m.q) - 1
	for k > m.h && r.precedes(m.q[k-1]) {
		m.q[k] = m.q[k-1]
		k--
	}
	m.q[k] = r
}

// pop removes and returns the most preceding REQUEST.
func (m *mkQueue) pop() mkReq {
	r := m.q[m.h]
	m.h++
	if m.h == len(m.q) {
		m.q, m.h = m.q[:0], 0
	} else if m.h >= 32 && 2*m.h >= len(m.q) {
		n := copy(m.q, m.q[m.h:])
		m.q, m.h = m.q[:n], 0
	}
	return r
}

// items returns the REQUESTs in order of precedence.
func (m *mkQueue) items() []mkReq { return m.q[m.h:] }

// mkMember is a member of a requester's quorum as the requester sees it:
// kept together, so that an answer touches one cache line or two.
type mkMember struct {
	node     int32
	status   uint8
	deferred bool // an INQUIRE from it awaits our answer
}

// member returns the position of node j in n's quorum, or -1.
func (n *mkNode) member(j int32) int {
	for k := range n.members {
		if n.members[k].node == j {
			return k
		}
	}
	return -1
}

// Status of a member, as its requester sees it.
const (
	mkNone   uint8 = iota // asked, no answer yet (or relinquished)
	mkHeld                // LOCKED received
	mkDenied              // FAILED received, no LOCKED since
)

type mkNode struct {
	maxSeq int64 // largest sequence number sent, received or observed

	// As a requester.
	active, inCS bool
	seq          int64
	members      []mkMember // S_i, with what we know of each member
	held, denied int        // members in mkHeld, mkDenied
	nDeferred    int        // members with deferred set

	// As a member (arbiter).
	locked   bool
	lock     mkReq
	inquired bool    // INQUIRE sent to the lock's origin, no reply yet
	queue    mkQueue // the WAITING QUEUE
}

// Maekawa is Maekawa's algorithm (Section 4), step by step as printed:
//
//	(1) node i sends REQUEST with a sequence number greater than any it has
//	    sent, received or observed to every member of S_i;
//	(2) a member locks itself for the REQUEST and answers LOCKED if it is
//	    free; otherwise it queues the REQUEST and answers FAILED if the locking
//	    REQUEST or an outstanding one precedes it, and else sends INQUIRE to
//	    the locking REQUEST's origin (once until that INQUIRE is answered);
//	(3) a node answers INQUIRE with RELINQUISH if it has received FAILED
//	    from a member, defers its answer while that is unknown, and in the
//	    critical section lets its RELEASE answer; an INQUIRE that is no longer
//	    about a lock the node holds (it arrived after the RELEASE) is ignored;
//	(4) RELINQUISH puts the locking REQUEST back in the queue and locks the
//	    most preceding one, answering LOCKED;
//	(5) with LOCKED from every member the node enters;
//	(6) on leaving it sends RELEASE to every member;
//	(7) RELEASE unlocks the member, which locks the most preceding queued
//	    REQUEST if there is one.
//
// "It has received a FAILED message" is read as: some member's latest answer
// was FAILED (a later LOCKED from that member supersedes it). A FAILED that
// arrives while INQUIREs are deferred answers them all with RELINQUISH.
// Node i "pretends to have received a REQUEST": its messages to itself are
// local steps and are not counted.
type Maekawa struct {
	nodes []mkNode
	// fixed selects the deadlock fix of [maekawaFixedSpec].
	fixed bool
}

func newMaekawa(sys *System) (Protocol, error) {
	if sys.HK || sys.K != 1 {
		return nil, errorf("maekawa runs on a coterie (k = 1), not a %d-arbiter; the hk protocol runs on k-arbiters", sys.K)
	}
	return &Maekawa{nodes: make([]mkNode, sys.N)}, nil
}

// Request starts a node's request: it implements [Protocol].
func (p *Maekawa) Request(net Net, i int, r Request) {
	n := &p.nodes[i]
	n.members = n.members[:0]
	for _, j := range r.Quorum {
		n.members = append(n.members, mkMember{node: j})
	}
	n.held, n.denied, n.nDeferred = 0, 0, 0
	n.active = true
	n.maxSeq++
	n.seq = n.maxSeq
	for _, mb := range n.members {
		net.Send(Message{Kind: mkRequest, From: int32(i), To: mb.node, Stamp: n.seq})
	}
}

// resize returns s with length k, every element zero.
func resize[T any](s []T, k int) []T {
	if cap(s) < k {
		return make([]T, k)
	}
	s = s[:k]
	clear(s)
	return s
}

// Deliver handles m at m.To: it implements [Protocol].
func (p *Maekawa) Deliver(net Net, m Message) {
	switch m.Kind {
	case mkRequest:
		p.request(net, m)
	case mkLocked, mkFailed, mkInquire:
		p.answer(net, m)
	case mkRelinquish, mkRelease:
		p.free(net, m)
	}
}

// request is step (2), at member m.To.
func (p *Maekawa) request(net Net, m Message) {
	j := &p.nodes[m.To]
	j.maxSeq = max(j.maxSeq, m.Stamp)
	r := mkReq{seq: m.Stamp, node: m.From}
	if !j.locked {
		j.locked, j.lock = true, r
		net.Send(Message{Kind: mkLocked, From: m.To, To: m.From})
		return
	}
	preceded := j.lock.precedes(r) || j.queue.len() > 0 && j.queue.front().precedes(r)
	if p.fixed && !preceded && j.queue.len() > 0 {
		// The fix: the REQUEST that was most preceding is overtaken; if it
		// was never told, tell it now.
		if h := j.queue.front(); !h.failed {
			h.failed = true
			net.Send(Message{Kind: mkFailed, From: m.To, To: h.node})
		}
	}
	r.failed = p.fixed && preceded
	j.queue.push(r)
	switch {
	case preceded:
		net.Send(Message{Kind: mkFailed, From: m.To, To: m.From})
	case !j.inquired:
		j.inquired = true
		net.Send(Message{Kind: mkInquire, From: m.To, To: j.lock.node})
	}
}

// answer handles LOCKED, FAILED and INQUIRE at the requester m.To.
func (p *Maekawa) answer(net Net, m Message) {
	i := &p.nodes[m.To]
	k := -1
	if i.active {
		k = i.member(m.From)
	}
	if m.Kind == mkInquire {
		// Step (3). An INQUIRE about a lock we do not hold arrived after
		// our RELEASE: ignore it.
		if k < 0 || i.members[k].status != mkHeld {
			return
		}
		switch {
		case i.inCS:
			// Our RELEASE will answer it.
		case i.denied > 0:
			p.relinquish(net, int(m.To), k)
		case !i.members[k].deferred:
			i.members[k].deferred = true
			i.nDeferred++
		}
		return
	}
	if k < 0 || i.members[k].status == mkHeld || i.inCS {
		net.Anomaly(int(m.To), fmt.Sprintf("%s from %d for no pending request", maekawaSpec.Kinds[m.Kind], m.From+1))
		return
	}
	if i.members[k].status == mkDenied {
		i.denied--
	}
	if m.Kind == mkFailed {
		i.members[k].status = mkDenied
		i.denied++
		for d := 0; i.nDeferred > 0 && d < len(i.members); d++ {
			if i.members[d].deferred {
				p.relinquish(net, int(m.To), d)
			}
		}
		return
	}
	i.members[k].status = mkHeld
	i.held++
	if i.held == len(i.members) { // step (5)
		i.inCS = true
		if i.nDeferred > 0 {
			for d := range i.members {
				i.members[d].deferred = false
			}
			i.nDeferred = 0
		}
		net.Enter(int(m.To), 1)
	}
}

// relinquish gives back the lock of member k of node i's quorum.
func (p *Maekawa) relinquish(net Net, i, k int) {
	n := &p.nodes[i]
	mb := &n.members[k]
	if mb.deferred {
		mb.deferred = false
		n.nDeferred--
	}
	mb.status = mkNone
	n.held--
	if p.fixed {
		// The member goes to a preceding REQUEST: as good as a FAILED.
		mb.status = mkDenied
		n.denied++
	}
	net.Send(Message{Kind: mkRelinquish, From: int32(i), To: mb.node})
}

// free handles RELINQUISH (step 4) and RELEASE (step 7) at member m.To.
func (p *Maekawa) free(net Net, m Message) {
	j := &p.nodes[m.To]
	if !j.locked || j.lock.node != m.From {
		net.Anomaly(int(m.To), fmt.Sprintf("%s from %d, which does not hold the lock", maekawaSpec.Kinds[m.Kind], m.From+1))
		return
	}
	j.inquired = false
	if m.Kind == mkRelinquish {
		// Put the locking REQUEST back; the most preceding one (never the
		// one just relinquished: an INQUIRE is sent only for a preceding
		// REQUEST, which is still queued) takes the lock.
		old := j.lock
		old.failed = p.fixed
		j.lock = j.queue.pop()
		j.queue.push(old)
		net.Send(Message{Kind: mkLocked, From: m.To, To: j.lock.node})
		return
	}
	if j.queue.len() == 0 {
		j.locked = false
		j.lock = mkReq{}
		return
	}
	j.lock = j.queue.pop()
	net.Send(Message{Kind: mkLocked, From: m.To, To: j.lock.node})
}

// Exit makes a node leave the critical section: it implements [Protocol].
func (p *Maekawa) Exit(net Net, i int) {
	n := &p.nodes[i]
	n.inCS, n.active = false, false
	for _, mb := range n.members {
		net.Send(Message{Kind: mkRelease, From: int32(i), To: mb.node})
	}
}

// WaitsFor reports whose permissions a node waits for: it implements [Protocol].
func (p *Maekawa) WaitsFor(i int, yield func(member, holder int)) {
	n := &p.nodes[i]
	if !n.active || n.inCS {
		return
	}
	for _, mb := range n.members {
		j := mb.node
		if mb.status == mkHeld {
			continue
		}
		h := -1
		if p.nodes[j].locked {
			h = int(p.nodes[j].lock.node)
		}
		yield(int(j), h)
	}
}

// AppendState appends the state's canonical encoding: it implements [Protocol].
func (p *Maekawa) AppendState(b []byte) []byte {
	for i := range p.nodes {
		n := &p.nodes[i]
		b = putInt(b, n.maxSeq)
		b = putBool(b, n.active)
		if n.active {
			b = putBool(b, n.inCS)
			b = putInt(b, n.seq)
			b = putInt(b, int64(len(n.members)))
			for _, mb := range n.members {
				b = putInt(b, int64(mb.node))
				v := int64(mb.status)
				if mb.deferred {
					v |= 4
				}
				b = putInt(b, v)
			}
		}
		b = putBool(b, n.locked)
		if n.locked {
			b = putInt(b, n.lock.seq)
			b = putInt(b, int64(n.lock.node))
			b = putBool(b, n.inquired)
		}
		b = putInt(b, int64(n.queue.len()))
		for _, r := range n.queue.items() {
			b = putInt(b, r.seq)
			v := int64(r.node) << 1
			if r.failed {
				v |= 1
			}
			b = putInt(b, v)
		}
	}
	return b
}

// LoadState restores a state AppendState encoded: it implements [Protocol].
func (p *Maekawa) LoadState(b []byte) error {
	r := reader{b: b}
	N := len(p.nodes)
	for i := range p.nodes {
		n := &p.nodes[i]
		n.maxSeq = r.int()
		n.active = r.bool()
		n.inCS, n.seq, n.held, n.denied, n.nDeferred = false, 0, 0, 0, 0
		if n.active {
			n.inCS = r.bool()
			n.seq = r.int()
			c := r.int()
			if c < 1 || c > int64(N) {
				return errorf("maekawa: bad quorum size in state")
			}
			n.members = n.members[:0]
			for range c {
				j, v := r.int32(), r.int()
				mb := mkMember{node: j, status: uint8(v & 3), deferred: v&4 != 0}
				n.members = append(n.members, mb)
				if mb.deferred {
					n.nDeferred++
				}
				switch mb.status {
				case mkHeld:
					n.held++
				case mkDenied:
					n.denied++
				}
			}
		}
		n.locked = r.bool()
		n.lock, n.inquired = mkReq{}, false
		if n.locked {
			n.lock.seq = r.int()
			n.lock.node = r.int32()
			n.inquired = r.bool()
		}
		c := r.int()
		if c < 0 || c > int64(N) {
			return errorf("maekawa: bad queue length in state")
		}
		n.queue.q, n.queue.h = n.queue.q[:0], 0
		for range c {
			seq, v := r.int(), r.int()
			n.queue.q = append(n.queue.q, mkReq{seq: seq, node: int32(v >> 1), failed: v&1 != 0})
		}
	}
	return r.done()
}
