package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/coterie-dev/coterie/construct"
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

// browserSession is headless Chromium driving the explorer for one test.
type browserSession struct {
	t    *testing.T
	base string
	ctx  context.Context // the browser's
	mu   sync.Mutex
	errs []string // JavaScript exceptions
	done chan string
	// shots is where screenshots go: $COTERIE_ARTIFACTS, or a folder
	// that outlives the test, made at the first screenshot.
	shots string
	// downloads is where the browser saves downloads.
	downloads string
}

// newBrowser starts `coterie serve` and headless Chromium, or skips the
// test unless COTERIE_BROWSER=require (make test sets it), which fails it
// when Chromium is missing.
func newBrowser(t *testing.T) *browserSession {
	t.Helper()
	if os.Getenv("COTERIE_BROWSER") != "require" {
		t.Skip("the browser test runs with COTERIE_BROWSER=require (make test sets it)")
	}
	path, ok := chromiumPath()
	if !ok {
		t.Fatal("the browser test needs Chromium: install it with 'apt-get install -y chromium' " +
			"(make test does so when run as root) or point COTERIE_CHROMIUM at a Chromium binary")
	}
	b := &browserSession{t: t, base: startServe(t), done: make(chan string, 1), downloads: t.TempDir()}
	b.shots = os.Getenv("COTERIE_ARTIFACTS")
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
		chromedp.WindowSize(1280, 1000),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	// A safety net for a hung browser, not a measurement.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	// The first Run starts the browser, tied to the context it is given:
	// start it on bctx so that the steps' own timeouts do not end it.
	if err := chromedp.Run(bctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	b.ctx = bctx
	chromedp.ListenTarget(bctx, func(ev any) {
		switch e := ev.(type) {
		case *browser.EventDownloadProgress:
			if e.State == browser.DownloadProgressStateCompleted {
				select {
				case b.done <- e.GUID:
				default:
				}
			}
		case *runtime.EventExceptionThrown:
			b.mu.Lock()
			b.errs = append(b.errs, e.ExceptionDetails.Error())
			b.mu.Unlock()
		}
	})
	return b
}

// screenshot saves the page as name.png in the artefacts folder and
// returns its path.
func (b *browserSession) screenshot(name string) string {
	if b.shots == "" {
		dir, err := os.MkdirTemp("", "coterie-browser-")
		if err != nil {
			return "not saved: " + err.Error()
		}
		b.shots = dir
	}
	var png []byte
	sctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Run(sctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		return "not taken: " + err.Error()
	}
	path := filepath.Join(b.shots, strings.NewReplacer("/", "-", " ", "-").Replace(name)+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return "not saved: " + err.Error()
	}
	return path
}

// stage saves a screenshot of a stage of the test when COTERIE_ARTIFACTS
// names a folder for them.
func (b *browserSession) stage(name string) {
	if os.Getenv("COTERIE_ARTIFACTS") != "" {
		b.screenshot(b.t.Name() + "-" + name)
	}
}

// fail ends the test with a screenshot of the page as it is.
func (b *browserSession) fail(format string, args ...any) {
	b.t.Helper()
	shot := b.screenshot(b.t.Name() + "-failure")
	b.mu.Lock()
	defer b.mu.Unlock()
	b.t.Fatalf(format+" (JavaScript errors: %q; screenshot %s)", append(args, b.errs, shot)...)
}

// run runs the actions, failing the test (with a screenshot) on error.
func (b *browserSession) run(what string, actions ...chromedp.Action) {
	b.t.Helper()
	// A guard against a hung page, not a measurement.
	sctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Run(sctx, actions...); err != nil {
		b.fail("%s: %v", what, err)
	}
}

func (b *browserSession) check(what string, ok bool, format string, args ...any) {
	b.t.Helper()
	if !ok {
		b.fail("%s: "+format, append([]any{what}, args...)...)
	}
}

// eval evaluates a JavaScript expression into out.
func (b *browserSession) eval(what, expr string, out any) {
	b.t.Helper()
	b.run(what, chromedp.Evaluate(expr, out))
}

func (b *browserSession) text(sel string) string {
	b.t.Helper()
	var s string
	b.eval("read "+sel, `(document.querySelector(`+jsString(sel)+`) || {textContent: ""}).textContent`, &s)
	return s
}

// waitJS waits until a JavaScript condition holds.
func waitJS(cond string) chromedp.Action {
	return chromedp.Poll(cond, nil, chromedp.WithPollingInterval(50*time.Millisecond))
}

func waitText(sel, part string) chromedp.Action {
	return waitJS(`(document.querySelector(` + jsString(sel) + `) || {textContent: ""}).textContent.includes(` + jsString(part) + `)`)
}

// idle waits until no request is in flight.
func idle() chromedp.Action { return waitJS(`document.getElementById("busy").hidden`) }

// generate chooses a construction, fills its parameters and submits.
func (b *browserSession) generate(kind string, params map[string]string) {
	b.t.Helper()
	tasks := chromedp.Tasks{
		chromedp.WaitReady(`#kind option[value="` + kind + `"]`),
		chromedp.Evaluate(`(() => { const k = document.getElementById("kind"); k.value = `+jsString(kind)+
			`; k.dispatchEvent(new Event("change")); return true })()`, nil),
	}
	for name, v := range params {
		tasks = append(tasks, chromedp.SetValue("#param-"+name, v, chromedp.ByID))
	}
	b.run("generate "+kind, append(tasks, chromedp.Click("#generate", chromedp.ByID), chromedp.Sleep(50*time.Millisecond), idle())...)
}

// upload pastes text into the upload form and submits.
func (b *browserSession) upload(name, text string) {
	b.t.Helper()
	b.run("upload "+name, chromedp.SetValue("#upload-name", name, chromedp.ByID), chromedp.SetValue("#paste", text, chromedp.ByID),
		chromedp.Click("#analyse", chromedp.ByID), chromedp.Sleep(50*time.Millisecond), idle())
}

// reload reloads the page and waits for the state of its URL to be back.
func (b *browserSession) reload() {
	b.t.Helper()
	b.run("reload", chromedp.Reload(), chromedp.WaitReady("#kind option", chromedp.ByQuery), chromedp.Sleep(100*time.Millisecond), idle(),
		waitJS(`!document.getElementById("view").hidden`))
}

func (b *browserSession) url() string {
	var u string
	b.eval("read the URL", `location.href`, &u)
	return u
}

// nodeFacts describes the node circles of a drawing: how many, how many
// have a number inside and a tooltip, how many are focusable keys.
type nodeFacts struct {
	Nodes, Numbers, Tips, Keys int
}

func (b *browserSession) nodes(host string) nodeFacts {
	b.t.Helper()
	var f nodeFacts
	b.eval("nodes of "+host, `(() => { const h = document.querySelector(`+jsString(host)+`);
		const c = [...h.querySelectorAll("circle.node")];
		return {Nodes: c.length,
			Numbers: c.filter((n) => h.querySelector('text.number[data-node="' + n.dataset.node + '"]')?.textContent === n.dataset.node).length,
			Tips: c.filter((n) => (n.querySelector("title")?.textContent || "").startsWith("node " + n.dataset.node)).length,
			Keys: c.filter((n) => n.getAttribute("tabindex") === "0" && n.getAttribute("role") === "button").length} })()`, &f)
	return f
}

// overflow is how far the page is wider than the window.
func (b *browserSession) overflow() int {
	var px int
	b.eval("page width", `document.documentElement.scrollWidth - window.innerWidth`, &px)
	return px
}

// longNumbers lists the numbers on the page written with more than four
// significant digits: the one number style allows none, except that a
// value just under 1 keeps its nines (0.99994598: four digits after them).
func (b *browserSession) longNumbers() []string {
	var out []string
	b.eval("long numbers", `[...document.querySelectorAll("#view td, #view p, #comparison td, #verdict")]
		.filter((e) => e.offsetParent !== null).flatMap((e) => e.textContent.match(/\d+\.\d+/g) || [])
		.filter((n) => n.replace(/^0\.(9{2,})?0*/, "").replace(".", "").replace(/^0+/, "").length > 4 && !/^0\.9{2,}\d{1,4}$/.test(n))`, &out)
	return out
}

// duplicateHeadings lists the headings shown twice in a row of the page.
func (b *browserSession) duplicateHeadings() []string {
	var out []string
	b.eval("headings", `(() => { const seen = new Map(); const dup = [];
		for (const h of document.querySelectorAll("h1, h2, h3")) {
			if (h.offsetParent === null) continue;
			const k = h.textContent.trim();
			if (seen.has(k) && seen.get(k) === h.parentElement) dup.push(k);
			seen.set(k, h.parentElement);
		}
		const name = document.getElementById("name").textContent;
		const verdicts = [...document.querySelectorAll("#view .verdict")].filter((p) => p.offsetParent !== null);
		if (verdicts.length !== 1) dup.push(verdicts.length + " verdicts");
		const again = [...document.querySelectorAll("#sections h2")].filter((h) => h.offsetParent !== null && h.textContent === name);
		return dup.concat(again.map((h) => "system name " + h.textContent)) })()`, &out)
	return out
}

// TestBrowser drives headless Chromium against `coterie serve` through
// PG(2,3), the 4×4 grid, the height-3 tree and a read-write system: node
// numbers and tooltips, failing nodes in the drawing (failed marked, dead
// quorums dimmed, a survivor highlighted), keys, the URL state over a
// reload, the comparison (curves, drawings, best values), one number
// style, errors beside their cause, and a 400 px window. Screenshots are
// saved on failure ($COTERIE_ARTIFACTS, or a folder named in the log), and
// with COTERIE_SCREENSHOTS=DIR the pictures of docs/ are taken too.
func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	docs := os.Getenv("COTERIE_SCREENSHOTS")
	b.run("open the explorer", chromedp.Navigate(b.base+"/"), chromedp.WaitReady("#param-order", chromedp.ByID))

	// PG(2,3): numbered, tooltipped, focusable nodes.
	b.generate("fpp", map[string]string{"order": "3"})
	verdict, survivors := b.text("#verdict"), b.text("#survivors")
	b.check("PG(2,3)", verdict == "valid as a coterie (n = 13, 13 quorums)", "verdict %q", verdict)
	b.check("PG(2,3)", strings.HasPrefix(survivors, "13 of 13 quorums survive"), "before failures: %q", survivors)
	f := b.nodes("#drawing")
	b.check("PG(2,3) nodes", f == nodeFacts{13, 13, 13, 13}, "%+v, want 13 numbered, tooltipped, focusable nodes", f)
	var lineTips int
	b.eval("line tooltips", `[...document.querySelectorAll("#drawing [data-quorum]")].filter((l) => /^line \d+: \{/.test(l.querySelector("title")?.textContent || "")).length`, &lineTips)
	b.check("PG(2,3) lines", lineTips == 13, "%d lines with a tooltip, want 13", lineTips)
	if docs != "" {
		b.run("start page", chromedp.ScrollIntoView("header", chromedp.ByQuery))
		shotTo(t, b, docs, "explorer-start")
	}

	// Fail nodes 1–4: every line of the plane meets {1,2,3,4}, so every
	// quorum dies and every line is dimmed.
	for _, v := range []string{"1", "2", "3", "4"} {
		b.run("fail node "+v, chromedp.Click(`#drawing circle[data-node="`+v+`"]`, chromedp.ByQuery))
	}
	survivors, failed := b.text("#survivors"), b.text("#failed")
	b.check("after failing 1–4", failed == "1, 2, 3, 4", "failed nodes %q", failed)
	b.check("after failing 1–4", strings.HasPrefix(survivors, "no quorum survives"), "survivors %q", survivors)
	var marks struct{ Failed, Dead, Survivor int }
	readMarks := func(host string) {
		b.eval("marks", `(() => { const h = document.querySelector(`+jsString(host)+`);
			return {Failed: h.querySelectorAll("circle.node.failed").length, Dead: h.querySelectorAll("[data-quorum].dead").length,
				Survivor: h.querySelectorAll("[data-quorum].survivor").length} })()`, &marks)
	}
	readMarks("#drawing")
	b.check("after failing 1–4", marks.Failed == 4 && marks.Dead == 13 && marks.Survivor == 0, "marks %+v", marks)

	// Bring node 4 back: the q = 3 lines through 4 other than {1,2,3,4}
	// survive; one of them is highlighted, the others' lines are not dimmed.
	b.run("undo node 4", chromedp.Click(`#drawing circle[data-node="4"]`, chromedp.ByQuery))
	survivors = b.text("#survivors")
	b.check("after reviving 4", strings.HasPrefix(survivors, "3 of 13 quorums survive"), "survivors %q", survivors)
	readMarks("#drawing")
	b.check("after reviving 4", marks.Failed == 3 && marks.Dead == 10 && marks.Survivor == 1, "marks %+v", marks)
	var survivorNodes []string
	b.eval("survivor", `[...document.querySelectorAll("#drawing circle.node.in-survivor")].map((c) => c.dataset.node)`, &survivorNodes)
	var survivorQuorum string
	b.eval("survivor quorum", `document.querySelector("#drawing [data-quorum].survivor").dataset.quorum`, &survivorQuorum)
	b.check("survivor", len(survivorNodes) == 4 && slices.Contains(survivorNodes, "4") &&
		!slices.ContainsFunc(survivorNodes, func(v string) bool { return v == "1" || v == "2" || v == "3" }),
		"highlighted survivor's nodes %v", survivorNodes)
	var alive []string
	b.eval("list the survivors", `[...document.querySelectorAll("#alive li")].map((li) => li.textContent)`, &alive)
	b.check("after reviving 4", len(alive) == 3, "survivors listed: %q", alive)
	for _, q := range alive {
		_, list, _ := strings.Cut(q, "{")
		nodes := strings.Fields(strings.TrimSuffix(list, "}"))
		b.check("after reviving 4", slices.Contains(nodes, "4") && !slices.ContainsFunc(nodes, func(v string) bool {
			return v == "1" || v == "2" || v == "3"
		}), "survivor %q", q)
	}
	if docs != "" {
		shotTo(t, b, docs, "explorer-failed")
	}

	// Keys: Tab moves between nodes, Enter fails node 5, Space brings it
	// back; the focused node is drawn with the focus colour.
	b.run("focus node 4", chromedp.Focus(`#drawing circle[data-node="4"]`, chromedp.ByQuery), chromedp.KeyEvent(kb.Tab))
	var focused string
	b.eval("focus", `document.activeElement.dataset.node || document.activeElement.tagName`, &focused)
	b.check("Tab", focused == "5", "Tab from node 4 went to %q, want node 5", focused)
	var ring string
	b.eval("focus ring", `getComputedStyle(document.activeElement).stroke`, &ring)
	b.check("focus", ring == "rgb(230, 159, 0)" || ring == "rgb(240, 228, 66)", "focused node drawn with stroke %q", ring)
	b.run("Enter", chromedp.KeyEvent(kb.Enter))
	failed = b.text("#failed")
	b.check("Enter", failed == "1, 2, 3, 5", "failed %q after Enter on node 5", failed)
	var pressed string
	b.eval("aria", `document.activeElement.getAttribute("aria-pressed")`, &pressed)
	b.check("Enter", pressed == "true", "aria-pressed %q", pressed)
	b.run("Space", chromedp.KeyEvent(" "))
	failed = b.text("#failed")
	b.check("Space", failed == "1, 2, 3", "failed %q after Space on node 5", failed)

	// The URL holds the construction and the failures: a reload shows the
	// same view.
	u := b.url()
	b.check("URL", strings.Contains(u, "kind=fpp") && strings.Contains(u, "p.order=3") && strings.Contains(u, "failed=1%2C2%2C3"), "URL %s", u)
	b.reload()
	b.run("restored", waitText("#survivors", "3 of 13"))
	failed, verdict = b.text("#failed"), b.text("#verdict")
	b.check("after reload", failed == "1, 2, 3" && verdict == "valid as a coterie (n = 13, 13 quorums)", "failed %q, verdict %q", failed, verdict)
	var order string
	b.eval("form", `document.getElementById("param-order").value`, &order)
	b.check("after reload", order == "3", "the form's order is %q", order)

	// Compare PG(2,3) with the 4×4 grid: curves overlaid, drawings side by
	// side, the best value of each row marked.
	b.run("compare", chromedp.Click("#add-compare", chromedp.ByID))
	b.generate("grid", map[string]string{"rows": "4", "cols": "4"})
	b.run("grid", waitText("#verdict", "valid as a coterie (n = 16"))
	f = b.nodes("#drawing")
	b.check("4×4 grid nodes", f == nodeFacts{16, 16, 16, 16}, "%+v", f)
	var corner bool
	b.eval("node 1 top left", `(() => { const c = [...document.querySelectorAll("#drawing circle.node")];
		const one = c.find((n) => n.dataset.node === "1");
		return c.every((n) => +n.getAttribute("cx") >= +one.getAttribute("cx") && +n.getAttribute("cy") >= +one.getAttribute("cy")) })()`, &corner)
	b.check("4×4 grid", corner, "node 1 is not top left")
	b.run("compare the grid", chromedp.Click("#add-compare", chromedp.ByID), waitJS(`document.querySelectorAll("#compare-chart polyline.curve").length === 2`))
	var heads []string
	b.eval("comparison heads", `[...document.querySelectorAll("#comparison thead th")].map((th) => th.textContent)`, &heads)
	b.check("comparison", slices.Equal(heads, []string{"", "fpp order=3", "grid cols=4 rows=4"}), "columns %q", heads)
	var best []string
	b.eval("best", `[...document.querySelectorAll("#comparison tbody tr")].filter((r) => r.querySelector("td.best"))
		.map((r) => r.cells[0].textContent + "=" + [...r.querySelectorAll("td")].findIndex((td) => td.classList.contains("best")))`, &best)
	// PG(2,3)'s quorums have 4 nodes, the grid's 7: the plane is best on
	// mean |Q| and messages (3(K−1)).
	b.check("best values", slices.Contains(best, "mean |Q|=0") && slices.Contains(best, "messages=0"), "best marked: %q", best)
	var figures int
	b.eval("drawings side by side", `document.querySelectorAll("#compare-drawings figure svg").length`, &figures)
	b.check("comparison drawings", figures == 2, "%d drawings", figures)
	b.run("log scale", chromedp.Click(`input[name="scale"][value="log"]`, chromedp.ByQuery),
		waitJS(`document.querySelectorAll("#compare-chart polyline.curve").length === 2 && document.querySelector("#compare-chart svg").getAttribute("aria-label").includes("log")`))
	long := b.longNumbers()
	b.check("one number style", len(long) == 0, "long numbers on the page: %q", long)
	dups := b.duplicateHeadings()
	b.check("headings", len(dups) == 0, "headings shown twice: %q", dups)
	if docs != "" {
		var png []byte
		b.run("screenshot the comparison", chromedp.Screenshot("#compare-view", &png, chromedp.ByID))
		if err := os.WriteFile(filepath.Join(docs, "explorer-compare.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u = b.url()
	b.check("URL", strings.Contains(u, "compare=") && strings.Contains(u, "chart=log"), "URL %s", u)
	b.reload()
	b.run("comparison restored", waitJS(`document.querySelectorAll("#compare-chart polyline.curve").length === 2`))
	b.eval("comparison heads", `[...document.querySelectorAll("#comparison thead th")].map((th) => th.textContent)`, &heads)
	b.check("comparison after reload", slices.Equal(heads, []string{"", "fpp order=3", "grid cols=4 rows=4"}), "columns %q", heads)

	// 400 px: nothing wider than the window, tables scroll in their box.
	b.run("400 px", emulation.SetDeviceMetricsOverride(400, 900, 1, false), chromedp.Sleep(200*time.Millisecond))
	px := b.overflow()
	b.check("400 px", px <= 0, "the page is %d px wider than the window", px)
	if docs != "" {
		b.run("narrow", chromedp.Evaluate(`window.scrollTo(0, document.getElementById("view").offsetTop)`, nil), chromedp.Sleep(100*time.Millisecond))
		shotTo(t, b, docs, "explorer-narrow")
	}
	var unboxed int
	b.eval("tables", `[...document.querySelectorAll("table")].filter((t) => t.offsetParent !== null && !t.parentElement.classList.contains("scroll")).length`, &unboxed)
	b.check("400 px", unboxed == 0, "%d tables outside a scrolling box", unboxed)
	b.run("back to 1280 px", emulation.ClearDeviceMetricsOverride())

	// The download still gives the grid's JSON.
	b.run("download the JSON",
		browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllowAndName).WithDownloadPath(b.downloads).WithEventsEnabled(true),
		chromedp.Click("#dl-json", chromedp.ByID))
	b.downloaded(func(data []byte) {
		sys, err := format.ReadBytes(data, format.JSON, format.DefaultOptions())
		b.check("download", err == nil && sys.Family != nil && sys.N() == 16 && len(sys.Family.Quorums) == 16 && sys.Kind() == "grid",
			"the downloaded JSON: %v", err)
	})

	// The height-3 tree is drawn as a tree; failing the root leaves the
	// quorums without it, counted here from the construction.
	b.generate("tree", map[string]string{"height": "3"})
	b.run("tree", waitText("#verdict", "n = 15"))
	f = b.nodes("#drawing")
	b.check("tree nodes", f == nodeFacts{15, 15, 15, 15}, "%+v", f)
	var treeShape bool
	b.eval("tree shape", `(() => { const y = (v) => +document.querySelector('#drawing circle.node[data-node="' + v + '"]').getAttribute("cy");
		return y(1) < y(2) && y(2) === y(3) && y(3) < y(4) && y(7) < y(8) && y(8) === y(15) })()`, &treeShape)
	b.check("tree", treeShape, "not drawn as a tree")
	tree, err := construct.Tree(2, 3)
	if err != nil {
		t.Fatal(err)
	}
	without := 0
	for i := range tree.Quorums {
		if !tree.Quorums[i].Has(0) {
			without++
		}
	}
	b.run("fail the root", chromedp.Click(`#drawing circle[data-node="1"]`, chromedp.ByQuery))
	survivors = b.text("#survivors")
	b.check("tree without its root", strings.HasPrefix(survivors, fmt.Sprintf("%d of %d quorums survive", without, len(tree.Quorums))), "survivors %q", survivors)
	b.run("keys in the tree", chromedp.Focus(`#drawing circle[data-node="15"]`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	b.check("tree keys", b.text("#failed") == "1, 15", "failed %q", b.text("#failed"))
	b.stage("tree")

	// A threshold system (majority of 5) lists no quorums: the counts are
	// binomials, and the survivor is three live nodes.
	b.generate("majority", map[string]string{"n": "5"})
	b.run("majority", waitText("#verdict", "n = 5"))
	for _, v := range []string{"2", "4"} {
		b.run("fail "+v, chromedp.Click(`#drawing circle[data-node="`+v+`"]`, chromedp.ByQuery))
	}
	survivors = b.text("#survivors")
	b.check("majority", strings.HasPrefix(survivors, "1 of 10 quorums survive"), "survivors %q", survivors)
	b.eval("majority survivor", `[...document.querySelectorAll("#drawing circle.node.in-survivor")].map((c) => c.dataset.node)`, &survivorNodes)
	b.check("majority", slices.Equal(survivorNodes, []string{"1", "3", "5"}), "survivor %v", survivorNodes)

	// A matrix drawing (weighted voting 3,1,1,1,1: no structure to draw):
	// the rows' labels are the keys.
	b.generate("vote", map[string]string{"weights": "3,1,1,1,1"})
	b.run("vote", waitText("#verdict", "n = 5"))
	b.run("Enter on row 1", chromedp.Focus(`#drawing text.label[data-node="1"]`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	survivors = b.text("#survivors")
	// With 3 of 7 votes gone, only {2 3 4 5} holds more than half.
	b.check("vote", b.text("#failed") == "1" && strings.HasPrefix(survivors, "1 of 5 quorums survive"), "failed %q, survivors %q", b.text("#failed"), survivors)

	// A read-write system: reads and writes each drawn and failed; nothing
	// to download, and no separators left behind.
	b.upload("rw.json", `{"reads": "a*b*c + d*e*f"}`)
	b.run("read-write", waitText("#verdict", "read-write system"))
	r, w := b.nodes("#drawing-reads"), b.nodes("#drawing-writes")
	b.check("read-write drawings", r.Keys == 6 || (r.Nodes == 0 && w.Nodes == 0), "reads %+v writes %+v", r, w)
	var keys int
	b.eval("rw keys", `document.querySelectorAll("#drawing-reads [tabindex='0'], #drawing-writes [tabindex='0']").length`, &keys)
	b.check("read-write keys", keys == 12, "%d focusable nodes over both drawings, want 6 + 6", keys)
	b.run("fail a", chromedp.Click(`#drawing-reads [data-node="1"][tabindex="0"]`, chromedp.ByQuery))
	survivors = b.text("#survivors")
	b.check("read-write failures", survivors == "1 of 2 read quorums survive; 6 of 9 write quorums survive", "survivors %q", survivors)
	var marked []int
	b.eval("both sides marked", `["#drawing-reads", "#drawing-writes"].map((h) => document.querySelectorAll(h + " .failed[data-node='1']").length)`, &marked)
	b.check("read-write failures", len(marked) == 2 && marked[0] > 0 && marked[1] > 0, "node 1 marked failed on reads/writes: %v", marked)
	var orphans []string
	b.eval("separators", `[...document.querySelectorAll("#failures p")].filter((p) => p.offsetParent !== null && /(^|\s)·(\s|$)/.test(p.textContent) && !p.querySelector("a:not([hidden])")).map((p) => p.textContent)`, &orphans)
	b.check("read-write", len(orphans) == 0, "orphan separators: %q", orphans)
	u = b.url()
	b.check("read-write URL", strings.Contains(u, "upload=") && strings.Contains(u, "failed=1"), "URL %s", u)
	b.stage("read-write")
	b.run("dark theme", chromedp.Click("#theme", chromedp.ByID))
	var dark struct{ Theme, Page, Paper string }
	b.eval("dark theme", `({Theme: document.documentElement.dataset.theme, Page: getComputedStyle(document.body).backgroundColor,
		Paper: getComputedStyle(document.querySelector("#drawing-reads .paper")).fill})`, &dark)
	b.check("dark theme", dark.Theme == "dark" && dark.Page == "rgb(22, 24, 28)" && dark.Paper == "rgb(27, 29, 33)", "%+v", dark)
	b.stage("read-write-dark")
	b.run("light theme", chromedp.Click("#theme", chromedp.ByID))
	b.reload()
	b.run("read-write restored", waitText("#survivors", "1 of 2 read quorums survive"))

	// Errors sit beside their cause; the system shown is marked stale.
	b.generate("fpp", map[string]string{"order": "6"})
	genErr := b.text("#gen-error")
	var stale bool
	b.eval("stale", `!document.getElementById("stale").hidden && document.getElementById("view").classList.contains("stale")`, &stale)
	b.check("error", genErr != "" && stale, "error %q beside the form, stale %v", genErr, stale)
	b.stage("error")
	dir := t.TempDir()
	bin := filepath.Join(dir, "core.bin")
	if err := os.WriteFile(bin, []byte("\x7fELF\x00\x01\x02 binary"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, []byte(strings.Repeat("1 2\n", 6<<20/4)), 0o644); err != nil {
		t.Fatal(err)
	}
	before := b.valueOf("#paste")
	b.run("binary upload", chromedp.SetUploadFiles("#file", []string{bin}, chromedp.ByID), waitJS(`document.getElementById("file-error").textContent !== ""`))
	fileErr := b.text("#file-error")
	b.check("binary upload", strings.Contains(fileErr, "binary") && b.valueOf("#paste") == before, "error %q", fileErr)
	b.run("big upload", chromedp.SetUploadFiles("#file", []string{big}, chromedp.ByID), waitJS(`document.getElementById("file-error").textContent.includes("MB")`))
	fileErr = b.text("#file-error")
	b.check("big upload", regexp.MustCompile(`big.txt is 6\.0 MB: the explorer takes files up to 4\.0 MB`).MatchString(fileErr) && b.valueOf("#paste") == before, "error %q", fileErr)

	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.errs) > 0 {
		t.Errorf("JavaScript errors: %q", b.errs)
	}
}

func (b *browserSession) valueOf(sel string) string {
	var s string
	b.eval("value of "+sel, `document.querySelector(`+jsString(sel)+`).value`, &s)
	return s
}

// downloaded waits for a download and hands its bytes to check.
func (b *browserSession) downloaded(check func([]byte)) {
	b.t.Helper()
	var guid string
	select {
	case guid = <-b.done:
	case <-time.After(time.Minute): // a guard, not a measurement
		b.fail("the download did not finish")
	}
	data, err := os.ReadFile(filepath.Join(b.downloads, guid))
	if err != nil {
		b.fail("%v", err)
	}
	check(data)
}

// shotTo saves a screenshot of the window (not the full page) for docs/.
func shotTo(t *testing.T, b *browserSession, dir, name string) {
	t.Helper()
	var png []byte
	b.run("screenshot "+name, chromedp.CaptureScreenshot(&png))
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// TestBrowserCrossOriginForm: a page of another origin (a second server on
// another loopback port) posts a form to the explorer's /api/generate, as
// a hostile site the user visits could: the explorer refuses it, and no
// analysis comes back.
func TestBrowserCrossOriginForm(t *testing.T) {
	b := newBrowser(t)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		// A text/plain form needs no preflight: its body is the JSON of a
		// generate request.
		fmt.Fprintf(w, `<!DOCTYPE html><form id="f" method="POST" action="%s/api/generate" enctype="text/plain">`+
			`<input type="hidden" name='{"kind":"fpp","params":{"order":"2"},"x":"' value='"}'></form>`+
			`<script>document.getElementById("f").submit()</script>`, b.base)
	}))
	defer evil.Close()
	b.run("the hostile page", chromedp.Navigate(evil.URL), waitJS(`location.href.startsWith(`+jsString(b.base)+`)`),
		chromedp.WaitReady("body", chromedp.ByQuery))
	body := b.text("body")
	b.check("cross-origin post", !strings.Contains(body, "verdict") && !strings.Contains(body, "valid as a coterie"),
		"the explorer answered a cross-origin form: %.300s", body)
}
