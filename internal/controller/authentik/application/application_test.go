package application

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

var marker = provenance.Marker{Installation: "here", Resource: "Application.authentik.identity.crossplane.io/grafana", Origin: provenance.OriginCreated}

func observedApp(mut ...func(*api.Application)) api.Application {
	a := api.Application{
		Pk: "5f1c", Slug: "grafana", Name: "Grafana",
		BackchannelProviders: []int32{4, 9},
		OpenInNewTab:         ptr(false), MetaLaunchUrl: ptr("https://grafana.example.com"), MetaIcon: ptr(""),
		MetaDescription: ptr(provenance.EmbedInText("Dashboards", marker)),
		MetaPublisher:   ptr("Grafana Labs"), PolicyEngineMode: ptr(api.POLICYENGINEMODE_ANY), Group: ptr("Monitoring"), MetaHide: ptr(false),
	}
	a.Provider.Set(ptr(int32(3)))
	for _, m := range mut {
		m(&a)
	}
	return a
}

func TestCompare(t *testing.T) {
	base := func(mut ...func(*v1alpha1.ApplicationParameters)) *v1alpha1.ApplicationParameters {
		fp := &v1alpha1.ApplicationParameters{Name: "Grafana", Slug: "grafana"}
		for _, m := range mut {
			m(fp)
		}
		return fp
	}
	cases := map[string]struct {
		spec     *v1alpha1.ApplicationParameters
		observed api.Application
		want     shared.Fields
	}{
		"OnlyNameAndSlugManaged": {
			spec:     base(),
			observed: observedApp(),
			want:     shared.Fields{},
		},
		"DescriptionIsComparedWithoutTheMarker": {
			spec:     base(func(fp *v1alpha1.ApplicationParameters) { fp.Description = ptr("Dashboards") }),
			observed: observedApp(),
			want:     shared.Fields{},
		},
		"DescriptionWithoutMarker": {
			spec:     base(func(fp *v1alpha1.ApplicationParameters) { fp.Description = ptr("Dashboards") }),
			observed: observedApp(func(a *api.Application) { a.MetaDescription = ptr("Dashboards") }),
			want:     shared.Fields{},
		},
		"DescriptionChanged": {
			spec:     base(func(fp *v1alpha1.ApplicationParameters) { fp.Description = ptr("Metrics") }),
			observed: observedApp(),
			want:     shared.Fields{"meta_description": "Metrics"},
		},
		"ProviderByAnyKind": {
			spec:     base(func(fp *v1alpha1.ApplicationParameters) { fp.SAMLProviderID = ptr("3") }),
			observed: observedApp(),
			want:     shared.Fields{},
		},
		"ProviderChanged": {
			spec:     base(func(fp *v1alpha1.ApplicationParameters) { fp.OAuth2ProviderID = ptr("12") }),
			observed: observedApp(),
			want:     shared.Fields{"provider": float64(12)},
		},
		"ProviderMissing": {
			spec:     base(func(fp *v1alpha1.ApplicationParameters) { fp.ProxyProviderID = ptr("3") }),
			observed: observedApp(func(a *api.Application) { a.Provider.Set(nil) }),
			want:     shared.Fields{"provider": float64(3)},
		},
		"BackchannelProvidersAreASet": {
			spec:     base(func(fp *v1alpha1.ApplicationParameters) { fp.BackchannelProviderIDs = []string{"9", "4"} }),
			observed: observedApp(),
			want:     shared.Fields{},
		},
		"LibraryFields": {
			spec: base(func(fp *v1alpha1.ApplicationParameters) {
				fp.Group = ptr("Monitoring")
				fp.LaunchURL = ptr("https://grafana.example.com/d")
				fp.Publisher = ptr("Grafana Labs")
				fp.IconURL = ptr("https://grafana.example.com/icon.svg")
				fp.PolicyEngineMode = ptr("all")
				fp.OpenInNewTab = ptr(true)
				fp.Hidden = ptr(false)
			}),
			observed: observedApp(),
			want: shared.Fields{
				"meta_launch_url": "https://grafana.example.com/d", "meta_icon": "https://grafana.example.com/icon.svg",
				"policy_engine_mode": "all", "open_in_new_tab": true,
			},
		},
		"Renamed": {
			spec:     base(func(fp *v1alpha1.ApplicationParameters) { fp.Name = "Grafana (prod)" }),
			observed: observedApp(),
			want:     shared.Fields{"name": "Grafana (prod)"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := Compare(tc.spec, tc.observed)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, c.Changed); diff != "" {
				t.Errorf("changed fields: -want +got:\n%s", diff)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	foreign := provenance.Marker{Installation: "there", Resource: "Application.authentik.identity.crossplane.io/x", Origin: provenance.OriginAdopted}
	cases := map[string]struct {
		description string
		want        *provenance.Marker
	}{
		"Marked":            {description: provenance.EmbedInText("Dashboards", marker), want: &marker},
		"OnlyMarker":        {description: provenance.EmbedInText("", foreign), want: &foreign},
		"HandMade":          {description: "Dashboards", want: nil},
		"Empty":             {description: "", want: nil},
		"UnreadableMarker":  {description: "Dashboards\n[provider-identity: v=v9&installation=x]", want: nil},
		"MarkerNotLastLine": {description: provenance.EmbedInText("Dashboards", marker) + "\nedited by hand", want: nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := New(shared.Client{}).Describe(observedApp(func(a *api.Application) { a.MetaDescription = ptr(tc.description) }))
			if diff := cmp.Diff(tc.want, d.Marker); diff != "" {
				t.Errorf("marker: -want +got:\n%s", diff)
			}
			if d.ID != "grafana" || d.Key != "grafana" || d.Markerless {
				t.Errorf("description: %+v", d)
			}
		})
	}
}
