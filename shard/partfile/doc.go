// Package partfile is the JSON of the files of split and resumable runs
// of the coterie command: the results and options inside a part
// (coterie-partial/1, see package shard) of each kind — "availability",
// "transversals", "smallest", "explore" — and the checkpoints
// (coterie-checkpoint/1) of each. The libraries compute, check and merge
// typed values (availability.Share, domination.PieceCount,
// domination.SmallestPart, protocol.ExplorePart) and carry no JSON tags;
// this package turns them into bytes and back, exactly as the command has
// always written them, so that parts written by earlier versions still
// merge. A Go program uses it to write parts that `coterie merge` reads,
// or to read the command's parts and checkpoints (see the example).
package partfile
