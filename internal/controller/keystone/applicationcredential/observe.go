package applicationcredential

import (
	"slices"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// Observe records the credential in status.atProvider, compares the fields the spec sets and
// says whether its secret is published. A credential this resource created whose secret is
// lost is out of date: only a replacement can publish a secret again.
func (e *external) Observe(mg mr, c credential, p identityv1alpha1.Provenance) adoption.Observation {
	rest, _, _, _ := provenance.ExtractFromText(c.Description)
	o := v1alpha1.ApplicationCredentialObservation{ID: c.ID, Name: c.Name, UserID: c.UserID, ProjectID: c.ProjectID,
		Description: rest, Unrestricted: c.Unrestricted, SecretPublished: c.Published.Secret != "", Provenance: p}
	for _, r := range c.Roles {
		o.Roles = append(o.Roles, v1alpha1.ApplicationCredentialRole{ID: r.ID, Name: r.Name})
	}
	for _, r := range c.AccessRules {
		o.AccessRules = append(o.AccessRules, v1alpha1.ApplicationCredentialObservedAccessRule{ID: r.ID, Service: r.Service, Method: r.Method, Path: r.Path})
	}
	if !c.ExpiresAt.IsZero() {
		t := metav1.NewTime(c.ExpiresAt)
		o.ExpiresAt = &t
	}
	*mg.Observation() = o
	mg.SetConditions(c.Published.condition(mg, c, p))

	diff := cmp.Diff(desired(mg.Parameters()), observed(c, mg.Parameters()))
	if lost := secretLost(c, p); lost != "" {
		diff += lost
	}
	return adoption.Observation{UpToDate: diff == "", Diff: diff, ConnectionDetails: e.details(c.ID, c.Published.Secret)}
}

// secretLost says why a credential this resource created must be replaced to publish a
// secret: "" when its secret is published, or cannot be judged, or the credential was never
// created here (its secret was never known).
func secretLost(c credential, p identityv1alpha1.Provenance) string {
	if p != identityv1alpha1.Owned || !c.Published.Lost {
		return ""
	}
	return "secret: not in the connection Secret (lost after the create), so the credential is replaced"
}

// fields is what the spec manages of a credential: everything Keystone holds but its ID,
// user and project (which the CRD keeps from changing).
type fields struct {
	Name         string
	Description  *string
	RoleIDs      []string
	RoleNames    []string
	ExpiresAt    *string
	Unrestricted *bool
	AccessRules  []string
}

func desired(fp *v1alpha1.ApplicationCredentialParameters) fields {
	f := fields{Name: fp.Name, Description: fp.Description, Unrestricted: fp.Unrestricted,
		RoleIDs: sorted(fp.RoleIDs), RoleNames: sorted(fp.RoleNames)}
	if fp.ExpiresAt != nil {
		s := stamp(fp.ExpiresAt.Time)
		f.ExpiresAt = &s
	}
	for _, r := range fp.AccessRules {
		f.AccessRules = append(f.AccessRules, rule(r.Service, r.Method, r.Path))
	}
	slices.Sort(f.AccessRules)
	return f
}

// observed projects a credential onto the fields the spec sets, so unset fields never differ.
// The description is compared without the marker line.
func observed(c credential, fp *v1alpha1.ApplicationCredentialParameters) fields {
	f := fields{Name: c.Name}
	if fp.Description != nil {
		rest, _, _, _ := provenance.ExtractFromText(c.Description)
		f.Description = &rest
	}
	if len(fp.RoleIDs) > 0 {
		for _, r := range c.Roles {
			f.RoleIDs = append(f.RoleIDs, r.ID)
		}
	}
	if len(fp.RoleNames) > 0 {
		for _, r := range c.Roles {
			f.RoleNames = append(f.RoleNames, r.Name)
		}
	}
	f.RoleIDs, f.RoleNames = sorted(f.RoleIDs), sorted(f.RoleNames)
	if fp.ExpiresAt != nil {
		s := ""
		if !c.ExpiresAt.IsZero() {
			s = stamp(c.ExpiresAt)
		}
		f.ExpiresAt = &s
	}
	if fp.Unrestricted != nil {
		f.Unrestricted = &c.Unrestricted
	}
	if len(fp.AccessRules) > 0 {
		for _, r := range c.AccessRules {
			f.AccessRules = append(f.AccessRules, rule(r.Service, r.Method, r.Path))
		}
		slices.Sort(f.AccessRules)
	}
	return f
}

// stamp is a time to the second, in UTC: the precision the spec has.
func stamp(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

func rule(service, method, path string) string {
	return strings.Join([]string{service, method, path}, " ")
}

func sorted(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}
