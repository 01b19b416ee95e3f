package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/web"
)

// pathReads is a read-write upload whose reads are the m edges of a path,
// n1*n2 + n2*n3 + …: its writes, the vertex covers, are a product of m
// overlapping sums with 2^m candidate quorums, which no budget but the
// request's context stops.
func pathReads(m int) string {
	var terms []string
	for i := 1; i <= m; i++ {
		terms = append(terms, fmt.Sprintf("n%d*n%d", i, i+1))
	}
	return `{"reads": "` + strings.Join(terms, " + ") + `"}`
}

// pathRW is pathReads with its writes given too, (n1 + n2)*(n2 + n3)*…,
// so that no time goes into listing the dual of the reads: the analysis
// reaches its resilience at once, and the write side's listing there
// never ends by itself.
func pathRW(m int) string {
	var terms []string
	for i := 1; i <= m; i++ {
		terms = append(terms, fmt.Sprintf("(n%d + n%d)", i, i+1))
	}
	return strings.TrimSuffix(pathReads(m), "}") + `, "writes": "` + strings.Join(terms, "*") + `"}`
}

// served is h over a real connection; finished receives the time each
// request's handler returns.
func served(t *testing.T, h *web.Server) (url string, finished chan time.Time) {
	finished = make(chan time.Time, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		finished <- time.Now()
	}))
	t.Cleanup(srv.Close)
	return srv.URL, finished
}

// hold starts the 1,000-term read-write upload (pathRW) on the server at url and
// returns once its analysis has reached the listing that never ends (its
// intersection check lists the writes); cancel makes its client go away. The answer's lines are
// sent on lines.
func hold(t *testing.T, h *web.Server, url string) (cancel context.CancelFunc, lines chan string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "POST", url+"/api/upload?stream=1&name=path.json", strings.NewReader(pathRW(1000)))
	req.Header.Set(web.TokenHeader, h.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("upload: %d", resp.StatusCode)
	}
	lines = make(chan string, 64)
	sc := bufio.NewScanner(resp.Body)
	go func() {
		defer resp.Body.Close()
		defer close(lines)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	for line := range lines {
		var msg struct{ Progress, Error string }
		_ = json.Unmarshal([]byte(line), &msg)
		if msg.Error != "" {
			t.Fatalf("upload: %s", line)
		}
		if msg.Progress == "intersection" {
			return cancel, lines
		}
	}
	t.Fatal("the upload ended before its intersection check")
	return nil, nil
}

// TestCancelledUploadStops: the 1,000-term read-write upload is answered
// within a second of its client going away, and its worker is free again
// (Workers 1: the next analysis is served).
func TestCancelledUploadStops(t *testing.T) {
	h := web.New(web.Options{Workers: 1, Timeout: time.Hour, Budget: time.Hour, AvailabilityBudget: time.Hour, QueueWait: time.Hour})
	url, finished := served(t, h)
	cancel, lines := hold(t, h, url)
	// Let it run into the listing before its client leaves.
	time.Sleep(300 * time.Millisecond)
	select {
	case <-finished:
		t.Fatal("the upload finished on its own")
	default:
	}
	cancel()
	left := time.Now()
	select {
	case end := <-finished:
		if d := end.Sub(left); d > time.Second {
			t.Errorf("the work stopped %v after the client left", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the work goes on 10 s after the client left")
	}
	for line := range lines {
		if strings.Contains(line, `"result"`) {
			t.Errorf("a result after cancellation: %.200s", line)
		}
	}
	a := generate(t, h, "fpp", map[string]string{"order": "2"})
	if a["n"] != 7.0 {
		t.Errorf("the next analysis: %v", a)
	}
}

// TestTimeoutStopsUpload: alone, the same upload ends at the request's
// time limit, with a message that says so once.
func TestTimeoutStopsUpload(t *testing.T) {
	h := web.New(web.Options{Timeout: 500 * time.Millisecond, Budget: time.Hour, AvailabilityBudget: time.Hour})
	start := time.Now()
	rec, v := post(t, h, "/api/upload?name=path.json", pathReads(1000))
	// Without the context reaching the listing this ran for many minutes;
	// the bound leaves room for a loaded machine.
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("answered after %v, with a limit of 500 ms", d)
	}
	if rec.Code != http.StatusServiceUnavailable || v["error"] != "the analysis took longer than 500ms, the explorer's limit (use the command line)" {
		t.Errorf("%d %v", rec.Code, v)
	}
}

// TestQueueWait: with the one worker taken, a request waits QueueWait and
// gets 503 with Retry-After; with more waiting than MaxQueue, at once.
func TestQueueWait(t *testing.T) {
	h := web.New(web.Options{Workers: 1, QueueWait: 200 * time.Millisecond, MaxQueue: 1, Timeout: time.Hour, Budget: time.Hour, AvailabilityBudget: time.Hour})
	url, _ := served(t, h)
	cancel, _ := hold(t, h, url)
	defer cancel()
	for _, p := range []string{"/api/generate", "/api/exact/nope", "/api/upload?name=x.txt"} {
		start := time.Now()
		rec, v := post(t, h, p, `{"kind":"fpp","params":{"order":"2"}}`)
		if p == "/api/exact/nope" {
			// An unknown system is answered without a worker.
			if rec.Code != 404 {
				t.Errorf("%s: %d", p, rec.Code)
			}
			continue
		}
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "1" || !strings.Contains(v["error"].(string), "busy") {
			t.Errorf("%s: %d Retry-After %q %v", p, rec.Code, rec.Header().Get("Retry-After"), v)
		}
		if d := time.Since(start); d < 200*time.Millisecond {
			t.Errorf("%s: refused after %v, before QueueWait", p, d)
		}
	}
}

// TestMaxQueue: with the one worker taken and MaxQueue requests waiting,
// another request is refused at once with Retry-After; the waiting one is
// served when the worker comes free.
func TestMaxQueue(t *testing.T) {
	h := web.New(web.Options{Workers: 1, QueueWait: time.Hour, MaxQueue: 1, Timeout: time.Hour, Budget: time.Hour, AvailabilityBudget: time.Hour})
	url, _ := served(t, h)
	cancel, _ := hold(t, h, url)
	waiting := make(chan int)
	go func() {
		for {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, apiRequest(h, "POST", "/api/generate", strings.NewReader(`{"kind":"fpp","params":{"order":"2"}}`)))
			// Refused while a probe below waited: try again.
			if rec.Code != 503 || rec.Header().Get("Retry-After") == "" {
				waiting <- rec.Code
				return
			}
		}
	}()
	// Probe until the request above waits: a probe that waits itself is
	// given up by its client and tried again.
	for try := 0; ; try++ {
		ctx, stop := context.WithTimeout(context.Background(), 50*time.Millisecond)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apiRequest(h, "POST", "/api/generate", strings.NewReader(`{"kind":"fpp","params":{"order":"2"}}`)).WithContext(ctx))
		stop()
		if rec.Code != 503 {
			t.Fatalf("probe: %d %s", rec.Code, rec.Body)
		}
		if rec.Header().Get("Retry-After") != "" {
			if !strings.Contains(rec.Body.String(), "busy") {
				t.Errorf("probe: %s", rec.Body)
			}
			break
		}
		if try == 100 {
			t.Fatal("the waiting request is never counted")
		}
	}
	cancel()
	if code := <-waiting; code != 200 {
		t.Errorf("the waiting request: %d", code)
	}
}

// TestTimeCountsFromWork: a request that waited for the worker gets all
// of Timeout once it has it. Two uploads that never end by themselves,
// the second sent while the first runs: the second ends a whole Timeout
// after the first (counted from the request, it would end with it).
func TestTimeCountsFromWork(t *testing.T) {
	h := web.New(web.Options{Workers: 1, Timeout: time.Second, QueueWait: time.Hour, Budget: time.Hour, AvailabilityBudget: time.Hour})
	url, finished := served(t, h)
	_, lines := hold(t, h, url)
	second := make(chan *httptest.ResponseRecorder)
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apiRequest(h, "POST", "/api/upload?name=path.json", strings.NewReader(pathRW(1000))))
		second <- rec
	}()
	for line := range lines {
		if !strings.Contains(line, "took longer than 1s") && !strings.Contains(line, "progress") {
			t.Errorf("the first upload: %s", line)
		}
	}
	first := <-finished
	rec := <-second
	gap := time.Since(first)
	if rec.Code != 503 || !strings.Contains(rec.Body.String(), "took longer than 1s") {
		t.Errorf("the second upload: %d %s", rec.Code, rec.Body)
	}
	if gap < 700*time.Millisecond {
		t.Errorf("the second upload ended %v after the first: its time counted its wait", gap)
	}
}
