package systems

import (
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/quorum"
)

// Config is a replicated system's configuration read as a quorum system
// over its voting (or replica) nodes 0..N-1.
type Config struct {
	// System names the software: "zookeeper", "etcd", "cassandra",
	// "mongodb" or "fpaxos".
	System string
	// Labels names each node as the configuration does (a server id, a
	// host name, a member name); one per node.
	Labels []string
	// Domains is nil, or one failure-domain path per node, outermost
	// first and separated by "/" ("dc1", "dc1/rack2"), when the
	// configuration says where its nodes are.
	Domains []string
	// Reads and Writes decide whether live nodes hold a read and a write
	// quorum. For a system with one kind of quorum (a ZooKeeper or Raft
	// ensemble, a replica set's elections) both are the same *Rule; a
	// read-write system (Cassandra's consistency levels, Flexible Paxos's
	// phase-1 and phase-2 quorums) has two.
	Reads, Writes *quorum.Rule
	// ReadExpr and WriteExpr are nil, or the same quorums as Reads and
	// Writes written as quorum expressions over the nodes (package expr,
	// leaves bound to nodes 0..N-1 and named by Labels): a threshold or a
	// formula that uses each node once lets the analyses take their closed
	// forms instead of listing the quorums. Both are set or neither; a
	// configuration with one kind of quorum has one expression.
	ReadExpr, WriteExpr *expr.Expr
	// Notes are what an operator should read about the configuration,
	// the most useful first.
	Notes []Note
}

// Note is one remark about a configuration, at a line of its file (0 when
// it concerns no line).
type Note struct {
	Line int
	Text string
}

// IsCoterie reports whether the configuration has one kind of quorum.
func (c *Config) IsCoterie() bool { return c.Reads == c.Writes }

// N returns the number of nodes.
func (c *Config) N() int { return c.Reads.Nodes }

// Threshold reports whether the configuration has one kind of quorum,
// every k of its N nodes, as a majority or a Flexible Paxos phase size
// does.
func (c *Config) Threshold() (k int, ok bool) {
	if !c.IsCoterie() || c.ReadExpr == nil {
		return 0, false
	}
	k, nodes, ok := c.ReadExpr.AsThreshold()
	return k, ok && len(nodes) == c.N()
}

// nodeLeaves returns a leaf per node, named by labels.
func nodeLeaves(labels []string) []*expr.Expr {
	out := make([]*expr.Expr, len(labels))
	for v, l := range labels {
		out[v] = &expr.Expr{Op: expr.Leaf, Node: v, Name: l}
	}
	return out
}

// mustChoose returns choose(k, args...); its callers ensure 1 ≤ k ≤ len(args).
func mustChoose(k int, args []*expr.Expr) *expr.Expr {
	e, err := expr.NewChoose(k, args...)
	if err != nil {
		panic("systems: " + err.Error())
	}
	return e
}
