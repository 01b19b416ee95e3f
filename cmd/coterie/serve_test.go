package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/web"
)

// TestServeErrorsMatchCLI: the explorer reports a malformed file with the
// message the command line prints for it, FILE:LINE: what.
func TestServeErrorsMatchCLI(t *testing.T) {
	dir := t.TempDir()
	h := web.New(web.Options{})
	for name, body := range map[string]string{
		"bad.txt":  "1 2\n1 x\n",
		"bad.json": "{\"format\": \"coterie/1\", \"n\": 3,\n \"quorums\": [[1, 4]]}\n",
		"bad.csv":  "quorum,node\n1,1\n1,0\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCmd(t, "verify", path)
		if code != 2 {
			t.Fatalf("%s: exit %d", name, code)
		}
		cli := strings.TrimSpace(strings.TrimPrefix(stderr, dir+string(filepath.Separator)))
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "http://localhost/api/upload?name="+name, strings.NewReader(body))
		req.Header.Set(web.TokenHeader, h.Token())
		h.ServeHTTP(rec, req)
		var e struct{ Error string }
		_ = json.Unmarshal(rec.Body.Bytes(), &e)
		if rec.Code != 400 || e.Error != cli {
			t.Errorf("%s: explorer %d %q, command line %q", name, rec.Code, e.Error, cli)
		}
	}
}

// startServe runs `coterie serve --addr 127.0.0.1:0` in-process and
// returns its base URL; the server stops when the test ends.
func startServe(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0"}, &streams{in: strings.NewReader(""), out: io.Discard, err: pw})
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("coterie serve: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	m := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`).FindString(line)
	if m == "" {
		t.Fatalf("coterie serve said %q", line)
	}
	return m
}

// TestServeHTTP: the served explorer answers over a real connection.
func TestServeHTTP(t *testing.T) {
	base := startServe(t)
	client := &http.Client{Timeout: time.Minute}
	resp, err := client.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "coterie explorer") {
		t.Errorf("GET /: %d", resp.StatusCode)
	}
	token := regexp.MustCompile(`<meta name="coterie-token" content="([0-9a-f]+)">`).FindSubmatch(page)
	if token == nil {
		t.Fatal("the page has no token")
	}
	req, _ := http.NewRequest("POST", base+"/api/generate", strings.NewReader(`{"kind":"grid","params":{"n":"9"}}`))
	req.Header.Set(web.TokenHeader, string(token[1]))
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var a struct{ Verdict string }
	_ = json.NewDecoder(resp.Body).Decode(&a)
	resp.Body.Close()
	if !strings.HasPrefix(a.Verdict, "valid as a coterie") {
		t.Errorf("verdict %q", a.Verdict)
	}
}
