package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/coterie-dev/coterie/web"
)

// Build a system through the explorer's API and read its analysis: the
// projective plane of order 2 (the Fano plane), seven nodes and a valid
// coterie.
func Example() {
	h := web.New(web.Options{})
	req := httptest.NewRequest(http.MethodPost, "/api/generate", strings.NewReader(`{"kind": "fpp", "params": {"order": "2"}}`))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var a web.Analysis
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		panic(err)
	}
	fmt.Println(rec.Code, a.Name, a.N, a.Valid)
	fmt.Println(a.Verdict)
	// Output:
	// 200 fpp order=2 7 true
	// valid as a coterie (n = 7, 7 quorums)
}
