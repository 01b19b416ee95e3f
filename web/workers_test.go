package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/web"
)

// computing returns the stacks of the goroutines in a call of one of fns
// (see testsys.Computing).
func computing(fns ...string) []string { return testsys.Computing(fns...) }

// waitComputing waits until some goroutine calls fn (see computing); it
// fails the test if none does within a minute (the work under test lasts
// far longer when left alone).
func waitComputing(t *testing.T, fn string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for len(computing(fn)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no goroutine in %s after a minute", fn)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWorkerFreedWhenWorkReturns: with one worker, a request whose
// client goes away in the middle of its work frees the worker only once
// that work has returned. The next request takes the worker (the hook
// runs then, before its own work starts) and finds no goroutine left in
// the packages that compute: the worker limit bounds the CPU, not only
// the requests. Two kinds of work: a construction that lists a million
// quorums (the wall of twenty rows of 2), and the exact availability of
// PG(2,8), whose plane sweep takes hours, under an availability budget
// of an hour.
func TestWorkerFreedWhenWorkReturns(t *testing.T) {
	work := []string{"construct.", "availability.", "measure.", "domination.", "verify.", "report.", "set."}
	for _, tt := range []struct {
		name   string
		body   string
		stream bool   // read the stream up to the progress stage
		stage  string // the stage after which the work runs
		fn     string // a function the work runs in (see computing)
	}{
		{"construction", `{"kind":"wall","params":{"widths":"2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2"}}`, false, "", "construct.collect"},
		{"availability", `{"kind":"fpp","params":{"order":"8"}}`, true, "availability", "availability.planePolynomial"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := web.New(web.Options{Workers: 1, Timeout: time.Hour, QueueWait: time.Hour,
				Budget: 50 * time.Millisecond, AvailabilityBudget: time.Hour})
			left := make(chan []string, 4)
			web.SetAcquireHook(func() { left <- computing(work...) })
			t.Cleanup(func() { web.SetAcquireHook(nil) })
			url, finished := served(t, h)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			path := "/api/generate"
			if tt.stream {
				path += "?stream=1"
			}
			req, _ := http.NewRequestWithContext(ctx, "POST", url+path, strings.NewReader(tt.body))
			req.Header.Set(web.TokenHeader, h.Token())
			answered := make(chan *http.Response, 1)
			go func() {
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					answered <- nil
					return
				}
				answered <- resp
			}()
			<-left // the first request takes the worker
			if tt.stream {
				resp := <-answered
				if resp == nil || resp.StatusCode != 200 {
					t.Fatalf("the first request: %v", resp)
				}
				defer resp.Body.Close()
				sc := bufio.NewScanner(resp.Body)
				for sc.Scan() {
					var msg struct{ Progress, Error string }
					_ = json.Unmarshal(sc.Bytes(), &msg)
					if msg.Error != "" || strings.Contains(sc.Text(), `"result"`) {
						t.Fatalf("the first request ended: %.200s", sc.Text())
					}
					if msg.Progress == tt.stage {
						break
					}
				}
			}
			waitComputing(t, tt.fn)
			cancel()

			next := make(chan int, 1)
			go func() {
				rec, _ := post(t, h, "/api/generate", `{"kind":"fpp","params":{"order":"2"}}`)
				next <- rec.Code
			}()
			if stacks := <-left; len(stacks) > 0 {
				t.Errorf("the worker came free with %d goroutines still computing, the first:\n%s", len(stacks), stacks[0])
			}
			if code := <-next; code != 200 {
				t.Errorf("the next request: %d", code)
			}
			<-finished
		})
	}
}
