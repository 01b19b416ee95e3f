package protocol

import "fmt"

// Ricart–Agrawala's message kinds.
const (
	raRequest uint8 = iota
	raReply
)

var ricartSpec = Spec{
	Name:      "ricart-agrawala",
	Summary:   "Ricart and Agrawala's algorithm: REQUEST to every other node, REPLY from each (2(N−1) per entry)",
	Source:    "G. Ricart, A. K. Agrawala, CACM 24(1), 1981; the baseline of Maekawa's Table I",
	Kinds:     []string{"REQUEST", "REPLY"},
	NoQuorums: true,
	New:       newRicart,
}

type raNode struct {
	highest    int64 // Highest_Sequence_Number
	seq        int64 // Our_Sequence_Number
	requesting bool  // Requesting_Critical_Section (true inside too)
	inCS       bool
	replies    int
	replied    []bool // per node: its REPLY has come
	deferred   []bool // per node: Reply_Deferred
}

// RicartAgrawala is the algorithm of Ricart and Agrawala: a node asks every
// other node with a sequence number one above the highest it has seen; a node
// defers its REPLY while it is requesting with a request that precedes
// (smaller sequence number, ties to the smaller node), and sends the deferred
// REPLYs when it leaves. It ignores the quorums: it is the unanimous baseline
// Maekawa's Table I compares with.
type RicartAgrawala struct {
	nodes []raNode
}

func newRicart(sys *System) (Protocol, error) {
	if sys.HK || sys.K != 1 {
		return nil, errorf("ricart-agrawala is 1-mutual exclusion, not for a %d-arbiter; the hk protocol runs on k-arbiters", sys.K)
	}
	p := &RicartAgrawala{nodes: make([]raNode, sys.N)}
	for i := range p.nodes {
		p.nodes[i].replied = make([]bool, sys.N)
		p.nodes[i].deferred = make([]bool, sys.N)
	}
	return p, nil
}

// Request starts a node's request: it implements [Protocol].
func (p *RicartAgrawala) Request(net Net, i int, _ Request) {
	n := &p.nodes[i]
	n.requesting = true
	n.seq = n.highest + 1
	n.replies = 0
	clear(n.replied)
	if len(p.nodes) == 1 {
		n.inCS = true
		net.Enter(i, 1)
		return
	}
	for j := range p.nodes {
		if j != i {
			net.Send(Message{Kind: raRequest, From: int32(i), To: int32(j), Stamp: n.seq})
		}
	}
}

// Deliver handles m at m.To: it implements [Protocol].
func (p *RicartAgrawala) Deliver(net Net, m Message) {
	n := &p.nodes[m.To]
	switch m.Kind {
	case raRequest:
		n.highest = max(n.highest, m.Stamp)
		if n.requesting && (n.seq < m.Stamp || n.seq == m.Stamp && m.To < m.From) {
			n.deferred[m.From] = true
			return
		}
		net.Send(Message{Kind: raReply, From: m.To, To: m.From})
	case raReply:
		if !n.requesting || n.inCS || n.replied[m.From] {
			net.Anomaly(int(m.To), fmt.Sprintf("REPLY from %d for no pending request", m.From+1))
			return
		}
		n.replied[m.From] = true
		n.replies++
		if n.replies == len(p.nodes)-1 {
			n.inCS = true
			net.Enter(int(m.To), 1)
		}
	}
}

// Exit makes a node leave the critical section: it implements [Protocol].
func (p *RicartAgrawala) Exit(net Net, i int) {
	n := &p.nodes[i]
	n.requesting, n.inCS = false, false
	for j, d := range n.deferred {
		if d {
			n.deferred[j] = false
			net.Send(Message{Kind: raReply, From: int32(i), To: int32(j)})
		}
	}
}

// WaitsFor reports whose permissions a node waits for: it implements [Protocol].
func (p *RicartAgrawala) WaitsFor(i int, yield func(member, holder int)) {
	n := &p.nodes[i]
	if !n.requesting || n.inCS {
		return
	}
	for j := range p.nodes {
		if j == i || n.replied[j] {
			continue
		}
		h := -1
		if p.nodes[j].deferred[i] {
			h = j
		}
		yield(j, h)
	}
}

// AppendState appends the state's canonical encoding: it implements [Protocol].
func (p *RicartAgrawala) AppendState(b []byte) []byte {
	for i := range p.nodes {
		n := &p.nodes[i]
		b = putInt(b, n.highest)
		b = putBool(b, n.requesting)
		if n.requesting {
			b = putInt(b, n.seq)
			b = putBool(b, n.inCS)
		}
		var rep, def int64
		for j := range p.nodes {
			if n.requesting && n.replied[j] {
				rep |= 1 << j
			}
			if n.deferred[j] {
				def |= 1 << j
			}
		}
		if len(p.nodes) > 62 {
			for j := range p.nodes {
				b = putBool(b, n.requesting && n.replied[j])
				b = putBool(b, n.deferred[j])
			}
			continue
		}
		b = putInt(b, rep)
		b = putInt(b, def)
	}
	return b
}

// LoadState restores a state AppendState encoded: it implements [Protocol].
func (p *RicartAgrawala) LoadState(b []byte) error {
	r := reader{b: b}
	N := len(p.nodes)
	for i := range p.nodes {
		n := &p.nodes[i]
		n.highest = r.int()
		n.requesting = r.bool()
		n.seq, n.inCS = 0, false
		if n.requesting {
			n.seq = r.int()
			n.inCS = r.bool()
		}
		n.replies = 0
		if N > 62 {
			for j := range p.nodes {
				n.replied[j] = r.bool()
				n.deferred[j] = r.bool()
			}
		} else {
			rep, def := r.int(), r.int()
			for j := range p.nodes {
				n.replied[j] = rep&(1<<j) != 0
				n.deferred[j] = def&(1<<j) != 0
			}
		}
		for _, v := range n.replied {
			if v {
				n.replies++
			}
		}
	}
	return r.done()
}
