package protocol

import (
	"fmt"
)

// The h-out of-k algorithm's message kinds (Fig. 1).
const (
	hkRequest uint8 = iota
	hkOK
	hkCancel
	hkCancelled
	hkRelease
)

var hkSpec = Spec{
	Name:        "hk",
	Summary:     "Manabe–Tajima h-out of-k mutual exclusion: request(h,p,c), OK, cancel, cancelled, release",
	Source:      "Y. Manabe, N. Tajima, (h,k)-arbiters for h-out of-k mutual exclusion, Section 4 and Fig. 1",
	Kinds:       []string{"request", "OK", "cancel", "cancelled", "release"},
	CountSelf:   true,
	Units:       true,
	PackedUnits: true,
	New:         newHK,
}

// hkStamp packs a clock and the units of a request into a Message.Stamp.
func hkStamp(c int64, h int32) int64 { return c<<16 | int64(h) }

// hkUnpack splits a Message.Stamp into the clock and the units.
func hkUnpack(s int64) (int64, int32) { return s >> 16, int32(s & 0xffff) }

// Status of an entry of the priority queue Que.
const (
	hkWait uint8 = iota
	hkOk
	hkCanceling
)

type hkEntry struct {
	clock  int64
	proc   int32
	units  int32
	status uint8
}

// before reports whether a has the higher priority: the smaller clock, ties
// broken by the smaller process.
func (a hkEntry) before(b hkEntry) bool {
	return a.clock < b.clock || a.clock == b.clock && a.proc < b.proc
}

type hkNode struct {
	c int64 // Lamport clock

	// As a requester: Q, K (got), In, h.
	active, in bool
	h          int32
	quorum     []int32
	got        []bool // K, by quorum position
	nGot       int

	// As a member: x tokens and the priority queue Que, highest first.
	x   int32
	que []hkEntry
}

// HK is the h-out of-k mutual exclusion algorithm of Manabe and Tajima
// (Section 4.1, Fig. 1), as printed. Every message carries the sender's
// Lamport clock c and the receiver sets c := max(c, c_m) + 1; a request
// (h, p, c) has the priority (c, p). A member keeps k tokens and the
// requests in priority order: a new request gets OK when the units of the
// requests up to it are at most k and x ≥ h; every request whose OK now lies
// beyond k units is sent "cancel". A requester answers "cancel" with
// "cancelled" unless it is inside (In) or the member is not in K; "release"
// and "cancelled" return tokens and run NewChance, which hands out OKs in
// priority order until one does not fit.
//
// Fig. 1 does not reset K when a process leaves, so a "cancel" that crosses
// the "release" is answered with "cancelled", which reaches the member after
// the release has removed the request: Fig. 1 has no entry to update. This
// implementation reports that as an anomaly and ignores the message, the
// only reading that keeps x ≤ k.
type HK struct {
	nodes []hkNode
	k     int32
}

func newHK(sys *System) (Protocol, error) {
	if sys.K > 0xffff {
		return nil, errorf("hk: k = %d is more than the %d units a message can carry", sys.K, 0xffff)
	}
	p := &HK{nodes: make([]hkNode, sys.N), k: int32(sys.K)}
	for i := range p.nodes {
		p.nodes[i].x = p.k
	}
	return p, nil
}

func (p *HK) send(net Net, kind uint8, from, to int32, h int32) {
	net.Send(Message{Kind: kind, From: from, To: to, Stamp: hkStamp(p.nodes[from].c, h)})
}

// Request starts a node's request: it implements [Protocol].
func (p *HK) Request(net Net, i int, r Request) {
	n := &p.nodes[i]
	n.quorum = append(n.quorum[:0], r.Quorum...)
	n.got = resize(n.got, len(n.quorum))
	n.nGot = 0
	n.h = int32(r.H)
	n.active = true
	for _, j := range n.quorum {
		p.send(net, hkRequest, int32(i), j, n.h)
	}
}

// Deliver handles m at m.To: it implements [Protocol].
func (p *HK) Deliver(net Net, m Message) {
	n := &p.nodes[m.To]
	c, _ := hkUnpack(m.Stamp)
	n.c = max(n.c, c) + 1
	switch m.Kind {
	case hkRequest:
		p.request(net, m)
	case hkOK:
		k := -1
		if n.active && !n.in {
			k = index(n.quorum, m.From)
		}
		if k < 0 || n.got[k] {
			net.Anomaly(int(m.To), fmt.Sprintf("OK from %d for no pending request", m.From+1))
			return
		}
		n.got[k] = true
		n.nGot++
		if n.nGot == len(n.quorum) {
			n.in = true
			net.Enter(int(m.To), int(n.h))
		}
	case hkCancel:
		// K is not reset on leaving (Fig. 1), so a node that has left
		// still answers for the members of its last quorum.
		if k := index(n.quorum, m.From); !n.in && k >= 0 && n.got[k] {
			p.send(net, hkCancelled, m.To, m.From, 0)
			n.got[k] = false
			n.nGot--
		}
	case hkRelease, hkCancelled:
		j := -1
		for e := range n.que {
			if n.que[e].proc == m.From {
				j = e
				break
			}
		}
		if j < 0 || m.Kind == hkCancelled && n.que[j].status != hkCanceling {
			net.Anomaly(int(m.To), fmt.Sprintf("%s from %d, which has no canceled request here; ignored",
				hkSpec.Kinds[m.Kind], m.From+1))
			return
		}
		n.x += n.que[j].units
		if m.Kind == hkRelease {
			n.que = append(n.que[:j], n.que[j+1:]...)
		} else {
			n.que[j].status = hkWait
		}
		p.newChance(net, int32(m.To))
	}
}

// request is Fig. 1's handler for "request(h', p', c')" at m.To.
func (p *HK) request(net Net, m Message) {
	n := &p.nodes[m.To]
	c, h := hkUnpack(m.Stamp)
	e := hkEntry{clock: c, proc: m.From, units: h, status: hkWait}
	n.que = append(n.que, e)
	j := len(n.que) - 1
	for j > 0 && e.before(n.que[j-1]) {
		n.que[j] = n.que[j-1]
		j--
	}
	n.que[j] = e
	var sum int32
	for i := 0; i <= j; i++ {
		sum += n.que[i].units
	}
	if sum <= p.k && n.x >= e.units {
		p.send(net, hkOK, m.To, m.From, 0)
		n.que[j].status = hkOk
		n.x -= e.units
	}
	// Cancel the OKs that now lie beyond k units.
	sum = 0
	i := 0
	for i < len(n.que) && sum+n.que[i].units <= p.k {
		sum += n.que[i].units
		i++
	}
	for ; i < len(n.que); i++ {
		if n.que[i].status == hkOk {
			p.send(net, hkCancel, m.To, n.que[i].proc, 0)
			n.que[i].status = hkCanceling
		}
	}
}

// newChance is Fig. 1's NewChance at member j.
func (p *HK) newChance(net Net, j int32) {
	n := &p.nodes[j]
	for i := range n.que {
		if n.que[i].status != hkWait {
			continue
		}
		if n.x < n.que[i].units {
			return
		}
		p.send(net, hkOK, j, n.que[i].proc, 0)
		n.que[i].status = hkOk
		n.x -= n.que[i].units
	}
}

// Exit makes a node leave the critical section: it implements [Protocol].
func (p *HK) Exit(net Net, i int) {
	n := &p.nodes[i]
	n.in, n.active = false, false
	for _, j := range n.quorum {
		p.send(net, hkRelease, int32(i), j, 0)
	}
}

// WaitsFor reports whose permissions a node waits for: it implements [Protocol].
func (p *HK) WaitsFor(i int, yield func(member, holder int)) {
	n := &p.nodes[i]
	if !n.active || n.in {
		return
	}
	for k, j := range n.quorum {
		if n.got[k] {
			continue
		}
		any := false
		for _, e := range p.nodes[j].que {
			if e.status != hkWait && e.proc != int32(i) {
				yield(int(j), int(e.proc))
				any = true
			}
		}
		if !any {
			yield(int(j), -1)
		}
	}
}

// AppendState appends the state's canonical encoding: it implements [Protocol].
func (p *HK) AppendState(b []byte) []byte {
	for i := range p.nodes {
		n := &p.nodes[i]
		b = putInt(b, n.c)
		b = putBool(b, n.active)
		b = putBool(b, n.in)
		b = putInt(b, int64(n.h))
		b = putInts(b, n.quorum)
		var g int64
		for k, v := range n.got {
			if v {
				g |= 1 << k
			}
		}
		if len(n.got) > 62 {
			// Not an explorer-sized instance; keep the encoding exact anyway.
			for _, v := range n.got {
				b = putBool(b, v)
			}
		} else {
			b = putInt(b, g)
		}
		b = putInt(b, int64(n.x))
		b = putInt(b, int64(len(n.que)))
		for _, e := range n.que {
			b = putInt(b, e.clock)
			b = putInt(b, int64(e.proc))
			b = putInt(b, int64(e.units))
			b = putInt(b, int64(e.status))
		}
	}
	return b
}

// LoadState restores a state AppendState encoded: it implements [Protocol].
func (p *HK) LoadState(b []byte) error {
	r := reader{b: b}
	N := len(p.nodes)
	for i := range p.nodes {
		n := &p.nodes[i]
		n.c = r.int()
		n.active = r.bool()
		n.in = r.bool()
		n.h = r.int32()
		n.quorum = r.ints(n.quorum, N)
		n.got = resize(n.got, len(n.quorum))
		n.nGot = 0
		if len(n.got) > 62 {
			for k := range n.got {
				n.got[k] = r.bool()
			}
		} else {
			g := r.int()
			for k := range n.got {
				n.got[k] = g&(1<<k) != 0
			}
		}
		for _, v := range n.got {
			if v {
				n.nGot++
			}
		}
		n.x = r.int32()
		c := r.int()
		if c < 0 || c > int64(N) {
			return errorf("hk: bad queue length in state")
		}
		n.que = n.que[:0]
		for range c {
			n.que = append(n.que, hkEntry{clock: r.int(), proc: r.int32(), units: r.int32(), status: uint8(r.int())})
		}
	}
	return r.done()
}
