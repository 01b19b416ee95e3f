package main

import "github.com/coterie-dev/coterie/jsonreport"

// The JSON shapes of package jsonreport under the names the command's
// other files know them by.
type (
	domainResJSON = jsonreport.DomainResilience
	rwCompareRow  = jsonreport.RWCompareRow
	rwAvReport    = jsonreport.RWAvailability
	avPointJ      = jsonreport.SideAvPoint
)
