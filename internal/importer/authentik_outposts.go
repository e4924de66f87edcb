package importer

import (
	"context"
	"fmt"
	"slices"

	api "goauthentik.io/api/v3"

	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/outpost"
)

// The LDAP provider and outpost kinds the importer lists.
const (
	kindLDAPProvider = "LDAPProvider"
	kindOutpost      = "Outpost"
)

const (
	unsupportedOutpostType = "is a %s outpost: this provider manages proxy and LDAP outposts only; skipped"
	noteOutpostConfig      = "only the config keys authentik_host, authentik_host_insecure, authentik_host_browser, log_level, refresh_interval and object_naming_template are imported; the others stay as authentik has them"
	skipEmbedded           = "is authentik's embedded outpost, which authentik makes and keeps itself: left out; pass --include-builtin to import it (adopted, it is never deleted)"
	noteOutpostToken       = "the outpost's API token is published to the connection Secret once writeConnectionSecretToRef is set"
)

func (l *akLister) ldapProviders(ctx context.Context) error {
	ps, err := listAll(ctx, "LDAP providers", func(p int32) ([]api.LDAPProvider, api.Pagination, error) {
		r, resp, err := l.api.ProvidersAPI.ProvidersLdapList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	for _, p := range ps {
		o := l.providerObject(kindLDAPProvider, "LDAP provider", p.Pk, p.Name, p.AssignedApplicationSlug)
		flows := l.providerFlows(o, p.AuthorizationFlow, p.InvalidationFlow, api.NullableString{})
		fp := akv1.LDAPProviderParameters{Name: p.Name,
			AuthorizationFlow: &flows.AuthorizationFlow, InvalidationFlow: &flows.InvalidationFlow,
			BaseDN: nonEmpty(p.GetBaseDn()), MFASupport: p.MfaSupport, UIDStartNumber: p.UidStartNumber, GIDStartNumber: p.GidStartNumber,
			Certificate: l.cert(o, p.Certificate), TLSServerName: nonEmpty(p.GetTlsServerName())}
		if p.BindMode != nil {
			fp.BindMode = new(string(*p.BindMode))
		}
		if p.SearchMode != nil {
			fp.SearchMode = new(string(*p.SearchMode))
		}
		o.Build = func(Refs) any { return fp }
		l.emit(o)
	}
	return nil
}

// outposts lists the outposts. The embedded outpost is authentik's own (skipped unless
// --built-in); RADIUS and RAC outposts serve providers this provider does not manage. Providers
// are named by reference when their resources are imported too.
func (l *akLister) outposts(ctx context.Context) error {
	os, err := listAll(ctx, "outposts", func(p int32) ([]api.Outpost, api.Pagination, error) {
		r, resp, err := l.api.OutpostsAPI.OutpostsInstancesList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	for _, op := range os {
		o := akObject(kindOutpost, describeAk("outpost", op.Name, "ID", op.Pk), op.Pk, op.Name)
		o.Marker = authentik.AttributeMarker(op.Config)
		o.Notes = []string{noteOutpostConfig, noteOutpostToken}
		switch {
		case op.Type != api.OUTPOSTTYPEENUM_PROXY && op.Type != api.OUTPOSTTYPEENUM_LDAP:
			o.Unsupported = fmt.Sprintf(unsupportedOutpostType, op.Type)
		case !l.f.BuiltIn && op.GetManaged() == outpost.Embedded:
			o.Unsupported = skipEmbedded
		}
		kind := kindProxyProvider
		if op.Type == api.OUTPOSTTYPEENUM_LDAP {
			kind = kindLDAPProvider
		}
		ids := make([]string, 0, len(op.Providers))
		for _, pk := range op.Providers {
			ids = append(ids, itoa(pk))
		}
		cfg := outpostConfig(op.Config)
		o.Build = func(r Refs) any {
			fp := akv1.OutpostParameters{Name: op.Name, Type: string(op.Type), Config: cfg}
			ids, refs := refsOrIDs(r, kind, ids)
			if kind == kindLDAPProvider {
				fp.LDAPProviderIDs, fp.LDAPProviderRefs = ids, refs
			} else {
				fp.ProxyProviderIDs, fp.ProxyProviderRefs = ids, refs
			}
			if sc := op.ServiceConnection.Get(); sc != nil && *sc != "" {
				fp.ServiceConnectionID = sc
			}
			return fp
		}
		l.emit(o)
	}
	return nil
}

// outpostConfig takes the connection and logging keys of an outpost's config; the deployment
// keys are left to authentik (a spec that leaves them unset never writes them).
func outpostConfig(c map[string]any) *akv1.OutpostConfig {
	out := &akv1.OutpostConfig{}
	str := func(k string) *string {
		if s, ok := c[k].(string); ok && s != "" {
			return &s
		}
		return nil
	}
	out.AuthentikHost, out.AuthentikHostBrowser = str("authentik_host"), str("authentik_host_browser")
	out.RefreshInterval, out.ObjectNamingTemplate = str("refresh_interval"), str("object_naming_template")
	if l := str("log_level"); l != nil && slices.Contains([]string{"trace", "debug", "info", "warning", "error"}, *l) {
		out.LogLevel = l
	}
	if b, ok := c["authentik_host_insecure"].(bool); ok {
		out.AuthentikHostInsecure = &b
	}
	if out.AuthentikHost == nil && out.AuthentikHostBrowser == nil && out.RefreshInterval == nil && out.ObjectNamingTemplate == nil &&
		out.LogLevel == nil && out.AuthentikHostInsecure == nil {
		return nil
	}
	return out
}
