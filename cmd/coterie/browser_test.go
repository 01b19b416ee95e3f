package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/coterie-dev/coterie/format"
)

// chromiumPath finds the browser for TestBrowser: $COTERIE_CHROMIUM, else
// chromium or chromium-browser on the PATH.
func chromiumPath() (string, bool) {
	if p := os.Getenv("COTERIE_CHROMIUM"); p != "" {
		return p, true
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// TestBrowser drives headless Chromium against `coterie serve`: generate
// PG(2,3) and see it valid as a coterie; fail nodes 1–4 (node 1's... every
// line of the plane meets the line {1,2,3,4}) and see that no quorum
// survives; compare with the 4×4 grid; download the grid's JSON and read
// it back. On failure a screenshot is kept in a temporary folder named in
// the log. Without Chromium the test fails: `make test` installs it.
func TestBrowser(t *testing.T) {
	path, ok := chromiumPath()
	if !ok {
		t.Fatal("the browser test needs Chromium: install it with 'apt-get install -y chromium' " +
			"(make test does so when run as root) or point COTERIE_CHROMIUM at a Chromium binary")
	}
	base := startServe(t)
	downloads := t.TempDir()
	// Chromium's helper processes may still write into its profile for a
	// moment after the browser has gone, so the profile is not a
	// t.TempDir (whose removal would then fail the test): it is removed
	// at the end, retrying while those processes finish.
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
		chromedp.WindowSize(1280, 1200),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	// A safety net for a hung browser, not a measurement.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	// The first Run starts the browser, tied to the context it is given:
	// start it on bctx so that the steps' own timeouts do not end it.
	if err := chromedp.Run(bctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	done := make(chan string, 1)
	var mu sync.Mutex
	var jsErrors []string
	chromedp.ListenTarget(bctx, func(ev any) {
		switch e := ev.(type) {
		case *browser.EventDownloadProgress:
			if e.State == browser.DownloadProgressStateCompleted {
				select {
				case done <- e.GUID:
				default:
				}
			}
		case *runtime.EventExceptionThrown:
			mu.Lock()
			jsErrors = append(jsErrors, e.ExceptionDetails.Error())
			mu.Unlock()
		}
	})
	step := func(what string, actions ...chromedp.Action) {
		t.Helper()
		// A guard against a hung page, not a measurement.
		sctx, cancel := context.WithTimeout(bctx, time.Minute)
		defer cancel()
		if err := chromedp.Run(sctx, actions...); err != nil {
			shot := screenshot(t, bctx)
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("%s: %v (JavaScript errors: %q; screenshot %s)", what, err, jsErrors, shot)
		}
	}
	check := func(what string, ok bool, format string, args ...any) {
		t.Helper()
		if !ok {
			shot := screenshot(t, bctx)
			t.Fatalf("%s: "+format+" (screenshot %s)", append(append([]any{what}, args...), shot)...)
		}
	}
	waitText := func(sel, prefix string) chromedp.Action {
		return chromedp.Poll(`document.querySelector(`+jsString(sel)+`).textContent.includes(`+jsString(prefix)+`)`, nil,
			chromedp.WithPollingInterval(50*time.Millisecond))
	}
	generate := func(kind string, params map[string]string) chromedp.Tasks {
		tasks := chromedp.Tasks{
			chromedp.WaitReady(`#kind option[value="` + kind + `"]`),
			chromedp.Evaluate(`(() => { const k = document.getElementById("kind"); k.value = `+jsString(kind)+
				`; k.dispatchEvent(new Event("change")); return true })()`, nil),
		}
		for name, v := range params {
			tasks = append(tasks, chromedp.SetValue("#param-"+name, v, chromedp.ByID))
		}
		return append(tasks, chromedp.Click("#generate", chromedp.ByID))
	}

	var verdict, survivors string
	step("open the explorer", chromedp.Navigate(base+"/"), chromedp.WaitReady("#param-order", chromedp.ByID))
	step("generate PG(2,3)", generate("fpp", map[string]string{"order": "3"}),
		waitText("#verdict", "valid as a coterie"), chromedp.Text("#verdict", &verdict, chromedp.ByID),
		chromedp.Text("#survivors", &survivors, chromedp.ByID))
	check("PG(2,3)", verdict == "valid as a coterie (n = 13, 13 quorums)", "verdict %q", verdict)
	check("PG(2,3)", strings.HasPrefix(survivors, "13 of 13 quorums survive"), "before failures: %q", survivors)
	for _, v := range []string{"1", "2", "3", "4"} {
		step("fail node "+v, chromedp.Click(`#drawing circle[data-node="`+v+`"]`, chromedp.ByQuery))
	}
	var failed string
	step("read the failures", chromedp.Text("#survivors", &survivors, chromedp.ByID), chromedp.Text("#failed", &failed, chromedp.ByID))
	check("after failing 1–4", failed == "1, 2, 3, 4", "failed nodes %q", failed)
	check("after failing 1–4", strings.HasPrefix(survivors, "no quorum survives"), "survivors %q", survivors)
	step("undo node 4", chromedp.Click(`#drawing circle[data-node="4"]`, chromedp.ByQuery), chromedp.Text("#survivors", &survivors, chromedp.ByID))
	// Without node 4 failed, the lines through 4 that miss 1, 2 and 3 are
	// the q = 3 lines other than {1,2,3,4} through node 4.
	check("after reviving 4", strings.HasPrefix(survivors, "3 of 13 quorums survive"), "survivors %q", survivors)
	var alive []string
	step("list the survivors", chromedp.Evaluate(`[...document.querySelectorAll("#alive li")].map((li) => li.textContent)`, &alive))
	check("after reviving 4", len(alive) == 3, "survivors listed: %q", alive)
	for _, q := range alive {
		// "quorum I: {4 a b c}": it holds 4 and none of 1, 2, 3.
		_, list, _ := strings.Cut(q, "{")
		nodes := strings.Fields(strings.TrimSuffix(list, "}"))
		check("after reviving 4", slices.Contains(nodes, "4") && !slices.ContainsFunc(nodes, func(v string) bool {
			return v == "1" || v == "2" || v == "3"
		}), "survivor %q", q)
	}
	step("compare", chromedp.Click("#add-compare", chromedp.ByID),
		generate("grid", map[string]string{"rows": "4", "cols": "4"}),
		waitText("#verdict", "valid as a coterie (n = 16"), chromedp.Click("#add-compare", chromedp.ByID))
	var rows []string
	step("read the comparison", chromedp.Evaluate(
		`[...document.querySelectorAll("#comparison tbody tr")].map((r) => r.cells[0].textContent + " n=" + r.cells[1].textContent)`, &rows))
	check("comparison", len(rows) == 2 && rows[0] == "fpp order=3 n=13" && rows[1] == "grid cols=4 rows=4 n=16", "rows %q", rows)

	step("download the JSON",
		browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllowAndName).WithDownloadPath(downloads).WithEventsEnabled(true),
		chromedp.Click("#dl-json", chromedp.ByID))
	var guid string
	select {
	case guid = <-done:
	case <-ctx.Done():
		t.Fatalf("the download did not finish (screenshot %s)", screenshot(t, bctx))
	}
	data, err := os.ReadFile(filepath.Join(downloads, guid))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := format.ReadBytes(data, format.JSON, format.DefaultOptions())
	if err != nil {
		t.Fatalf("the downloaded JSON does not read: %v", err)
	}
	f := sys.Family
	check("download", f != nil && f.N == 16 && len(f.Quorums) == 16 && f.Kind == "grid", "got %d nodes, kind %q", sys.N(), sys.Kind())
	for i := range f.Quorums {
		// A 4×4 grid quorum is a row and a column: 4 + 4 − 1 nodes.
		if f.Quorums[i].Len() != 7 {
			t.Errorf("quorum %d has %d nodes, want 7", i+1, f.Quorums[i].Len())
		}
	}
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// screenshot saves the page to a folder that outlives the test and
// returns its path.
func screenshot(t *testing.T, ctx context.Context) string {
	dir, err := os.MkdirTemp("", "coterie-browser-")
	if err != nil {
		return "not saved: " + err.Error()
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
