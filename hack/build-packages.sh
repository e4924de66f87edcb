#!/usr/bin/env bash
# hack/build-packages.sh — builds the Crossplane packages without Docker, into _output/xpkg/:
#   provider-identity-$VERSION.xpkg              the provider, with its runtime image embedded
#   function-identity-platform-$VERSION.xpkg     the composition function, runtime image embedded
#   configuration-identity-platform-$VERSION.xpkg  XRDs + Compositions (cluster/configuration)
# Runtime images are single static binaries on an empty base (cluster/image, go-containerregistry);
# `crossplane xpkg build` lints each package. Prints the three package paths.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
ARCH=${ARCH:-$(go env GOARCH)}
OUT=${OUT:-$ROOT/_output/xpkg}
BIN=$ROOT/_output/bin
mkdir -p "$OUT" "$BIN"

tools=$("$ROOT/hack/build-crossplane.sh")
eval "$tools"

export CGO_ENABLED=0 GOOS=linux GOARCH=$ARCH
go build -ldflags "-s -w" -o "$BIN/linux-$ARCH/provider" ./cmd/provider
(cd functions/identity-platform && go build -ldflags "-s -w" -o "$BIN/linux-$ARCH/function-identity-platform" .)
unset GOOS GOARCH
(cd cluster/image && go build -o "$BIN/build-image" .)

# No examples for the function: an empty directory (xpkg build defaults to ./examples).
empty=$(mktemp -d); trap 'rm -rf "$empty"' EXIT

"$BIN/build-image" --binary "$BIN/linux-$ARCH/provider" --arch "$ARCH" \
  --tag "provider-identity:$VERSION" --out "$OUT/provider-runtime.tar"
"$CROSSPLANE" xpkg build --package-root=package --examples-root=examples \
  --embed-runtime-image-tarball="$OUT/provider-runtime.tar" \
  --package-file="$OUT/provider-identity-$VERSION.xpkg" >&2

"$BIN/build-image" --binary "$BIN/linux-$ARCH/function-identity-platform" --arch "$ARCH" \
  --tag "function-identity-platform:$VERSION" --out "$OUT/function-runtime.tar"
"$CROSSPLANE" xpkg build --package-root=functions/identity-platform/package --examples-root="$empty" \
  --embed-runtime-image-tarball="$OUT/function-runtime.tar" \
  --package-file="$OUT/function-identity-platform-$VERSION.xpkg" >&2

"$CROSSPLANE" xpkg build --package-root=cluster/configuration --examples-root=examples/platform \
  --package-file="$OUT/configuration-identity-platform-$VERSION.xpkg" >&2

rm -f "$OUT/provider-runtime.tar" "$OUT/function-runtime.tar"
ls -1 "$OUT"/provider-identity-"$VERSION".xpkg "$OUT"/function-identity-platform-"$VERSION".xpkg \
  "$OUT"/configuration-identity-platform-"$VERSION".xpkg
