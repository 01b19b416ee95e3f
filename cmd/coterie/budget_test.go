package main

import (
	"testing"
)

// The default budget is half the machine's memory within its bounds, and
// never below what the commands need to start.
func TestDefaultMaxMemory(t *testing.T) {
	got := defaultMaxMemory()
	if got < minMemory || got > maxDefaultMemory {
		t.Fatalf("default budget %d outside %d..%d", got, minMemory, maxDefaultMemory)
	}
	if total := memTotal(); total > 0 && got > total/2 && got != minMemory {
		t.Errorf("default budget %d is more than half of MemTotal %d", got, total)
	}
}
