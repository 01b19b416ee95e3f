package construct

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// TestGolden writes small instances of every construction of this file set
// as canonical JSON and compares the bytes with testdata/*.json (rewrite
// them with go test ./construct -update after checking a change by hand).
// Each file must also read back as the same system.
func TestGolden(t *testing.T) {
	kuo := func() (set.System, error) {
		c1, _ := Uniform(4, 2)
		c2, _ := Uniform(4, 2)
		c2.Labels = []string{"a", "b", "c", "d"}
		f, err := Join(c1, c2, 3, 100)
		return set.System{Family: f}, err
	}
	for _, tt := range []struct {
		file  string
		build func() (set.System, error)
	}{
		{"billiard-5.json", func() (set.System, error) { return build("billiard", map[string]any{"q": 5}) }},
		{"majority-5.json", func() (set.System, error) { return build("majority", map[string]any{"n": 5}) }},
		{"uniform-7-3-hk.json", func() (set.System, error) { return build("uniform", map[string]any{"n": 7, "k": 3, "hk": true}) }},
		{"cube-3-1.json", func() (set.System, error) { return build("cube", map[string]any{"a": 3, "k": 1}) }},
		{"cube-2-2-n7-hk.json", func() (set.System, error) {
			return build("cube", map[string]any{"a": 2, "k": 2, "n": 7, "hk": true})
		}},
		{"join-kuo.json", kuo},
	} {
		t.Run(tt.file, func(t *testing.T) {
			sys, err := tt.build()
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := format.Write(&buf, sys, format.JSON, format.Options{}); err != nil {
				t.Fatal(err)
			}
			again, _ := tt.build()
			var buf2 bytes.Buffer
			format.Write(&buf2, again, format.JSON, format.Options{})
			if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
				t.Fatal("two runs gave different bytes")
			}
			path := filepath.Join("testdata", tt.file)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from the golden file:\n%s\nwant:\n%s", tt.file, buf.Bytes(), want)
			}
			back, err := format.ReadBytes(want, format.JSON, format.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var buf3 bytes.Buffer
			format.Write(&buf3, back, format.JSON, format.Options{})
			if !bytes.Equal(buf3.Bytes(), want) {
				t.Errorf("%s does not read back as the same system", tt.file)
			}
		})
	}
}
