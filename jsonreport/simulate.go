package jsonreport

import "github.com/coterie-dev/coterie/protocol"

// The JSON reports of `coterie simulate` and `coterie simulate --explore`
// (docs/formats.md). Package protocol returns plain values; the field
// names, their order and what is omitted when empty are fixed here.

// Simulation is the JSON report of one simulation: a protocol on a file.
type Simulation struct {
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

	SafetyViolations int                   `json:"safety_violations"`
	Violation        *SimulationViolation  `json:"violation,omitempty"`
	Deadlock         bool                  `json:"deadlock"`
	DeadlockInfo     *SimulationDeadlock   `json:"deadlock_info,omitempty"`
	Anomalies        int                   `json:"anomalies"`
	AnomalyExamples  []string              `json:"anomaly_examples,omitempty"`
	MaxWait          float64               `json:"max_wait"`
	MeanWait         float64               `json:"mean_wait"`
	P50Wait          float64               `json:"p50_wait"`
	P90Wait          float64               `json:"p90_wait"`
	P99Wait          float64               `json:"p99_wait"`
	Throughput       float64               `json:"throughput"`
	Time             float64               `json:"time"`
	Paper            SimulationExpectation `json:"paper"`
	MeanQuorum       float64               `json:"mean_quorum"`
	MeanRemote       float64               `json:"mean_remote"`
	MeanUnits        float64               `json:"mean_units"`
}

// SimulationExpectation is a paper's message count per entry.
type SimulationExpectation struct {
	Formula string  `json:"formula"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	Source  string  `json:"source"`
}

// SimulationViolation is the first moment too many units were in use.
type SimulationViolation struct {
	Time   float64           `json:"time"`
	Inside []int             `json:"inside"`
	Units  int               `json:"units"`
	Limit  int               `json:"limit"`
	Trace  []SimulationEvent `json:"trace"`
}

// SimulationDeadlock is a state where nobody can move.
type SimulationDeadlock struct {
	Time    float64           `json:"time"`
	Waiting []int             `json:"waiting"`
	Cycle   []int             `json:"cycle,omitempty"`
	Via     []int             `json:"via,omitempty"`
	Free    [][2]int          `json:"free,omitempty"`
	Trace   []SimulationEvent `json:"trace"`
}

// SimulationEvent is one event of a trace, with 1-based nodes.
type SimulationEvent struct {
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

// Exploration is the JSON report of one exploration.
type Exploration struct {
	File         string                     `json:"file"`
	Protocol     string                     `json:"protocol"`
	N            int                        `json:"n"`
	K            int                        `json:"k"`
	Requests     int                        `json:"requests"`
	Rounds       int                        `json:"rounds"`
	States       int                        `json:"states"`
	Transitions  int                        `json:"transitions"`
	Depth        int                        `json:"depth"`
	Complete     bool                       `json:"complete"`
	Stopped      string                     `json:"stopped,omitempty"`
	Safe         bool                       `json:"safe"`
	DeadlockFree bool                       `json:"deadlock_free"`
	Terminates   *bool                      `json:"terminates,omitempty"`
	AnomalyFree  bool                       `json:"anomaly_free"`
	Violation    *ExplorationCounterexample `json:"violation,omitempty"`
	Deadlock     *ExplorationCounterexample `json:"deadlock,omitempty"`
	Livelock     *ExplorationCounterexample `json:"livelock,omitempty"`
	Anomaly      *ExplorationCounterexample `json:"anomaly,omitempty"`
}

// ExplorationCounterexample is a shortest path to a bad state.
type ExplorationCounterexample struct {
	What  string            `json:"what"`
	Steps []SimulationEvent `json:"steps"`
	Loop  int               `json:"loop,omitempty"`
	Cycle []int             `json:"cycle,omitempty"`
	Via   []int             `json:"via,omitempty"`
}

// NewSimulation is the report of r, a simulation of the system in file.
func NewSimulation(file string, r *protocol.Result) Simulation {
	return Simulation{
		File: file, Protocol: r.Protocol, Load: r.Load, Entries: r.Entries, Seed: r.Seed,
		N: r.N, K: r.K, Delay: r.Delay, CS: r.CS,
		MessagesPerEntry: r.MessagesPerEntry, ByType: r.ByType, Messages: r.Messages, SelfMessages: r.SelfMessages,
		SafetyViolations: r.SafetyViolations, Violation: newSimulationViolation(r.Violation),
		Deadlock: r.Deadlock, DeadlockInfo: newSimulationDeadlock(r.DeadlockInfo),
		Anomalies: r.Anomalies, AnomalyExamples: r.AnomalyExamples,
		MaxWait: r.MaxWait, MeanWait: r.MeanWait, P50Wait: r.P50Wait, P90Wait: r.P90Wait, P99Wait: r.P99Wait,
		Throughput: r.Throughput, Time: r.Time,
		Paper:      SimulationExpectation{Formula: r.Paper.Formula, Low: r.Paper.Low, High: r.Paper.High, Source: r.Paper.Source},
		MeanQuorum: r.MeanQuorum, MeanRemote: r.MeanRemote, MeanUnits: r.MeanUnits,
	}
}

func newSimulationViolation(v *protocol.Violation) *SimulationViolation {
	if v == nil {
		return nil
	}
	return &SimulationViolation{Time: v.Time, Inside: v.Inside, Units: v.Units, Limit: v.Limit, Trace: newSimulationTrace(v.Trace)}
}

func newSimulationDeadlock(d *protocol.Deadlock) *SimulationDeadlock {
	if d == nil {
		return nil
	}
	return &SimulationDeadlock{Time: d.Time, Waiting: d.Waiting, Cycle: d.Cycle, Via: d.Via, Free: d.Free,
		Trace: newSimulationTrace(d.Trace)}
}

// newSimulationTrace keeps nil as nil (JSON null), like the slice it copies.
func newSimulationTrace(tr []protocol.TraceEvent) []SimulationEvent {
	if tr == nil {
		return nil
	}
	out := make([]SimulationEvent, len(tr))
	for i, e := range tr {
		out[i] = SimulationEvent{Time: e.Time, Step: e.Step, Sub: e.Sub, Event: e.Event, From: e.From, To: e.To,
			Node: e.Node, Kind: e.Kind, Stamp: e.Stamp, H: e.H, Quorum: e.Quorum}
	}
	return out
}

// NewExploration is the report of r, an exploration of the system in file.
func NewExploration(file string, r *protocol.ExploreResult) Exploration {
	return Exploration{
		File: file, Protocol: r.Protocol, N: r.N, K: r.K, Requests: r.Requests, Rounds: r.Rounds,
		States: r.States, Transitions: r.Transitions, Depth: r.Depth, Complete: r.Complete, Stopped: r.Stopped,
		Safe: r.Safe, DeadlockFree: r.DeadlockFree, Terminates: r.Terminates, AnomalyFree: r.AnomalyFree,
		Violation: newExplorationCounterexample(r.Violation), Deadlock: newExplorationCounterexample(r.Deadlock),
		Livelock: newExplorationCounterexample(r.Livelock), Anomaly: newExplorationCounterexample(r.Anomaly),
	}
}

func newExplorationCounterexample(c *protocol.Counterexample) *ExplorationCounterexample {
	if c == nil {
		return nil
	}
	return &ExplorationCounterexample{What: c.What, Steps: newSimulationTrace(c.Steps), Loop: c.Loop, Cycle: c.Cycle, Via: c.Via}
}
