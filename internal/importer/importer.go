package importer

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

const (
	errNoNamespace = "--namespace is required: the namespace the resources are for"
	errNoDir       = "--dir is required: the directory to write the manifests into"
	errMode        = "--mode %q is neither observe nor adopt"
)

// Options are one import's settings.
type Options struct {
	Source Source
	Filter Filter
	// Namespace the resources are for; Dir the directory the files are written into.
	Namespace, Dir string
	Mode           Mode
	// Factory builds the Keystone client; nil uses a fresh one.
	Factory *keystone.Factory
	// AuthentikFactory builds the authentik client; nil uses a fresh one.
	AuthentikFactory *authentik.Factory
}

// A Summary is what an import did.
type Summary struct {
	Plan
	// Dir is where the files are; Changed is how many of them this run wrote or rewrote.
	Dir     string
	Changed int
	Mode    Mode
}

// Run lists, judges and writes. In adopt mode on a directory that holds an earlier import's
// files, only the objects of those files are rewritten: the reviewed ones.
func Run(ctx context.Context, o Options) (Summary, error) {
	if err := o.check(); err != nil {
		return Summary{}, err
	}
	if o.Mode == "" {
		o.Mode = ModeObserve
	}
	c, err := connect(ctx, o.Source, o.Namespace, o.factories())
	if err != nil {
		return Summary{}, err
	}
	objs, err := c.list(ctx, o.Filter)
	if err != nil {
		return Summary{}, err
	}
	t, err := o.target(ctx, c)
	if err != nil {
		return Summary{}, err
	}
	p, err := Build(objs, t)
	if err != nil {
		return Summary{}, err
	}
	changed, err := write(o.Dir, p)
	return Summary{Plan: p, Dir: o.Dir, Changed: changed, Mode: o.Mode}, err
}

// check refuses options an import cannot run with.
func (o Options) check() error {
	switch {
	case o.Namespace == "":
		return errors.New(errNoNamespace)
	case o.Dir == "":
		return errors.New(errNoDir)
	case o.Mode != "" && o.Mode != ModeObserve && o.Mode != ModeAdopt:
		return errors.Errorf(errMode, o.Mode)
	}
	return o.Filter.Validate()
}

// factories are the options' client factories, fresh ones where none is given.
func (o Options) factories() factories {
	f := factories{keystone: o.Factory, authentik: o.AuthentikFactory}
	if f.keystone == nil {
		f.keystone = &keystone.Factory{}
	}
	if f.authentik == nil {
		f.authentik = &authentik.Factory{}
	}
	return f
}

// target is what the manifests are written for: the namespace, the mode, the connection's
// config and installation, what this installation's resources already claim and, in adopt mode
// over an earlier import, the reviewed objects only.
func (o Options) target(ctx context.Context, c connection) (Target, error) {
	t := Target{Namespace: o.Namespace, Mode: o.Mode, ProviderConfigRef: c.pcRef, Installation: c.installation}
	var err error
	if t.Claimed, err = claimed(ctx, o.Source.Kube); err != nil {
		return t, err
	}
	if o.Mode != ModeAdopt {
		return t, nil
	}
	only, found, err := reviewed(o.Dir)
	if err != nil {
		return t, err
	}
	if found {
		t.Only = only
	}
	return t, nil
}

// Counts returns how many manifests each kind has.
func (s Summary) Counts() map[string]int {
	out := map[string]int{}
	for _, f := range s.Files {
		out[f.Kind]++
	}
	return out
}

// Print writes the summary for a person: files per kind, what was skipped and why, and the
// notes on what to supply.
func (s Summary) Print(w io.Writer) error {
	counts := s.Counts()
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	var b strings.Builder
	fmt.Fprintf(&b, "%d manifest(s) in %s (mode %s; %d written or rewritten by this run):\n", len(s.Files), s.Dir, s.Mode, s.Changed)
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %-22s %d\n", k, counts[k])
	}
	refused := 0
	for _, sk := range s.Skipped {
		if sk.Refused {
			refused++
		}
	}
	if len(s.Skipped) > 0 {
		fmt.Fprintf(&b, "%d object(s) skipped (%d refused as possibly another installation's):\n", len(s.Skipped), refused)
		for _, sk := range s.Skipped {
			b.WriteString("  " + sk.Describe + " " + sk.Reason + "\n")
		}
	}
	if len(s.Notes) > 0 {
		fmt.Fprintf(&b, "%d note(s):\n  %s\n", len(s.Notes), strings.Join(s.Notes, "\n  "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
