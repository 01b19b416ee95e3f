// Package wire holds the JSON shapes of the envelopes that package shard
// reads and writes: the head of every part (coterie-partial/1) and of
// every checkpoint (coterie-checkpoint/1). The library types of shard
// carry no JSON tags; their bytes are these structs'.
package wire
