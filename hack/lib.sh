# Shared helpers for the hack/ scripts. Source it; it defines functions and defaults only.
# shellcheck shell=bash

ROOT=${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
CACHE_DIR=${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/provider-identity}
STATE_DIR=${STATE_DIR:-$ROOT/_output/dev}
# Debian's python stack: Keystone and its tools must not see a pyenv/venv python first in PATH.
CLEAN_ENV=(env -u PYTHONPATH -u PYTHONHOME -u VIRTUAL_ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# die_log MSG FILE: fail and show the end of the log that explains why.
die_log() {
  log "ERROR: $1"
  if [[ -f "$2" ]]; then log "last lines of $2:"; tail -n 30 "$2" >&2; fi
  exit 1
}

# port_open PORT: something accepts TCP connections on 127.0.0.1:PORT.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# free_port [PREFERRED]: PREFERRED when nothing listens there, else a port the kernel hands out.
free_port() {
  if [[ -n "${1:-}" ]] && ! port_open "$1"; then echo "$1"; return; fi
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# pid_alive PID: the process exists and is not a zombie (PID 1 here may never reap it).
pid_alive() {
  local stat
  [[ -n "${1:-}" && -r "/proc/$1/stat" ]] || return 1
  stat=$(<"/proc/$1/stat") || return 1
  stat=${stat##*) }
  [[ ${stat%% *} != Z ]]
}

pid_gone() { ! pid_alive "$1"; }
port_closed() { ! port_open "$1"; }

# pidfile_alive FILE: the pidfile names a live process.
pidfile_alive() { [[ -f "$1" ]] && pid_alive "$(<"$1")"; }

# wait_until SECONDS CMD...: poll CMD every 0.1 s; false when it never succeeded in time.
wait_until() {
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

# stop_pidfile FILE [PORT]: SIGTERM the process group led by the pidfile's PID (all our services
# start under setsid), SIGKILL after 15 s, and wait for PORT to close. Idempotent.
stop_pidfile() {
  local file=$1 port=${2:-} pid
  if [[ -f "$file" ]]; then
    pid=$(<"$file")
    if pid_alive "$pid"; then
      kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
      if ! wait_until 15 pid_gone "$pid"; then
        log "PID $pid ignored SIGTERM for 15 s: sending SIGKILL"
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
      fi
    fi
    rm -f "$file"
  fi
  if [[ -n "$port" ]] && ! wait_until 15 port_closed "$port"; then
    die "port $port is still open after stopping $file"
  fi
}

# Go lives in /usr/local/go on these machines; a non-login shell may not have it in PATH.
command -v go >/dev/null 2>&1 || PATH=$PATH:/usr/local/go/bin

# e2e_packages DIR...: ./-relative directories below DIR... holding a test file with the e2e build
# tag, once each.
e2e_packages() {
  local d
  for d in "$@"; do [[ -d $d ]] && { grep -rl --include='*_test.go' '^//go:build e2e' "$d" || true; }; done | xargs -r -n1 dirname | sort -u | sed 's|^|./|'
  return 0
}

