// Package protocol runs the mutual exclusion protocols of the papers behind
// coterie on any quorum system, in a deterministic discrete-event simulator
// and in an exhaustive explorer of small instances.
//
// # Protocols
//
// Each protocol is its own type behind the [Protocol] interface and is
// registered as a [Spec] (see [Specs]); adding one means one file with the
// type and its Spec, and one line in registry.go.
//
//   - "maekawa": M. Maekawa, "A √N algorithm for mutual exclusion in
//     decentralized systems", ACM TOCS 3(2), 1985, Section 4: REQUEST, LOCKED,
//     FAILED, INQUIRE, RELINQUISH, RELEASE with sequence numbers, as printed.
//     It can deadlock (see [Maekawa]).
//   - "maekawa-fixed": the same with the fix its proof needs: a waiting
//     REQUEST that a preceding one overtakes is told so with FAILED.
//   - "ordered": protocol A of H. Kakugawa, S. Fujita, M. Yamashita, T. Ae,
//     "A deadlock-free distributed mutual exclusion protocol without using
//     time stamp": ask the quorum members one at a time in increasing id,
//     FIFO queue at each member, no timestamps.
//   - "hk": the h-out of-k algorithm of Y. Manabe and N. Tajima,
//     "(h,k)-arbiters for h-out of-k mutual exclusion problem", Section 4
//     and Fig. 1: request(h,p,c), OK, cancel, cancelled, release with
//     Lamport clocks and k permissions per node.
//   - "ricart-agrawala": G. Ricart and A. K. Agrawala, CACM 24(1), 1981, the
//     baseline both papers compare with (2(N−1) messages per entry).
//
// # Which quorum a node uses
//
// Maekawa's node i uses S_i, the quorum it owns ([set.Family.Owners]). The
// general rule, for every protocol and every level of an (h,k)-arbiter:
//
//   - a node that owns exactly one quorum of the level always uses it;
//   - a node that owns several picks one of them uniformly at random for each
//     request (the explorer tries each);
//   - a node that owns none (in particular every node of a file without
//     owners) picks uniformly among all quorums of the level, and in a
//     threshold level ("every w-subset") a uniformly random w-subset.
//
// Every node may request. For the h-out of-k protocol the number of units h
// of a request is drawn uniformly from the levels of the (h,k)-arbiter, or
// from 1..k when it runs on a k-arbiter (one family for every h, as in
// Manabe et al.'s k-arbiter algorithm); the other protocols always ask for
// one unit.
//
// # The simulator
//
// [Simulate] is a discrete-event simulation with a seeded random source
// (math/rand/v2 PCG): message delays come from a [Dist] (exponential with
// mean 1 by default, so times are in mean message delays), channels are FIFO
// between every ordered pair of nodes, local steps take no time and a
// message a node sends itself is handled at once (it is a local step, not a
// network message). The critical section lasts a time drawn from another
// Dist. The workloads are [Light] (one request in the system at a time: the
// next requester, chosen uniformly, asks only when the previous request has
// left and every message has been delivered), [Heavy] (every node asks at
// time 0 and again as soon as it leaves) and [Poisson] (each node asks at
// the given rate; a node that is still busy keeps the request for when it
// leaves).
//
// After every event the simulator checks that the units in use never exceed
// the limit (one, or k for h-out of-k) and, when requests are pending, no
// message is in flight and nobody is inside, reports a deadlock with the
// wait-for cycle. A violation keeps a short trace of the events that led to
// it. Messages are counted as each paper counts them: Maekawa's count leaves
// out the messages a node sends itself, giving 3(K−1) per entry under light
// demand; Kakugawa et al. and Manabe–Tajima count every member of the
// quorum, giving 3|q|.
//
// # The explorer
//
// [Explore] enumerates every delivery order of a small instance (a few
// nodes, a bounded number of requests), breadth first with states
// identified by a 128-bit hash of their canonical encoding, and so proves or
// refutes mutual exclusion, deadlock freedom and termination (no execution
// runs forever), returning the shortest counterexample it finds. It also
// reports "anomalies": steps the printed protocol does not define.
//
// Hashing already merges the orders that lead to the same state; the
// explorer does no partial-order reduction beyond that. The textbook ample
// sets need, for the node whose deliveries are chosen, that no other node
// can send it a message first — and in a quorum system almost every node
// can reach almost every other, so the condition rarely holds. States
// number in the hundreds of thousands for seven nodes and three or four
// requests, a few seconds of work.
//
// # Findings
//
// Run exactly as printed, two of the protocols misbehave, and the tests
// show both with the shortest traces:
//
//   - Maekawa's algorithm deadlocks. A REQUEST that reaches a member locked
//     for a later REQUEST makes it send INQUIRE, not FAILED; if a still more
//     preceding REQUEST then takes the member, the first requester is never
//     told that it lost, defers the INQUIREs it gets for ever, and a cycle
//     of waiting nodes forms. On his Fig. 1(b) (the Fano plane) four
//     requests suffice (18 steps); under heavy demand, where every node asks
//     at once, projective planes of order 3 and more deadlock within the
//     first entries for many seeds (orders 7 and 16 for every seed tried),
//     while the runs that got past the start went on without one (20,000
//     entries each). The proof of Section 6.2 assumes the node at the bottom of
//     the cycle "must receive a FAILED message", which step (2) does not
//     guarantee. (The flaw is known in the literature; here it is found
//     and shown mechanically.)
//   - Manabe and Tajima's Fig. 1 does not reset K when a process leaves,
//     so a "cancel" that crosses the process's "release" is answered with
//     "cancelled", which reaches the member after the release removed the
//     request: Fig. 1 has nothing to update. The simulator reports it and
//     ignores the message (any update would break x ≤ k); nine steps on the
//     triangle show it.
//
// Kakugawa et al.'s protocol A is safe, deadlock free and terminating on
// every instance tried, with exactly 3|q| messages per entry.
package protocol
