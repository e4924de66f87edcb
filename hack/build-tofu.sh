#!/usr/bin/env bash
# hack/build-tofu.sh — builds the peer that `make bench-scale TOFU=1` measures beside the provider:
# OpenTofu and terraform-provider-openstack, from the Go module proxy at pinned versions, cached
# under $CACHE_DIR keyed by both versions:
#   $CACHE_DIR/tofu-$TOFU_VERSION-openstack-$OPENSTACK_VERSION/tofu
#   $CACHE_DIR/tofu-.../mirror/registry.opentofu.org/terraform-provider-openstack/openstack/
#       <version>/<os>_<arch>/terraform-provider-openstack_v<version>
# mirror/ is a filesystem mirror in the unpacked layout: with a CLI configuration naming it as
# `provider_installation { filesystem_mirror { path = ... } }`, `tofu init` works offline.
# Prints the directory on its last line. When both are cached it only checks (~10 ms); cold, 17 min
# on a busy 2-core machine (OpenTofu's dependency graph holds every cloud SDK of its state
# backends: ~15 min of it; the plugin ~2 min).
# Both modules ask for go 1.24, so the machine's Go builds them (no GOTOOLCHAIN).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

TOFU_VERSION=${TOFU_VERSION:-v1.10.7}
OPENSTACK_VERSION=${OPENSTACK_VERSION:-v3.4.0}
TOFU_MODULE=github.com/opentofu/opentofu
OPENSTACK_MODULE=github.com/terraform-provider-openstack/terraform-provider-openstack/v3

out=$CACHE_DIR/tofu-$TOFU_VERSION-openstack-$OPENSTACK_VERSION
platform=$(go env GOOS)_$(go env GOARCH)
plugin=mirror/registry.opentofu.org/terraform-provider-openstack/openstack/${OPENSTACK_VERSION#v}/$platform/terraform-provider-openstack_$OPENSTACK_VERSION

if [[ -x $out/tofu && -x $out/$plugin ]]; then echo "$out"; exit 0; fi

# build MODULE VERSION PKG OUT LDFLAGS: builds package PKG of MODULE@VERSION to the file OUT.
# `go install pkg@version` refuses a module whose go.mod has replace directives (OpenTofu's
# replaces hcl with its fork); such a module is built inside a writable copy of itself instead,
# so that its go.mod, replaces included, is the main module's. Under nice: benchmarks may run
# beside the build on the same 2 cores.
build() {
  local mod=$1 ver=$2 pkg=$3 dst=$4 ldflags=$5 json dir gomod
  json=$(GOFLAGS=-mod=mod go mod download -json "$mod@$ver") || die "cannot download $mod@$ver"
  dir=$(sed -n 's/.*"Dir": "\(.*\)".*/\1/p' <<<"$json")
  gomod=$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' <<<"$json")
  mkdir -p "$(dirname "$dst")"
  if grep -qE '^replace|^[[:space:]]+[^[:space:]]+( v[^[:space:]]+)? =>' "$gomod"; then
    local src=$work/src-${mod//\//_}
    cp -r "$dir" "$src" && chmod -R u+w "$src"
    (cd "$src" && GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0 \
      nice -n 19 go build -trimpath -ldflags "$ldflags" -o "$dst" "$pkg")
  else
    local path=$mod name
    [[ $pkg == . ]] || path=$mod/${pkg#./}
    GOBIN=$work/bin GOFLAGS=-buildvcs=false CGO_ENABLED=0 nice -n 19 go install -trimpath -ldflags "$ldflags" "$path@$ver"
    # go install names the binary after the path's last element, or the one before a /vN.
    name=$(basename "$path")
    [[ ! $name =~ ^v[0-9]+$ ]] || name=$(basename "$(dirname "$path")")
    mv "$work/bin/$name" "$dst"
  fi
}

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# Built into a fresh directory and published by one rename: an interrupted build leaves no
# half-filled cache behind, and a concurrent build that won the race is just as good.
mkdir -p "$CACHE_DIR"
tmp=$(mktemp -d "$CACHE_DIR/tofu-build.XXXXXX")
trap 'rm -rf "$work" "$tmp"' EXIT
log "building OpenTofu $TOFU_VERSION (cold ~15 min on 2 cores)"
# version.dev=no makes `tofu version` print 1.10.7 rather than 1.10.7-dev, as a release does.
build "$TOFU_MODULE" "$TOFU_VERSION" ./cmd/tofu "$tmp/tofu" "-s -w -X $TOFU_MODULE/version.dev=no"
log "building terraform-provider-openstack $OPENSTACK_VERSION (cold ~2 min)"
build "$OPENSTACK_MODULE" "$OPENSTACK_VERSION" . "$tmp/$plugin" "-s -w"
# An empty CLI configuration: one named by the environment but missing only adds a warning.
TF_CLI_CONFIG_FILE=/dev/null "$tmp/tofu" version >/dev/null || die "the tofu just built does not run"
rm -rf "$out"
mv -T "$tmp" "$out" 2>/dev/null || [[ -x $out/tofu && -x $out/$plugin ]] || die "cannot publish $tmp as $out"
echo "$out"
