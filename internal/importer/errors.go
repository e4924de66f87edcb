package importer

import "github.com/crossplane/crossplane-runtime/v2/pkg/errors"

const (
	errPattern  = "--name %q is not a valid shell pattern (see Go's path.Match): fix it, e.g. 'team-*'"
	errNoDomain = "Keystone has no domain named %q (--domain): check the name, as `openstack domain list` shows it"
	errList     = "cannot list Keystone %s"
)

func errBadPattern(p string) error { return errors.Errorf(errPattern, p) }

func wrapf(err error, format string, args ...any) error { return errors.Wrapf(err, format, args...) }
