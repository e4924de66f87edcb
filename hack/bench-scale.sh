#!/usr/bin/env bash
# hack/bench-scale.sh [N] — the scale benchmark (make bench-scale N=200): fresh Keystone
# (hack/keystone.sh: uwsgi's HTTP router in front of one worker, as ../shared/bench/README.md
# asks) and a fresh kube-apiserver + etcd (+ kube-controller-manager's garbage collector) from
# cluster/local/controlplane with package/crds, then hack/bench-scale/, which runs ksfloor and
# the provider (built from ./cmd/provider, its own process) against them and prints the summary.
# POLL sets the provider's --poll (default 30s). Everything is stopped on exit; the manifests,
# logs and summary stay in the printed directory (BENCH_KEEP=0 removes them too).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

N=${1:-${N:-50}}
POLL=${POLL:-30s}
# ksfloor lives beside the repository, in ../shared (a worktree's parent holds it too).
KSFLOOR_DIR=${KSFLOOR_DIR:-$ROOT/../shared/bench/ksfloor}
[[ -f $KSFLOOR_DIR/main.go ]] || die "ksfloor not found in $KSFLOOR_DIR: set KSFLOOR_DIR to ../shared/bench/ksfloor"

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
  "$ROOT/hack/keystone.sh" stop || rc=1
  rm -rf "$CP_TMP" "$BIN" "$STATE_DIR/keystone"
  if [[ ${BENCH_KEEP:-1} == 0 ]]; then rm -rf "$STATE_DIR"; else log "manifests, logs and summary: $STATE_DIR"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

log "building the provider, the control plane, bench-scale and ksfloor"
mkdir -p "$BIN" "$CP_TMP"
go build -o "$BIN/provider" ./cmd/provider
go build -o "$BIN/controlplane" ./cluster/local/controlplane
go build -o "$BIN/bench-scale" ./hack/bench-scale
# ksfloor is a module of its own (stdlib only); its directory may be read-only.
(cd "$KSFLOOR_DIR" && go build -o "$BIN/ksfloor" .)

TMPDIR=$CP_TMP setsid "$BIN/controlplane" --crd-dir package/crds --write-kubeconfig "$KUBECONFIG_PATH" \
  >"$STATE_DIR/controlplane.log" 2>&1 </dev/null &
echo $! >"$CP_PID"
"$ROOT/hack/keystone.sh" start
wait_until 120 test -s "$KUBECONFIG_PATH" || die_log "control plane not ready after 120 s" "$STATE_DIR/controlplane.log"
set -a; source "$STATE_DIR/keystone.env"; set +a

log "bench-scale N=$N, provider --poll=$POLL (this takes several minutes)"
# In the background with `wait`, so that SIGTERM or Ctrl-C reach the traps (and bench-scale,
# which stops the provider it started) at once.
"$BIN/bench-scale" -n "$N" -poll "$POLL" -kubeconfig "$KUBECONFIG_PATH" -kubectl "$KUBEBUILDER_ASSETS/kubectl" \
  -keystone-url "$KEYSTONE_URL" -provider "$BIN/provider" -ksfloor "$BIN/ksfloor" -dir "$STATE_DIR" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 143' TERM
trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 130' INT
wait "$child"
