package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/web"
)

// pathReads is a read-write upload whose reads are the m edges of a path,
// n1*n2 + n2*n3 + …: its writes, the vertex covers, are a product of m
// overlapping sums with 2^m candidate quorums.
func pathReads(m int) string {
	var terms []string
	for i := 1; i <= m; i++ {
		terms = append(terms, fmt.Sprintf("n%d*n%d", i, i+1))
	}
	return `{"reads": "` + strings.Join(terms, " + ") + `"}`
}

// TestCancelledUploadStops: the 1,000-term read-write upload is answered
// within a second of its client going away, and its worker is free again.
func TestCancelledUploadStops(t *testing.T) {
	h := web.New(web.Options{Workers: 1, Timeout: time.Hour, Budget: time.Hour, AvailabilityBudget: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *httptest.ResponseRecorder)
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apiRequest(h, "POST", "/api/upload?name=path.json", strings.NewReader(pathReads(1000))).WithContext(ctx))
		done <- rec
	}()
	time.Sleep(300 * time.Millisecond)
	cancel()
	start := time.Now()
	select {
	case rec := <-done:
		t.Logf("answered %d in %v: %s", rec.Code, time.Since(start), rec.Body)
	case <-time.After(5 * time.Second):
		t.Fatal("still running 5 s after the client left")
	}
}
