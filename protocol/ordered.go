package protocol

import (
	"fmt"
)

// Protocol A's message kinds.
const (
	orRequest uint8 = iota
	orPermit
	orRelease
)

var orderedSpec = Spec{
	Name:      "ordered",
	Summary:   "ordered locking without timestamps (Kakugawa et al.'s protocol A): one member at a time, in increasing id",
	Source:    "H. Kakugawa, S. Fujita, M. Yamashita, T. Ae, protocol A (Section 4.2)",
	Kinds:     []string{"REQUEST", "PERMIT", "RELEASE"},
	CountSelf: true,
	New:       newOrdered,
}

type orNode struct {
	// As a requester: EnterCS asks quorum[next] and waits for its PERMIT.
	active, inCS bool
	quorum       []int32
	next         int

	// As a member: HaveToken (stored negated, so that the zero value is the
	// initial state) and the FIFO queue Q.
	given  bool
	holder int32 // the node the PERMIT went to, while given
	queue  []int32
}

// Ordered is protocol A of Kakugawa, Fujita, Yamashita and Ae, exactly as
// printed: EnterCS sends REQUEST to the members of R_i = {r_1 < r_2 < ...}
// one at a time, waiting for each PERMIT before asking the next, and on
// leaving sends RELEASE to all of them; ReceiptREQUEST enqueues the requester
// and, if HaveToken, dequeues the head and sends it PERMIT; ReceiptRELEASE
// sends PERMIT to the head of the queue, or takes the token back if the queue
// is empty. No timestamps, no sequence numbers; a node asks itself like any
// other member, and those messages count, as the paper's 3|q| counts them.
type Ordered struct {
	nodes []orNode
}

func newOrdered(sys *System) (Protocol, error) {
	if sys.HK || sys.K != 1 {
		return nil, errorf("ordered runs on a coterie (k = 1), not a %d-arbiter; the hk protocol runs on k-arbiters", sys.K)
	}
	return &Ordered{nodes: make([]orNode, sys.N)}, nil
}

// Request starts a node's request: it implements [Protocol].
func (p *Ordered) Request(net Net, i int, r Request) {
	n := &p.nodes[i]
	n.quorum = append(n.quorum[:0], r.Quorum...)
	n.active, n.next = true, 0
	net.Send(Message{Kind: orRequest, From: int32(i), To: n.quorum[0]})
}

// Deliver handles m at m.To: it implements [Protocol].
func (p *Ordered) Deliver(net Net, m Message) {
	n := &p.nodes[m.To]
	switch m.Kind {
	case orRequest:
		n.queue = append(n.queue, m.From)
		if !n.given {
			p.permit(net, int(m.To))
		}
	case orPermit:
		if !n.active || n.inCS || n.quorum[n.next] != m.From {
			net.Anomaly(int(m.To), fmt.Sprintf("PERMIT from %d that was not asked for", m.From+1))
			return
		}
		n.next++
		if n.next == len(n.quorum) {
			n.inCS = true
			net.Enter(int(m.To), 1)
			return
		}
		net.Send(Message{Kind: orRequest, From: m.To, To: n.quorum[n.next]})
	case orRelease:
		if !n.given || n.holder != m.From {
			net.Anomaly(int(m.To), fmt.Sprintf("RELEASE from %d, which holds no PERMIT", m.From+1))
			return
		}
		if len(n.queue) == 0 {
			n.given = false
			return
		}
		p.permit(net, int(m.To))
	}
}

// permit dequeues the head of member j's queue and sends it PERMIT.
func (p *Ordered) permit(net Net, j int) {
	n := &p.nodes[j]
	h := n.queue[0]
	copy(n.queue, n.queue[1:])
	n.queue = n.queue[:len(n.queue)-1]
	n.given, n.holder = true, h
	net.Send(Message{Kind: orPermit, From: int32(j), To: h})
}

// Exit makes a node leave the critical section: it implements [Protocol].
func (p *Ordered) Exit(net Net, i int) {
	n := &p.nodes[i]
	n.active, n.inCS = false, false
	for _, j := range n.quorum {
		net.Send(Message{Kind: orRelease, From: int32(i), To: j})
	}
}

// WaitsFor reports whose permissions a node waits for: it implements [Protocol].
func (p *Ordered) WaitsFor(i int, yield func(member, holder int)) {
	n := &p.nodes[i]
	if !n.active || n.inCS {
		return
	}
	j := n.quorum[n.next]
	h := -1
	if p.nodes[j].given {
		h = int(p.nodes[j].holder)
	}
	yield(int(j), h)
}

// AppendState appends the state's canonical encoding: it implements [Protocol].
func (p *Ordered) AppendState(b []byte) []byte {
	for i := range p.nodes {
		n := &p.nodes[i]
		b = putBool(b, n.active)
		if n.active {
			b = putBool(b, n.inCS)
			b = putInts(b, n.quorum)
			b = putInt(b, int64(n.next))
		}
		b = putBool(b, n.given)
		if n.given {
			b = putInt(b, int64(n.holder))
		}
		b = putInts(b, n.queue)
	}
	return b
}

// LoadState restores a state AppendState encoded: it implements [Protocol].
func (p *Ordered) LoadState(b []byte) error {
	r := reader{b: b}
	N := len(p.nodes)
	for i := range p.nodes {
		n := &p.nodes[i]
		n.active = r.bool()
		n.inCS, n.next = false, 0
		if n.active {
			n.inCS = r.bool()
			n.quorum = r.ints(n.quorum, N)
			n.next = int(r.int())
			if n.next < 0 || n.next > len(n.quorum) || len(n.quorum) == 0 {
				return errorf("ordered: bad state")
			}
		}
		n.given = r.bool()
		n.holder = -1
		if n.given {
			n.holder = r.int32()
		}
		n.queue = r.ints(n.queue, N*N)
	}
	return r.done()
}
