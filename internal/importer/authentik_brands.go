package importer

import (
	"context"
	"fmt"

	api "goauthentik.io/api/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// The authentik kinds of ADR 0010.
const (
	kindBrand = "Brand"
	kindToken = "Token"
)

const (
	defaultBrandDomain = "authentik-default"

	noteTokenKey        = "the key is not imported: it stays in authentik, and once the resource adopts the token the provider publishes it to the connection Secret as token: add writeConnectionSecretToRef to receive it (or set spec.forProvider.keySecretRef to choose the key)"
	unsupportedIntent   = "is a %s token, a one-time link authentik makes and uses itself; a Token stands for API tokens and app passwords only: skipped"
	skipManagedToken    = "is managed by authentik itself (managed %q, for example an outpost's token, which authentik rotates): left out; pass --include-builtin to import it"
	skipDefaultBrand    = "is authentik's own default brand: left out; pass --include-builtin to import it (adopting it is then explicit, per ADR 0010)"
	noteBrandOtherFlows = "the brand's lockdown, request and user-switch flows and its client certificates have no field in a Brand: the spec leaves them unset, so the brand keeps them"
)

func (l *akLister) brands(ctx context.Context) error {
	if !l.f.kind(kindBrand) {
		return nil
	}
	bs, err := listAll(ctx, "brands", func(p int32) ([]api.Brand, api.Pagination, error) {
		r, resp, err := l.api.CoreAPI.CoreBrandsList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	apps, err := l.listApplications(ctx)
	if err != nil {
		return err
	}
	appSlug := map[string]string{}
	for _, a := range apps {
		appSlug[a.Pk] = a.Slug
	}
	for _, b := range bs {
		o, err := l.brandObject(b, appSlug)
		if err != nil {
			return err
		}
		l.emit(o)
	}
	return nil
}

func (l *akLister) tokens(ctx context.Context) error {
	if !l.f.kind(kindToken) {
		return nil
	}
	ts, err := listAll(ctx, "tokens", func(p int32) ([]api.Token, api.Pagination, error) {
		r, resp, err := l.api.CoreAPI.CoreTokensList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	for _, t := range ts {
		l.emit(tokenObject(t, l.f.BuiltIn))
	}
	return nil
}

// brandObject is one brand: its flows and default application by reference when those are
// imported too (Refs), else by slug.
func (l *akLister) brandObject(b api.Brand, appSlug map[string]string) (*Object, error) {
	o := akObject(kindBrand, describeAk("brand", b.Domain, "brand_uuid", b.BrandUuid), b.BrandUuid, b.Domain)
	o.Marker = authentik.AttributeMarker(b.Attributes)
	if !l.f.BuiltIn && b.Domain == defaultBrandDomain {
		o.Unsupported = skipDefaultBrand
	}
	attrs, err := attributes(o.Describe, b.Attributes)
	if err != nil {
		return nil, err
	}
	if b.GetFlowLockdown() != "" || b.GetFlowRequest() != "" || b.GetFlowUserSwitch() != "" || len(b.ClientCertificates) > 0 {
		o.Notes = append(o.Notes, noteBrandOtherFlows)
	}
	flows := map[string]string{}
	for _, f := range []struct{ name, pk string }{
		{"authentication", b.GetFlowAuthentication()}, {"invalidation", b.GetFlowInvalidation()}, {"recovery", b.GetFlowRecovery()},
		{"unenrollment", b.GetFlowUnenrollment()}, {"userSettings", b.GetFlowUserSettings()}, {"deviceCode", b.GetFlowDeviceCode()},
	} {
		if f.pk != "" {
			flows[f.name] = l.flow(o, f.pk)
		}
	}
	app := ""
	if pk := b.GetDefaultApplication(); pk != "" {
		app = appSlug[pk]
	}
	o.Build = func(r Refs) any {
		fp := akv1.BrandParameters{Domain: b.Domain, Default: new(b.GetDefault()), BrandingTitle: nonEmpty(b.GetBrandingTitle()),
			BrandingLogo: nonEmpty(b.GetBrandingLogo()), BrandingFavicon: nonEmpty(b.GetBrandingFavicon()), Attributes: attrs}
		fp.AuthenticationFlowRef, fp.AuthenticationFlow = ref(r, kindFlow, flows["authentication"])
		fp.InvalidationFlowRef, fp.InvalidationFlow = ref(r, kindFlow, flows["invalidation"])
		fp.RecoveryFlowRef, fp.RecoveryFlow = ref(r, kindFlow, flows["recovery"])
		fp.UnenrollmentFlowRef, fp.UnenrollmentFlow = ref(r, kindFlow, flows["unenrollment"])
		fp.UserSettingsFlowRef, fp.UserSettingsFlow = ref(r, kindFlow, flows["userSettings"])
		fp.DeviceCodeFlowRef, fp.DeviceCodeFlow = ref(r, kindFlow, flows["deviceCode"])
		fp.DefaultApplicationRef, fp.DefaultApplication = ref(r, kindApplication, app)
		fp.WebCertificateID = nonEmpty(b.GetWebCertificate())
		return fp
	}
	return o, nil
}

// tokenObject is one token, its user by reference when imported too, never its key.
func tokenObject(t api.Token, builtIn bool) *Object {
	o := akObject(kindToken, describeAk("token", t.Identifier, "user", t.UserObj.Username), t.Identifier, t.Identifier)
	rest, m, found, merr := provenance.ExtractFromText(t.GetDescription())
	if found && merr == nil {
		o.Marker = &m
	}
	intent := t.GetIntent()
	switch {
	case intent != api.INTENTENUM_API && intent != api.INTENTENUM_APP_PASSWORD:
		o.Unsupported = fmt.Sprintf(unsupportedIntent, intent)
	case !builtIn && t.Managed.Get() != nil && *t.Managed.Get() != "":
		o.Unsupported = fmt.Sprintf(skipManagedToken, *t.Managed.Get())
	}
	o.Notes = []string{noteTokenKey}
	user := itoa(t.GetUser())
	o.Build = func(r Refs) any {
		fp := akv1.TokenParameters{Identifier: t.Identifier, Intent: new(string(intent)), Description: nonEmpty(rest), Expiring: new(t.GetExpiring())}
		if n, ok := r.Name(kindUser, user); ok {
			fp.UserRef = &xpv2.Reference{Name: n}
		} else {
			fp.Username = new(t.UserObj.Username)
		}
		if x := t.Expires.Get(); x != nil && intent == api.INTENTENUM_APP_PASSWORD && t.GetExpiring() {
			fp.Expires = &metav1.Time{Time: *x}
		}
		return fp
	}
	return o
}
