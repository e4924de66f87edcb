#!/usr/bin/env bash
# Builds kube-apiserver, etcd, kubectl and kube-controller-manager from the Go module proxy at
# pinned versions and caches them under $CACHE_DIR/k8s-$K8S_VERSION. envtest uses the directory
# via KUBEBUILDER_ASSETS; the local control plane also runs kube-controller-manager, whose
# garbage collector and namespace controller Crossplane's deletions rely on.
# No Docker and no envtest download are needed: the module proxy is the only source.
set -euo pipefail
K8S_VERSION=${K8S_VERSION:-v1.35.4}
ETCD_VERSION=${ETCD_VERSION:-v3.6.5}
CACHE_DIR=${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/provider-identity}
out="$CACHE_DIR/k8s-$K8S_VERSION"
if [[ -x "$out/kube-apiserver" && -x "$out/etcd" && -x "$out/kubectl" && -x "$out/kube-controller-manager" ]] \
   && "$out/kube-apiserver" --version 2>/dev/null | grep -q "$K8S_VERSION"; then
  echo "$out"; exit 0
fi
mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
staging=${K8S_VERSION/v1./v0.}
cat > go.mod <<MOD
module k8s-tools
go 1.26
require (
	k8s.io/kubernetes $K8S_VERSION
	go.etcd.io/etcd/server/v3 $ETCD_VERSION
)
MOD
# k8s.io/kubernetes requires its staging modules at v0.0.0: replace each with the released tag.
gomod=$(GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
grep -oE '^\s*k8s.io/[a-z0-9-]+ => ./staging' "$gomod" | awk '{print $1}' | sort -u | while read -r m; do
  echo "replace $m => $m $staging" >> go.mod
done
cat > tools.go <<'GO'
//go:build tools

package tools

import (
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
)
GO
export GOFLAGS=-mod=mod CGO_ENABLED=0
go mod tidy >/dev/null 2>&1 || true
vpkgs="k8s.io/component-base/version k8s.io/client-go/pkg/version"
ld="-s -w"
minor=$(echo "$K8S_VERSION" | cut -d. -f2)
for p in $vpkgs; do ld="$ld -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor"; done
# The directory is keyed by version, so a binary that is there is the right one; a binary
# added to this list later is built alone.
build() { [[ -x "$out/$1" ]] || go build -trimpath -ldflags "$2" -o "$out/$1" "$3"; }
build kube-apiserver "$ld" k8s.io/kubernetes/cmd/kube-apiserver
build kubectl "$ld" k8s.io/kubernetes/cmd/kubectl
build kube-controller-manager "$ld" k8s.io/kubernetes/cmd/kube-controller-manager
build etcd "-s -w" go.etcd.io/etcd/server/v3
echo "$out"
