#!/usr/bin/env bash
# hack/argocd-standin.sh — ArgoCD's part in deleting an Application, for the dev environment
# where ArgoCD does not run and so has deployed nothing to prune: every 2 s, each Application (in
# any namespace: a ServiceClaim's lives in its team namespace) that is being deleted loses
# resources-finalizer.argocd.argoproj.io (and only that finalizer). hack/crossplane.sh starts it unless ARGOCD_STANDIN=0; it runs until killed.
# Without it, a deleted ServiceClaim waits for its Application forever, as it would for an
# ArgoCD that is down.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

FINALIZER=resources-finalizer.argocd.argoproj.io

# release NAMESPACE/APP: removes ArgoCD's finalizer from APP by index, guarded by a test of that
# index.
release() {
  local ns=${1%%/*} app=${1#*/} i=0 f
  for f in $(kubectl -n "$ns" get applications.argoproj.io "$app" -o jsonpath='{.metadata.finalizers[*]}' 2>/dev/null); do
    if [[ $f == "$FINALIZER" ]]; then
      kubectl -n "$ns" patch applications.argoproj.io "$app" --type=json \
        -p "[{\"op\":\"test\",\"path\":\"/metadata/finalizers/$i\",\"value\":\"$FINALIZER\"},{\"op\":\"remove\",\"path\":\"/metadata/finalizers/$i\"}]" \
        >/dev/null 2>&1 && log "Application $ns/$app is being deleted: released $FINALIZER (nothing was deployed)"
      return
    fi
    i=$((i + 1))
  done
}

while sleep 2; do
  for app in $(kubectl get applications.argoproj.io -A \
    -o jsonpath='{range .items[?(@.metadata.deletionTimestamp)]}{.metadata.namespace}/{.metadata.name}{" "}{end}' 2>/dev/null); do
    release "$app"
  done
done
