#!/usr/bin/env bash
# hack/e2e-platform.sh — the platform Compositions end to end, without a cluster: the dev
# environment of hack/dev.sh (kube-apiserver, Keystone, slapd, authentik API server, the
# provider and its ProviderConfigs "keystone" and "authentik") in a private STATE_DIR, plus
# Crossplane core (v2.2.1, out of cluster), function-patch-and-transform and
# function-identity-platform over mutual TLS, Crossplane's and ArgoCD's CRDs, and the
# Configuration's XRDs and Compositions. Then:
#   1. a ServiceClaim applied before its Tenant is accepted and waits with TenantReady=False;
#   2. the Tenant converges (Namespace, RoleBinding, quota, authentik Group, Keystone Project,
#      Group, role assignment), the waiting ServiceClaim follows (ArgoCD Application with its
#      finalizer, authentik OAuth2 provider and application, client Secret in the team
#      namespace);
#   3. a second ServiceClaim for the same Tenant converges.
# Everything started here is stopped on exit (by PID). Exits non-zero on the first failure.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

STATE_DIR=${E2E_STATE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/platform-e2e.XXXXXX")}
export STATE_DIR BIN_DIR=$STATE_DIR/bin
LOGS=$STATE_DIR/logs
mkdir -p "$LOGS" "$BIN_DIR"
eval "$("$ROOT/hack/build-crossplane.sh")"

pids=()
cleanup() {
  local rc=$? p
  for p in "${pids[@]}"; do
    kill "$p" 2>/dev/null || true
    wait_until 15 pid_gone "$p" || kill -KILL "$p" 2>/dev/null || true
  done
  "$ROOT/hack/dev.sh" down >/dev/null 2>&1 || rc=1
  if ((rc)); then log "FAILED; logs kept in $LOGS"; else rm -rf "$STATE_DIR"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

fail() {
  log "FAIL: $*"
  kubectl get tenants,serviceclaims -A -o wide 2>&1 | sed 's/^/  /' >&2 || true
  kubectl get managed 2>&1 | sed 's/^/  /' >&2 || true
  exit 1
}

# wait_cond TIMEOUT CONDITION[=STATUS] RESOURCE...: kubectl wait, quiet unless it fails.
wait_cond() {
  local timeout=$1 cond=$2; shift 2
  kubectl wait --timeout="${timeout}s" --for=condition="$cond" "$@" >/dev/null 2>&1 && return
  kubectl wait --timeout=1s --for=condition="$cond" "$@" 2>&1 | sed 's/^/  /' >&2
  return 1
}

log "dev environment (control plane, Keystone, slapd, authentik, provider)"
"$ROOT/hack/dev.sh" up >"$LOGS/dev.log" 2>&1 || { tail -n 30 "$LOGS/dev.log" >&2; exit 1; }
export KUBECONFIG=$STATE_DIR/kubeconfig
PATH=$("$ROOT/hack/build-k8s.sh"):$PATH
export PATH

kubectl apply --server-side -f "$CROSSPLANE_CRDS" -f "$ARGOCD_CRDS" >/dev/null
kubectl create namespace argocd --dry-run=client -o yaml | kubectl apply -f - >/dev/null

log "mutual TLS between Crossplane and the functions"
tls=$STATE_DIR/tls
mkdir -p "$tls/server" "$tls/client"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=platform-e2e-ca \
  -keyout "$tls/ca.key" -out "$tls/ca.crt" 2>/dev/null
for side in server client; do
  usage=serverAuth; [[ $side == client ]] && usage=clientAuth
  openssl req -newkey rsa:2048 -nodes -subj "/CN=$side" -keyout "$tls/$side/tls.key" -out "$tls/$side.csr" 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=%s\n' "$usage" >"$tls/$side.ext"
  openssl x509 -req -days 1 -in "$tls/$side.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -CAcreateserial \
    -extfile "$tls/$side.ext" -out "$tls/$side/tls.crt" 2>/dev/null
  cp "$tls/ca.crt" "$tls/$side/ca.crt"
done

log "functions"
(cd functions/identity-platform && go build -o "$BIN_DIR/function-identity-platform" .)
declare -A port
for fn in function-patch-and-transform function-identity-platform; do
  bin=$BIN_DIR/function-identity-platform
  [[ $fn == function-patch-and-transform ]] && bin=$FUNCTION_PT
  port[$fn]=$(free_port)
  setsid "$bin" --tls-certs-dir="$tls/server" --address="127.0.0.1:${port[$fn]}" >"$LOGS/$fn.log" 2>&1 </dev/null &
  pids+=($!)
done
for fn in "${!port[@]}"; do
  wait_until 30 port_open "${port[$fn]}" || die_log "$fn is not listening" "$LOGS/$fn.log"
done

log "Crossplane core"
# No Function packages: a FunctionRevision per function whose status names the local endpoint.
for fn in function-patch-and-transform function-identity-platform; do
  kubectl apply -f - >/dev/null <<YAML
apiVersion: pkg.crossplane.io/v1
kind: FunctionRevision
metadata:
  name: $fn-local
  labels:
    pkg.crossplane.io/package: $fn
spec:
  desiredState: Active
  image: xpkg.crossplane.io/crossplane-contrib/$fn:local
  revision: 1
YAML
  kubectl patch functionrevision "$fn-local" --subresource=status --type=merge \
    -p "{\"status\":{\"endpoint\":\"localhost:${port[$fn]}\",\"capabilities\":[\"composition\"]}}" >/dev/null
done
mkdir -p "$STATE_DIR/xpkg-cache" "$STATE_DIR/xfn-cache"
KUBECONFIG=$KUBECONFIG setsid "$CROSSPLANE_CORE" core start --webhook-enabled=false \
  --tls-client-certs-dir="$tls/client" --xpkg-cache-dir="$STATE_DIR/xpkg-cache" --xfn-cache-dir="$STATE_DIR/xfn-cache" \
  --metrics-port="$(free_port)" --health-probe-port="$(free_port)" >"$LOGS/crossplane.log" 2>&1 </dev/null &
pids+=($!)

log "XRDs and Compositions"
kubectl apply -f cluster/configuration/tenant/definition.yaml -f cluster/configuration/serviceclaim/definition.yaml >/dev/null
wait_cond 120 Established xrd --all || fail "the XRDs are not Established"
kubectl apply -f cluster/configuration/tenant/composition.yaml -f cluster/configuration/serviceclaim/composition.yaml >/dev/null
wait_until 60 kubectl get crd serviceclaims.platform.identity.crossplane.io >/dev/null 2>&1 || fail "no ServiceClaim CRD"

claim() {
  kubectl apply -f - >/dev/null <<YAML
apiVersion: platform.identity.crossplane.io/v1alpha1
kind: ServiceClaim
metadata:
  name: $1
  namespace: platform-e2e
spec:
  tenantRef:
    name: payments
  image: ghcr.io/acme/$1:1.0.0
  replicas: 2
  authentik:
    providerConfigRef: {name: authentik}
$2
YAML
}
kubectl create namespace platform-e2e --dry-run=client -o yaml | kubectl apply -f - >/dev/null

log "1. a ServiceClaim before its Tenant waits with TenantReady=False"
t0=$SECONDS
claim web '  sso:
    redirectURIs: [https://web.payments.example.com/oauth2/callback]'
wait_cond 120 TenantReady=False -n platform-e2e serviceclaim/web || fail "web does not report TenantReady=False"
reason=$(kubectl -n platform-e2e get serviceclaim web -o jsonpath='{.status.conditions[?(@.type=="TenantReady")].reason}')
[[ $reason == TenantNotFound ]] || fail "TenantReady reason: want TenantNotFound, got $reason"
[[ -z $(kubectl -n argocd get applications -o name) ]] || fail "an Application was created before the Tenant"
log "   web: TenantReady=False/$reason, nothing composed ($((SECONDS - t0)) s)"

log "2. the Tenant converges, and the waiting ServiceClaim with it"
t0=$SECONDS
kubectl apply -f - >/dev/null <<YAML
apiVersion: platform.identity.crossplane.io/v1alpha1
kind: Tenant
metadata:
  name: payments
spec:
  adminGroup: payments-admins
  quota:
    hard: {pods: "20"}
  authentik:
    providerConfigRef: {name: authentik}
  keystone:
    providerConfigRef: {name: keystone}
    domainId: default
YAML
wait_cond 300 Ready=True tenant/payments || fail "Tenant payments is not Ready"
log "   Tenant payments Ready ($((SECONDS - t0)) s)"
kubectl get namespace team-payments >/dev/null || fail "no namespace team-payments"
kubectl -n team-payments get rolebinding team-payments-admin >/dev/null || fail "no admin RoleBinding"
kubectl -n team-payments get resourcequota team-quota >/dev/null || fail "no ResourceQuota"
wait_cond 300 Ready=True -n platform-e2e serviceclaim/web || fail "ServiceClaim web is not Ready once its Tenant is"
wait_cond 10 TenantReady=True -n platform-e2e serviceclaim/web || fail "web: TenantReady is not True"
fin=$(kubectl -n argocd get application payments-web -o jsonpath='{.metadata.finalizers}')
[[ $fin == *resources-finalizer.argocd.argoproj.io* ]] || fail "Application payments-web lacks ArgoCD's finalizer: $fin"
wait_until 60 kubectl -n team-payments get secret web-oidc >/dev/null 2>&1 || fail "no Secret web-oidc in team-payments"
keys=$(kubectl -n team-payments get secret web-oidc -o jsonpath='{.data}')
[[ $keys == *client_id* && $keys == *client_secret* ]] || fail "Secret web-oidc lacks client_id/client_secret"
log "   web Ready: Application payments-web, OAuth2 client in Secret team-payments/web-oidc ($((SECONDS - t0)) s)"

log "3. a second ServiceClaim of the same Tenant"
t0=$SECONDS
claim worker ""
wait_cond 300 Ready=True -n platform-e2e serviceclaim/worker || fail "ServiceClaim worker is not Ready"
kubectl -n argocd get application payments-worker >/dev/null || fail "no Application payments-worker"
log "   worker Ready ($((SECONDS - t0)) s)"

log "4. a KeystoneIdentityBackend: an LDAP domain of Keystone backed by slapd"
t0=$SECONDS
set -a; source "$STATE_DIR/slapd.env"; source "$STATE_DIR/authentik.env"; set +a
kubectl apply -f cluster/configuration/keystoneidentitybackend/definition.yaml >/dev/null
wait_cond 120 Established xrd/xkeystoneidentitybackends.platform.identity.crossplane.io || fail "the backend XRD is not Established"
kubectl apply -f cluster/configuration/keystoneidentitybackend/composition.yaml >/dev/null
wait_until 60 kubectl get crd keystoneidentitybackends.platform.identity.crossplane.io >/dev/null 2>&1 || fail "no KeystoneIdentityBackend CRD"
kubectl -n platform-e2e create secret generic corp-ldap-bind --from-literal=username="$LDAP_BIND_DN" \
  --from-literal=password="$LDAP_BIND_PASSWORD" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kubectl apply -f - >/dev/null <<YAML
apiVersion: platform.identity.crossplane.io/v1alpha1
kind: KeystoneIdentityBackend
metadata:
  name: corp-ldap
  namespace: platform-e2e
spec:
  keystoneRef: {name: keystone}
  type: LDAP
  domain: {name: corp-e2e, deletionPolicy: Delete, description: e2e LDAP domain}
  ldap:
    url: $LDAP_URL
    bindCredentialsSecretRef: {name: corp-ldap-bind}
    suffix: $LDAP_SUFFIX
    users: {treeDN: "$LDAP_USERS_DN", objectClass: inetOrgPerson, idAttribute: uid, nameAttribute: uid, mailAttribute: mail}
    groups: {treeDN: "$LDAP_GROUPS_DN", objectClass: groupOfNames, idAttribute: cn, nameAttribute: cn, memberAttribute: member}
YAML
wait_cond 300 BackendReady=True -n platform-e2e keystoneidentitybackend/corp-ldap || fail "KeystoneIdentityBackend corp-ldap is not BackendReady"
wait_cond 60 Ready=True -n platform-e2e keystoneidentitybackend/corp-ldap || fail "KeystoneIdentityBackend corp-ldap is not Ready"
for c in DomainReady=DomainProvisioned ConfigProjected=ConfigProjected; do
  got=$(kubectl -n platform-e2e get keystoneidentitybackend corp-ldap -o jsonpath="{.status.conditions[?(@.type==\"${c%%=*}\")].reason}")
  [[ $got == "${c#*=}" ]] || fail "corp-ldap ${c%%=*}: want reason ${c#*=}, got $got"
done
domain_id=$(kubectl -n platform-e2e get keystoneidentitybackend corp-ldap -o jsonpath='{.status.domainID}')
[[ -n $domain_id ]] || fail "corp-ldap reports no status.domainID"
log "   corp-ldap Ready: DomainReady/DomainProvisioned, ConfigProjected, domain $domain_id ($((SECONDS - t0)) s)"

# reasons KIND/NAME TYPE=REASON...: each condition has the reason.
reasons() {
  local obj=$1 c got; shift
  for c in "$@"; do
    got=$(kubectl -n platform-e2e get "$obj" -o jsonpath="{.status.conditions[?(@.type==\"${c%%=*}\")].reason}")
    [[ $got == "${c#*=}" ]] || fail "$obj ${c%%=*}: want reason ${c#*=}, got $got"
  done
}

log "5. a KeystoneIdentityBackend: OIDC federation with a group and its roles"
t0=$SECONDS
kubectl apply -f - >/dev/null <<YAML
apiVersion: platform.identity.crossplane.io/v1alpha1
kind: KeystoneIdentityBackend
metadata:
  name: fed-oidc
  namespace: platform-e2e
spec:
  keystoneRef: {name: keystone}
  type: OIDC
  domain: {name: fed-e2e, deletionPolicy: Delete}
  oidc: {issuer: "https://idp.example.com/realms/e2e"}
  mappings:
  - remote:
    - {type: HTTP_OIDC_ISS, anyOneOf: ["https://idp.example.com/realms/e2e"]}
    - {type: HTTP_OIDC_PREFERRED_USERNAME}
    local:
    - user: {name: "{0}"}
      group: {name: federated-users, domain: {name: fed-e2e}}
  groups:
  - name: federated-users
    roleAssignments:
    - {role: member, domain: true}
    - {role: reader, project: {name: admin, domainName: Default}}
YAML
wait_cond 300 BackendReady=True -n platform-e2e keystoneidentitybackend/fed-oidc || fail "KeystoneIdentityBackend fed-oidc is not BackendReady"
reasons keystoneidentitybackend/fed-oidc DomainReady=DomainProvisioned FederationObjectsReady=FederationObjectsProvisioned \
  MappingsReady=MappingsApplied BackendReady=AllReady
log "   fed-oidc Ready: identity provider, mapping, protocol, group with member on the domain and reader on admin ($((SECONDS - t0)) s)"

log "6. an AuthentikFederation into that domain"
t0=$SECONDS
kubectl apply -f cluster/configuration/authentikfederation/definition.yaml >/dev/null
wait_cond 120 Established xrd/xauthentikfederations.platform.identity.crossplane.io || fail "the AuthentikFederation XRD is not Established"
kubectl apply -f cluster/configuration/authentikfederation/composition.yaml >/dev/null
wait_until 60 kubectl get crd authentikfederations.platform.identity.crossplane.io >/dev/null 2>&1 || fail "no AuthentikFederation CRD"
kubectl apply -f - >/dev/null <<YAML
apiVersion: platform.identity.crossplane.io/v1alpha1
kind: AuthentikFederation
metadata:
  name: authentik
  namespace: platform-e2e
spec:
  keystoneRef: {name: keystone}
  authentik: {url: "$AUTHENTIK_URL", slug: keystone-e2e, providerConfigRef: {name: authentik}}
  keystone:
    domainName: fed-e2e
    identityProviderName: authentik-e2e
    redirectURIs: ["https://keystone.example.com/v3/auth/OS-FEDERATION/identity_providers/authentik-e2e/protocols/openid/websso"]
YAML
wait_cond 300 Ready=True -n platform-e2e authentikfederation/authentik || fail "AuthentikFederation authentik is not Ready"
reasons authentikfederation/authentik AuthentikReady=ApplicationProvisioned \
  FederationObjectsReady=FederationObjectsProvisioned MappingsReady=MappingsApplied
issuer=$(kubectl -n platform-e2e get authentikfederation authentik -o jsonpath='{.status.issuer}')
[[ $issuer == "$AUTHENTIK_URL/application/o/keystone-e2e/" ]] || fail "issuer: got $issuer"
kubectl -n platform-e2e get secret authentik-oidc-client >/dev/null || fail "no Secret authentik-oidc-client"
log "   authentik Ready: issuer $issuer, client in Secret platform-e2e/authentik-oidc-client ($((SECONDS - t0)) s)"

kubectl get tenants,serviceclaims,keystoneidentitybackends,authentikfederations -A
echo "6 passed, 0 failed"
