// Package quorum is what every quorum system can do, whatever represents it:
// its nodes, its k, whether a set of live nodes holds a quorum, and its
// minimal quorums as a [set.Family].
//
// A [System] is the typed value a construction, a file or a real system's
// configuration becomes. An explicit list ([Listed]) is one implementation;
// a rule over live nodes ([Rule], such as "a majority of the votes in a
// majority of the groups") is another. Consumers that need the quorums ask
// for them with [System.Family], under a limit and a context; consumers that
// only ask "is there a quorum among these nodes?" never list them.
package quorum
