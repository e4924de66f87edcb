#!/usr/bin/env bash
# hack/lint.sh — golangci-lint (.golangci.yml) over the three Go modules: the root module with the
# e2e build tag (its untagged files included), functions/identity-platform and cluster/image.
# golangci-lint is a Go tool of its own modfile (hack/tools/lint/go.mod: its requirements would
# otherwise lift the main module's); `go tool` caches the built binary in the Go build cache and
# golangci-lint its analysis under $CACHE_DIR/golangci-lint, so a warm run takes seconds.
# Extra arguments go to every `golangci-lint run` (e.g. --fix).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

export GOLANGCI_LINT_CACHE=${GOLANGCI_LINT_CACHE:-$CACHE_DIR/golangci-lint}
# Two cores are the norm here (CI and the dev machines); more only when asked for.
LINT_CONCURRENCY=${LINT_CONCURRENCY:-2}
lint() { go tool -modfile="$ROOT/hack/tools/lint/go.mod" golangci-lint "$@"; }

rc=0
run() { # run DIR ARGS...: lint the module in DIR; the others still run when one has findings.
  local dir=$1; shift
  log "golangci-lint: $dir"
  (cd "$dir" && lint run --config "$ROOT/.golangci.yml" --concurrency "$LINT_CONCURRENCY" "$@") || rc=1
}
run . --build-tags e2e "$@" ./...
run functions/identity-platform "$@" ./...
run cluster/image "$@" ./...
exit "$rc"
