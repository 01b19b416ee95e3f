// Package measure computes the figures engineers choose a quorum system by:
// load and capacity (Naor and Wool, "The load, capacity and availability of
// quorum systems", SIAM J. Computing 27(2), 1998), network load, resilience
// (how many node failures always leave a live quorum), and the messages per
// critical-section entry of the protocols the papers describe.
//
// Exact answers come first: closed forms for threshold and regular systems,
// and for other systems a linear program whose optimum is then proved exact
// with rational arithmetic through LP duality.
package measure
