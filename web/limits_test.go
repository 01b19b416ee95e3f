package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/web"
)

// TestReportIDsBounded: 10,000 repeated ids, more distinct ids than a
// report holds, and one id twice are refused at once, before anything is
// rendered.
func TestReportIDsBounded(t *testing.T) {
	h := web.New(web.Options{MaxReportIDs: 4})
	id := generate(t, h, "fpp", map[string]string{"order": "2"})["id"].(string)
	id2 := generate(t, h, "grid", map[string]string{"rows": "2", "cols": "2"})["id"].(string)
	for _, tt := range []struct{ ids, want string }{
		{strings.Repeat(id+",", 9999) + id, "10000 systems asked for; a report holds at most 4"},
		{"a,b,c,d,e", "5 systems asked for"},
		{id + "," + id2 + "," + id, "asked for twice"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apiRequest(h, "GET", "/api/report?format=md&ids="+tt.ids, nil))
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), tt.want) || rec.Body.Len() > 200 {
			t.Errorf("ids %.40q…: %d %.200s, want 400 with %q", tt.ids, rec.Code, rec.Body, tt.want)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "GET", "/api/report?ids="+id+","+id2, nil))
	if rec.Code != 200 {
		t.Errorf("two systems: %d", rec.Code)
	}
}

// TestResponseBounded: an answer larger than MaxResponse is refused with
// 422 and its size limit in MB, for an analysis, a stream, a report and a
// download.
func TestResponseBounded(t *testing.T) {
	big := web.New(web.Options{})
	small := web.New(web.Options{MaxResponse: 4 << 10})
	rec, v := post(t, small, "/api/generate", `{"kind":"fpp","params":{"order":"3"}}`)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(v["error"].(string), "more than the explorer's limit of 0.00391 MB") {
		t.Errorf("analysis: %d %v", rec.Code, v)
	}
	rec = httptest.NewRecorder()
	small.ServeHTTP(rec, apiRequest(small, "POST", "/api/generate?stream=1", strings.NewReader(`{"kind":"fpp","params":{"order":"3"}}`)))
	if !strings.Contains(rec.Body.String(), `{"error":"the answer would take`) || strings.Contains(rec.Body.String(), `"result"`) {
		t.Errorf("stream: %s", rec.Body)
	}
	// A report of several systems is larger than the answer on any one
	// of them: with the limit just above the largest answer, the systems
	// are analysed and kept, and their report is refused.
	kinds := []string{`{"kind":"fpp","params":{"order":"2"}}`, `{"kind":"grid","params":{"rows":"2","cols":"3"}}`, `{"kind":"majority","params":{"n":"5"}}`}
	largest := 0
	for _, body := range kinds {
		rec, _ := post(t, big, "/api/generate", body)
		largest = max(largest, rec.Body.Len())
	}
	limited := web.New(web.Options{MaxResponse: int64(largest)})
	var ids []string
	for _, body := range kinds {
		rec, v := post(t, limited, "/api/generate", body)
		if rec.Code != 200 {
			t.Fatalf("%s: %d %v", body, rec.Code, v)
		}
		ids = append(ids, v["id"].(string))
	}
	rec = httptest.NewRecorder()
	limited.ServeHTTP(rec, apiRequest(limited, "GET", "/api/report?ids="+strings.Join(ids, ","), nil))
	var e struct{ Error string }
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || rec.Code != http.StatusUnprocessableEntity || !strings.Contains(e.Error, "the answer would take more than") {
		t.Errorf("report: %d %.300s", rec.Code, rec.Body)
	}
}

// TestUploadMemoryEstimated: a 4 MB upload of a million quorums is
// refused with 413 from its estimated memory, in MB, before it is parsed:
// its last line is malformed, which parsing would have reported.
func TestUploadMemoryEstimated(t *testing.T) {
	h := web.New(web.Options{})
	body := strings.Repeat("1 2\n", 1_000_000-1) + "1 x\n"
	if len(body) > 4<<20 {
		t.Fatalf("%d bytes", len(body))
	}
	rec, v := post(t, h, "/api/upload?name=million.txt", body)
	msg, _ := v["error"].(string)
	want := "million.txt: about 1000000 quorums with 1999999 nodes in all would take about 5859 MB to analyse, more than the explorer's limit of 256 MB (use the command line)"
	if rec.Code != http.StatusRequestEntityTooLarge || msg != want {
		t.Errorf("%d %q, want 413 %q", rec.Code, msg, want)
	}
	// The same file, small enough, is parsed: the malformed line is found.
	rec, v = post(t, h, "/api/upload?name=some.txt", strings.Repeat("1 2\n", 999)+"1 x\n")
	if rec.Code != 400 || !strings.Contains(v["error"].(string), "some.txt:1000: ") {
		t.Errorf("a small file: %d %v", rec.Code, v)
	}
	// A body over the limit is refused in MB.
	rec, v = post(t, h, "/api/upload?name=big.txt", strings.Repeat("x", 5<<20))
	if rec.Code != http.StatusRequestEntityTooLarge || v["error"] != "the file is larger than 4 MB, the explorer's limit (use the command line)" {
		t.Errorf("5 MB: %d %v", rec.Code, v)
	}
}

// TestMarkdownReportEscaped: the Markdown report of an upload whose name,
// kind and labels are HTML gives them escaped.
func TestMarkdownReportEscaped(t *testing.T) {
	h := web.New(web.Options{})
	evil := "<img src=x onerror=alert(1)>"
	body := fmt.Sprintf(`{"format": "coterie/1", "kind": %q, "n": 3, "labels": [%q, "b", "c"], "quorums": [[1, 2], [2, 3], [1, 3]]}`, evil, evil)
	rec, v := post(t, h, "/api/upload?name="+strings.ReplaceAll(evil, " ", "%20")+".json", body)
	if rec.Code != 200 {
		t.Fatalf("upload: %d %v", rec.Code, v)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "GET", "/api/report?format=md&ids="+v["id"].(string), nil))
	md := rec.Body.String()
	if rec.Code != 200 || regexp.MustCompile(`(^|[^\\])<`).MatchString(md) || !strings.Contains(md, "## \\<img src=x onerror=alert(1)\\>.json\n") ||
		!strings.Contains(md, ", kind \\<img src=x onerror=alert(1)\\>\n") {
		t.Errorf("%d:\n%s", rec.Code, md)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "text/markdown; charset=utf-8" {
		t.Errorf("content type %q", ct)
	}
}

// TestConstructionMemoryEstimated: a construction whose analysis would
// take more than MaxMemory is refused with 413 once built, before the
// analysis: the 6^4 cube's 1296 quorums of 671 nodes (about 855 MB; its
// analysis took 37 s and its answer 240 MB), while the 38×38 grid is
// analysed.
func TestConstructionMemoryEstimated(t *testing.T) {
	h := web.New(web.Options{})
	rec, v := post(t, h, "/api/generate", `{"kind":"cube","params":{"a":"6","k":"3"}}`)
	want := "cube a=6 k=3: about 1296 quorums with 869616 nodes in all would take about 854 MB to analyse, more than the explorer's limit of 256 MB (use the command line)"
	if rec.Code != http.StatusRequestEntityTooLarge || v["error"] != want {
		t.Errorf("%d %v, want 413 %q", rec.Code, v, want)
	}
	small := web.New(web.Options{MaxMemory: 100 << 20})
	rec, v = post(t, small, "/api/generate", `{"kind":"grid","params":{"rows":"38","cols":"38"}}`)
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(v["error"].(string), "1444 quorums with 108300 nodes in all would take about 111 MB") {
		t.Errorf("grid 38×38 with 100 MB: %d %v", rec.Code, v)
	}
	generate(t, h, "grid", map[string]string{"rows": "38", "cols": "38"})
}
