#!/usr/bin/env bash
# hack/keystone.sh start|stop|status — a real Keystone (Debian's python3-keystone) on 127.0.0.1
# for development and end-to-end tests: sqlite, fernet tokens, bootstrapped admin.
#
# State lives in $STATE_DIR/keystone; `start` writes $STATE_DIR/keystone.env (KEYSTONE_URL,
# KEYSTONE_ADMIN_PASSWORD, ...). Bootstrapping costs ~15 s of keystone-manage start-ups, so the
# first run keeps a pristine db + keys in $CACHE_DIR keyed by the package version, and every later
# start copies it (3-4 s). KEYSTONE_PORT picks the port; default 5000 when free, else any free one.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dir=$STATE_DIR/keystone
pidfile=$dir/uwsgi.pid
envfile=$STATE_DIR/keystone.env
logfile=$dir/keystone.log
# The port the pristine catalog is bootstrapped with; `start` rewrites the endpoints to the real one.
BOOTSTRAP_PORT=5000
# Bump when the pristine layout or bootstrap steps change, so stale caches are not reused.
PRISTINE_FORMAT=1

# write_conf DIR: keystone.conf whose db and key repositories live in DIR.
write_conf() {
  cat >"$1/keystone.conf" <<CONF
[DEFAULT]
debug = false
use_stderr = true

[database]
connection = sqlite:///$1/keystone.db
sqlite_synchronous = false

[token]
provider = fernet

[fernet_tokens]
key_repository = $1/fernet-keys

[fernet_receipts]
key_repository = $1/fernet-keys

[credential]
key_repository = $1/credential-keys

[identity]
# bcrypt's minimum: user creation in tests is fast.
password_hash_rounds = 4
# Per-domain identity backends (LDAP) configured through /v3/domains/{id}/config.
domain_specific_drivers_enabled = true
domain_configurations_from_database = true

[auth]
methods = external,password,token,oauth1,mapped,application_credential,openid,saml2

[cache]
# Without a cache every token validation costs ~100 SQL queries.
enabled = true
backend = dogpile.cache.memory

[oslo_policy]
enforce_scope = false
enforce_new_defaults = false
CONF
}

# pristine: prints the cache dir holding a bootstrapped db + keys, creating it when missing.
pristine() {
  local version out tmp pw
  version=$(dpkg-query -W -f='${Version}' python3-keystone 2>/dev/null) \
    || die "python3-keystone is not installed: run hack/install-deps.sh"
  out=$CACHE_DIR/keystone-${version//:/_}-f$PRISTINE_FORMAT
  if [[ -f "$out/admin-password" ]]; then echo "$out"; return; fi
  log "bootstrapping a pristine Keystone $version db (once per version, ~15 s)"
  mkdir -p "$CACHE_DIR"
  tmp=$(mktemp -d "$CACHE_DIR/keystone-bootstrap.XXXXXX")
  write_conf "$tmp"
  pw=$(head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 24)
  local km=("${CLEAN_ENV[@]}" /usr/bin/keystone-manage --config-file "$tmp/keystone.conf")
  local owner=(--keystone-user "$(id -un)" --keystone-group "$(id -gn)")
  local url=http://127.0.0.1:$BOOTSTRAP_PORT/v3/
  { "${km[@]}" db_sync &&
    "${km[@]}" fernet_setup "${owner[@]}" &&
    "${km[@]}" credential_setup "${owner[@]}" &&
    "${km[@]}" bootstrap --bootstrap-password "$pw" --bootstrap-username admin \
      --bootstrap-project-name admin --bootstrap-role-name admin --bootstrap-region-id RegionOne \
      --bootstrap-admin-url "$url" --bootstrap-public-url "$url" --bootstrap-internal-url "$url"
  } >"$tmp/bootstrap.log" 2>&1 || die_log "keystone-manage failed" "$tmp/bootstrap.log"
  # WAL lets tests read the db while Keystone writes it.
  /usr/bin/python3 -c 'import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA journal_mode=WAL")' "$tmp/keystone.db"
  echo "$pw" >"$tmp/admin-password"
  rm -f "$tmp/keystone.conf"
  # Atomic publish; a concurrent bootstrap that won the race is just as good.
  mv -T "$tmp" "$out" 2>/dev/null || rm -rf "$tmp"
  echo "$out"
}

token_status() {
  curl -s -o /dev/null -w '%{http_code}' --max-time 10 -H 'Content-Type: application/json' \
    -d "{\"auth\":{\"identity\":{\"methods\":[\"password\"],\"password\":{\"user\":{\"name\":\"admin\",\"domain\":{\"name\":\"Default\"},\"password\":\"$2\"}}},\"scope\":{\"project\":{\"name\":\"admin\",\"domain\":{\"name\":\"Default\"}}}}}" \
    "http://127.0.0.1:$1/v3/auth/tokens" || true
}

running() { pidfile_alive "$pidfile" && [[ -f "$dir/port" ]] && port_open "$(<"$dir/port")"; }

start() {
  if running; then log "already running: $(grep KEYSTONE_URL "$envfile")"; return; fi
  stop_pidfile "$pidfile"
  local src port pw attempt
  src=$(pristine)
  if [[ -n "${KEYSTONE_PORT:-}" ]]; then
    port=$KEYSTONE_PORT
    ! port_open "$port" || die "KEYSTONE_PORT=$port is already in use"
  else
    port=$(free_port 5000)
  fi
  pw=$(<"$src/admin-password")
  rm -rf "$dir" && mkdir -p "$dir"
  cp -a "$src/keystone.db" "$src/fernet-keys" "$src/credential-keys" "$dir/"
  write_conf "$dir"
  # Another Keystone (a parallel test run) may take the port between the check and the bind:
  # then try a port the kernel picks, unless the caller asked for this one.
  for attempt in 1 2 3; do
    serve "$port" "$pw" && break
    [[ -z "${KEYSTONE_PORT:-}" && $attempt -lt 3 ]] && grep -q 'Address already in use' "$logfile" \
      || die_log "uwsgi exited during start-up" "$logfile"
    log "port $port was taken meanwhile; retrying on another"
    port=$(free_port)
  done
  cat >"$envfile" <<ENV
KEYSTONE_URL=http://127.0.0.1:$port/v3
KEYSTONE_ADMIN_PASSWORD=$pw
KEYSTONE_ADMIN_USERNAME=admin
KEYSTONE_ADMIN_PROJECT=admin
KEYSTONE_ADMIN_DOMAIN=Default
KEYSTONE_REGION=RegionOne
ENV
  log "Keystone ready at http://127.0.0.1:$port/v3 (env: $envfile, log: $logfile)"
}

# serve PORT PASSWORD: runs uwsgi on PORT and waits until the admin gets a token. Returns 1 when
# uwsgi exits during start-up (e.g. the port is taken); dies when it hangs.
serve() {
  local port=$1 pw=$2
  echo "$port" >"$dir/port"
  /usr/bin/python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("UPDATE endpoint SET url=?", (sys.argv[2],)); c.commit()' \
    "$dir/keystone.db" "http://127.0.0.1:$port/v3/"
  # uwsgi's HTTP router holds client (keep-alive) connections and feeds one worker through a
  # unix socket: one worker because sqlite locks under concurrency, the router so that
  # concurrent keep-alive clients do not wait on each other.
  cat >"$dir/uwsgi.ini" <<INI
[uwsgi]
plugins = python3,http
http = 127.0.0.1:$port
http-keepalive = 1
http-timeout = 300
socket = $dir/uwsgi.sock
buffer-size = 65535
wsgi-file = $ROOT/hack/keystone-wsgi.py
env = OS_KEYSTONE_CONFIG_FILES=$dir/keystone.conf
master = true
processes = 1
threads = 1
; restarts a worker stuck on a hung LDAP server
harakiri = 60
post-buffering = 65536
lazy-apps = true
need-app = true
die-on-term = true
pidfile = $pidfile
INI
  setsid "${CLEAN_ENV[@]}" /usr/bin/uwsgi --ini "$dir/uwsgi.ini" >"$logfile" 2>&1 </dev/null &
  local pid=$! deadline=$((SECONDS + 90)) code=
  while [[ "$code" != 201 ]]; do
    ((SECONDS < deadline)) || die_log "Keystone did not issue a token within 90 s (last HTTP status ${code:-none})" "$logfile"
    # Checked first: a token from a Keystone on a port we failed to bind must not count.
    pid_alive "$pid" || return 1
    sleep 0.2
    port_open "$port" && code=$(token_status "$port" "$pw")
  done
  # uwsgi fails a bind within milliseconds, long before Python is up: still alive means ours.
  pid_alive "$pid"
}

stop() {
  local port=
  [[ -f "$dir/port" ]] && port=$(<"$dir/port")
  stop_pidfile "$pidfile" "$port"
  rm -f "$envfile"
}

status() {
  if running; then echo "keystone: running (pid $(<"$pidfile")) at http://127.0.0.1:$(<"$dir/port")/v3"
  else echo "keystone: stopped"; return 3; fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
