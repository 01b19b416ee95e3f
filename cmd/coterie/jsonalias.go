package main

import "github.com/coterie-dev/coterie/jsonreport"

// The JSON shapes of package jsonreport under the names the command's
// files use.
type number = jsonreport.Number
