package main

import (
	"bytes"
	"testing"
	"time"
)

// TestProgressAfterDone checks that updates arriving after Done, from work
// that was abandoned, draw nothing.
func TestProgressAfterDone(t *testing.T) {
	var errb bytes.Buffer
	s := &streams{err: &errb, errTerminal: true}
	p := newProgress(s, "test")
	p.start = time.Now().Add(-time.Hour) // past the one-second quiet start
	p.Update(1, 10)
	if p.bar == nil {
		t.Fatal("an update on a terminal after the quiet start draws a bar")
	}
	p.Done()
	n := errb.Len()
	p.Update(2, 10)
	if p.bar != nil || errb.Len() != n {
		t.Errorf("an update after Done drew: %q", errb.String()[n:])
	}
}
