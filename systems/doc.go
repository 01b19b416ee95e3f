// Package systems reads the configurations of replicated systems people run
// — ZooKeeper, etcd and other Raft systems, Cassandra-style replication,
// MongoDB replica sets, Flexible Paxos — as quorum systems: each
// configuration becomes a [Config] whose read and write rules are
// [quorum.Rule] values deciding, as the software itself decides, whether a
// set of live servers holds a quorum.
package systems
