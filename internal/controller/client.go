package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// NewClient is the manager's client (ctrl.Options.NewClient): controller-runtime's cache-backed
// client, except that a Secret the cache does not hold is read from the API server. The cache
// leaves Helm's release Secrets out (see CacheOptions), so a ProviderConfig or a resource that
// names one still reads it, as it would without the filter.
func NewClient(config *rest.Config, options client.Options) (client.Client, error) {
	cached, err := client.New(config, options)
	if err != nil {
		return nil, err
	}
	options.Cache = nil
	live, err := client.New(config, options)
	if err != nil {
		return nil, err
	}
	return &secretFallback{Client: cached, live: live}, nil
}

// secretFallback reads a Secret missing from the cache from the API server.
type secretFallback struct {
	client.Client
	live client.Reader
}

func (c *secretFallback) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Client.Get(ctx, key, obj, opts...)
	if _, ok := obj.(*corev1.Secret); ok && kerrors.IsNotFound(err) {
		return c.live.Get(ctx, key, obj, opts...)
	}
	return err
}
