package main

import (
	"context"
	"fmt"
	"html"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestBrowserCrossOrigin drives headless Chromium against `coterie serve`
// from a second origin, a page served on another loopback port: its
// text/plain form post to the explorer's API (the classic cross-site
// request that needs no preflight) is refused, and so is its fetch with
// the token header (the preflight is never granted); the explorer's own
// page, which reads the token from its <meta>, is served, and a request
// of its own without the token is refused.
func TestBrowserCrossOrigin(t *testing.T) {
	if os.Getenv("COTERIE_BROWSER") != "require" {
		t.Skip("the browser test runs with COTERIE_BROWSER=require (make test sets it)")
	}
	path, ok := chromiumPath()
	if !ok {
		t.Fatal("the browser test needs Chromium: install it with 'apt-get install -y chromium' " +
			"(make test does so when run as root) or point COTERIE_CHROMIUM at a Chromium binary")
	}
	base := startServe(t)

	// The attacker's page, on another port of 127.0.0.1.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// The form's one field, name + "=" + value, makes the JSON body
	// {"kind":"fpp","params":{"order":"2"},"x":"="}.
	attack := fmt.Sprintf(`<!DOCTYPE html><html><head><title>attacker</title></head><body>
<form id="f" method="POST" enctype="text/plain" action="%s/api/generate">
<input type="hidden" name="%s" value="%s">
<button id="go" type="submit">go</button>
</form></body></html>`, base, html.EscapeString(`{"kind":"fpp","params":{"order":"2"},"x":"`), html.EscapeString(`"}`))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(attack))
	}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	evil := "http://" + ln.Addr().String()

	profile, err := os.MkdirTemp("", "coterie-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("could not remove the Chromium profile %s", profile)
	})
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	// A safety net for a hung browser, not a measurement.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	if err := chromedp.Run(bctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	step := func(what string, actions ...chromedp.Action) {
		t.Helper()
		sctx, cancel := context.WithTimeout(bctx, time.Minute)
		defer cancel()
		if err := chromedp.Run(sctx, actions...); err != nil {
			t.Fatalf("%s: %v (screenshot %s)", what, err, pageShot(t, bctx))
		}
	}

	// The form post: the browser navigates to the API's answer.
	var answer string
	step("the cross-origin form post",
		chromedp.Navigate(evil+"/"),
		chromedp.WaitVisible("#go", chromedp.ByID),
		chromedp.Click("#go", chromedp.ByID),
		chromedp.WaitReady(`//body[contains(., "error")]`, chromedp.BySearch),
		chromedp.Text("body", &answer, chromedp.ByQuery),
	)
	if !strings.Contains(answer, "refused a POST request from another site") || strings.Contains(answer, "verdict") {
		t.Errorf("the cross-origin form post was answered %q (screenshot %s)", answer, pageShot(t, bctx))
	}

	// A fetch from the attacker's page that sends the token header
	// needs a preflight, which is not granted; a no-cors one cannot
	// send it.
	var got string
	step("the cross-origin fetch",
		chromedp.Navigate(evil+"/"),
		chromedp.WaitVisible("#go", chromedp.ByID),
		chromedp.Evaluate(fmt.Sprintf(`fetch(%q, {method: "POST", headers: {"X-Coterie-Token": "guess"}, body: "{}"})
			.then((r) => "answered " + r.status, (e) => "blocked")`, base+"/api/generate"), &got, awaitPromise),
	)
	if got != "blocked" {
		t.Errorf("the cross-origin fetch was %s", got)
	}

	// The explorer's own page: with the token from its <meta> a request
	// is served; without it, refused.
	var own, bare string
	step("the page's own requests",
		chromedp.Navigate(base+"/"),
		chromedp.WaitReady(`meta[name="coterie-token"]`, chromedp.ByQuery),
		chromedp.Evaluate(`fetch("/api/generate", {method: "POST", body: '{"kind":"fpp","params":{"order":"2"}}',
			headers: {"X-Coterie-Token": document.querySelector('meta[name="coterie-token"]').content}})
			.then((r) => r.json().then((a) => r.status + " " + a.verdict))`, &own, awaitPromise),
		chromedp.Evaluate(`fetch("/api/generate", {method: "POST", body: '{"kind":"fpp","params":{"order":"2"}}'})
			.then((r) => r.json().then((a) => r.status + " " + a.error))`, &bare, awaitPromise),
	)
	if !strings.HasPrefix(own, "200 valid as a coterie (n = 7") {
		t.Errorf("the page's own request: %q", own)
	}
	if !strings.HasPrefix(bare, "403 ") || !strings.Contains(bare, "token") {
		t.Errorf("the page's request without the token: %q", bare)
	}
}

// awaitPromise makes chromedp.Evaluate wait for the promise the script
// returns.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// pageShot saves a screenshot of the page in ctx for a failed test and
// returns its path.
func pageShot(t *testing.T, ctx context.Context) string {
	dir := os.Getenv("COTERIE_ARTIFACTS")
	if dir == "" {
		d, err := os.MkdirTemp("", "coterie-browser-")
		if err != nil {
			return "not saved: " + err.Error()
		}
		dir = d
	}
	var png []byte
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Run(sctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		return "not taken: " + err.Error()
	}
	path := filepath.Join(dir, t.Name()+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return "not saved: " + err.Error()
	}
	return path
}
