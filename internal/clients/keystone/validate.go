package keystone

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// Keystone's rules for the values drivers write, checked with clients.CheckFields right
// before a create or update. Keystone stores names as given and puts IDs into URLs.

var (
	keystoneID   = regexp.MustCompile(`^[A-Za-z0-9-]+$`)
	federationID = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

// Name is a Keystone name of at most max characters: not blank, no control characters.
func Name(max int) clients.Rule {
	return func(v string) string {
		switch {
		case strings.TrimSpace(v) == "":
			return "is blank"
		case len([]rune(v)) > max:
			return "is longer than Keystone's limit of " + strconv.Itoa(max) + " characters"
		}
		return clients.SingleLine(v)
	}
}

// Description is free text: tabs and line breaks are allowed, other control characters are not.
func Description(v string) string { return clients.Text(v) }

// ID is the ID of a Keystone domain, project or role as Keystone generates it (and as its
// schema requires where it validates one): letters, digits and hyphens, at most 64.
func ID(v string) string {
	if len(v) > 64 || !keystoneID.MatchString(v) {
		return "is not a Keystone ID: letters, digits and hyphens only, at most 64 characters"
	}
	return ""
}

// FederationID is the ID of an identity provider, mapping or protocol, chosen by the user and
// part of the federation URLs: letters, digits, '-' and '_', at most 64 (Keystone's mapping
// ID rule).
func FederationID(v string) string {
	if len(v) > 64 || !federationID.MatchString(v) {
		return "is not a Keystone federation ID: letters, digits, '-' and '_' only, at most 64 characters"
	}
	return ""
}

// ActorID is the ID of a user or a group, which an LDAP backend may take from a directory
// attribute: it becomes one segment of a URL, so no '/', no control characters, not . or ..
func ActorID(v string) string {
	if v == "" || len(v) > 64 || strings.Contains(v, "/") || clients.HasControlChars(v) || v == "." || v == ".." {
		return "is not a usable Keystone ID: 1 to 64 characters, no '/' or control characters, not . or .."
	}
	return ""
}

// Tag is a project tag: 1 to 255 characters, no ',' or '/' (Keystone's tag rules), no control
// characters.
func Tag(v string) string {
	if v == "" || len([]rune(v)) > 255 || strings.ContainsAny(v, ",/") || clients.HasControlChars(v) {
		return "is not a Keystone tag: 1 to 255 characters, no ',', '/' or control characters"
	}
	return ""
}
