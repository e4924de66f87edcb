// Package importer writes managed resource manifests for objects that already exist in Keystone
// or authentik, for `kubectl identity import` (cmd/kubectl-identity): one file per
// object, in a target namespace, with its external name set, forProvider filled from what was
// read and references between the imported objects as *Ref fields. It never offers an object
// another installation's marker names, skips those this installation already manages, and
// writes the same files for the same objects on every run. See docs/import.md.
package importer
