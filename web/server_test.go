package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/web"
)

func post(t testing.TB, h *web.Server, url, body string) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "POST", url, strings.NewReader(body)))
	var v map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("%s: not JSON: %v: %s", url, err, rec.Body.String())
	}
	return rec, v
}

func generate(t testing.TB, h *web.Server, kind string, params map[string]string) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"kind": kind, "params": params})
	rec, v := post(t, h, "/api/generate", string(body))
	if rec.Code != 200 {
		t.Fatalf("generate %s %v: %d %v", kind, params, rec.Code, v)
	}
	return v
}

// TestGenerateAndDownload: PG(2,3) is valid as a coterie; its JSON
// download reads back as the same 13 lines.
func TestGenerateAndDownload(t *testing.T) {
	h := web.New(web.Options{})
	a := generate(t, h, "fpp", map[string]string{"order": "3"})
	if v := a["verdict"].(string); !strings.HasPrefix(v, "valid as a coterie (n = 13, 13 quorums)") {
		t.Errorf("verdict %q", v)
	}
	if !strings.Contains(a["drawing"].(string), `data-node="13"`) {
		t.Error("the drawing has no node 13")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "GET", "/api/system/"+a["id"].(string)+"?format=json", nil))
	if rec.Code != 200 {
		t.Fatalf("download: %d %s", rec.Code, rec.Body)
	}
	sys, err := format.ReadBytes(rec.Body.Bytes(), format.JSON, format.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	qs := a["quorums"].([]any)
	if sys.N() != 13 || len(sys.Family.Quorums) != 13 || len(qs) != 13 {
		t.Fatalf("downloaded n = %d with %d quorums", sys.N(), len(sys.Family.Quorums))
	}
	for i, q := range qs {
		want := set.New(13)
		for _, v := range q.([]any) {
			want.Add(int(v.(float64)) - 1)
		}
		if !set.Equal(want, &sys.Family.Quorums[i]) {
			t.Errorf("quorum %d: page %v, download %v", i+1, q, sys.Family.Quorums[i].Elements())
		}
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "GET", "/api/report?ids="+a["id"].(string), nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "valid as a coterie") {
		t.Errorf("report: %d", rec.Code)
	}
}

// TestOversized: a body over the limit gets 413 and is not read further.
func TestOversized(t *testing.T) {
	h := web.New(web.Options{MaxBody: 1024})
	big := strings.Repeat("1 2 3\n", 1000)
	rec, v := post(t, h, "/api/upload?name=big.txt", big)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d (%v), want 413", rec.Code, v)
	}
	rec, _ = post(t, h, "/api/generate", `{"kind":"fpp","params":{"order":"`+strings.Repeat("1", 2000)+`"}}`)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("generate: status %d, want 413", rec.Code)
	}
}

// TestBadInput: malformed files and parameters get 400 and a message.
func TestBadInput(t *testing.T) {
	h := web.New(web.Options{MaxNodes: 1000})
	for _, tt := range []struct{ url, body, want string }{
		{"/api/upload?name=bad.txt", "1 2\n1 x\n", "bad.txt:2: "},
		{"/api/upload?name=bad.json", `{"format": "coterie/1", "n": 3, "quorums": [[1, 4]]}`, "bad.json"},
		{"/api/generate", `{"kind":"fpp","params":{"order":"6"}}`, "prime power"},
		{"/api/generate", `{"kind":"fpp","params":{"order":"101"}}`, "explorer's limit"},
		{"/api/generate", `{"kind":"grid","params":{"rows":"100","cols":"100"}}`, "100 × 100 is more than 1000 nodes"},
		{"/api/generate", `{"kind":"nope","params":{}}`, `no construction "nope"`},
		{"/api/generate", `{"kind":"fpp","params":{"order":"x"}}`, "want an integer"},
		{"/api/generate", `not json`, "malformed request"},
	} {
		rec, v := post(t, h, tt.url, tt.body)
		msg, _ := v["error"].(string)
		if rec.Code != 400 || !strings.Contains(msg, tt.want) {
			t.Errorf("%s %q: %d %q, want 400 with %q", tt.url, tt.body, rec.Code, msg, tt.want)
		}
	}
}

// TestConcurrent: many requests at once each get their own right answer.
func TestConcurrent(t *testing.T) {
	h := web.New(web.Options{Workers: 2})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows := 2 + i%4
			body := fmt.Sprintf(`{"kind":"grid","params":{"rows":"%d","cols":"3"}}`, rows)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, apiRequest(h, "POST", "/api/generate", strings.NewReader(body)))
			var a struct {
				N       int    `json:"n"`
				Verdict string `json:"verdict"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil || rec.Code != 200 {
				errs <- fmt.Errorf("request %d: %d %s", i, rec.Code, rec.Body)
				return
			}
			if a.N != rows*3 || !strings.HasPrefix(a.Verdict, "valid as a coterie") {
				errs <- fmt.Errorf("request %d: n = %d, %q; want n = %d", i, a.N, a.Verdict, rows*3)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCancelled: a request whose client has gone away does no analysis:
// 503, and nothing is kept to download.
func TestCancelled(t *testing.T) {
	h := web.New(web.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := apiRequest(h, "POST", "/api/generate", strings.NewReader(`{"kind":"fpp","params":{"order":"2"}}`)).WithContext(ctx)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "cancel") {
		t.Errorf("status %d %s, want 503 cancelled", rec.Code, rec.Body)
	}
	// The same system analysed now gets an id; the cancelled request
	// must not have stored it before.
	a := generate(t, h, "fpp", map[string]string{"order": "2"})
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "GET", "/api/system/"+a["id"].(string), nil))
	if rec.Code != 200 {
		t.Errorf("download after analysis: %d", rec.Code)
	}
}

// TestStatic: the page and its assets are served, with no external URL.
func TestStatic(t *testing.T) {
	h := web.New(web.Options{})
	for _, p := range []string{"/", "/app.js", "/app.css"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apiRequest(h, "GET", p, nil))
		if rec.Code != 200 || rec.Body.Len() == 0 {
			t.Errorf("%s: %d", p, rec.Code)
		}
		if bytes.Contains(rec.Body.Bytes(), []byte("http://")) || bytes.Contains(rec.Body.Bytes(), []byte("https://")) {
			t.Errorf("%s refers to another site", p)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "GET", "/api/system/nope", nil))
	if rec.Code != 404 {
		t.Errorf("unknown system: %d", rec.Code)
	}
}

// BenchmarkGeneratePG7 is the explorer's answer to a construction change
// to PG(2,7): build, verify, measure, decide domination, availability,
// drawing, JSON.
func BenchmarkGeneratePG7(b *testing.B) {
	h := web.New(web.Options{})
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apiRequest(h, "POST", "/api/generate", strings.NewReader(`{"kind":"fpp","params":{"order":"7"}}`)))
		if rec.Code != 200 {
			b.Fatal(rec.Body.String())
		}
	}
}

// TestStream: with ?stream=1 the answer is the stages of the analysis, in
// order, then the result.
func TestStream(t *testing.T) {
	h := web.New(web.Options{})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "POST", "/api/generate?stream=1", strings.NewReader(`{"kind":"fpp","params":{"order":"2"}}`)))
	if ct := rec.Header().Get("Content-Type"); ct != "application/x-ndjson" {
		t.Fatalf("content type %q", ct)
	}
	var stages []string
	var result map[string]any
	dec := json.NewDecoder(rec.Body)
	for dec.More() {
		var msg struct {
			Progress string
			Result   map[string]any
			Error    string
		}
		if err := dec.Decode(&msg); err != nil {
			t.Fatal(err)
		}
		switch {
		case msg.Progress != "":
			stages = append(stages, msg.Progress)
		case msg.Result != nil:
			result = msg.Result
		default:
			t.Fatalf("error %q", msg.Error)
		}
	}
	want := []string{"drawing", "verify", "load", "resilience", "domination", "availability", "availability points"}
	if fmt.Sprint(stages) != fmt.Sprint(want) {
		t.Errorf("stages %q, want %q", stages, want)
	}
	if result == nil || !strings.HasPrefix(result["verdict"].(string), "valid as a coterie") {
		t.Errorf("result %v", result)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "POST", "/api/upload?stream=1&name=bad.txt", strings.NewReader("1 x\n")))
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "bad.txt:1: ") {
		t.Errorf("a bad file before the analysis: %d %s", rec.Code, rec.Body)
	}
}

// TestExact: /api/exact recomputes the availability without a budget and
// answers with the analysis; a cancelled request changes nothing.
func TestExact(t *testing.T) {
	h := web.New(web.Options{})
	a := generate(t, h, "grid", map[string]string{"rows": "3", "cols": "3"})
	id := a["id"].(string)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "POST", "/api/exact/"+id, nil).WithContext(ctx))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("cancelled: %d %s", rec.Code, rec.Body)
	}
	rec, v := post(t, h, "/api/exact/"+id, "")
	if rec.Code != 200 || v["exact"] != true || v["id"] != id {
		t.Fatalf("exact: %d %v", rec.Code, v)
	}
	// The 3×3 grid at p = 0.9: AV = 0.966691179 (product form; the same
	// value compare prints).
	if nines := v["nines"].([]any); nines[1].(map[string]any)["av"] != "0.966691179" {
		t.Errorf("AV(0.9) = %v", nines[1])
	}
	rec, _ = post(t, h, "/api/exact/nope", "")
	if rec.Code != 404 {
		t.Errorf("unknown id: %d", rec.Code)
	}
}

// apiRequest is a request as the page makes it: to localhost, with the
// server's token.
func apiRequest(h *web.Server, method, url string, body io.Reader) *http.Request {
	r := httptest.NewRequest(method, url, body)
	r.Host = "localhost"
	r.Header.Set(web.TokenHeader, h.Token())
	return r
}
