#!/usr/bin/env bash
# hack/dev.sh up|down — the provider running locally against a real control plane:
# kube-apiserver + etcd (cluster/local/controlplane, with package/crds installed), Keystone,
# slapd and the authentik API server (hack/authentik.sh) on 127.0.0.1, the `keystone-admin` and
# `authentik-token` Secrets and example ProviderConfigs, and the provider binary itself. `up`
# again rebuilds and restarts the provider and reuses the running services;
# `down` stops every process `up` started, by PID. Unless DEV_CROSSPLANE=0, `up` also starts
# Crossplane core, the composition functions and the platform Configuration (hack/crossplane.sh).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

BIN_DIR=${BIN_DIR:-$ROOT/_output/bin}
LOGS=$STATE_DIR/logs
KUBECONFIG_PATH=$STATE_DIR/kubeconfig
CP_PID=$STATE_DIR/controlplane.pid
PROVIDER_PID=$STATE_DIR/provider.pid
# envtest puts etcd's data and the apiserver's certs under TMPDIR: a private one lets `down` find
# any etcd/kube-apiserver left behind by a control plane that was killed hard.
CP_TMP=$STATE_DIR/controlplane-tmp

# launch_controlplane: starts cluster/local/controlplane in the background (unless running).
launch_controlplane() {
  if pidfile_alive "$CP_PID" && [[ -s "$KUBECONFIG_PATH" ]]; then return; fi
  stop_pidfile "$CP_PID"
  rm -rf "$KUBECONFIG_PATH" "$CP_TMP" && mkdir -p "$CP_TMP"
  TMPDIR=$CP_TMP KUBEBUILDER_ASSETS=$1 setsid "$BIN_DIR/controlplane" \
    --crd-dir package/crds --write-kubeconfig "$KUBECONFIG_PATH" \
    >"$LOGS/controlplane.log" 2>&1 </dev/null &
  echo $! >"$CP_PID"
  CP_LAUNCHED=1
}

# await_controlplane: waits for the kubeconfig a fresh control plane writes once its CRDs are in.
await_controlplane() {
  if [[ -z "${CP_LAUNCHED:-}" ]]; then
    log "control plane already running; re-applying package/crds"
    [[ -d package/crds ]] && kubectl apply --server-side --force-conflicts -f package/crds >/dev/null
    return
  fi
  wait_until 120 test -s "$KUBECONFIG_PATH" \
    || die_log "control plane not ready after 120 s" "$LOGS/controlplane.log"
  pidfile_alive "$CP_PID" || die_log "control plane exited" "$LOGS/controlplane.log"
  log "$(grep 'ready in' "$LOGS/controlplane.log")"
}

# apply_examples: the examples, with the dev services' addresses and secrets filled in, so
# that `kubectl get managed` (and with Crossplane, `kubectl get claim`) shows them converging.
# DEV_EXAMPLES=0 leaves them out.
apply_examples() {
  log "applying examples/keystone, examples/authentik, examples/namespaced and examples/platform/team"
  kubectl apply -f examples/keystone/ -f examples/keystone/federation/ -f examples/authentik/ >/dev/null
  # The LDAP example: the bind password is fresh at every slapd start, its port may not be 3890.
  sed "s|\${LDAP_BIND_PASSWORD}|$LDAP_BIND_PASSWORD|" examples/keystone/ldap/bind-secret.yaml | kubectl apply -f - >/dev/null
  kubectl apply -f examples/keystone/ldap/domain.yaml >/dev/null
  sed "s|ldap://127.0.0.1:3890|$LDAP_URL|" examples/keystone/ldap/domainconfig.yaml | kubectl apply -f - >/dev/null
  # The namespaced examples of team-a (its namespace and ProviderConfigs are applied with the
  # ProviderConfigs above), every file with the dev services' addresses filled in.
  local f
  while IFS= read -r f; do
    fill_in "$f" | kubectl apply -f - >/dev/null
  done < <(find examples/namespaced -mindepth 2 -name '*.yaml' | sort)
  if [[ ${DEV_CROSSPLANE:-1} != 0 ]]; then
    kubectl apply -f examples/platform/team/ >/dev/null
  fi
}

# fill_in FILE: FILE with the dev services' addresses and generated secrets in place of the
# examples' placeholders (${KEYSTONE_URL}, ${AUTHENTIK_URL}, ${LDAP_BIND_PASSWORD}, and the
# default LDAP address, whose port may differ here).
fill_in() {
  sed -e "s|\${KEYSTONE_URL}|$KEYSTONE_URL|g" -e "s|\${AUTHENTIK_URL}|$AUTHENTIK_URL|g" \
    -e "s|\${LDAP_BIND_PASSWORD}|$LDAP_BIND_PASSWORD|g" -e "s|ldap://127.0.0.1:3890|$LDAP_URL|g" "$1"
}

start_provider() {
  stop_pidfile "$PROVIDER_PID"
  # Loopback only (the provider's defaults listen on all interfaces), on ports that are free: the
  # defaults when nothing listens there. A port can be taken between that check and the
  # provider's bind (tests run beside this): then once more, on ports the kernel hands out.
  local metrics probe attempt
  metrics=$(free_port 8080) probe=$(free_port 8081)
  for attempt in 1 2; do
    PROVIDER_METRICS_BIND_ADDRESS=127.0.0.1:$metrics PROVIDER_HEALTH_PROBE_BIND_ADDRESS=127.0.0.1:$probe \
    KUBECONFIG=$KUBECONFIG_PATH setsid "$BIN_DIR/provider" --debug \
      >"$LOGS/provider.log" 2>&1 </dev/null &
    echo $! >"$PROVIDER_PID"
    # A provider that cannot start (bad flags, no CRDs, a port taken) exits within a second or two.
    sleep 2
    pidfile_alive "$PROVIDER_PID" && return 0
    ((attempt == 1)) && grep -q 'address already in use' "$LOGS/provider.log" || break
    log "metrics port $metrics or probe port $probe was taken as the provider started; again on other ports"
    metrics=$(free_port) probe=$(free_port)
  done
  die_log "the provider exited right after starting" "$LOGS/provider.log"
}

up() {
  local k8s
  k8s=$("$ROOT/hack/install-deps.sh" | tail -n 1)
  export PATH=$k8s:$PATH KUBECONFIG=$KUBECONFIG_PATH
  mkdir -p "$BIN_DIR" "$LOGS"
  # Build first: a compile error stops here, before anything is started.
  go build -o "$BIN_DIR/provider" ./cmd/provider
  go build -o "$BIN_DIR/controlplane" ./cluster/local/controlplane

  # Keystone and slapd start while kube-apiserver comes up: both take ~4 s.
  launch_controlplane "$k8s"
  "$ROOT/hack/keystone.sh" start
  "$ROOT/hack/slapd.sh" start
  # A stable port when 9000 is free, so a browser tab or a kubeconfig survives `make dev` again.
  AUTHENTIK_PORT=$(free_port 9000) "$ROOT/hack/authentik.sh" start
  await_controlplane
  set -a; source "$STATE_DIR/keystone.env"; source "$STATE_DIR/slapd.env"; source "$STATE_DIR/authentik.env"; set +a

  kubectl create namespace crossplane-system --dry-run=client -o yaml | kubectl apply -f - >/dev/null
  kubectl -n crossplane-system create secret generic keystone-admin \
    --from-literal=password="$KEYSTONE_ADMIN_PASSWORD" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
  if [[ -f examples/providerconfig/keystone.yaml ]]; then
    # The Keystone port is chosen at start-up, and 5000 may belong to a parallel test run's
    # Keystone (same cached admin password!): always point authURL at ours.
    sed -E "s|^([[:space:]]*authURL:).*|\1 $KEYSTONE_URL|" examples/providerconfig/keystone.yaml | kubectl apply -f -
  else
    log "examples/providerconfig/keystone.yaml does not exist yet: no ProviderConfig applied"
  fi
  kubectl -n crossplane-system create secret generic authentik-token \
    --from-literal=token="$AUTHENTIK_TOKEN" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
  # The authentik API server's port is chosen at start-up: the example says ${AUTHENTIK_URL}.
  sed "s|\${AUTHENTIK_URL}|$AUTHENTIK_URL|g" examples/providerconfig/authentik.yaml | kubectl apply -f -
  # The namespaced resources' ClusterProviderConfigs (the platform Compositions use them), and
  # team-a's own ProviderConfigs with their Secrets in team-a (examples/namespaced).
  fill_in examples/providerconfig/clusterproviderconfig.yaml | kubectl apply -f -
  kubectl apply -f examples/namespaced/namespace.yaml >/dev/null
  kubectl -n team-a create secret generic keystone-admin \
    --from-literal=password="$KEYSTONE_ADMIN_PASSWORD" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
  kubectl -n team-a create secret generic authentik-token \
    --from-literal=token="$AUTHENTIK_TOKEN" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
  fill_in examples/namespaced/providerconfig.yaml | kubectl apply -f -
  start_provider
  # Crossplane core, the functions and the platform Configuration (Tenant, ServiceClaim, ...):
  # DEV_CROSSPLANE=0 leaves them out (the provider alone needs no Crossplane tooling).
  if [[ ${DEV_CROSSPLANE:-1} != 0 ]]; then
    "$ROOT/hack/crossplane.sh" start
  fi
  if [[ ${DEV_EXAMPLES:-1} != 0 ]]; then
    apply_examples
  fi

  cat <<MSG

Dev environment is up: provider (pid $(<"$PROVIDER_PID")), kube-apiserver, Keystone at $KEYSTONE_URL, LDAP at $LDAP_URL,
authentik API server at $AUTHENTIK_URL/api/v3 (in-memory test stand-in: its objects are lost when it stops).
  export KUBECONFIG=$KUBECONFIG_PATH
  export PATH=$k8s:\$PATH    # kubectl
  kubectl get providerconfigs.identity.crossplane.io,clusterproviderconfigs,providerconfigs.identity.m.crossplane.io -A
  kubectl get managed -A   # cluster-scoped examples, and the namespaced ones in team-a
  kubectl get xrd          # Tenant, ServiceClaim, KeystoneIdentityBackend, AuthentikFederation
  kubectl get composite -A # examples/platform/team: Tenant payments, ServiceClaims web, worker in team-payments
Logs: $LOGS/{controlplane,provider,crossplane}.log, $STATE_DIR/keystone/keystone.log, $STATE_DIR/authentik/apiserver.log
Credentials: $STATE_DIR/keystone.env, $STATE_DIR/slapd.env, $STATE_DIR/authentik.env
Stop everything: make dev-down
MSG
}

down() {
  "$ROOT/hack/crossplane.sh" stop
  stop_pidfile "$PROVIDER_PID"
  stop_pidfile "$CP_PID"
  "$ROOT/hack/keystone.sh" stop
  "$ROOT/hack/slapd.sh" stop
  "$ROOT/hack/authentik.sh" stop
  # Safety net for a control plane that died without stopping its children.
  local left
  left=$(pgrep -f -- "$CP_TMP/" || true)
  if [[ -n "$left" ]]; then
    log "stopping leftover control-plane processes: $left"
    local p
    for p in $left; do
      kill "$p" 2>/dev/null || true
      wait_until 15 pid_gone "$p" || kill -KILL "$p" 2>/dev/null || true
    done
  fi
  rm -rf "$CP_TMP" "$KUBECONFIG_PATH"
  log "dev environment stopped"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
