// Package jsonreport holds the JSON reports of coterie's commands as Go
// types: the shape each command writes with --json (field names, order and
// omissions as docs/formats.md and the command's help describe them), and
// the conversion from the libraries' typed results to that shape.
//
// A Go program reads a command's output by unmarshalling it into the type
// of that command's report, and writes one as the command does by building
// the type from the library's result and marshalling it. The libraries
// themselves carry no JSON tags: their results are Go values, and this
// package is where their encoding is decided.
//
// The reports, by command:
//
//   - info: [Info] ([FromInfo] of an analysis.System); on a read-write
//     system [RWInfo] ([FromRWInfo]); on an implicit family too large to
//     list [ImplicitInfo] ([NewImplicitInfo]).
//   - compare: [Compare] ([CompareRows]); of read-write systems
//     [RWCompare] ([FromRWCompare]).
//   - verify: [Verify] ([FromVerify] of a verify.Report); on a read-write
//     system [RWVerify] ([FromRWVerify]); --patterns [Patterns].
//   - availability: [AvailabilityFamily] or, for an (h,k)-arbiter,
//     [AvailabilityHK] ([FromAvailability]); on a read-write system
//     [RWAvailability] ([FromRWAvailability]).
//   - check-config: [CheckConfig] ([FromCheckConfig] of an
//     analysis.Config).
//   - domination: [Domination] ([NewDomination] of a domination.Result),
//     written on one line; on a read-write system [RWDomination].
//   - transversals --count: [TransversalCount] ([NewTransversalCount]).
//   - simulate: [Simulation] ([NewSimulation] of a protocol.Result);
//     --explore [Exploration] ([NewExploration]).
//   - search: [Search], its systems [SearchCandidate]
//     ([NewSearchCandidate] of an rw.Candidate).
//   - generate --list: [GenerateKind] ([NewGenerateKind] of a
//     construct.Spec).
//   - strategy: the strategy file [Strategy] ([StrategyFile]), which
//     [Strategy.RW] reads back.
//
// Counts beyond 2^53 are decimal strings ([Number]); exact figures shown as
// floats keep the same rule ([Real]).
package jsonreport
