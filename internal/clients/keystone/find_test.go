package keystone

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type inDomain struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	DomainID string `json:"domain_id"`
}

// Only exact matches of name and domain are kept, whatever Keystone's filter let through; a
// global key ("" domain) asks for no domain and keeps only global objects.
func TestFindInDomain(t *testing.T) {
	roles := Collection[inDomain]{Path: "roles", Singular: "role", Plural: "roles"}
	keyOf := func(r inDomain) NameInDomain { return NameInDomain{Name: r.Name, DomainID: r.DomainID} }
	cases := map[string]struct {
		key     NameInDomain
		answers map[string]string
		want    []string
	}{
		"InDomainExactOnly": {
			key: NameInDomain{Name: "admin", DomainID: "d1"},
			answers: map[string]string{"/v3/roles?domain_id=d1&name=admin": `{"roles": [
				{"id": "1", "name": "admin", "domain_id": "d1"}, {"id": "2", "name": "Admin", "domain_id": "d1"},
				{"id": "3", "name": "admin", "domain_id": "d2"}]}`},
			want: []string{"1"},
		},
		"GlobalKeepsGlobalOnly": {
			key:     NameInDomain{Name: "admin"},
			answers: map[string]string{"/v3/roles?name=admin": `{"roles": [{"id": "1", "name": "admin", "domain_id": "d1"}, {"id": "4", "name": "admin"}]}`},
			want:    []string{"4"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := FindInDomain(context.Background(), cannedKeystone(t, tc.answers), roles, tc.key, keyOf)
			if err != nil {
				t.Fatal(err)
			}
			ids := make([]string, 0, len(got))
			for _, r := range got {
				ids = append(ids, r.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// A resource whose key is unresolved finds nothing while it is deleted (its domain may be gone)
// and reports why otherwise.
func TestUnresolved(t *testing.T) {
	why := errors.New("domain not resolved")
	cases := map[string]struct {
		mg   metav1.Object
		want error
	}{
		"Live":    {mg: &metav1.ObjectMeta{}, want: why},
		"Deleted": {mg: &metav1.ObjectMeta{DeletionTimestamp: &metav1.Time{Time: time.Now()}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Unresolved[inDomain](tc.mg, why)
			if diff := cmp.Diff(tc.want, err, cmpopts.EquateErrors()); diff != "" || got != nil {
				t.Errorf("Unresolved(): got %v, -want +got error:\n%s", got, diff)
			}
		})
	}
}
