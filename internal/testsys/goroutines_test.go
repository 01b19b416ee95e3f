package testsys

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// spin is a function of this package a goroutine can be caught in.
func spin(stop <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	<-stop
}

// TestComputing starts two goroutines from the test: one that sits in
// spin, and one that waits in package io (only its "created by" line
// names this package). On the real stacks of the process, Computing finds
// the first in spin, and finds no goroutine but the test's own in
// TestComputing: the two it created show it only after "created by".
func TestComputing(t *testing.T) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go spin(stop, &wg)
	pr, pw := io.Pipe()
	go io.Copy(io.Discard, pr)
	defer func() {
		close(stop)
		pw.Close()
		wg.Wait()
	}()

	const creator = "created by github.com/coterie-dev/coterie/internal/testsys.TestComputing"
	var got []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		got = Computing("internal/testsys.spin")
		if len(got) > 0 && strings.Count(allStacks(), creator) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the goroutines did not start:\n%s", allStacks())
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "testsys.spin(") {
		t.Fatalf("Computing found %d goroutines in spin, want 1:\n%s", len(got), strings.Join(got, "\n\n"))
	}
	if own := Computing("internal/testsys.TestComputing"); len(own) != 1 {
		t.Errorf("Computing(TestComputing) found %d goroutines, want only the test's own:\n%s", len(own), strings.Join(own, "\n\n"))
	}
	// The scan the helper replaces, on whole stacks, counts all three.
	whole := 0
	for _, g := range strings.Split(allStacks(), "\n\n") {
		if strings.Contains(g, "internal/testsys.TestComputing") {
			whole++
		}
	}
	if whole < 3 {
		t.Errorf("whole stacks name TestComputing %d times, want 3: the test no longer tells the two scans apart", whole)
	}
}
