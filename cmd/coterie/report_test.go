package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// runCmd runs the command line in-process and returns the exit status,
// standard output and standard error.
func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &streams{in: strings.NewReader(""), out: &out, err: &errb})
	return code, out.String(), errb.String()
}

// TestReportMarkdownMatchesInfo: the Markdown report gives the numbers of
// `info --json` for the same file, each in its row.
func TestReportMarkdownMatchesInfo(t *testing.T) {
	dir := t.TempDir()
	for _, gen := range [][]string{
		{"fpp", "--order", "2"}, {"grid", "--rows", "3", "--cols", "4"}, {"majority", "--n", "5"}, {"billiard", "--q", "5"},
	} {
		t.Run(gen[0], func(t *testing.T) {
			file := filepath.Join(dir, gen[0]+".json")
			if code, _, e := runCmd(t, append([]string{"generate"}, append(gen, "-o", file)...)...); code != 0 {
				t.Fatal(e)
			}
			md := filepath.Join(dir, gen[0]+".md")
			if code, _, e := runCmd(t, "report", file, "-o", md); code != 0 {
				t.Fatal(e)
			}
			_, info, _ := runCmd(t, "info", file, "--json")
			var rep map[string]any
			dec := json.NewDecoder(strings.NewReader(info))
			dec.UseNumber()
			if err := dec.Decode(&rep); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(md)
			if err != nil {
				t.Fatal(err)
			}
			page := string(data)
			spread := func(key string) string {
				s := rep[key].(map[string]any)
				return fmt.Sprintf("%v / %v / %v", s["min"], s["mean"], s["max"])
			}
			msgs := rep["messages"].(map[string]any)
			want := map[string]string{
				"quorums":                        fmt.Sprint(rep["quorums"]),
				"quorum size (min / mean / max)": spread("quorum_size"),
				"degree (min / mean / max)":      spread("degree"),
				"messages per entry":             shortOf(rep["messages_per_entry"]),
				"network load":                   shortOf(rep["network_load"]),
				"resilience":                     fmt.Sprint(rep["resilience"]),
				"load":                           exactOr(rep, "load"),
				"capacity":                       exactOr(rep, "capacity"),
				"Maekawa, light demand: 3(K−1)":  fmt.Sprint(msgs["maekawa_light"]),
				"Maekawa, heavy demand, worst case: 5(K−1)":                    fmt.Sprint(msgs["maekawa_heavy_max"]),
				`ordered locking without timestamps (Kakugawa et al.): 3\|q\|`: fmt.Sprint(msgs["ordered_locking"]),
			}
			if w, ok := rep["resilience_witness"].([]any); ok {
				want["resilience witness (these failing stop every quorum)"] = "{" + strings.Trim(fmt.Sprint(w), "[]") + "}"
			}
			for k, v := range want {
				row := "| " + k + " | " + v + " |"
				if !strings.Contains(page, row) {
					t.Errorf("no row %q in the report", row)
				}
			}
		})
	}
}

// exactOr is the report's cell for a figure of info --json: "3/7 ≈ 0.4286"
// when the exact value is a fraction, else the number, to four
// significant digits.
func exactOr(rep map[string]any, key string) string {
	v := shortOf(rep[key])
	if e, ok := rep[key+"_exact"].(string); ok && strings.Contains(e, "/") {
		return e + " ≈ " + v
	}
	return v
}

// shortOf writes a JSON number as the report does: an integer whole,
// anything else to four significant digits.
func shortOf(v any) string {
	x, err := strconv.ParseFloat(fmt.Sprint(v), 64)
	if err != nil {
		return fmt.Sprint(v)
	}
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// TestReportHTMLFile: report -o writes an HTML page; a bad extension is a
// usage error that writes nothing.
func TestReportHTMLFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.json")
	runCmd(t, "generate", "fpp", "--order", "2", "-o", file)
	out := filepath.Join(dir, "r.html")
	if code, _, e := runCmd(t, "report", file, file, "-o", out); code != 0 {
		t.Fatal(e)
	}
	data, _ := os.ReadFile(out)
	if !bytes.HasPrefix(data, []byte("<!DOCTYPE html>")) || !bytes.Contains(data, []byte(`id="comparison"`)) {
		t.Error("no HTML page with a comparison")
	}
	if code, _, e := runCmd(t, "report", file, "-o", filepath.Join(dir, "r.pdf")); code != 2 || !strings.Contains(e, "must end in .html or .md") {
		t.Errorf("exit %d, %q", code, e)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.pdf")); err == nil {
		t.Error("r.pdf was written")
	}
}
