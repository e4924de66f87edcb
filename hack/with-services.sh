#!/usr/bin/env bash
# hack/with-services.sh CMD [ARGS...] — runs CMD with fresh test services and their env:
#   KUBEBUILDER_ASSETS            kube-apiserver/etcd/kubectl for envtest
#   KEYSTONE_URL, KEYSTONE_ADMIN_PASSWORD, ...   (see hack/keystone.sh)
#   LDAP_URL, LDAP_BIND_DN, LDAP_BIND_PASSWORD, LDAP_SUFFIX, LDAP_USERS_DN, LDAP_GROUPS_DN,
#   LDAP_USERS, LDAP_USER_PASSWORD               (see hack/slapd.sh)
#   AUTHENTIK_URL, AUTHENTIK_TOKEN               (see hack/authentik.sh)
# The services live in a temporary STATE_DIR and are stopped on any exit. Run
# hack/install-deps.sh first.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
(($#)) || die "usage: $0 CMD [ARGS...]"

STATE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/provider-identity-services.XXXXXX")
export STATE_DIR
# slow_requests prints Keystone's slowest requests (uwsgi logs each one with its time in msecs),
# any worker uwsgi killed or lost, Keystone's last exceptions and 5xx answers: when a command
# fails on a timeout, this says whether Keystone was slow or failed to answer, and why, before
# the log goes with STATE_DIR.
slow_requests() {
  local log=$STATE_DIR/keystone/keystone.log
  [[ -f $log ]] || return 0
  echo "[with-services.sh] the command failed; Keystone's slowest requests (of $(grep -c ' msecs ' "$log") logged):" >&2
  sed -nE 's/.*\] ([A-Z]+ [^ ]+) => generated [0-9]+ bytes in ([0-9]+) msecs.*/\2 ms  \1/p' "$log" | sort -rn | head -n 15 >&2 || true
  grep -iE 'harakiri|killed|died|respawn|segmentation' "$log" | tail -n 5 >&2 || true
  # Keystone logs a traceback for many answers, 404s too; the line naming the exception says
  # which one (a 500's is what matters; NotFound exceptions are 404s).
  echo "[with-services.sh] Keystone's last exceptions other than NotFound:" >&2
  grep -E ' ERROR [^ ]+ [A-Za-z_.]+(Error|Exception|Failure)[A-Za-z]*: ' "$log" | grep -v 'NotFound[A-Za-z]*: ' |
    sed -E 's/^([^ ]+ [^ ]+) [0-9]+ ERROR [^ ]+ /\1 /' | tail -n 5 >&2 || true
  # A 500 that Keystone's worker failed to write (0 headers) never reaches the client, which
  # then waits out its deadline on a request that took Keystone milliseconds.
  echo "[with-services.sh] Keystone's last 5xx answers:" >&2
  grep -E '\(HTTP/1\.1 5[0-9][0-9]\)' "$log" | sed -nE 's/.*\] ([A-Z]+ [^ ]+) => (.*)/\1 => \2/p' | tail -n 5 >&2 || true
}
cleanup() {
  local rc=$?
  ((rc == 0)) || slow_requests
  "$ROOT/hack/slapd.sh" stop || rc=1
  "$ROOT/hack/keystone.sh" stop || rc=1
  "$ROOT/hack/authentik.sh" stop || rc=1
  rm -rf "$STATE_DIR"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

KUBEBUILDER_ASSETS=$("$ROOT/hack/build-k8s.sh")
export KUBEBUILDER_ASSETS
"$ROOT/hack/keystone.sh" start
"$ROOT/hack/slapd.sh" start
# The authentik API server (built into $CACHE_DIR/bin) on a free port with a fresh token.
"$ROOT/hack/authentik.sh" start

set -a
for f in "$STATE_DIR"/*.env; do source "$f"; done
set +a
# In the background with `wait`, because bash runs a signal trap only after a foreground child
# returns: a SIGTERM or Ctrl-C must stop the services now, and the command too (with SIGTERM:
# a background child of a non-interactive shell ignores SIGINT).
"$@" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null; exit 143' TERM
trap 'kill -TERM "$child" 2>/dev/null; exit 130' INT
wait "$child"
