#!/usr/bin/env bash
# hack/build-crossplane.sh — builds the Crossplane tooling the compositions and packages need,
# from the Go module proxy at pinned versions, cached under $CACHE_DIR keyed by version:
#   $CACHE_DIR/crossplane-$CROSSPLANE_VERSION/crossplane        the CLI (cmd/crank): render,
#                                                               beta validate, xpkg build
#   $CACHE_DIR/crossplane-$CROSSPLANE_VERSION/crossplane-core   Crossplane core (cmd/crossplane)
#   $CACHE_DIR/crossplane-$CROSSPLANE_VERSION/crds/             Crossplane's own CRDs
#   $CACHE_DIR/crossplane-$CROSSPLANE_VERSION/validate-cache/   a pre-seeded `beta validate`
#                                                               cache (no image download)
#   $CACHE_DIR/function-patch-and-transform-$PT_VERSION/function-patch-and-transform
#   $CACHE_DIR/argocd-$ARGOCD_VERSION/crds/                     ArgoCD's CRDs (Application, ...)
# Prints KEY=VALUE lines (CROSSPLANE, CROSSPLANE_CORE, CROSSPLANE_CRDS, CROSSPLANE_VALIDATE_CACHE,
# FUNCTION_PT, ARGOCD_CRDS) for `eval`/`source`. When everything is cached it only checks (~10 ms).
# Cold: ~4-6 min on 2 cores (most of it compiling Crossplane's dependency graph).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

CROSSPLANE_VERSION=${CROSSPLANE_VERSION:-v2.2.1}
PT_VERSION=${PT_VERSION:-v0.5.0}
ARGOCD_VERSION=${ARGOCD_VERSION:-v3.2.0}

xp=$CACHE_DIR/crossplane-$CROSSPLANE_VERSION
pt=$CACHE_DIR/function-patch-and-transform-$PT_VERSION
argo=$CACHE_DIR/argocd-$ARGOCD_VERSION
# The version `beta validate` looks Crossplane's own CRDs up under (its default image tag).
seed=$xp/validate-cache/xpkg.crossplane.io/crossplane/crossplane@$CROSSPLANE_VERSION

print() {
  cat <<ENV
CROSSPLANE=$xp/crossplane
CROSSPLANE_CORE=$xp/crossplane-core
CROSSPLANE_CRDS=$xp/crds
CROSSPLANE_VALIDATE_CACHE=$xp/validate-cache
FUNCTION_PT=$pt/function-patch-and-transform
ARGOCD_CRDS=$argo/crds
ENV
}

# mod_dir MODULE@VERSION: the module's directory in the module cache (downloads it when missing).
mod_dir() {
  GOFLAGS=-mod=mod go mod download -json "$1" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p'
}

# build_in_module DIR MODULE VERSION OUT=PKG...: builds each PKG of MODULE@VERSION to OUT in a
# throwaway module, so that nothing here touches the provider's own go.mod.
build_in_module() {
  local work=$1 mod=$2 ver=$3; shift 3
  mkdir -p "$work"
  printf 'module tools\n\ngo 1.26\n\nrequire %s %s\n' "$mod" "$ver" >"$work/go.mod"
  local pair
  for pair in "$@"; do
    (cd "$work" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "${pair%%=*}" "${pair#*=}")
  done
}

# One build at a time: the render tests and the platform test start beside each other on a cold
# cache, and both would build into the same .tmp files (one's mv then finds nothing).
mkdir -p "$CACHE_DIR"
exec 9>"$CACHE_DIR/.build-crossplane.lock"
flock 9

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

if [[ ! -x "$xp/crossplane" || ! -x "$xp/crossplane-core" ]]; then
  log "building Crossplane $CROSSPLANE_VERSION (CLI and core; cold ~4-5 min)"
  mkdir -p "$xp"
  # The CLI prints its version from this variable (`crossplane version --client`).
  ld="-s -w -X github.com/crossplane/crossplane/v2/internal/version.version=$CROSSPLANE_VERSION"
  mkdir -p "$work/xp"
  printf 'module tools\n\ngo 1.26\n\nrequire github.com/crossplane/crossplane/v2 %s\n' "$CROSSPLANE_VERSION" >"$work/xp/go.mod"
  (cd "$work/xp" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags "$ld" \
    -o "$xp/crossplane.tmp" github.com/crossplane/crossplane/v2/cmd/crank \
    && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags "$ld" \
    -o "$xp/crossplane-core.tmp" github.com/crossplane/crossplane/v2/cmd/crossplane)
  mv "$xp/crossplane.tmp" "$xp/crossplane"
  mv "$xp/crossplane-core.tmp" "$xp/crossplane-core"
fi

if [[ ! -f "$seed/crds.yaml" || ! -d "$xp/crds" ]]; then
  dir=$(mod_dir "github.com/crossplane/crossplane/v2@$CROSSPLANE_VERSION")
  rm -rf "$xp/crds" && mkdir -p "$xp/crds" "$seed"
  cp "$dir"/cluster/crds/*.yaml "$xp/crds/"
  chmod u+w "$xp"/crds/*.yaml
  # `beta validate` reads Crossplane's CRDs from its cache instead of pulling the image.
  for f in "$xp"/crds/*.yaml; do cat "$f"; printf '\n---\n'; done >"$seed/crds.yaml"
fi

if [[ ! -x "$pt/function-patch-and-transform" ]]; then
  log "building function-patch-and-transform $PT_VERSION (cold ~1-2 min)"
  mkdir -p "$pt"
  build_in_module "$work/pt" github.com/crossplane-contrib/function-patch-and-transform "$PT_VERSION" \
    "$pt/function-patch-and-transform.tmp=github.com/crossplane-contrib/function-patch-and-transform"
  mv "$pt/function-patch-and-transform.tmp" "$pt/function-patch-and-transform"
fi

if [[ ! -f "$argo/crds/application-crd.yaml" ]]; then
  dir=$(mod_dir "github.com/argoproj/argo-cd/v3@$ARGOCD_VERSION")
  rm -rf "$argo/crds" && mkdir -p "$argo/crds"
  cp "$dir"/manifests/crds/*-crd.yaml "$argo/crds/"
  chmod u+w "$argo"/crds/*.yaml
fi

print
