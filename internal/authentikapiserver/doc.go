// Package authentikapiserver is test tooling: an in-memory stand-in for the
// authentik REST API (/api/v3) that the provider's tests and e2e runs talk to
// because authentik itself cannot run on the development and CI machines.
//
// It is never linked into the provider binary.
//
// Every request and every response is checked against authentik's own openapi
// document (api/openapi.yaml of the pinned goauthentik.io/api/v3 module) with
// kin-openapi. A request the document rejects is recorded as a Violation and
// answered 400; a response of ours the document rejects is recorded too (that
// is a bug here). Tests assert Violations() is empty.
//
// Behaviour mirrors authentik 2026.8 for the endpoints the provider uses:
// uniqueness rules and their error wording, 404 bodies, pagination, computed
// fields (OAuth2 client_id/secret, SAML URLs, assigned application names),
// default flows, certificate and managed property mappings, and what a delete
// takes along (Django's on_delete: an application's bindings, entitlements and
// backchannel providers, a user's tokens, a policy's, group's, user's, flow's
// or flow-stage binding's policy bindings, a flow's or stage's stage bindings; a provider unset on its application,
// a group dropped from its children and members). Test hooks (Go
// methods and /_test/ HTTP paths) count requests, inject faults, seed objects
// and read them back byte for byte.
package authentikapiserver
