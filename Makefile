# provider-identity — the two commands a newcomer needs:
#   make dev    run the provider locally against kube-apiserver, Keystone and slapd
#   make test   vet, unit tests and end-to-end tests (what CI runs, via .ci/run)
SHELL := /bin/bash
# Go lives in /usr/local/go on these machines; a non-login shell may lack it.
export PATH := $(PATH):/usr/local/go/bin
BIN_DIR ?= _output/bin

.PHONY: all generate check-generated build packages lint test dev dev-down bench bench-scale

all: build

generate:
	go generate -tags generate ./apis/...
	python3 hack/gen-backend-xrd.py

check-generated: generate
	@if [ -n "$$(git status --porcelain apis package cluster)" ]; then \
	  echo "Generated files are out of date or uncommitted. Run 'make generate' and commit:"; \
	  git status --porcelain apis package cluster; \
	  exit 1; \
	fi

build:
	go build ./...
	go build -o $(BIN_DIR)/provider ./cmd/provider
	go build -o $(BIN_DIR)/kubectl-identity ./cmd/kubectl-identity
	hack/build-packages.sh

# The provider, function-identity-platform and platform Configuration packages (.xpkg, no Docker)
# in _output/xpkg; see docs/compositions.md.
packages:
	hack/build-packages.sh

# golangci-lint over every Go module (.golangci.yml; hack/lint.sh). `make test` runs it too, in
# the background of the test run (`LINT=0 make test` leaves it out).
lint:
	hack/lint.sh

test:
	hack/test.sh

dev:
	hack/dev.sh up

dev-down:
	hack/dev.sh down

# Benchmarks are e2e-tagged tests under ./test, run with the same services as `make test`.
bench:
	hack/install-deps.sh >/dev/null
	hack/with-services.sh go test -tags e2e -run '^$$' -bench . ./test/...

# The scale benchmark of issue 12 (not part of make test): the workload of ../shared/bench
# (1 Domain, N Projects, N/2 Groups, N RoleAssignments) through the provider beside ksfloor, on
# fresh services; prints one summary block. `make bench-scale N=200`; POLL sets the provider's
# --poll (default 1m, the provider's own default: issue 12 measures it at its default flags).
# SYSTEM=authentik: N Applications with their OAuth2Providers and N/2 Groups against the in-repo
# authentik API server, beside bench-scale's own floor.
# TOFU=1 (keystone only): also OpenTofu + terraform-provider-openstack on the same workload, right
# after the floor (hack/build-tofu.sh builds them once, ~17 min cold).
# ACTIVE=workload: only the workload's CRDs and the ProviderConfigs' are installed, as an activation
# policy naming just those kinds leaves them (default ACTIVE=all).
# PIN=1: the system's server on core 0 alone, everything else on the other cores (the same for
# the floor, OpenTofu and the provider), to show how much of a ratio is CPU the others took.
N ?= 50
POLL ?= 1m
SYSTEM ?= keystone
TOFU ?= 0
ACTIVE ?= all
PIN ?= 0
bench-scale:
	N=$(N) POLL=$(POLL) SYSTEM=$(SYSTEM) TOFU=$(TOFU) ACTIVE=$(ACTIVE) PIN=$(PIN) hack/bench-scale.sh
