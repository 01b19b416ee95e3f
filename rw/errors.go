package rw

import "fmt"

// StrategyError reports a strategy that is not one for the system: a node
// outside it, a chosen set that holds no quorum, a negative probability,
// probabilities that do not sum to 1. Msg says what is wrong, so that a
// caller can print it after the name of the strategy's file.
type StrategyError struct{ Msg string }

// Error returns "rw: strategy: MSG".
func (e *StrategyError) Error() string { return "rw: strategy: " + e.Msg }

// WorkloadError reports a workload that cannot be read (see
// [ParseWorkload]); Msg says what is wrong, so that a caller can print it
// after the flag or field it came from.
type WorkloadError struct{ Msg string }

// Error returns "rw: MSG".
func (e *WorkloadError) Error() string { return "rw: " + e.Msg }

// strategyErrorf returns a *StrategyError with Msg formatted as
// [fmt.Sprintf] does.
func strategyErrorf(format string, args ...any) error {
	return &StrategyError{Msg: fmt.Sprintf(format, args...)}
}

// workloadErrorf returns a *WorkloadError with Msg formatted as
// [fmt.Sprintf] does.
func workloadErrorf(format string, args ...any) error {
	return &WorkloadError{Msg: fmt.Sprintf(format, args...)}
}
