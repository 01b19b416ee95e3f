package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// gcFloor is the heap a process reaches before its first garbage
// collection. Most commands end well below it: at the runtime's default a
// small exact computation (the BDD of a cube arbiter, 10 ms) spent a fifth
// of its CPU time on one collection of a 4 MB heap.
const gcFloor = 64 << 20

// gcPolicy holds off the collector until the heap reaches gcFloor, then
// collects as usual (GOGC=100) under the --max-memory soft limit. A
// cleanup on an unreachable sentinel runs after the first collection and
// switches to the usual regime.
var gcPolicy struct {
	mu      sync.Mutex
	delayed bool  // collection is off until the first one at gcFloor
	budget  int64 // the soft memory limit to apply after it (0: none)
}

// delayGC starts the delayed regime, unless GOGC or GOMEMLIMIT set one.
func delayGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcPolicy.mu.Lock()
	defer gcPolicy.mu.Unlock()
	gcPolicy.delayed = true
	debug.SetMemoryLimit(gcFloor)
	debug.SetGCPercent(-1)
	sentinel := new(struct{ _ *int })
	runtime.AddCleanup(sentinel, func(struct{}) { resumeGC() }, struct{}{})
}

// resumeGC ends the delayed regime.
func resumeGC() {
	gcPolicy.mu.Lock()
	defer gcPolicy.mu.Unlock()
	if !gcPolicy.delayed {
		return
	}
	gcPolicy.delayed = false
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(softLimit(gcPolicy.budget))
}

// setMemoryBudget makes budget (0: none) the runtime's soft memory limit,
// now or, in the delayed regime, once the first collection has run.
func setMemoryBudget(budget int64) {
	gcPolicy.mu.Lock()
	defer gcPolicy.mu.Unlock()
	gcPolicy.budget = budget
	switch {
	case gcPolicy.delayed:
		debug.SetMemoryLimit(min(gcFloor, softLimit(budget)))
	case budget > 0:
		debug.SetMemoryLimit(budget)
	}
}

func softLimit(budget int64) int64 {
	if budget <= 0 {
		return math.MaxInt64
	}
	return budget
}

// collectInput drops an input that has been read and, if it is big (past
// gcFloor), collects at once: otherwise the runtime's next goal stays at
// twice the input plus what was built from it, and the command's own work
// fills that before the input's memory is reused.
func collectInput(data *[]byte) {
	big := len(*data) >= gcFloor
	*data = nil
	if big {
		runtime.GC()
	}
}
