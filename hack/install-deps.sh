#!/usr/bin/env bash
# hack/install-deps.sh — installs what the dev environment and the tests need, idempotently:
# Debian packages (Keystone's Python stack, uwsgi, OpenLDAP) and kube-apiserver/etcd/kubectl
# built from the Go module proxy. When everything is present it only checks (well under 1 s).
# Prints the kube-apiserver/etcd/kubectl directory (for KUBEBUILDER_ASSETS) on its last line.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# Not the `keystone` package: it pulls dbconfig-common and a system service.
PACKAGES=(python3-keystone uwsgi-core uwsgi-plugin-python3 slapd ldap-utils etcd-server
  curl make git ca-certificates procps)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  ((EUID == 0)) || die "installing packages needs root (apt-get); run as root or install: ${missing[*]}"
  # Keep package scripts from starting system services (slapd, etcd) during the install: ours
  # run on private ports. Docker-style images already ship such a policy-rc.d.
  policy=/usr/sbin/policy-rc.d
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  # No default slapd database: slapd.sh writes its own configuration.
  echo 'slapd slapd/no_configuration boolean true' | debconf-set-selections
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  log "Debian packages installed"
fi

# Builds only when the cached binaries are missing or of another version (cold ~5 min).
"$ROOT/hack/build-k8s.sh"
