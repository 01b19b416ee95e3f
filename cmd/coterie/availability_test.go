package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/draw"
)

// runAvailabilityCmd runs the command line in-process and returns its exit status
// and output.
func runAvailabilityCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &streams{in: strings.NewReader(""), out: &out, err: &errb})
	return code, out.String(), errb.String()
}

func avHex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// avPlotInputs writes four systems into dir and returns their paths.
func avPlotInputs(t *testing.T, dir string) []string {
	files := map[string]string{
		"tri.txt":   "1 2\n2 3\n1 3\n",
		"fano.txt":  "1 2 3\n1 4 5\n1 6 7\n2 4 6\n2 5 7\n3 4 7\n3 5 6\n",
		"wide.txt":  "1 2 3 4 5\n",
		"maj9.json": `{"format": "coterie/1", "n": 9, "k": 1, "threshold": 5}`,
	}
	var names []string
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"tri.txt", "fano.txt", "wide.txt", "maj9.json"} {
		names = append(names, filepath.Join(dir, name))
	}
	return names
}

// --plot OUT.svg: the picture parses as SVG, has one long path per input
// in that input's colour, and a legend naming every input.
func TestAvailabilityPlotSVG(t *testing.T) {
	dir := t.TempDir()
	names := avPlotInputs(t, dir)
	code, _, stderr := runAvailabilityCmd(t, append(append([]string{"availability"}, names...), "--plot", filepath.Join(dir, "out.svg"), "--p", "0.5")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "out.svg"))
	if err != nil {
		t.Fatal(err)
	}
	longest := map[string]int{}
	var text strings.Builder
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("out.svg does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			var d, style string
			for _, a := range e.Attr {
				switch a.Name.Local {
				case "d":
					d = a.Value
				case "style":
					style = a.Value
				}
			}
			if i := strings.Index(style, "stroke:#"); e.Name.Local == "path" && i >= 0 {
				c := style[i+7 : i+14]
				longest[c] = max(longest[c], strings.Count(d, "L"))
			}
		case xml.CharData:
			text.Write(e)
		}
	}
	curves := 0
	for i, name := range names {
		if longest[avHex(draw.SeriesColor(i))] >= 50 {
			curves++
		}
		if !strings.Contains(text.String(), name) {
			t.Errorf("legend lacks %s", name)
		}
	}
	if curves != len(names) {
		t.Errorf("%d curves drawn, want %d (paths by colour: %v)", curves, len(names), longest)
	}
	if longest[avHex(draw.SeriesColor(len(names)))] >= 50 {
		t.Error("a curve too many")
	}
}

// --plot OUT.png: the picture decodes as PNG and shows every input's colour.
func TestAvailabilityPlotPNG(t *testing.T) {
	dir := t.TempDir()
	names := avPlotInputs(t, dir)
	code, _, stderr := runAvailabilityCmd(t, append(append([]string{"availability"}, names...), "--plot", filepath.Join(dir, "out.png"))...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(filepath.Join(dir, "out.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, kind, err := image.Decode(f)
	if err != nil || kind != "png" {
		t.Fatalf("out.png: %v (%s)", err, kind)
	}
	count := map[string]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[avHex(img.At(x, y))]++
		}
	}
	for i, name := range names {
		if n := count[avHex(draw.SeriesColor(i))]; n < 50 {
			t.Errorf("%s: %d pixels of its colour", name, n)
		}
	}
}

// A failed run leaves no plot behind.
func TestAvailabilityPlotNoPartialFile(t *testing.T) {
	dir := t.TempDir()
	names := avPlotInputs(t, dir)
	code, _, _ := runAvailabilityCmd(t, "availability", names[0], "--plot", filepath.Join(dir, "out.svg"), "--p-node", "7=0.5")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.svg")); err == nil {
		t.Error("out.svg was written by a failed run")
	}
}
