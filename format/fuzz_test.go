package format_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/coterie-dev/coterie/format"
)

// fuzzRead checks that reading never panics, that every failure is an
// *format.SyntaxError, and that whatever reads writes back to the same system.
func fuzzRead(f *testing.F, ft format.Format, ext string, seeds ...string) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*"+ext))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sys, err := format.ReadBytes(data, ft, format.DefaultOptions())
		if err != nil {
			if _, ok := err.(*format.SyntaxError); !ok {
				t.Fatalf("error %v is %T, want *format.SyntaxError", err, err)
			}
			return
		}
		var buf bytes.Buffer
		if err := format.Write(&buf, sys, ft, format.DefaultOptions()); err != nil {
			if ft == format.Dat {
				return
			}
			t.Fatalf("writing what was read: %v", err)
		}
		back, err := format.ReadBytes(buf.Bytes(), ft, format.DefaultOptions())
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, buf.Bytes())
		}
		if d := sameSystem(sys, back, ft == format.Dat); d != "" {
			t.Fatalf("round trip: %s", d)
		}
	})
}

func FuzzReadJSON(f *testing.F) {
	fuzzRead(f, format.JSON, ".json",
		`{"format": "coterie/1", "n": 3, "k": 2, "arbiters": [{"h": 1, "quorums": [[1], [2, 3]], "owners": [null, 2]}]}`,
		`{"format": "coterie/1", "n": 3, "params": {"a": [1, {"b": null}]}, "threshold": 2}`,
		`{"format": "coterie/1", "n": 2, "labels": ["\u00e9", "a\"b"], "quorums": [[1, 2]]}`)
}

func FuzzReadText(f *testing.F) {
	fuzzRead(f, format.Text, ".txt", "1 2\n2 3 # owner: 2\n", "# n: 4\n# k: 2\n# h: 2\n# threshold: 3\n")
}

func FuzzReadCSV(f *testing.F) {
	fuzzRead(f, format.CSV, ".csv", "h,quorum,node\n1,1,2\n2,1,1\n", "quorum,node,owner\n1,1,\n1,2,\n")
}

func FuzzReadDat(f *testing.F) {
	fuzzRead(f, format.Dat, ".dat", "1 2\n2 3\n", "  5\t6\n\n# c\n")
}
