package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/jsonreport"
)

// domainResText says one level's resilience in a table cell.
func domainResText(j jsonreport.DomainResilience) string {
	side := func(k int, kill []string, what string) string {
		if kill == nil {
			return fmt.Sprintf("%d of %d (no failure of these stops %s)", k, j.Domains, what)
		}
		return fmt.Sprintf("%d of %d ({%s} fail: no %s quorum)", k, j.Domains, strings.Join(kill, ", "), what)
	}
	if fmt.Sprint(j.ReadKilling) == fmt.Sprint(j.WriteKilling) {
		return side(j.Resilience, j.Killing, "read or write")
	}
	return side(j.ReadResilience, j.ReadKilling, "read") + "; " + side(j.WriteResilience, j.WriteKilling, "write")
}

// domainResLabel names a level's row in a table.
func domainResLabel(j jsonreport.DomainResilience) string {
	if j.Name != "" {
		return "domain resilience, " + j.Name
	}
	return "domain resilience, level " + strconv.Itoa(j.Level)
}
