package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDomains: the worked example of docs/domains.md — HQC 3×3
// over three zones of three nodes, each zone up with probability 0.999 —
// pasted with its zones. The page shows the domain tree (three zones of
// three nodes), the zone resilience (any 1 of the 3 zones may fail; two
// kill it), and both drawings with a bar per zone beside its rows.
func TestBrowserDomains(t *testing.T) {
	b := newBrowser(t)
	b.run("open the explorer", chromedp.Navigate(b.base+"/"), chromedp.WaitReady("#param-order", chromedp.ByID))
	b.upload("zones.json", `{"format": "coterie/1", "n": 9,
 "reads": "choose(2, choose(2, 1, 2, 3), choose(2, 4, 5, 6), choose(2, 7, 8, 9))",
 "writes": "choose(2, choose(2, 1, 2, 3), choose(2, 4, 5, 6), choose(2, 7, 8, 9))",
 "nodes": [{"node": 1, "domain": "zone-a"}, {"node": 2, "domain": "zone-a"}, {"node": 3, "domain": "zone-a"},
  {"node": 4, "domain": "zone-b"}, {"node": 5, "domain": "zone-b"}, {"node": 6, "domain": "zone-b"},
  {"node": 7, "domain": "zone-c"}, {"node": 8, "domain": "zone-c"}, {"node": 9, "domain": "zone-c"}],
 "domains": [{"domain": "zone-a", "p": "0.999"}, {"domain": "zone-b", "p": "0.999"}, {"domain": "zone-c", "p": "0.999"}]}`)
	b.run("analysed", waitText("#verdict", "read-write system"))
	// tableAfter reads the rows of the table under a heading of the
	// report's sections.
	tableAfter := func(heading string) [][]string {
		var rows [][]string
		b.eval("table "+heading, `(() => {
			const h = [...document.querySelectorAll("#sections h3")].find((h) => h.textContent === `+jsString(heading)+`);
			if (!h) return [];
			let t = h.nextElementSibling;
			if (t && t.tagName !== "TABLE") t = t.querySelector("table");
			return t ? [...t.querySelectorAll("tr")].filter((r) => r.querySelector("td")).map((r) => [...r.cells].map((c) => c.textContent.trim())) : [];
		})()`, &rows)
		return rows
	}
	tree := tableAfter("Failure domains")
	b.check("domain tree", len(tree) == 3 && tree[0][0] == "zone-a" && tree[2][0] == "zone-c" && tree[1][3] == "0.999",
		"rows %q", tree)
	res := tableAfter("Domain resilience")
	b.check("domain resilience", len(res) == 1 && strings.Join(res[0][1:5], " ") == "3 1 1 1" && strings.Count(res[0][5], "zone-") == 2,
		"rows %q, want 3 zones, resilience 1 for reads, writes and both, two zones killing", res)
	var bars []int
	b.eval("zone bars", `["#drawing-reads", "#drawing-writes"].map((h) => document.querySelectorAll(h + " rect.domain[data-domain^='zone-']").length)`, &bars)
	b.check("drawings", len(bars) == 2 && bars[0] == 3 && bars[1] == 3, "zone bars on reads and writes: %v, want 3 and 3", bars)
	b.stage("domains")
}
