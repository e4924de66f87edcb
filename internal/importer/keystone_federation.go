package importer

import (
	"context"
	"fmt"
	"slices"

	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/federation"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/mapping"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/protocol"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// The Keystone federation kinds.
const (
	kindIdentityProvider = "IdentityProvider"
	kindMapping          = "Mapping"
	kindProtocol         = "Protocol"
)

// mappings is Keystone's mapping collection, read through the importer's API (the Mapping
// driver reads one mapping through gophercloud's federation package, which has the same shape).
var mappings = keystone.Collection[federation.Mapping]{Path: "OS-FEDERATION/mappings", Singular: "mapping", Plural: "mappings"}

// federationObject fills what every federation object shares. Their IDs are chosen by whoever
// made them, so the ID is also the name.
func federationObject(kind, typ, id, name string) *Object {
	return &Object{
		Kind: kind, APIVersion: v1alpha1.SchemeGroupVersion.String(),
		GroupKind: v1alpha1.SchemeGroupVersion.WithKind(kind).GroupKind().String(),
		ID:        id, Name: name, Describe: fmt.Sprintf("Keystone %s %q", typ, id),
	}
}

// federation lists identity providers (of the domains in scope), their protocols and the
// mappings: all of them, or with --domain those the listed protocols use.
func (l *ksLister) federation(ctx context.Context) error {
	if !l.f.kind(kindIdentityProvider) && !l.f.kind(kindProtocol) && !l.f.kind(kindMapping) {
		return nil
	}
	idps, err := keystone.ListIdentityProviders(ctx, l.sc, nil)
	if err != nil {
		return keystone.Wrap(err, errList, "identity providers")
	}
	used := map[string]bool{}
	for _, idp := range idps {
		if !slices.Contains(l.inScope, idp.DomainID) {
			continue
		}
		if l.f.kind(kindIdentityProvider) && l.f.name(idp.ID) {
			l.out = append(l.out, identityProviderObject(idp))
		}
		if err := l.protocols(ctx, idp.ID, used); err != nil {
			return err
		}
	}
	return l.mappings(ctx, used)
}

// protocols lists an identity provider's protocols, and records the mappings they use: with
// --domain, the mappings listed are those.
func (l *ksLister) protocols(ctx context.Context, idp string, used map[string]bool) error {
	if !l.f.kind(kindProtocol) && (!l.f.kind(kindMapping) || l.f.Domain == "") {
		return nil
	}
	ps, err := keystone.ListProtocols(ctx, l.sc, idp)
	if err != nil {
		return keystone.Wrap(err, errList, "protocols of identity provider "+idp)
	}
	for _, p := range ps {
		used[p.MappingID] = true
		if l.f.kind(kindProtocol) && l.f.name(p.ID) {
			l.out = append(l.out, protocolObject(idp, p))
		}
	}
	return nil
}

// mappings lists the mappings: all of them, or with --domain those of used.
func (l *ksLister) mappings(ctx context.Context, used map[string]bool) error {
	if !l.f.kind(kindMapping) {
		return nil
	}
	ms, err := mappings.List(ctx, l.sc, nil)
	if err != nil {
		return keystone.Wrap(err, errList, "mappings")
	}
	for _, m := range ms {
		if (l.f.Domain != "" && !used[m.ID]) || !l.f.name(m.ID) {
			continue
		}
		o := federationObject(kindMapping, "mapping", m.ID, m.ID)
		o.Markerless = true
		o.Build = func(Refs) any { return v1alpha1.MappingParameters{ID: m.ID, Rules: mapping.FromKeystone(m.Rules)} }
		l.out = append(l.out, o)
	}
	return nil
}

// identityProviderObject reads the marker from the description's last line, as the driver
// does; the spec's description is the rest, which is what the driver compares.
func identityProviderObject(idp keystone.IdentityProvider) *Object {
	o := federationObject(kindIdentityProvider, "identity provider", idp.ID, idp.ID)
	rest, m, found, err := provenance.ExtractFromText(idp.Description)
	if found && err == nil {
		o.Marker = &m
	}
	o.Build = func(r Refs) any {
		fp := v1alpha1.IdentityProviderParameters{ID: idp.ID, Description: nonEmpty(rest), Enabled: &idp.Enabled}
		fp.DomainRef, fp.DomainID = ref(r, kindDomain, idp.DomainID)
		if len(idp.RemoteIDs) > 0 {
			fp.RemoteIDs = slices.Sorted(slices.Values(idp.RemoteIDs))
		}
		if t := idp.AuthorizationTTL; t != nil {
			v := int32(*t) //nolint:gosec // minutes; Keystone stores an int32 column
			fp.AuthorizationTTL = &v
		}
		return fp
	}
	return o
}

// protocolObject: a protocol keeps no marker (ADR 0003); its external name is
// <identity provider>/<protocol>, and its resource is named after both.
func protocolObject(idp string, p keystone.Protocol) *Object {
	ext := protocol.ExternalName(idp, p.ID)
	o := federationObject(kindProtocol, "protocol", ext, idp+"-"+p.ID)
	o.Describe = fmt.Sprintf("Keystone protocol %q of identity provider %q", p.ID, idp)
	o.Markerless = true
	o.Build = func(r Refs) any {
		fp := v1alpha1.ProtocolParameters{ID: p.ID, RemoteIDAttribute: nonEmpty(p.RemoteIDAttribute)}
		fp.IdentityProviderRef, fp.IdentityProviderID = ref(r, kindIdentityProvider, idp)
		fp.MappingRef, fp.MappingID = ref(r, kindMapping, p.MappingID)
		return fp
	}
	return o
}
