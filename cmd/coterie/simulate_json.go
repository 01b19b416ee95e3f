package main

import (
	"io"

	"github.com/coterie-dev/coterie/protocol"
)

// The JSON reports of `coterie simulate` and `coterie simulate --explore`
// (docs/formats.md). The protocol package returns plain values; the field
// names, their order and what is omitted when empty are fixed here.

// simReport is the JSON report of one simulation: a protocol on a file.
type simReport struct {
	File     string `json:"file"`
	Protocol string `json:"protocol"`
	Load     string `json:"load"`
	Entries  int    `json:"entries"`
	Seed     uint64 `json:"seed"`
	N        int    `json:"n"`
	K        int    `json:"k"`
	Delay    string `json:"delay"`
	CS       string `json:"cs"`

	MessagesPerEntry float64            `json:"messages_per_entry"`
	ByType           map[string]float64 `json:"by_type"`
	Messages         int64              `json:"messages"`
	SelfMessages     int64              `json:"self_messages"`

	SafetyViolations int             `json:"safety_violations"`
	Violation        *violationJSON  `json:"violation,omitempty"`
	Deadlock         bool            `json:"deadlock"`
	DeadlockInfo     *deadlockJSON   `json:"deadlock_info,omitempty"`
	Anomalies        int             `json:"anomalies"`
	AnomalyExamples  []string        `json:"anomaly_examples,omitempty"`
	MaxWait          float64         `json:"max_wait"`
	MeanWait         float64         `json:"mean_wait"`
	P50Wait          float64         `json:"p50_wait"`
	P90Wait          float64         `json:"p90_wait"`
	P99Wait          float64         `json:"p99_wait"`
	Throughput       float64         `json:"throughput"`
	Time             float64         `json:"time"`
	Paper            expectationJSON `json:"paper"`
	MeanQuorum       float64         `json:"mean_quorum"`
	MeanRemote       float64         `json:"mean_remote"`
	MeanUnits        float64         `json:"mean_units"`
}

// expectationJSON is a paper's message count per entry.
type expectationJSON struct {
	Formula string  `json:"formula"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	Source  string  `json:"source"`
}

// violationJSON is the first moment too many units were in use.
type violationJSON struct {
	Time   float64     `json:"time"`
	Inside []int       `json:"inside"`
	Units  int         `json:"units"`
	Limit  int         `json:"limit"`
	Trace  []traceJSON `json:"trace"`
}

// deadlockJSON is a state where nobody can move.
type deadlockJSON struct {
	Time    float64     `json:"time"`
	Waiting []int       `json:"waiting"`
	Cycle   []int       `json:"cycle,omitempty"`
	Via     []int       `json:"via,omitempty"`
	Free    [][2]int    `json:"free,omitempty"`
	Trace   []traceJSON `json:"trace"`
}

// traceJSON is one event of a trace, with 1-based nodes.
type traceJSON struct {
	Time   float64 `json:"time,omitempty"`
	Step   int     `json:"step,omitempty"`
	Sub    bool    `json:"sub,omitempty"`
	Event  string  `json:"event"`
	From   int     `json:"from,omitempty"`
	To     int     `json:"to,omitempty"`
	Node   int     `json:"node,omitempty"`
	Kind   string  `json:"kind,omitempty"`
	Stamp  int64   `json:"stamp,omitempty"`
	H      int     `json:"h,omitempty"`
	Quorum []int   `json:"quorum,omitempty"`
}

// exploreReport is the JSON report of one exploration.
type exploreReport struct {
	File         string              `json:"file"`
	Protocol     string              `json:"protocol"`
	N            int                 `json:"n"`
	K            int                 `json:"k"`
	Requests     int                 `json:"requests"`
	Rounds       int                 `json:"rounds"`
	States       int                 `json:"states"`
	Transitions  int                 `json:"transitions"`
	Depth        int                 `json:"depth"`
	Complete     bool                `json:"complete"`
	Stopped      string              `json:"stopped,omitempty"`
	Safe         bool                `json:"safe"`
	DeadlockFree bool                `json:"deadlock_free"`
	Terminates   *bool               `json:"terminates,omitempty"`
	AnomalyFree  bool                `json:"anomaly_free"`
	Violation    *counterexampleJSON `json:"violation,omitempty"`
	Deadlock     *counterexampleJSON `json:"deadlock,omitempty"`
	Livelock     *counterexampleJSON `json:"livelock,omitempty"`
	Anomaly      *counterexampleJSON `json:"anomaly,omitempty"`
}

// counterexampleJSON is a shortest path to a bad state.
type counterexampleJSON struct {
	What  string      `json:"what"`
	Steps []traceJSON `json:"steps"`
	Loop  int         `json:"loop,omitempty"`
	Cycle []int       `json:"cycle,omitempty"`
	Via   []int       `json:"via,omitempty"`
}

// writeSimJSON writes the report of one run as an object, of several as an
// array.
func writeSimJSON(w io.Writer, runs []simRun) error {
	out := make([]simReport, len(runs))
	for i, r := range runs {
		out[i] = newSimReport(r.file, r.res)
	}
	if len(out) == 1 {
		return writeJSON(w, out[0])
	}
	return writeJSON(w, out)
}

// writeExploreJSON writes the verdict of one exploration as an object, of
// several as an array (null for none).
func writeExploreJSON(w io.Writer, runs []exploreRun) error {
	if len(runs) == 1 {
		return writeJSON(w, newExploreReport(runs[0].file, runs[0].res))
	}
	var out []exploreReport
	for _, r := range runs {
		out = append(out, newExploreReport(r.file, r.res))
	}
	return writeJSON(w, out)
}

func newSimReport(file string, r *protocol.Result) simReport {
	return simReport{
		File: file, Protocol: r.Protocol, Load: r.Load, Entries: r.Entries, Seed: r.Seed,
		N: r.N, K: r.K, Delay: r.Delay, CS: r.CS,
		MessagesPerEntry: r.MessagesPerEntry, ByType: r.ByType, Messages: r.Messages, SelfMessages: r.SelfMessages,
		SafetyViolations: r.SafetyViolations, Violation: newViolationJSON(r.Violation),
		Deadlock: r.Deadlock, DeadlockInfo: newDeadlockJSON(r.DeadlockInfo),
		Anomalies: r.Anomalies, AnomalyExamples: r.AnomalyExamples,
		MaxWait: r.MaxWait, MeanWait: r.MeanWait, P50Wait: r.P50Wait, P90Wait: r.P90Wait, P99Wait: r.P99Wait,
		Throughput: r.Throughput, Time: r.Time,
		Paper:      expectationJSON{Formula: r.Paper.Formula, Low: r.Paper.Low, High: r.Paper.High, Source: r.Paper.Source},
		MeanQuorum: r.MeanQuorum, MeanRemote: r.MeanRemote, MeanUnits: r.MeanUnits,
	}
}

func newViolationJSON(v *protocol.Violation) *violationJSON {
	if v == nil {
		return nil
	}
	return &violationJSON{Time: v.Time, Inside: v.Inside, Units: v.Units, Limit: v.Limit, Trace: newTraceJSON(v.Trace)}
}

func newDeadlockJSON(d *protocol.Deadlock) *deadlockJSON {
	if d == nil {
		return nil
	}
	return &deadlockJSON{Time: d.Time, Waiting: d.Waiting, Cycle: d.Cycle, Via: d.Via, Free: d.Free,
		Trace: newTraceJSON(d.Trace)}
}

// newTraceJSON keeps nil as nil (JSON null), like the slice it copies.
func newTraceJSON(tr []protocol.TraceEvent) []traceJSON {
	if tr == nil {
		return nil
	}
	out := make([]traceJSON, len(tr))
	for i, e := range tr {
		out[i] = traceJSON{Time: e.Time, Step: e.Step, Sub: e.Sub, Event: e.Event, From: e.From, To: e.To,
			Node: e.Node, Kind: e.Kind, Stamp: e.Stamp, H: e.H, Quorum: e.Quorum}
	}
	return out
}

func newExploreReport(file string, r *protocol.ExploreResult) exploreReport {
	return exploreReport{
		File: file, Protocol: r.Protocol, N: r.N, K: r.K, Requests: r.Requests, Rounds: r.Rounds,
		States: r.States, Transitions: r.Transitions, Depth: r.Depth, Complete: r.Complete, Stopped: r.Stopped,
		Safe: r.Safe, DeadlockFree: r.DeadlockFree, Terminates: r.Terminates, AnomalyFree: r.AnomalyFree,
		Violation: newCounterexampleJSON(r.Violation), Deadlock: newCounterexampleJSON(r.Deadlock),
		Livelock: newCounterexampleJSON(r.Livelock), Anomaly: newCounterexampleJSON(r.Anomaly),
	}
}

func newCounterexampleJSON(c *protocol.Counterexample) *counterexampleJSON {
	if c == nil {
		return nil
	}
	return &counterexampleJSON{What: c.What, Steps: newTraceJSON(c.Steps), Loop: c.Loop, Cycle: c.Cycle, Via: c.Via}
}
