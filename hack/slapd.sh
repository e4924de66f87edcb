#!/usr/bin/env bash
# hack/slapd.sh start|stop|status — a private OpenLDAP server on 127.0.0.1 for LDAP-backed Keystone
# domains: suffix dc=example,dc=com, users alice/bob/carol, groups developers (alice, bob) and
# operators (carol). Every start begins from an empty directory (it takes ~0.1 s).
#
# State lives in $STATE_DIR/slapd; `start` writes $STATE_DIR/slapd.env (LDAP_URL, LDAP_BIND_DN, ...).
# LDAP_PORT picks the port; default 3890 when free, else any free one.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dir=$STATE_DIR/slapd
pidfile=$dir/slapd.pid
envfile=$STATE_DIR/slapd.env
logfile=$dir/slapd.log
SUFFIX=dc=example,dc=com
ROOT_DN=cn=admin,$SUFFIX
USERS_DN=ou=people,$SUFFIX
GROUPS_DN=ou=groups,$SUFFIX

running() { pidfile_alive "$pidfile" && [[ -f "$dir/port" ]] && port_open "$(<"$dir/port")"; }
random_password() { head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 20; }

start() {
  if running; then log "already running: $(grep LDAP_URL "$envfile")"; return; fi
  stop_pidfile "$pidfile"
  [[ -x /usr/sbin/slapd ]] || die "slapd is not installed: run hack/install-deps.sh"
  local port root_pw user_pw
  if [[ -n "${LDAP_PORT:-}" ]]; then
    port=$LDAP_PORT
    ! port_open "$port" || die "LDAP_PORT=$port is already in use"
  else
    port=$(free_port 3890)
  fi
  root_pw=$(random_password)
  user_pw=$(random_password)
  rm -rf "$dir" && mkdir -p "$dir/data"
  # Our own slapd.conf: the machine's /etc/ldap configuration (if any) is never touched.
  cat >"$dir/slapd.conf" <<CONF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile $pidfile
argsfile $dir/slapd.args

database mdb
maxsize 104857600
suffix "$SUFFIX"
rootdn "$ROOT_DN"
rootpw $(/usr/sbin/slappasswd -s "$root_pw")
directory $dir/data
index objectClass,uid,cn,member eq
# Users bind with their own password but nobody reads the hashes.
access to attrs=userPassword
  by self write
  by anonymous auth
  by * none
access to * by * read
CONF
  local hash
  hash=$(/usr/sbin/slappasswd -s "$user_pw")
  {
    printf 'dn: %s\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n\n' "$SUFFIX"
    printf 'dn: %s\nobjectClass: organizationalUnit\nou: people\n\n' "$USERS_DN"
    printf 'dn: %s\nobjectClass: organizationalUnit\nou: groups\n\n' "$GROUPS_DN"
    local u
    for u in alice:Alice:Anderson bob:Bob:Brown carol:Carol:Clark; do
      IFS=: read -r uid given sn <<<"$u"
      printf 'dn: uid=%s,%s\nobjectClass: inetOrgPerson\nuid: %s\ncn: %s %s\ngivenName: %s\nsn: %s\nmail: %s@example.com\nuserPassword: %s\n\n' \
        "$uid" "$USERS_DN" "$uid" "$given" "$sn" "$given" "$sn" "$uid" "$hash"
    done
    printf 'dn: cn=developers,%s\nobjectClass: groupOfNames\ncn: developers\nmember: uid=alice,%s\nmember: uid=bob,%s\n\n' "$GROUPS_DN" "$USERS_DN" "$USERS_DN"
    printf 'dn: cn=operators,%s\nobjectClass: groupOfNames\ncn: operators\nmember: uid=carol,%s\n\n' "$GROUPS_DN" "$USERS_DN"
  } >"$dir/seed.ldif"
  # Offline load before the server starts: no bind, no wait.
  /usr/sbin/slapadd -q -f "$dir/slapd.conf" -l "$dir/seed.ldif" >"$logfile" 2>&1 \
    || die_log "slapadd failed" "$logfile"
  # Another server (a parallel test run) may take the port between the check and the bind:
  # then try a port the kernel picks, unless the caller asked for this one.
  local attempt
  for attempt in 1 2 3; do
    serve "$port" && break
    [[ -z "${LDAP_PORT:-}" && $attempt -lt 3 ]] && grep -q 'Address already in use' "$logfile" \
      || die_log "slapd exited during start-up" "$logfile"
    log "port $port was taken meanwhile; retrying on another"
    port=$(free_port)
  done
  cat >"$envfile" <<ENV
LDAP_URL=ldap://127.0.0.1:$port
LDAP_BIND_DN=$ROOT_DN
LDAP_BIND_PASSWORD=$root_pw
LDAP_SUFFIX=$SUFFIX
LDAP_USERS_DN=$USERS_DN
LDAP_GROUPS_DN=$GROUPS_DN
LDAP_USERS=alice,bob,carol
LDAP_USER_PASSWORD=$user_pw
ENV
  log "slapd ready at ldap://127.0.0.1:$port (env: $envfile)"
}

# serve PORT: runs slapd on 127.0.0.1:PORT; returns 1 when it exits during start-up.
serve() {
  echo "$1" >"$dir/port"
  rm -f "$pidfile"
  # In the foreground (-d none: errors only) so that its errors land in our log.
  setsid /usr/sbin/slapd -d none -f "$dir/slapd.conf" -h "ldap://127.0.0.1:$1/" >>"$logfile" 2>&1 </dev/null &
  local pid=$!
  # slapd writes its pidfile only once it has bound the port, so a server of someone else's on
  # this port cannot pass for ours.
  wait_until 15 ready "$pid" "$1" || die_log "slapd is not listening on 127.0.0.1:$1 after 15 s" "$logfile"
  pid_alive "$pid"
}
ready() { pid_gone "$1" || { [[ -s "$pidfile" ]] && port_open "$2"; }; }

stop() {
  local port=
  [[ -f "$dir/port" ]] && port=$(<"$dir/port")
  stop_pidfile "$pidfile" "$port"
  rm -f "$envfile"
}

status() {
  if running; then echo "slapd: running (pid $(<"$pidfile")) at ldap://127.0.0.1:$(<"$dir/port")"
  else echo "slapd: stopped"; return 3; fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
