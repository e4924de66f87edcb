#!/usr/bin/env bash
# hack/test.sh — the project's test suite, as `make test` and CI run it:
# dependencies, unit tests, then end-to-end tests (build tag e2e) against a real
# kube-apiserver/etcd (envtest), Keystone and slapd started for this run only.
#
# It also runs golangci-lint (hack/lint.sh) in the background, and fails the run
# at the end when it finds anything, go vet's analyzers included; LINT=0 leaves it out (for a
# quick local run) and runs go vet instead.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# What runs in the background; an interrupted run takes it down too (the platform test stops its
# services through its own trap; lint runs in a process group of its own, killed whole).
bg_pids=()
lint_pgid=""
stop_background() {
  if ((${#bg_pids[@]})); then kill "${bg_pids[@]}" 2>/dev/null || true; fi
  if [[ -n $lint_pgid ]]; then kill -- "-$lint_pgid" 2>/dev/null || true; fi
}
trap stop_background EXIT

# --- Lint (LINT=0 skips it) -------------------------------------------------------------------
# golangci-lint from the start, beside everything else: an equal share of the cores beside the
# compiling stages, then, from the end-to-end stage on, what the tests leave (they mostly wait:
# about 6.5 of 28 core-minutes in a warm run). Measured on 2 shared cores (load 10-18):
# cold analysis (empty golangci-lint cache) 13 min, 8 CPU-minutes; after changes to a few dozen
# files 3-7 min; nothing changed 40 s. Building the tool in an empty Go build cache adds about 8
# minutes. Its output is printed whole at the end, and a finding fails the run there.
lint_pid=""
if [[ ${LINT:-1} == 1 ]]; then
  lint_log=$(mktemp "${TMPDIR:-/tmp}/lint.XXXXXX.log")
  log "golangci-lint (hack/lint.sh) beside the other stages; output: $lint_log"
  lint_start=$SECONDS
  # setsid makes a session, and with it a scheduler autogroup (Linux's default): autogroups share
  # the cores equally whatever the nice of their processes, so the nice here holds only among
  # lint's own processes. Until the end-to-end stage lint takes an equal share beside the stages
  # that compile, CPU the run spends either way (cold, go vet and the unit tests took 24 min
  # beside lint and 13 min alone); from then on its group's own nice is 19 (below).
  setsid nice -n 19 "$ROOT/hack/lint.sh" >"$lint_log" 2>&1 &
  lint_pid=$!
  lint_pgid=$lint_pid
fi
# --- end of Lint --------------------------------------------------------------------------------

KUBEBUILDER_ASSETS=$("$ROOT/hack/install-deps.sh" | tail -n 1)
export KUBEBUILDER_ASSETS

# go vet runs here only without lint: golangci-lint's govet (hack/lint.sh, over the root module
# with the e2e tag and over the two modules below) runs every analyzer that go vet runs by
# default, so with lint on, go vet here did that work twice. Measured cold on 2 cores, with lint
# off: go vet, go vet -tags e2e and the unit tests 782 s; the unit tests alone 657 s.
vet() {
  if [[ ${LINT:-1} == 1 ]]; then return 0; fi
  log "go vet $*"
  go vet "$@"
}
vet ./...
vet -tags e2e ./...

log "unit tests"
go test ./...

# --- Compositions and packages (platform.identity.crossplane.io) -------------------------------
# Modules of their own, outside ./...: the composition function and the runtime-image builder.
# The render tests of the Compositions are e2e-tagged tests in ./test/render (run below).
log "function-identity-platform and cluster/image: unit tests and build"
(cd functions/identity-platform && vet ./... && go test ./...)
(cd cluster/image && vet ./... && go build -o /dev/null ./...)
# --- end of Compositions and packages ----------------------------------------------------------

# From the end-to-end stage on, the tests come first: lint's autogroup gets nice 19, and lint runs
# on what they leave (nothing to do without autogroups, or once lint has ended). Only while lint
# still leads its own session: the autogroup of any other process may be this run's own.
if [[ -n $lint_pid && $(ps -o sid= -p "$lint_pid" 2>/dev/null | tr -d ' ') == "$lint_pid" ]]; then
  echo 19 >"/proc/$lint_pid/autogroup" 2>/dev/null || true
fi

# The end-to-end stages below mostly wait (on reconciles, on Keystone's single worker, on
# Crossplane), not compute: the platform test runs beside the Go end-to-end tests, each on
# services of its own, and the run waits for both. Its output is kept apart and printed whole
# when it ends, so the two do not interleave.
# --- Compositions and packages: end to end ------------------------------------------------------
# Crossplane core out of cluster with both functions, the provider and real services: a
# ServiceClaim before its Tenant waits (TenantReady=False), then Tenant and two ServiceClaims
# converge; LDAP and OIDC KeystoneIdentityBackends and an AuthentikFederation converge (~4 min).
platform_log=$(mktemp "${TMPDIR:-/tmp}/e2e-platform.XXXXXX.log")
log "platform compositions end to end (hack/e2e-platform.sh), beside the Go end-to-end tests; output: $platform_log"
"$ROOT/hack/e2e-platform.sh" >"$platform_log" 2>&1 &
platform_pid=$!
bg_pids+=("$platform_pid")
# --- end of Compositions and packages -----------------------------------------------------------

# Only the packages with e2e-tagged files: the others' tests already ran as unit tests above.
e2e_rc=0
mapfile -t e2e < <(e2e_packages test internal)
if ((${#e2e[@]})); then
  # The serial tests of ./test/e2e (no t.Parallel: they count every request a service gets,
  # inject faults, or compare service-wide lists) run in a process of their own, on services of
  # their own, beside all the others: on their own services nothing disturbs them, and they
  # no longer hold the parallel ones back.
  serial=$(go run ./hack/e2e-serial test/e2e | paste -sd'|')
  log "end-to-end tests: ${e2e[*]}; the serial ones of ./test/e2e beside them: ${serial//|/ }"
  # hack/with-services.sh also starts the authentik API server (./cluster/authentik-apiserver)
  # and exports AUTHENTIK_URL and AUTHENTIK_TOKEN.
  serial_rc=0
  "$ROOT/hack/with-services.sh" go test -tags e2e -count=1 -timeout 45m -run "^(${serial})\$" ./test/e2e &
  serial_pid=$!
  bg_pids+=("$serial_pid")
  "$ROOT/hack/with-services.sh" go test -tags e2e -count=1 -timeout 45m -skip "^(${serial})\$" "${e2e[@]}" || e2e_rc=$?
  wait "$serial_pid" || serial_rc=$?
  ((serial_rc == 0)) || e2e_rc=$serial_rc
else
  log "no e2e-tagged tests under ./test or ./internal yet: no end-to-end tests to run"
fi

platform_rc=0
wait "$platform_pid" || platform_rc=$?
log "platform compositions end to end: output of hack/e2e-platform.sh (exit code $platform_rc)"
cat "$platform_log" >&2
rm -f "$platform_log"

lint_rc=0
if [[ -n $lint_pid ]]; then
  wait "$lint_pid" || lint_rc=$?
  lint_pgid=""
  log "golangci-lint: output of hack/lint.sh (exit code $lint_rc, $((SECONDS - lint_start)) s)"
  cat "$lint_log" >&2
  rm -f "$lint_log"
fi
((e2e_rc == 0)) || die "end-to-end tests failed (exit code $e2e_rc)"
((platform_rc == 0)) || die "platform compositions end to end failed (exit code $platform_rc)"
((lint_rc == 0)) || die "golangci-lint found problems (exit code $lint_rc; see its output above, or run make lint)"
