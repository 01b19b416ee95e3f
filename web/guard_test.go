package web_test

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/web"
)

// TestHostRefused: a Host that is not the server's address or a loopback
// name with its port is refused (DNS rebinding), on the page and the API.
func TestHostRefused(t *testing.T) {
	for _, tt := range []struct {
		addr, host string
		ok         bool
	}{
		{"127.0.0.1:8080", "attacker.example", false},
		{"127.0.0.1:8080", "attacker.example:8080", false},
		{"127.0.0.1:8080", "localhost.attacker.example:8080", false},
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "localhost:8080", true},
		{"127.0.0.1:8080", "LOCALHOST:8080", true},
		{"127.0.0.1:8080", "[::1]:8080", true},
		{"127.0.0.1:8080", "localhost:9090", false},
		{"127.0.0.1:8080", "localhost", false},
		{"0.0.0.0:8080", "192.0.2.7:8080", true},
		{"0.0.0.0:8080", "attacker.example:8080", false},
		{"[::]:8080", "[2001:db8::1]:8080", true},
		{"[::]:8080", "127.0.0.1:8080", true},
		{"[::]:8080", "attacker.example:8080", false},
		{"[::1]:8080", "[::1]:8080", true},
		{"192.0.2.7:8080", "192.0.2.7:8080", true},
		{"192.0.2.7:8080", "192.0.2.8:8080", false},
		{"", "localhost:1234", true},
		{"", "127.0.0.1", true},
		{"", "attacker.example", false},
	} {
		h := web.New(web.Options{Addr: tt.addr})
		for _, p := range []string{"/", "/app.js", "/api/constructions"} {
			r := httptest.NewRequest("GET", p, nil)
			r.Host = tt.host
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if ok := rec.Code == 200; ok != tt.ok {
				t.Errorf("listening on %q, Host %q, %s: %d", tt.addr, tt.host, p, rec.Code)
			}
			if !tt.ok && !strings.Contains(rec.Body.String(), "is not this server's address") {
				t.Errorf("Host %q: %s", tt.host, rec.Body)
			}
		}
		r := apiRequest(h, "POST", "/api/generate", strings.NewReader(`{"kind":"fpp","params":{"order":"2"}}`))
		r.Host = tt.host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if ok := rec.Code == 200; ok != tt.ok {
			t.Errorf("listening on %q, Host %q, generate: %d", tt.addr, tt.host, rec.Code)
		}
	}
}

// TestCrossOriginRefused: a state-changing request from another origin,
// one the browser marks as cross-site, and one without the page's token
// are refused before any work; the page's own request is served.
func TestCrossOriginRefused(t *testing.T) {
	h := web.New(web.Options{})
	body := `{"kind":"fpp","params":{"order":"2"}}`
	for _, tt := range []struct {
		name    string
		headers map[string]string
		token   bool
		want    int
		msg     string
	}{
		{"a text/plain form post from another site", map[string]string{"Content-Type": "text/plain", "Origin": "http://attacker.example", "Sec-Fetch-Site": "cross-site"}, false, 403, "another site"},
		{"another origin, even with the token", map[string]string{"Origin": "http://attacker.example"}, true, 403, "from origin"},
		{"another port of localhost", map[string]string{"Origin": "http://localhost:9999", "Sec-Fetch-Site": "same-site"}, true, 403, "another site"},
		{"an opaque origin", map[string]string{"Origin": "null"}, true, 403, "from origin"},
		{"cross-site by Sec-Fetch-Site only", map[string]string{"Sec-Fetch-Site": "cross-site"}, true, 403, "another site"},
		{"no token", map[string]string{"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}, false, 403, "token"},
		{"a wrong token", map[string]string{"Origin": "http://localhost", web.TokenHeader: "0123"}, false, 403, "token"},
		{"the page's own request", map[string]string{"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}, true, 200, ""},
		{"a script without a browser, with the token", nil, true, 200, ""},
	} {
		r := httptest.NewRequest("POST", "/api/generate", strings.NewReader(body))
		r.Host = "localhost"
		if tt.token {
			r.Header.Set(web.TokenHeader, h.Token())
		}
		for k, v := range tt.headers {
			r.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != tt.want || !strings.Contains(rec.Body.String(), tt.msg) {
			t.Errorf("%s: %d %s, want %d with %q", tt.name, rec.Code, rec.Body, tt.want, tt.msg)
		}
	}
	// A cross-site GET of the API (an <img> or a link to a report) is
	// refused too; a download from the page itself is not.
	a := generate(t, h, "fpp", map[string]string{"order": "2"})
	for site, want := range map[string]int{"cross-site": 403, "same-site": 403, "same-origin": 200, "none": 200} {
		r := apiRequest(h, "GET", "/api/report?ids="+a["id"].(string), nil)
		r.Header.Set("Sec-Fetch-Site", site)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != want {
			t.Errorf("report with Sec-Fetch-Site %s: %d", site, rec.Code)
		}
	}
}

// TestSecurityHeaders: every answer, the page, a file, the API, an error
// and a refusal, carries the security headers; the page has no inline
// script or event handler, and carries the token.
func TestSecurityHeaders(t *testing.T) {
	h := web.New(web.Options{})
	want := map[string]string{
		"Content-Security-Policy":      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
		"X-Content-Type-Options":       "nosniff",
		"Referrer-Policy":              "no-referrer",
		"X-Frame-Options":              "DENY",
		"Cross-Origin-Opener-Policy":   "same-origin",
		"Cross-Origin-Resource-Policy": "same-origin",
	}
	for _, tt := range []struct {
		method, path, host string
		code               int
	}{
		{"GET", "/", "localhost", 200},
		{"GET", "/app.js", "localhost", 200},
		{"GET", "/app.css", "localhost", 200},
		{"GET", "/api/constructions", "localhost", 200},
		{"GET", "/api/system/nope", "localhost", 404},
		{"GET", "/nope.html", "localhost", 404},
		{"POST", "/api/generate", "localhost", 400},
		{"GET", "/", "attacker.example", 403},
	} {
		r := apiRequest(h, tt.method, tt.path, strings.NewReader("not json"))
		r.Host = tt.host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != tt.code {
			t.Errorf("%s %s: %d, want %d", tt.method, tt.path, rec.Code, tt.code)
		}
		for k, v := range want {
			if got := rec.Header().Get(k); got != v {
				t.Errorf("%s %s: %s %q, want %q", tt.method, tt.path, k, got, v)
			}
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "GET", "/", nil))
	page := rec.Body.String()
	for _, m := range regexp.MustCompile(`(?is)<script([^>]*)>(.*?)</script>`).FindAllStringSubmatch(page, -1) {
		if !strings.Contains(m[1], "src=") || strings.TrimSpace(m[2]) != "" {
			t.Errorf("inline script %q", m[0])
		}
	}
	if m := regexp.MustCompile(`(?i)\son[a-z]+\s*=`).FindString(page); m != "" {
		t.Errorf("an inline event handler: %q", m)
	}
	if strings.Contains(page, "javascript:") {
		t.Error("a javascript: URL in the page")
	}
	if !strings.Contains(page, `<meta name="coterie-token" content="`+h.Token()+`">`) || len(h.Token()) < 32 {
		t.Errorf("the page does not carry the token %q", h.Token())
	}
	if rec.Header().Get("Cache-Control") != "no-store" {
		t.Error("the page with its token may be cached")
	}
	if web.New(web.Options{}).Token() == h.Token() {
		t.Error("two servers share a token")
	}
}
