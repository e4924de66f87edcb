#!/usr/bin/env bash
# hack/authentik.sh start|stop|status — the in-memory authentik API server
# (./cluster/authentik-apiserver, test tooling validated against authentik's openapi document) on
# 127.0.0.1, for the e2e tests and `make dev`: authentik itself cannot run on these machines.
# The binary is built into $CACHE_DIR/bin. State lives in $STATE_DIR/authentik; `start` writes
# $STATE_DIR/authentik.env (AUTHENTIK_URL, AUTHENTIK_TOKEN). AUTHENTIK_PORT picks the port
# (default: any free one, chosen by the server itself so no other process can take it first);
# AUTHENTIK_TOKEN picks the API token (default: a random one per start).
# The server finds api/openapi.yaml of the goauthentik.io/api/v3 module with the go tool
# (`go list -m`, or `go mod download` on a fresh machine), so Go must be in PATH.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dir=$STATE_DIR/authentik
pidfile=$dir/apiserver.pid
portfile=$dir/port
logfile=$dir/apiserver.log
envfile=$STATE_DIR/authentik.env
bin=$CACHE_DIR/bin/authentik-apiserver

# ready_or_gone: the server wrote its env file, or exited (a start-up error ends the wait early).
ready_or_gone() { [[ -s "$envfile" ]] || ! pidfile_alive "$pidfile"; }

running() { pidfile_alive "$pidfile" && [[ -f "$portfile" ]] && port_open "$(<"$portfile")"; }

start() {
  if running; then log "already running: $(grep AUTHENTIK_URL "$envfile")"; return; fi
  stop_pidfile "$pidfile"
  mkdir -p "$dir" "$CACHE_DIR/bin"
  rm -f "$envfile" "$portfile"
  cd "$ROOT"
  go build -o "$bin" ./cluster/authentik-apiserver
  # The server reads api/openapi.yaml from the module cache; the build above does not need the
  # module, so a fresh machine gets it here (a no-op once cached).
  go mod download goauthentik.io/api/v3
  local token=${AUTHENTIK_TOKEN:-}
  if [[ -z "$token" ]]; then
    token=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
  fi
  # The server writes the env file only once it accepts connections; its own start-up parses
  # the 97k-line openapi document (~2 s) and may have to download the module first.
  setsid "$bin" --listen "127.0.0.1:${AUTHENTIK_PORT:-0}" --token "$token" \
    --env-file "$envfile" >"$logfile" 2>&1 </dev/null &
  echo $! >"$pidfile"
  wait_until 180 ready_or_gone || true
  pidfile_alive "$pidfile" || die_log "authentik-apiserver exited during start-up" "$logfile"
  if [[ ! -s "$envfile" ]]; then
    stop_pidfile "$pidfile"
    die_log "authentik-apiserver not ready after 180 s" "$logfile"
  fi
  local url
  url=$(sed -n 's/^AUTHENTIK_URL=//p' "$envfile")
  echo "${url##*:}" >"$portfile"
  log "authentik API server ready at $url/api/v3 (env: $envfile, log: $logfile)"
}

stop() {
  local port=
  [[ -f "$portfile" ]] && port=$(<"$portfile")
  stop_pidfile "$pidfile" "$port"
  rm -f "$envfile" "$portfile"
  # The server logs its contract violations (requests authentik would reject) as it goes, and
  # their number when it stops.
  if [[ -f "$logfile" ]] && grep -q 'contract violation' "$logfile"; then
    log "authentik-apiserver recorded contract violations: $(grep 'contract violation' "$logfile" | tail -n 1) (see $logfile)"
  fi
  return 0
}

status() {
  if running; then echo "authentik-apiserver: running (pid $(<"$pidfile")) at http://127.0.0.1:$(<"$portfile")/api/v3"
  else echo "authentik-apiserver: stopped"; return 3; fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
