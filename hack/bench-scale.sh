#!/usr/bin/env bash
# hack/bench-scale.sh [N] — the scale benchmark (make bench-scale N=200): fresh Keystone
# (hack/keystone.sh: uwsgi's HTTP router in front of one worker, as ../shared/bench/README.md
# asks) and a fresh kube-apiserver + etcd (+ kube-controller-manager's garbage collector) from
# cluster/local/controlplane with package/crds, then hack/bench-scale/, which runs ksfloor and
# the provider (built from ./cmd/provider, its own process) against them and prints the summary.
# SYSTEM=authentik (make bench-scale SYSTEM=authentik) measures the authentik workload instead
# (N Applications with their OAuth2Providers, N/2 Groups) against a fresh in-repo authentik API
# server (hack/authentik.sh), with bench-scale's own floor; Keystone and ksfloor are then not
# needed. TOFU=1 (keystone only) also measures OpenTofu + terraform-provider-openstack on the same
# workload, against the same Keystone, right after the floor (hack/build-tofu.sh builds them once
# and caches them). POLL sets the provider's --poll (default 1m, the provider's own: every flag
# at its default). BENCH_ARGS passes more flags to bench-scale, e.g.
# BENCH_ARGS='-skip floor,drift,delete -provider-args=--pprof-bind-address=127.0.0.1:6060' for a
# quick memory run with heap profiles (-provider-env=GOMEMLIMIT=64MiB sets the provider's
# environment alone). ACTIVE=workload installs only the CRDs of the workload's kinds and the
# ProviderConfigs', as a ManagedResourceActivationPolicy naming just those kinds would leave
# (default ACTIVE=all: every CRD of package/crds, as Crossplane's default policy activating "*"
# does); the provider starts a controller only for an installed kind. PIN=1 runs the system's
# server (Keystone's uwsgi, or the authentik API server) on core 0 alone and everything else
# (the control plane, the provider, kubectl, ksfloor, OpenTofu, the bench) on the other cores,
# as when Keystone has a machine of its own: the same for the floor, OpenTofu and the provider.
# It shows how much of a ratio is CPU the others took from the server (default PIN=0: the
# machine shared as it comes, issue 12's setting). Everything is stopped on
# exit; the manifests, logs and summary stay in the printed directory (BENCH_KEEP=0 removes them
# too).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

N=${1:-${N:-50}}
POLL=${POLL:-1m}
SYSTEM=${SYSTEM:-keystone}
TOFU=${TOFU:-0}
ACTIVE=${ACTIVE:-all}
PIN=${PIN:-0}
# WORKLOAD_CRDS: the CRDs of the namespaced kinds each system's workload creates (hack/bench-scale's
# keystoneKinds and authentikKinds), as package/crds names them.
case $SYSTEM in
  keystone)
    WORKLOAD_CRDS=(keystone.identity.m.crossplane.io_{domains,roles,projects,groups,roleassignments}.yaml)
    # ksfloor lives beside the repository, in ../shared (a worktree's parent holds it too).
    KSFLOOR_DIR=${KSFLOOR_DIR:-$ROOT/../shared/bench/ksfloor}
    [[ -f $KSFLOOR_DIR/main.go ]] || die "ksfloor not found in $KSFLOOR_DIR: set KSFLOOR_DIR to ../shared/bench/ksfloor" ;;
  authentik)
    WORKLOAD_CRDS=(authentik.identity.m.crossplane.io_{oauth2providers,applications,groups}.yaml)
    [[ $TOFU == 0 ]] || die "TOFU=1 measures the Keystone workload: SYSTEM=authentik has no OpenTofu peer" ;;
  *) die "SYSTEM=$SYSTEM: want keystone or authentik" ;;
esac
case $ACTIVE in
  all | workload) ;;
  *) die "ACTIVE=$ACTIVE: want all (every CRD) or workload (the workload's kinds and the ProviderConfigs)" ;;
esac
# PIN_SERVER and PIN_REST prefix the commands that start the server and everything else;
# children inherit a process's cores.
PIN_SERVER=() PIN_REST=() PIN_NOTE=""
case $PIN in
  0) ;;
  1)
    cpus=$(nproc --all)
    ((cpus >= 2)) || die "PIN=1 needs at least 2 cores; this machine has $cpus"
    command -v taskset >/dev/null || die "PIN=1 needs taskset (Debian's util-linux)"
    rest="1-$((cpus - 1))"
    PIN_SERVER=(taskset -c 0) PIN_REST=(taskset -c "$rest")
    ((cpus > 2)) && rest="cores $rest" || rest="core 1"
    PIN_NOTE="the $SYSTEM server on core 0 alone; the control plane, the provider, kubectl, the floor's and OpenTofu's clients and the bench on $rest (PIN=1)" ;;
  *) die "PIN=$PIN: want 0 or 1" ;;
esac
# Before the services start: a cold build takes ~17 min, and prints its directory last.
TOFU_ARGS=()
if [[ $TOFU == 1 ]]; then
  TOFU_DIR=$("$ROOT/hack/build-tofu.sh" | tail -n 1)
  TOFU_ARGS=(-tofu "$TOFU_DIR")
elif [[ $TOFU != 0 ]]; then
  die "TOFU=$TOFU: want 0 or 1"
fi

KUBEBUILDER_ASSETS=$("$ROOT/hack/install-deps.sh" | tail -n 1)
export KUBEBUILDER_ASSETS
STATE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/bench-scale.XXXXXX")
export STATE_DIR
BIN=$STATE_DIR/bin
KUBECONFIG_PATH=$STATE_DIR/kubeconfig
CP_PID=$STATE_DIR/controlplane.pid
# envtest keeps etcd's data and the apiserver's certs under TMPDIR: inside STATE_DIR, so that
# nothing outlives the run.
CP_TMP=$STATE_DIR/controlplane-tmp

cleanup() {
  local rc=$?
  stop_pidfile "$CP_PID" || rc=1
  if [[ $SYSTEM == keystone ]]; then
    "$ROOT/hack/keystone.sh" stop || rc=1
  else
    "$ROOT/hack/authentik.sh" stop || rc=1
  fi
  # Keystone's log (uwsgi's line per request, with its time in msecs) stays for analysis.
  if [[ -f $STATE_DIR/keystone/keystone.log ]]; then mv "$STATE_DIR/keystone/keystone.log" "$STATE_DIR/keystone.log"; fi
  rm -rf "$CP_TMP" "$BIN" "$STATE_DIR/keystone"
  if [[ ${BENCH_KEEP:-1} == 0 ]]; then rm -rf "$STATE_DIR"; else log "manifests, logs and summary: $STATE_DIR"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

log "building the provider, the control plane and bench-scale"
mkdir -p "$BIN" "$CP_TMP"
go build -o "$BIN/provider" ./cmd/provider
go build -o "$BIN/controlplane" ./cluster/local/controlplane
go build -o "$BIN/bench-scale" ./hack/bench-scale
if [[ $SYSTEM == keystone ]]; then
  # ksfloor is a module of its own (stdlib only); its directory may be read-only.
  (cd "$KSFLOOR_DIR" && go build -o "$BIN/ksfloor" .)
fi

CRD_DIR=package/crds
if [[ $ACTIVE == workload ]]; then
  CRD_DIR=$STATE_DIR/crds
  mkdir -p "$CRD_DIR"
  (cd package/crds && cp identity.*.yaml "${WORKLOAD_CRDS[@]}" "$CRD_DIR/")
  log "ACTIVE=workload: $(ls "$CRD_DIR" | wc -l) of $(ls package/crds | wc -l) CRDs installed"
fi
TMPDIR=$CP_TMP setsid "${PIN_REST[@]}" "$BIN/controlplane" --crd-dir "$CRD_DIR" --write-kubeconfig "$KUBECONFIG_PATH" \
  >"$STATE_DIR/controlplane.log" 2>&1 </dev/null &
echo $! >"$CP_PID"
if [[ $SYSTEM == keystone ]]; then
  "${PIN_SERVER[@]}" "$ROOT/hack/keystone.sh" start
  set -a; source "$STATE_DIR/keystone.env"; set +a
  SYSTEM_ARGS=(-keystone-url "$KEYSTONE_URL" -ksfloor "$BIN/ksfloor" -cpu-of "keystone=$STATE_DIR/keystone/uwsgi.pid,controlplane=$CP_PID"
    -server-log "$STATE_DIR/keystone/keystone.log")
else
  # A fresh server on a free port with a fresh token (AUTHENTIK_TOKEN), as with-services.sh starts it.
  "${PIN_SERVER[@]}" "$ROOT/hack/authentik.sh" start
  set -a; source "$STATE_DIR/authentik.env"; set +a
  SYSTEM_ARGS=(-authentik-url "$AUTHENTIK_URL" -cpu-of "authentik=$STATE_DIR/authentik/apiserver.pid,controlplane=$CP_PID")
fi
wait_until 120 test -s "$KUBECONFIG_PATH" || die_log "control plane not ready after 120 s" "$STATE_DIR/controlplane.log"

log "bench-scale SYSTEM=$SYSTEM N=$N, provider --poll=$POLL (this takes several minutes)"
# In the background with `wait`, so that SIGTERM or Ctrl-C reach the traps (and bench-scale,
# which stops the provider it started) at once.
"${PIN_REST[@]}" "$BIN/bench-scale" -pinned "$PIN_NOTE" -system "$SYSTEM" -n "$N" -poll "$POLL" -kubeconfig "$KUBECONFIG_PATH" -kubectl "$KUBEBUILDER_ASSETS/kubectl" \
  "${SYSTEM_ARGS[@]}" "${TOFU_ARGS[@]}" -provider "$BIN/provider" -dir "$STATE_DIR" ${BENCH_ARGS:-} &
child=$!
trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 143' TERM
trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 130' INT
wait "$child"
