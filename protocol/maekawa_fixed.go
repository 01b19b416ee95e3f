package protocol

// Maekawa's step (2) sends FAILED only to a REQUEST that arrives behind a
// preceding one. A REQUEST that arrives first, at a member locked for a later
// REQUEST, causes an INQUIRE instead; if a still more preceding REQUEST then
// arrives and takes the member, the first is never told that it lost, keeps
// deferring INQUIREs from its other members, and three requesters can wait for
// each other for ever (the explorer and the heavy-demand runs on projective
// planes find such cycles; see the tests). The proof of Section 6.2 assumes
// that the node at the bottom of a cycle "must receive a FAILED message",
// which step (2) does not guarantee.
//
// The fixed variant keeps the invariant that the proof needs — every queued
// REQUEST preceded by the locking one or by another queued one has been told
// so — with two changes: when a REQUEST overtakes the most preceding queued
// REQUEST and that one was never sent FAILED, it is sent FAILED now; and a
// node that relinquishes a member counts that member as FAILED (the member
// went to a preceding REQUEST) until it gets LOCKED from it again. Everything
// else is Maekawa's. The extra messages count as FAILED.
var maekawaFixedSpec = Spec{
	Name:    "maekawa-fixed",
	Summary: "Maekawa's algorithm with the deadlock fix: a waiting REQUEST overtaken by a preceding one is sent FAILED",
	Source:  "M. Maekawa, ACM TOCS 3(2), 1985, Section 4, with the fix for the deadlock its step (2) allows",
	Kinds:   maekawaSpec.Kinds,
	New: func(sys *System) (Protocol, error) {
		p, err := newMaekawa(sys)
		if err != nil {
			return nil, err
		}
		p.(*Maekawa).fixed = true
		return p, nil
	},
}
