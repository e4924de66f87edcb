package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/crossplane/function-sdk-go/errors"
	"github.com/crossplane/function-sdk-go/resource"
	"github.com/crossplane/function-sdk-go/response"

	nsks "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/functions/identity-platform/input/v1beta1"
)

// Condition types and reasons of a KeystoneIdentityBackend, after the backend API reference.
// Ready itself is Crossplane's: the function makes the XR not Ready while BackendReady is False.
const (
	TypeDomainReady            = "DomainReady"
	TypeConfigProjected        = "ConfigProjected"
	TypeFederationObjectsReady = "FederationObjectsReady"
	TypeMappingsReady          = "MappingsReady"
	TypeBackendReady           = "BackendReady"

	ReasonDomainProvisioned     = "DomainProvisioned"
	ReasonDomainAdopted         = "DomainAdopted"
	ReasonDomainPending         = "DomainPending"
	ReasonDomainNotFound        = "DomainNotFound"
	ReasonDomainAlreadyExists   = "DomainAlreadyExists"
	ReasonKeystoneNotFound      = "KeystoneNotFound"
	ReasonIdentityAPIError      = "IdentityAPIError"
	ReasonConfigProjected       = "ConfigProjected"
	ReasonWaitingForProjection  = "WaitingForProjection"
	ReasonFederationProvisioned = "FederationObjectsProvisioned"
	ReasonWaitingForFederation  = "WaitingForFederationObjects"
	ReasonNoMappingRules        = "NoMappingRules"
	ReasonMappingsApplied       = "MappingsApplied"
	ReasonWaitingForMappings    = "WaitingForMappings"
	ReasonRoleOrProjectNotFound = "RoleOrProjectNotFound"
	ReasonAllReady              = "AllReady"
	ReasonNotAllReady           = "NotAllReady"
	ReasonAdoptionRequired      = "AdoptionRequired"
	defaultDomainResource       = "domain"
	defaultOIDCProtocol         = "openid"
	defaultSAMLProtocol         = "mapped"
	backendTypeLDAP             = "LDAP"
	backendTypeOIDC             = "OIDC"
	backendTypeSAML             = "SAML"
	modeAdopt                   = "Adopt"
	kindClusterProviderConfig   = "ClusterProviderConfig"
	resourceDomainConfig        = "domainconfig"
	resourceIdentityProvider    = "identityprovider"
	resourceMapping             = "mapping"
	resourceProtocol            = "protocol"
	labelBackendGroup           = "platform.identity.crossplane.io/group"
	maxKubernetesNameLength     = 63
	keystoneNameHashLength      = 8
)

// backendSpec is the part of a KeystoneIdentityBackend's spec the function composes from,
// typed with the provider's own parameter types where the XRD copies their schemas.
type backendSpec struct {
	KeystoneRef providerRef `json:"keystoneRef"`
	Type        string      `json:"type"`
	Domain      struct {
		Name           string `json:"name"`
		Mode           string `json:"mode"`
		DeletionPolicy string `json:"deletionPolicy"`
		Description    string `json:"description,omitempty"`
	} `json:"domain"`
	LDAP     *nsks.LDAPConfig   `json:"ldap,omitempty"`
	OIDC     *federationSpec    `json:"oidc,omitempty"`
	SAML     *federationSpec    `json:"saml,omitempty"`
	Mappings []nsks.MappingRule `json:"mappings,omitempty"`
	Groups   []groupSpec        `json:"groups,omitempty"`
}

// providerRef names the ProviderConfig or ClusterProviderConfig of the composed resources.
type providerRef struct {
	Kind string `json:"kind,omitempty"`
	Name string `json:"name"`
}

// ref is the namespaced managed resources' providerConfigRef; the kind defaults as the CRDs do.
func (r providerRef) ref() *xpv2.ProviderConfigReference {
	k := r.Kind
	if k == "" {
		k = kindClusterProviderConfig
	}
	return &xpv2.ProviderConfigReference{Kind: k, Name: r.Name}
}

// federationSpec holds the fields OIDC and SAML share, plus each one's remote ID.
type federationSpec struct {
	Issuer               string `json:"issuer,omitempty"`
	IdPEntityID          string `json:"idpEntityID,omitempty"`
	IdentityProviderName string `json:"identityProviderName,omitempty"`
	ProtocolID           string `json:"protocolID,omitempty"`
	RemoteIDAttribute    string `json:"remoteIDAttribute,omitempty"`
	Description          string `json:"description,omitempty"`
}

type groupSpec struct {
	Name            string           `json:"name"`
	Description     string           `json:"description,omitempty"`
	RoleAssignments []roleAssignment `json:"roleAssignments,omitempty"`
}

type roleAssignment struct {
	Role    string `json:"role"`
	Domain  bool   `json:"domain,omitempty"`
	Project *struct {
		Name       string `json:"name"`
		DomainName string `json:"domainName,omitempty"`
	} `json:"project,omitempty"`
}

// composeBackend adds the objects of a KeystoneIdentityBackend to the desired state (its
// Domain and what its type needs) and reports its conditions.
func composeBackend(s *state, in *v1beta1.KeystoneIdentityBackend) error {
	spec := &backendSpec{}
	if err := s.xr.GetValueInto("spec", spec); err != nil {
		return errors.Wrap(err, "cannot read the KeystoneIdentityBackend spec")
	}
	domainRes := in.DomainResource
	if domainRes == "" {
		domainRes = defaultDomainResource
	}
	if s.xrNamespace == "" {
		return errors.Errorf("KeystoneIdentityBackend %q has no namespace: its objects and the LDAP bind Secret live in the backend's namespace", s.xrName)
	}
	b := &builder{s: s, pc: spec.KeystoneRef.ref(), domainMR: mrName(s.xrName, "domain"), adopt: spec.Domain.Mode == modeAdopt}
	if err := b.domain(domainRes, spec); err != nil {
		return err
	}

	var rules []nsks.MappingRule
	switch spec.Type {
	case backendTypeLDAP:
		if err := b.domainConfig(spec); err != nil {
			return err
		}
	case backendTypeOIDC, backendTypeSAML:
		fed := spec.OIDC
		remoteID, protocol := "", defaultOIDCProtocol
		if spec.Type == backendTypeSAML {
			fed, protocol = spec.SAML, defaultSAMLProtocol
		}
		if fed == nil {
			return errors.Errorf("spec.%s is required for type %s", strings.ToLower(spec.Type), spec.Type)
		}
		remoteID = fed.Issuer
		if spec.Type == backendTypeSAML {
			remoteID = fed.IdPEntityID
		}
		if fed.ProtocolID != "" {
			protocol = fed.ProtocolID
		}
		idpName := fed.IdentityProviderName
		if idpName == "" {
			idpName = s.xrName
		}
		rules = spec.Mappings
		if err := b.federation(idpName, remoteID, protocol, fed, rules); err != nil {
			return err
		}
		if err := b.groups(spec.Groups); err != nil {
			return err
		}
	default:
		return errors.Errorf("spec.type %q is not one of LDAP, OIDC or SAML", spec.Type)
	}
	b.markReady()
	b.report(spec, domainRes, len(rules) > 0)
	return b.domainStatus(domainRes)
}

// builder composes Keystone managed resources for one XR, in the XR's namespace.
type builder struct {
	s        *state
	pc       *xpv2.ProviderConfigReference
	domainMR string
	adopt    bool
	// composed lists the resources this function added, by pipeline key.
	composed []string
	// groups, assignments and lookups are the pipeline keys of each kind.
	groupKeys, assignmentKeys, lookupKeys []string
}

// meta names a managed resource composed for the XR: xr-suffix, in the XR's namespace.
func (b *builder) meta(suffix string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: mrName(b.s.xrName, suffix), Namespace: b.s.xrNamespace}
}

// spec is the spec base of every composed resource. A lookup is only observed: never created,
// changed or deleted.
func (b *builder) spec(observe bool) xpv2.ManagedResourceSpec {
	s := xpv2.ManagedResourceSpec{ProviderConfigReference: b.pc}
	if observe {
		s.ManagementPolicies = policiesObserve
	}
	return s
}

// typeMeta is the TypeMeta of a namespaced Keystone kind.
func typeMeta(kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: nsks.SchemeGroupVersion.String(), Kind: kind}
}

// add puts a typed managed resource into the desired state under key.
func (b *builder) add(key string, obj any) error {
	u, err := toComposed(obj)
	if err != nil {
		return errors.Wrapf(err, "composed resource %s", key)
	}
	b.s.desired[resource.Name(key)] = &resource.DesiredComposed{Resource: u}
	b.composed = append(b.composed, key)
	return nil
}

func (b *builder) domainRef() *xpv2.Reference { return &xpv2.Reference{Name: b.domainMR} }

func ref(name string) *xpv2.Reference { return &xpv2.Reference{Name: name} }

// domain composes the backend's Domain. Manage creates it (a same-named domain this backend
// did not create is a conflict) and deletes it with the backend only for deletionPolicy Delete;
// Adopt looks an existing one up by name and only observes it, so it is always retained.
func (b *builder) domain(key string, spec *backendSpec) error {
	d := &nsks.Domain{
		TypeMeta:   typeMeta(nsks.DomainKind),
		ObjectMeta: b.meta("domain"),
	}
	d.Spec.ManagedResourceSpec = b.spec(b.adopt)
	d.Spec.AdoptionPolicy = identityv1alpha1.FailOnConflict
	d.Spec.ForProvider = nsks.DomainParameters{Name: spec.Domain.Name, Enabled: ptr.To(true)}
	if spec.Domain.Description != "" {
		d.Spec.ForProvider.Description = ptr.To(spec.Domain.Description)
	}
	if b.adopt {
		d.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	} else {
		dp := spec.Domain.DeletionPolicy
		if dp == "" {
			dp = deletionRetain
		}
		p, err := policiesFor(dp)
		if err != nil {
			return errors.Wrap(err, "spec.domain")
		}
		d.Spec.ManagementPolicies = p
	}
	return b.add(key, d)
}

// domainStatus reports the Domain's ID and name in the XR's status.
func (b *builder) domainStatus(key string) error {
	dxr := fieldpath.Pave(b.s.dxr.Resource.Object)
	if err := dxr.SetValue("status.domainRef", b.domainMR); err != nil {
		return errors.Wrap(err, "cannot set status.domainRef")
	}
	o, ok := b.s.observed[resource.Name(key)]
	if !ok || o.Resource == nil {
		return nil
	}
	// Until Keystone has answered there is no ID to report.
	if id, err := fieldpath.Pave(o.Resource.Object).GetString("status.atProvider.id"); err == nil && id != "" {
		return errors.Wrap(dxr.SetValue("status.domainID", id), "cannot set status.domainID")
	}
	return nil
}

func (b *builder) domainConfig(spec *backendSpec) error {
	if spec.LDAP == nil {
		return errors.New("spec.ldap is required for type LDAP")
	}
	ldap := *spec.LDAP
	// The bind Secret is the backend's own: a namespaced DomainConfig reads Secrets of its own
	// namespace only, so whatever namespace the spec might carry is dropped.
	ldap.BindCredentialsSecretRef.Namespace = ""
	dc := &nsks.DomainConfig{TypeMeta: typeMeta(nsks.DomainConfigKind), ObjectMeta: b.meta("config")}
	dc.Spec.ManagedResourceSpec = b.spec(false)
	dc.Spec.ForProvider = nsks.DomainConfigParameters{DomainRef: b.domainRef(), LDAP: ldap}
	return b.add(resourceDomainConfig, dc)
}

func (b *builder) federation(idpName, remoteID, protocol string, fed *federationSpec, rules []nsks.MappingRule) error {
	idp := nsks.IdentityProviderParameters{
		ID: idpName, DomainRef: b.domainRef(), RemoteIDs: []string{remoteID}, Enabled: ptr.To(true),
	}
	if fed.Description != "" {
		idp.Description = ptr.To(fed.Description)
	}
	idpMR := &nsks.IdentityProvider{TypeMeta: typeMeta(nsks.IdentityProviderKind), ObjectMeta: b.meta("idp")}
	idpMR.Spec.ManagedResourceSpec = b.spec(false)
	idpMR.Spec.ForProvider = idp
	if err := b.add(resourceIdentityProvider, idpMR); err != nil {
		return err
	}
	if len(rules) == 0 {
		// Keystone rejects a mapping without rules, and a protocol needs a mapping.
		return nil
	}
	m := &nsks.Mapping{TypeMeta: typeMeta(nsks.MappingKind), ObjectMeta: b.meta("mapping")}
	m.Spec.ManagedResourceSpec = b.spec(false)
	m.Spec.ForProvider = nsks.MappingParameters{ID: idpName + "-" + protocol, Rules: rules}
	if err := b.add(resourceMapping, m); err != nil {
		return err
	}
	proto := nsks.ProtocolParameters{
		ID:                  protocol,
		IdentityProviderRef: ref(mrName(b.s.xrName, "idp")),
		MappingRef:          ref(mrName(b.s.xrName, "mapping")),
	}
	if fed.RemoteIDAttribute != "" {
		proto.RemoteIDAttribute = ptr.To(fed.RemoteIDAttribute)
	}
	pr := &nsks.Protocol{TypeMeta: typeMeta(nsks.ProtocolKind), ObjectMeta: b.meta("protocol")}
	pr.Spec.ManagedResourceSpec = b.spec(false)
	pr.Spec.ForProvider = proto
	return b.add(resourceProtocol, pr)
}

// groups composes the declared groups in the backend's domain and their role assignments. Roles
// and projects named by an assignment are looked up through observe-only resources.
func (b *builder) groups(groups []groupSpec) error {
	lookups := map[string]bool{}
	lookup := func(key string, obj any) error {
		if lookups[key] {
			return nil
		}
		lookups[key] = true
		b.lookupKeys = append(b.lookupKeys, key)
		return b.add(key, obj)
	}
	for _, g := range groups {
		gkey := "group-" + slug(g.Name)
		grp := &nsks.Group{TypeMeta: typeMeta(nsks.GroupKind), ObjectMeta: b.meta(gkey)}
		grp.Spec.ManagedResourceSpec = b.spec(false)
		grp.Spec.ForProvider = nsks.GroupParameters{Name: g.Name, DomainRef: b.domainRef()}
		if g.Description != "" {
			grp.Spec.ForProvider.Description = ptr.To(g.Description)
		}
		grp.Labels = map[string]string{labelBackendGroup: slug(g.Name)}
		if err := b.add(gkey, grp); err != nil {
			return err
		}
		b.groupKeys = append(b.groupKeys, gkey)

		for _, ra := range g.RoleAssignments {
			rkey := "role-" + slug(ra.Role)
			role := &nsks.Role{TypeMeta: typeMeta(nsks.RoleKind), ObjectMeta: b.meta(rkey)}
			role.Spec.ManagedResourceSpec = b.spec(true)
			role.Spec.ForProvider = nsks.RoleParameters{Name: ra.Role}
			if err := lookup(rkey, role); err != nil {
				return err
			}
			ap := nsks.RoleAssignmentParameters{
				RoleRef:  ref(mrName(b.s.xrName, rkey)),
				GroupRef: ref(mrName(b.s.xrName, gkey)),
			}
			akey := gkey + "-" + rkey
			if ra.Project == nil {
				ap.DomainRef = b.domainRef()
				akey += "-domain"
			} else {
				pkey, err := b.projectLookup(ra.Project.Name, ra.Project.DomainName, lookup)
				if err != nil {
					return err
				}
				ap.ProjectRef = ref(mrName(b.s.xrName, pkey))
				akey += "-" + pkey
			}
			asg := &nsks.RoleAssignment{TypeMeta: typeMeta(nsks.RoleAssignmentKind), ObjectMeta: b.meta(akey)}
			asg.Spec.ManagedResourceSpec = b.spec(false)
			asg.Spec.ForProvider = ap
			if err := b.add(akey, asg); err != nil {
				return err
			}
			b.assignmentKeys = append(b.assignmentKeys, akey)
		}
	}
	return nil
}

// projectLookup composes an observe-only Project (and, in another named domain, an
// observe-only Domain) and returns the Project's pipeline key.
func (b *builder) projectLookup(name, domainName string, lookup func(string, any) error) (string, error) {
	pkey := "project-" + slug(name)
	p := &nsks.Project{TypeMeta: typeMeta(nsks.ProjectKind)}
	p.Spec.ManagedResourceSpec = b.spec(true)
	p.Spec.ForProvider = nsks.ProjectParameters{Name: name, DomainRef: b.domainRef()}
	switch {
	case strings.EqualFold(domainName, "default"):
		// Keystone's own Default domain (ID "default") cannot be a Domain resource, not even
		// an observe-only one.
		p.Spec.ForProvider.DomainRef = nil
		p.Spec.ForProvider.DomainID = ptr.To("default")
		pkey = "domain-default-" + pkey
	case domainName != "":
		// Another domain: looked up by name too.
		dkey := "domain-" + slug(domainName)
		pkey = dkey + "-" + pkey
		d := &nsks.Domain{TypeMeta: typeMeta(nsks.DomainKind),
			ObjectMeta: b.meta(dkey)}
		d.Spec.ManagedResourceSpec = b.spec(true)
		d.Spec.ForProvider = nsks.DomainParameters{Name: domainName}
		if err := lookup(dkey, d); err != nil {
			return "", err
		}
		p.Spec.ForProvider.DomainRef = ref(mrName(b.s.xrName, dkey))
	}
	p.ObjectMeta = b.meta(pkey)
	return pkey, lookup(pkey, p)
}

// markReady sets the readiness of what this function composed from what Crossplane observed.
func (b *builder) markReady() {
	for _, k := range b.composed {
		if b.s.resourceState(k).ready {
			b.s.desired[resource.Name(k)].Ready = resource.ReadyTrue
		}
	}
}

// report sets DomainReady, ConfigProjected (LDAP), FederationObjectsReady and MappingsReady
// (OIDC, SAML) and their aggregate BackendReady.
func (b *builder) report(spec *backendSpec, domainRes string, hasRules bool) {
	type result struct {
		typ, reason, message string
		ok                   bool
	}
	var results []result

	d := b.s.resourceState(domainRes)
	dr := result{typ: TypeDomainReady}
	switch {
	case d.ready && b.adopt:
		dr.ok, dr.reason, dr.message = true, ReasonDomainAdopted, fmt.Sprintf("adopted the existing domain %q (never modified)", spec.Domain.Name)
	case d.ready:
		dr.ok, dr.reason, dr.message = true, ReasonDomainProvisioned, fmt.Sprintf("domain %q is provisioned", spec.Domain.Name)
	case !d.exists:
		dr.reason, dr.message = ReasonDomainPending, fmt.Sprintf("waiting for the Domain %s to be created", b.domainMR)
	default:
		dr.reason, dr.message = domainFailure(d, b.adopt, spec)
	}
	results = append(results, dr)

	if spec.Type == backendTypeLDAP {
		c := b.s.resourceState(resourceDomainConfig)
		r := result{typ: TypeConfigProjected, ok: c.ready, reason: ReasonConfigProjected, message: "the LDAP domain configuration is applied to Keystone"}
		if !c.ready {
			r.reason, r.message = failure(c, ReasonWaitingForProjection, "the domain configuration")
		}
		results = append(results, r)
	} else {
		fo := result{typ: TypeFederationObjectsReady}
		mr := result{typ: TypeMappingsReady}
		if !hasRules {
			msg := "spec.mappings is empty: Keystone cannot hold a mapping without rules and the protocol needs one; add at least one rule"
			fo.reason, fo.message = ReasonNoMappingRules, msg
			mr.reason, mr.message = ReasonNoMappingRules, msg
		} else {
			fo.ok, fo.reason, fo.message, _ = b.all([]string{resourceIdentityProvider, resourceProtocol}, ReasonFederationProvisioned, ReasonWaitingForFederation,
				"the identity provider and protocol are provisioned")
			keys := append([]string{resourceMapping}, b.groupKeys...)
			keys = append(keys, b.lookupKeys...)
			keys = append(keys, b.assignmentKeys...)
			var bad string
			mr.ok, mr.reason, mr.message, bad = b.all(keys, ReasonMappingsApplied, ReasonWaitingForMappings,
				"the mapping rules, groups and role assignments are applied")
			if !mr.ok && isLookup(bad) && b.s.resourceState(bad).exists {
				mr.reason = ReasonRoleOrProjectNotFound
				mr.message = fmt.Sprintf("%s: %s", lookupWhat(bad), mr.message)
			}
		}
		results = append(results, fo, mr)
	}

	var notReady []string
	for _, r := range results {
		if r.ok {
			response.ConditionTrue(b.s.rsp, r.typ, r.reason).WithMessage(r.message).TargetCompositeAndClaim()
			continue
		}
		notReady = append(notReady, r.typ)
		response.ConditionFalse(b.s.rsp, r.typ, r.reason).WithMessage(r.message).TargetCompositeAndClaim()
	}
	if len(notReady) == 0 {
		response.ConditionTrue(b.s.rsp, TypeBackendReady, ReasonAllReady).WithMessage("every condition of the backend is True").TargetCompositeAndClaim()
		return
	}
	response.ConditionFalse(b.s.rsp, TypeBackendReady, ReasonNotAllReady).
		WithMessage("not True yet: " + strings.Join(notReady, ", ")).TargetCompositeAndClaim()
	b.s.waiting()
}

// all tells whether every one of keys is ready; if not, the reason and message of the first
// that is not (in keys order), and its key.
func (b *builder) all(keys []string, okReason, waitReason, okMessage string) (bool, string, string, string) {
	for _, k := range keys {
		rs := b.s.resourceState(k)
		if !rs.ready {
			reason, msg := failure(rs, waitReason, k)
			return false, reason, msg, k
		}
	}
	return true, okReason, okMessage, ""
}

// failure turns a composed resource's state into a reason and message.
func failure(rs resourceState, waitReason, what string) (string, string) {
	switch {
	case !rs.exists:
		return waitReason, fmt.Sprintf("waiting for %s to be created", what)
	case rs.reason == "ReconcileError" || rs.readyReason == ReasonAdoptionRequired:
		return ReasonIdentityAPIError, fmt.Sprintf("%s: %s", what, rs.message)
	default:
		return waitReason, fmt.Sprintf("waiting for %s to become Ready", what)
	}
}

func domainFailure(d resourceState, adopt bool, spec *backendSpec) (string, string) {
	msg := strings.ToLower(d.message)
	switch {
	case d.readyReason == ReasonAdoptionRequired || d.reason == ReasonAdoptionRequired:
		return ReasonDomainAlreadyExists, fmt.Sprintf("a domain named %q already exists and was not created by this backend: set spec.domain.mode: Adopt to attach to it", spec.Domain.Name)
	case strings.Contains(msg, "providerconfig"):
		return ReasonKeystoneNotFound, fmt.Sprintf("spec.keystoneRef %q: %s", spec.KeystoneRef.Name, d.message)
	case adopt && (strings.Contains(msg, "not found") || strings.Contains(msg, "does not exist")):
		return ReasonDomainNotFound, fmt.Sprintf("mode Adopt never creates a domain, and no domain named %q exists", spec.Domain.Name)
	case d.reason == "ReconcileError":
		return ReasonIdentityAPIError, d.message
	}
	return ReasonDomainPending, "waiting for the domain to become Ready"
}

func isLookup(key string) bool {
	return strings.HasPrefix(key, "role-") || strings.HasPrefix(key, "project-") || strings.HasPrefix(key, "domain-")
}

func lookupWhat(key string) string {
	return "a role, project or domain named in spec.groups[].roleAssignments was not found in Keystone (" + key + ")"
}

var nonName = regexp.MustCompile(`[^a-z0-9-]+`)

// slug turns a Keystone name into a short Kubernetes-name-safe key, with a hash when it had to
// change the name (so that "a_b" and "a.b" stay apart).
func slug(name string) string {
	s := strings.Trim(nonName.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if s == name && len(s) <= 30 {
		return s
	}
	sum := sha256.Sum256([]byte(name))
	if len(s) > 21 {
		s = strings.Trim(s[:21], "-")
	}
	return s + "-" + hex.EncodeToString(sum[:])[:keystoneNameHashLength]
}

// mrName is the name of a managed resource composed for the XR: xr-suffix, shortened with a
// hash when too long.
func mrName(xr, suffix string) string {
	n := xr + "-" + suffix
	if len(n) <= maxKubernetesNameLength {
		return n
	}
	sum := sha256.Sum256([]byte(n))
	return strings.Trim(n[:maxKubernetesNameLength-keystoneNameHashLength-1], "-") + "-" + hex.EncodeToString(sum[:])[:keystoneNameHashLength]
}
