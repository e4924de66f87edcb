#!/usr/bin/env bash
# hack/crossplane.sh start|stop — Crossplane core (out of cluster) and the platform
# Configuration on the control plane of hack/dev.sh (KUBECONFIG=$STATE_DIR/kubeconfig):
#   - Crossplane's and ArgoCD's CRDs;
#   - function-patch-and-transform and function-identity-platform as local processes, reached by
#     Crossplane over mutual TLS (a CA and certificates made here, under $STATE_DIR/tls);
#   - `crossplane core start` with its usage webhook served on 127.0.0.1: the webhook
#     configuration points the kube-apiserver at that URL, so ClusterUsage/Usage really block
#     deletions (a Tenant with ServiceClaims, a team namespace before its external objects);
#   - the XRDs and Compositions of cluster/configuration, Established and ready for Claims;
#   - unless ARGOCD_STANDIN=0, hack/argocd-standin.sh: ArgoCD does not run here, so something
#     must release the resources finalizer of a deleted Application (nothing was deployed).
# `stop` stops what `start` started, by PID. Idempotent: `start` again restarts the processes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

BIN_DIR=${BIN_DIR:-$ROOT/_output/bin}
LOGS=$STATE_DIR/logs
TLS=$STATE_DIR/tls
CORE_PID=$STATE_DIR/crossplane-core.pid
STANDIN_PID=$STATE_DIR/argocd-standin.pid
FUNCTIONS=(function-patch-and-transform function-identity-platform)
# Always the dev control plane: never a cluster an exported KUBECONFIG may point at.
export KUBECONFIG=$STATE_DIR/kubeconfig

# make_tls: a CA, a server certificate for 127.0.0.1/localhost (the functions and the webhook)
# and a client certificate (Crossplane towards the functions), valid for 30 days.
make_tls() {
  [[ -s $TLS/server/tls.crt && -s $TLS/client/tls.crt ]] && return
  mkdir -p "$TLS/server" "$TLS/client"
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=provider-identity-dev-ca \
    -keyout "$TLS/ca.key" -out "$TLS/ca.crt" 2>/dev/null
  local side usage
  for side in server client; do
    usage=serverAuth; [[ $side == client ]] && usage=clientAuth
    openssl req -newkey rsa:2048 -nodes -subj "/CN=$side" -keyout "$TLS/$side/tls.key" -out "$TLS/$side.csr" 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=%s\n' "$usage" >"$TLS/$side.ext"
    openssl x509 -req -days 30 -in "$TLS/$side.csr" -CA "$TLS/ca.crt" -CAkey "$TLS/ca.key" -CAcreateserial \
      -extfile "$TLS/$side.ext" -out "$TLS/$side/tls.crt" 2>/dev/null
    cp "$TLS/ca.crt" "$TLS/$side/ca.crt"
  done
}

# start_function NAME BINARY [FLAG...]: runs the function on a free port and registers it with
# Crossplane as an active FunctionRevision whose status names that endpoint (no Function package
# needed). FLAGs go to the function as they are.
start_function() {
  local name=$1 bin=$2 port pidfile=$STATE_DIR/$1.pid
  shift 2
  stop_pidfile "$pidfile"
  port=$(free_port)
  setsid "$bin" --tls-certs-dir="$TLS/server" --address="127.0.0.1:$port" "$@" >"$LOGS/$name.log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  wait_until 30 port_open "$port" || die_log "$name is not listening on $port" "$LOGS/$name.log"
  kubectl apply -f - >/dev/null <<YAML
apiVersion: pkg.crossplane.io/v1
kind: FunctionRevision
metadata:
  name: $name-local
  labels:
    pkg.crossplane.io/package: $name
spec:
  desiredState: Active
  image: xpkg.crossplane.io/crossplane-contrib/$name:local
  revision: 1
YAML
  kubectl patch functionrevision "$name-local" --subresource=status --type=merge \
    -p "{\"status\":{\"endpoint\":\"localhost:$port\",\"capabilities\":[\"composition\"]}}" >/dev/null
}

# usage_webhook PORT: the kube-apiserver asks Crossplane before deleting anything labelled
# crossplane.io/in-use (what a Usage's controller labels), as Crossplane's chart would set up.
usage_webhook() {
  kubectl apply -f - >/dev/null <<YAML
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: crossplane-no-usages
webhooks:
- name: nousages.protection.crossplane.io
  admissionReviewVersions: [v1]
  clientConfig:
    url: https://127.0.0.1:$1/validate-no-usages
    caBundle: $(base64 -w0 "$TLS/ca.crt")
  failurePolicy: Fail
  sideEffects: None
  objectSelector:
    matchLabels:
      crossplane.io/in-use: "true"
  rules:
  - apiGroups: ["*"]
    apiVersions: ["*"]
    operations: [DELETE]
    resources: ["*"]
YAML
}

start() {
  local tools
  tools=$("$ROOT/hack/build-crossplane.sh")
  eval "$tools"
  mkdir -p "$LOGS" "$BIN_DIR" "$STATE_DIR/xpkg-cache" "$STATE_DIR/xfn-cache"
  [[ -s $KUBECONFIG ]] || die "no control plane: $KUBECONFIG is missing (run hack/dev.sh up)"
  (cd functions/identity-platform && go build -o "$BIN_DIR/function-identity-platform" .)
  make_tls

  kubectl apply --server-side --force-conflicts -f "$CROSSPLANE_CRDS" -f "$ARGOCD_CRDS" >/dev/null
  kubectl create namespace argocd --dry-run=client -o yaml | kubectl apply -f - >/dev/null
  start_function function-patch-and-transform "$FUNCTION_PT"
  # Its metrics on a free loopback port: the function's default, :8080, is the provider's.
  start_function function-identity-platform "$BIN_DIR/function-identity-platform" \
    --metrics-address="127.0.0.1:$(free_port)"

  stop_pidfile "$CORE_PID"
  local hook_port
  hook_port=$(free_port)
  setsid "$CROSSPLANE_CORE" core start --webhook-port="$hook_port" --tls-server-certs-dir="$TLS/server" \
    --tls-client-certs-dir="$TLS/client" --xpkg-cache-dir="$STATE_DIR/xpkg-cache" --xfn-cache-dir="$STATE_DIR/xfn-cache" \
    --metrics-port="$(free_port)" --health-probe-port="$(free_port)" >"$LOGS/crossplane.log" 2>&1 </dev/null &
  echo $! >"$CORE_PID"
  wait_until 60 port_open "$hook_port" || die_log "Crossplane's webhook is not listening on $hook_port" "$LOGS/crossplane.log"
  usage_webhook "$hook_port"

  local d
  for d in cluster/configuration/*/; do kubectl apply -f "$d/definition.yaml" >/dev/null; done
  kubectl wait --timeout=120s --for=condition=Established xrd --all >/dev/null \
    || die_log "the platform XRDs are not Established" "$LOGS/crossplane.log"
  for d in cluster/configuration/*/; do kubectl apply -f "$d/composition.yaml" >/dev/null; done

  stop_pidfile "$STANDIN_PID"
  if [[ ${ARGOCD_STANDIN:-1} != 0 ]]; then
    setsid "$ROOT/hack/argocd-standin.sh" >"$LOGS/argocd-standin.log" 2>&1 </dev/null &
    echo $! >"$STANDIN_PID"
  fi
  log "Crossplane core (pid $(<"$CORE_PID")), functions and the platform Configuration are up"
}

stop() {
  stop_pidfile "$STANDIN_PID"
  stop_pidfile "$CORE_PID"
  local fn
  for fn in "${FUNCTIONS[@]}"; do stop_pidfile "$STATE_DIR/$fn.pid"; done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
