package protocol

// Message is one protocol message: a small value with no pointers, so that
// the simulator moves millions of them without allocating, and with four
// fields, so that the compiler keeps it in registers rather than copying it
// through memory. Kind indexes the protocol's [Spec.Kinds] (values from
// MaxKind up are the simulator's); Stamp carries what the message needs: a
// sequence number, a logical clock, or for h-out of-k a clock and the units
// packed together (see [Spec.PackedUnits]).
type Message struct {
	Stamp    int64
	From, To int32
	Kind     uint8
}

// MaxKind bounds the message kinds a protocol may define: 0..MaxKind-1.
const MaxKind = 0xf0

// Net is what a protocol sees of the world it runs in: the simulator and the
// explorer each provide one.
type Net interface {
	// Send sends m from m.From to m.To. A message a node sends itself is
	// handled at once, after the current step, as a local step.
	Send(m Message)
	// Enter reports that node has its permissions and enters the critical
	// section holding units units (1 except for h-out of-k).
	Enter(node, units int)
	// Anomaly reports that node received something the protocol as printed
	// does not say how to handle; the protocol then does what it documents.
	Anomaly(node int, what string)
}

// Request is one request for the critical section: the units H (1 except for
// h-out of-k) and the quorum members, sorted increasingly. The slice is the
// caller's and stays unchanged until the request has left the critical
// section; protocols that ignore quorums (Ricart–Agrawala) get nil.
type Request struct {
	H      int
	Quorum []int32
}

// Protocol is one running instance of a mutual exclusion protocol over the
// nodes 0..N-1 of a [System]. Its methods are the atomic steps of the nodes;
// they send messages and report entries through the Net they are given.
//
// The caller guarantees the protocol's preconditions: a node requests only
// when it has no request pending and is not in the critical section, Exit is
// called only for a node inside, and Deliver gets each message once, in FIFO
// order per ordered pair of nodes.
type Protocol interface {
	// Request starts a request of node.
	Request(net Net, node int, r Request)
	// Deliver handles message m at node m.To.
	Deliver(net Net, m Message)
	// Exit makes node leave the critical section.
	Exit(net Net, node int)
	// WaitsFor calls yield(member, holder) for each member of node's
	// pending request whose permission node lacks: holder is the node that
	// member's permission went to, or -1 if it is free. It is the wait-for
	// graph of the deadlock check.
	WaitsFor(node int, yield func(member, holder int))
	// AppendState appends a canonical encoding of the whole protocol state
	// to b: equal states give equal bytes.
	AppendState(b []byte) []byte
	// LoadState replaces the state with one encoded by AppendState of a
	// protocol built for the same System.
	LoadState(b []byte) error
}

// Spec registers a protocol: its name (the --protocol of `coterie
// simulate`), the paper, the names of its message kinds, how the paper counts
// messages, and a constructor.
type Spec struct {
	Name    string
	Summary string
	Source  string
	// Kinds names the message kinds: Message.Kind indexes it.
	Kinds []string
	// CountSelf tells whether messages a node sends itself count, as
	// Kakugawa et al. (3|q|) and Manabe–Tajima count them, or not, as
	// Maekawa counts them (3(K−1)).
	CountSelf bool
	// Units tells whether requests ask for h of k units (h-out of-k);
	// otherwise every request asks for one and the limit is one.
	Units bool
	// NoQuorums tells that the protocol ignores quorums and talks to every
	// node (Ricart–Agrawala).
	NoQuorums bool
	// PackedUnits tells that Stamp holds a clock shifted left 16 bits with
	// the units of a request in the low 16 bits (h-out of-k); traces show
	// the two apart.
	PackedUnits bool
	// New returns the protocol in its initial state on sys, or an error if
	// sys is not the kind of system it runs on.
	New func(sys *System) (Protocol, error)
}

// Limit returns the most units that may be in use at once on sys under the
// protocol: k for h-out of-k, 1 otherwise.
func (s Spec) Limit(sys *System) int {
	if s.Units {
		return sys.K
	}
	return 1
}
