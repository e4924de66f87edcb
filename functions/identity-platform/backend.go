package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/crossplane/function-sdk-go/errors"
	"github.com/crossplane/function-sdk-go/resource"
	"github.com/crossplane/function-sdk-go/resource/composed"
	"github.com/crossplane/function-sdk-go/response"

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
	keystoneAPIVersion          = "keystone.identity.crossplane.io/v1alpha1"
	defaultDomainResource       = "domain"
	defaultOIDCProtocol         = "openid"
	defaultSAMLProtocol         = "mapped"
	backendTypeLDAP             = "LDAP"
	backendTypeOIDC             = "OIDC"
	backendTypeSAML             = "SAML"
	modeAdopt                   = "Adopt"
	observeOnly                 = "Observe"
	resourceDomainConfig        = "domainconfig"
	resourceIdentityProvider    = "identityprovider"
	resourceMapping             = "mapping"
	resourceProtocol            = "protocol"
	labelBackendGroup           = "platform.identity.crossplane.io/group"
	maxKubernetesNameLength     = 63
	keystoneNameHashLength      = 8
)

// backendSpec is the part of a KeystoneIdentityBackend's spec the function composes from.
type backendSpec struct {
	KeystoneRef struct {
		Name string `json:"name"`
	} `json:"keystoneRef"`
	Type   string `json:"type"`
	Domain struct {
		Name string `json:"name"`
		Mode string `json:"mode"`
	} `json:"domain"`
	LDAP     map[string]any   `json:"ldap,omitempty"`
	OIDC     *federationSpec  `json:"oidc,omitempty"`
	SAML     *federationSpec  `json:"saml,omitempty"`
	Mappings []map[string]any `json:"mappings,omitempty"`
	Groups   []groupSpec      `json:"groups,omitempty"`
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

// composeBackend adds the type-specific objects of a KeystoneIdentityBackend to the desired
// state and reports its conditions.
func composeBackend(s *state, in *v1beta1.KeystoneIdentityBackend) error {
	spec := &backendSpec{}
	if err := s.xr.GetValueInto("spec", spec); err != nil {
		return errors.Wrap(err, "cannot read the KeystoneIdentityBackend spec")
	}
	domainRes := in.DomainResource
	if domainRes == "" {
		domainRes = defaultDomainResource
	}
	dom, ok := s.desired[resource.Name(domainRes)]
	if !ok {
		return errors.Errorf("no desired composed resource %q: compose the Domain in an earlier step", domainRes)
	}
	b := &builder{s: s, pc: spec.KeystoneRef.Name, domainMR: dom.Resource.GetName(), adopt: spec.Domain.Mode == modeAdopt}
	if b.domainMR == "" {
		return errors.Errorf("the desired Domain %q has no metadata.name: name it in the composition so that other objects can reference it", domainRes)
	}

	var rules []map[string]any
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
			idpName = claimName(s)
		}
		rules = spec.Mappings
		b.federation(idpName, remoteID, protocol, fed, rules)
		b.groups(spec.Groups)
	default:
		return errors.Errorf("spec.type %q is not one of LDAP, OIDC or SAML", spec.Type)
	}
	b.markReady()
	b.report(spec, domainRes, len(rules) > 0)
	return nil
}

// claimName is the claim's name when the XR has one, else the XR's.
func claimName(s *state) string {
	if n, err := s.xr.GetString("metadata.labels[crossplane.io/claim-name]"); err == nil && n != "" {
		return n
	}
	return s.xrName
}

// builder composes Keystone managed resources for one XR.
type builder struct {
	s        *state
	pc       string
	domainMR string
	adopt    bool
	// composed lists the resources this function added, by pipeline key.
	composed []string
	// groups, assignments and lookups are the pipeline keys of each kind.
	groupKeys, assignmentKeys, lookupKeys []string
}

// add puts a managed resource into the desired state under key, named after the XR.
func (b *builder) add(key, kind, suffix string, forProvider map[string]any, observe bool) *composed.Unstructured {
	u := composed.New()
	u.SetAPIVersion(keystoneAPIVersion)
	u.SetKind(kind)
	u.SetName(mrName(b.s.xrName, suffix))
	spec := map[string]any{
		"forProvider":       forProvider,
		"providerConfigRef": map[string]any{"name": b.pc},
	}
	if observe {
		// Looked up by name only: never created, changed or deleted.
		spec["managementPolicies"] = []any{observeOnly}
	}
	u.Object["spec"] = spec
	b.s.desired[resource.Name(key)] = &resource.DesiredComposed{Resource: u}
	b.composed = append(b.composed, key)
	return u
}

func (b *builder) domainRef() map[string]any { return map[string]any{"name": b.domainMR} }

func (b *builder) domainConfig(spec *backendSpec) error {
	if spec.LDAP == nil {
		return errors.New("spec.ldap is required for type LDAP")
	}
	ldap := make(map[string]any, len(spec.LDAP))
	for k, v := range spec.LDAP {
		ldap[k] = v
	}
	// The bind Secret is the claim's own: a claim cannot point the provider at another
	// namespace's Secret (and send its password to an LDAP server of the claim's choosing).
	ns, err := b.s.xr.GetString("metadata.labels[crossplane.io/claim-namespace]")
	if err != nil || ns == "" {
		return errors.New("spec.ldap.bindCredentialsSecretRef is read from the claim's namespace: create the backend through its KeystoneIdentityBackend claim")
	}
	ref, _ := ldap["bindCredentialsSecretRef"].(map[string]any)
	ldap["bindCredentialsSecretRef"] = map[string]any{"name": ref["name"], "namespace": ns}
	b.add(resourceDomainConfig, "DomainConfig", "config", map[string]any{"domainRef": b.domainRef(), "ldap": ldap}, false)
	return nil
}

func (b *builder) federation(idpName, remoteID, protocol string, fed *federationSpec, rules []map[string]any) {
	idp := map[string]any{
		"id":        idpName,
		"domainRef": b.domainRef(),
		"remoteIds": []any{remoteID},
		"enabled":   true,
	}
	if fed.Description != "" {
		idp["description"] = fed.Description
	}
	b.add(resourceIdentityProvider, "IdentityProvider", "idp", idp, false)
	if len(rules) == 0 {
		// Keystone rejects a mapping without rules, and a protocol needs a mapping.
		return
	}
	b.add(resourceMapping, "Mapping", "mapping", map[string]any{
		"id":    idpName + "-" + protocol,
		"rules": toAny(rules),
	}, false)
	proto := map[string]any{
		"id":                  protocol,
		"identityProviderRef": map[string]any{"name": mrName(b.s.xrName, "idp")},
		"mappingRef":          map[string]any{"name": mrName(b.s.xrName, "mapping")},
	}
	if fed.RemoteIDAttribute != "" {
		proto["remoteIdAttribute"] = fed.RemoteIDAttribute
	}
	b.add(resourceProtocol, "Protocol", "protocol", proto, false)
}

func toAny(rules []map[string]any) []any {
	out := make([]any, len(rules))
	for i := range rules {
		out[i] = rules[i]
	}
	return out
}

// groups composes the declared groups in the backend's domain and their role assignments. Roles
// and projects named by an assignment are looked up through observe-only resources.
func (b *builder) groups(groups []groupSpec) {
	lookups := map[string]bool{}
	for _, g := range groups {
		gkey := "group-" + slug(g.Name)
		gsuffix := gkey
		fp := map[string]any{"name": g.Name, "domainRef": b.domainRef()}
		if g.Description != "" {
			fp["description"] = g.Description
		}
		u := b.add(gkey, "Group", gsuffix, fp, false)
		u.SetLabels(map[string]string{labelBackendGroup: slug(g.Name)})
		b.groupKeys = append(b.groupKeys, gkey)

		for _, ra := range g.RoleAssignments {
			rkey := "role-" + slug(ra.Role)
			if !lookups[rkey] {
				lookups[rkey] = true
				b.add(rkey, "Role", rkey, map[string]any{"name": ra.Role}, true)
				b.lookupKeys = append(b.lookupKeys, rkey)
			}
			fp := map[string]any{
				"roleRef":  map[string]any{"name": mrName(b.s.xrName, rkey)},
				"groupRef": map[string]any{"name": mrName(b.s.xrName, gsuffix)},
			}
			akey := gkey + "-" + rkey
			switch {
			case ra.Project != nil:
				pkey := "project-" + slug(ra.Project.Name)
				pfp := map[string]any{"name": ra.Project.Name, "domainRef": b.domainRef()}
				switch {
				case strings.EqualFold(ra.Project.DomainName, "default"):
					// Keystone's own Default domain (ID "default") cannot be a Domain resource,
					// not even an observe-only one.
					delete(pfp, "domainRef")
					pfp["domainId"] = "default"
					pkey = "domain-default-" + pkey
				case ra.Project.DomainName != "":
					// Another domain: looked up by name too.
					dkey := "domain-" + slug(ra.Project.DomainName)
					pkey = dkey + "-" + pkey
					if !lookups[dkey] {
						lookups[dkey] = true
						b.add(dkey, "Domain", dkey, map[string]any{"name": ra.Project.DomainName}, true)
						b.lookupKeys = append(b.lookupKeys, dkey)
					}
					pfp["domainRef"] = map[string]any{"name": mrName(b.s.xrName, dkey)}
				}
				if !lookups[pkey] {
					lookups[pkey] = true
					b.add(pkey, "Project", pkey, pfp, true)
					b.lookupKeys = append(b.lookupKeys, pkey)
				}
				fp["projectRef"] = map[string]any{"name": mrName(b.s.xrName, pkey)}
				akey += "-" + pkey
			default:
				fp["domainRef"] = b.domainRef()
				akey += "-domain"
			}
			b.add(akey, "RoleAssignment", akey, fp, false)
			b.assignmentKeys = append(b.assignmentKeys, akey)
		}
	}
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
