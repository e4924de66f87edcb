package keystone

import (
	"context"
	"net/http"

	"github.com/gophercloud/gophercloud/v2"
)

// API is what the drivers ask of Keystone: the identity endpoint's URLs and one call per HTTP
// method, exactly as gophercloud's *ServiceClient offers them (it implements API, keeping
// authentication, re-authentication and error types). Collections, dependents and drivers
// take an API so that a unit test can answer any call, or fail it, without a server (see
// keystonetest.API).
type API interface {
	ServiceURL(parts ...string) string
	Get(ctx context.Context, url string, JSONResponse any, opts *gophercloud.RequestOpts) (*http.Response, error)
	Head(ctx context.Context, url string, opts *gophercloud.RequestOpts) (*http.Response, error)
	Post(ctx context.Context, url string, JSONBody any, JSONResponse any, opts *gophercloud.RequestOpts) (*http.Response, error)
	Put(ctx context.Context, url string, JSONBody any, JSONResponse any, opts *gophercloud.RequestOpts) (*http.Response, error)
	Patch(ctx context.Context, url string, JSONBody any, JSONResponse any, opts *gophercloud.RequestOpts) (*http.Response, error)
	Delete(ctx context.Context, url string, opts *gophercloud.RequestOpts) (*http.Response, error)
}

var _ API = &gophercloud.ServiceClient{}
