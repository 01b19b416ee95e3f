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
// coterie. A request must name the server's host and, when it changes
// state, carry the server's token (the page reads it from its
// <meta name="coterie-token"> element).
func Example() {
	h := web.New(web.Options{Addr: "127.0.0.1:8080"})
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/api/generate", strings.NewReader(`{"kind": "fpp", "params": {"order": "2"}}`))
	req.Header.Set(web.TokenHeader, h.Token())
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
