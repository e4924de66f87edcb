package main

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// idSegment matches a path segment that is an object ID rather than a collection or action
// name: Keystone's IDs are 32 hex digits (UUIDs with hyphens for some backends, 64 hex for LDAP
// users and groups). "default" (the Default domain's ID) stays literal: it is one fixed object,
// and seeing it in a template says which one.
var idSegment = regexp.MustCompile(`^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}([0-9a-fA-F]{32})?$`)

// pathTemplate folds a request into the template it was made from, so that N requests for N
// different objects count as one line: IDs become {id}, query values become *, query keys are
// kept and sorted (which filters a list used is what tells a per-object lookup from a shared list).
func pathTemplate(method, rawPath, rawQuery string) string {
	segs := strings.Split(rawPath, "/")
	for i, s := range segs {
		if idSegment.MatchString(s) {
			segs[i] = "{id}"
		}
	}
	t := method + " " + strings.Join(segs, "/")
	if rawQuery == "" {
		return t
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return t + "?{unparsable}"
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k+"=*")
	}
	sort.Strings(keys)
	return t + "?" + strings.Join(keys, "&")
}

// isWrite tells the requests that change Keystone's objects from reads. Issuing a token (POST
// /v3/auth/tokens) is a POST but writes no identity object: it is counted apart, so that "writes
// at steady state must be 0" means what it says.
func isWrite(template string) bool {
	method, path, _ := strings.Cut(template, " ")
	switch method {
	case "GET", "HEAD", "OPTIONS":
		return false
	}
	return !strings.HasPrefix(path, "/v3/auth/tokens")
}
