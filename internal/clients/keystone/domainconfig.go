package keystone

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gophercloud/gophercloud/v2"
)

// A DomainConfig is a domain's identity configuration: option groups ("identity", "ldap"), each
// a map of option to value, as /v3/domains/{id}/config holds it. Keystone keeps each value with
// the JSON type it was sent with, accepts only the options of its allow-list (others are 403),
// and never returns the sensitive ones (the LDAP "password").
type DomainConfig map[string]map[string]any

type domainConfigBody struct {
	Config DomainConfig `json:"config"`
}

func domainConfigURL(sc API, domainID string) string {
	return sc.ServiceURL("domains", url.PathEscape(domainID), "config")
}

// GetDomainConfig reads a domain's configuration. A domain without one answers 404, as does a
// domain that does not exist.
func GetDomainConfig(ctx context.Context, sc API, domainID string) (DomainConfig, error) {
	var out domainConfigBody
	_, err := sc.Get(ctx, domainConfigURL(sc, domainID), &out, nil)
	return out.Config, err
}

// PutDomainConfig creates (201) or replaces (200) a domain's whole configuration: options not
// in cfg are removed. created tells which happened.
func PutDomainConfig(ctx context.Context, sc API, domainID string, cfg DomainConfig) (out DomainConfig, created bool, err error) {
	var body domainConfigBody
	resp, err := sc.Put(ctx, domainConfigURL(sc, domainID), domainConfigBody{Config: cfg}, &body,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusOK, http.StatusCreated}})
	if err != nil {
		return nil, false, err
	}
	return body.Config, resp.StatusCode == http.StatusCreated, nil
}

// UpdateDomainConfig merges cfg into a domain's existing configuration (PATCH) and returns the
// result. It fails with 404 when the domain has no configuration yet.
func UpdateDomainConfig(ctx context.Context, sc API, domainID string, cfg DomainConfig) (DomainConfig, error) {
	var body domainConfigBody
	_, err := sc.Patch(ctx, domainConfigURL(sc, domainID), domainConfigBody{Config: cfg}, &body,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusOK}})
	return body.Config, err
}

// DeleteDomainConfig removes a domain's whole configuration: the domain falls back to the
// default (SQL) identity driver.
func DeleteDomainConfig(ctx context.Context, sc API, domainID string) error {
	_, err := sc.Delete(ctx, domainConfigURL(sc, domainID), nil)
	return err
}
