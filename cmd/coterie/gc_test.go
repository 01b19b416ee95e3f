package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The delayed regime keeps the collector off below gcFloor, holds the
// --max-memory budget back until the first collection, and then restores
// GOGC=100 with the budget as the soft limit.
func TestDelayedGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	oldPercent := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
		gcPolicy.delayed = false
	})

	delayGC()
	setMemoryBudget(1 << 30)
	if got := debug.SetMemoryLimit(-1); got != gcFloor {
		t.Fatalf("soft limit %d while delayed, want gcFloor %d", got, gcFloor)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GOGC %d while delayed, want off (-1)", got)
	}

	// The first collection ends the delay; its cleanup runs on another
	// goroutine, so wait for it (a second is far more than it needs).
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for {
		gcPolicy.mu.Lock()
		delayed := gcPolicy.delayed
		gcPolicy.mu.Unlock()
		if !delayed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first collection did not end the delayed regime")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("soft limit %d after the first collection, want the budget %d", got, 1<<30)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC %d after the first collection, want 100", got)
	}
	// Later budgets apply at once.
	setMemoryBudget(512 << 20)
	if got := debug.SetMemoryLimit(-1); got != 512<<20 {
		t.Errorf("soft limit %d, want 512 MiB", got)
	}
}

// A user's GOGC or GOMEMLIMIT is left alone.
func TestDelayedGCRespectsEnvironment(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, "200")
			oldLimit := debug.SetMemoryLimit(-1)
			delayGC()
			gcPolicy.mu.Lock()
			delayed := gcPolicy.delayed
			gcPolicy.mu.Unlock()
			if delayed || debug.SetMemoryLimit(-1) != oldLimit {
				t.Errorf("with %s set the collector's settings changed", env)
			}
		})
	}
}
