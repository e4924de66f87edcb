#!/usr/bin/env bash
# hack/e2e-platform.sh — the platform Compositions end to end, without a cluster: the dev
# environment of hack/dev.sh in a private STATE_DIR — kube-apiserver with kube-controller-manager's
# garbage collector, Keystone, slapd, the authentik API server, the provider with its
# ProviderConfigs "keystone" and "authentik" (here copied into ClusterProviderConfigs of the same
# names, which the platform's namespaced managed resources use), and (hack/crossplane.sh)
# Crossplane core v2.2.1 out of cluster with its usage webhook, both composition functions and
# the platform Configuration (Crossplane v2 XRDs, no claims). Then:
#   1. a ServiceClaim applied before its Tenant is accepted and waits with TenantReady=False;
#   2. the Tenant converges (Namespace, RoleBinding, quota, and in the namespace the namespaced
#      authentik Group, Keystone Project, Group, role assignment), the waiting ServiceClaim
#      follows (ArgoCD Application with its finalizer, authentik OAuth2 provider and
#      application, client Secret, all in the team namespace);
#   3. a second ServiceClaim for the same Tenant converges;
#   4-6. LDAP and OIDC KeystoneIdentityBackends and an AuthentikFederation converge (Keystone
#      lists the LDAP directory's users in the LDAP domain);
#   7. deleting the Tenant while ServiceClaims use it is refused;
#   8. deleting a ServiceClaim (foreground: a v2 composite has no default delete policy) waits
#      for its Application (here the test plays ArgoCD and drops its finalizer), then its SSO
#      objects and Secret are gone;
#   9. the last ServiceClaim's deletion replays the refused Tenant deletion; the team namespace
#      goes only after the team's Keystone Project and authentik Group;
#  10. deleting the backends and the federation leaves Keystone and authentik as they were
#      before step 1.
# Everything started here is stopped on exit (by PID). Exits non-zero on the first failure.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

STATE_DIR=${E2E_STATE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/platform-e2e.XXXXXX")}
export STATE_DIR BIN_DIR=$STATE_DIR/bin
LOGS=$STATE_DIR/logs
mkdir -p "$LOGS" "$BIN_DIR"

cleanup() {
  local rc=$?
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
  kubectl get managed -A 2>&1 | sed 's/^/  /' >&2 || true
  exit 1
}

# wait_cond TIMEOUT CONDITION[=STATUS] RESOURCE...: kubectl wait, quiet unless it fails.
wait_cond() {
  local timeout=$1 cond=$2; shift 2
  kubectl wait --timeout="${timeout}s" --for=condition="$cond" "$@" >/dev/null 2>&1 && return
  kubectl wait --timeout=1s --for=condition="$cond" "$@" 2>&1 | sed 's/^/  /' >&2
  return 1
}

log "dev environment (control plane, Keystone, slapd, authentik, provider, Crossplane)"
DEV_EXAMPLES=0 ARGOCD_STANDIN=0 "$ROOT/hack/dev.sh" up >"$LOGS/dev.log" 2>&1 || { tail -n 30 "$LOGS/dev.log" >&2; exit 1; }
export KUBECONFIG=$STATE_DIR/kubeconfig
PATH=$("$ROOT/hack/build-k8s.sh"):$PATH
export PATH

set -a; for f in "$STATE_DIR"/*.env; do source "$f"; done; set +a
for kind in tenants serviceclaims keystoneidentitybackends authentikfederations; do
  wait_until 60 kubectl get crd "$kind.platform.identity.crossplane.io" >/dev/null 2>&1 || fail "no $kind CRD"
done
# The platform's managed resources are namespaced: they use ClusterProviderConfigs, here with the
# credentials (Secrets by namespace and name) of the dev environment's ProviderConfigs.
for pc in keystone authentik; do
  kubectl get providerconfigs.identity.crossplane.io "$pc" -o json | python3 -c '
import json, sys
pc = json.load(sys.stdin)
print(json.dumps({"apiVersion": "identity.m.crossplane.io/v1alpha1", "kind": "ClusterProviderConfig",
                  "metadata": {"name": pc["metadata"]["name"]}, "spec": pc["spec"]}))' | kubectl apply -f - >/dev/null \
    || fail "cannot create ClusterProviderConfig $pc"
done
# What Keystone and authentik hold before any composite: deleting every one must leave exactly this.
hack/identity-snapshot.py >"$STATE_DIR/before.txt" || fail "cannot snapshot Keystone and authentik"

claim() {
  kubectl apply -f - >/dev/null <<YAML
apiVersion: platform.identity.crossplane.io/v1alpha1
kind: ServiceClaim
metadata:
  name: $1
  namespace: team-payments
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
# The team authors its ServiceClaims in its own namespace, which exists before the Tenant here
# (examples/platform/team/namespace.yaml): the Tenant takes it over and deletes it last.
kubectl create namespace team-payments --dry-run=client -o yaml | kubectl apply -f - >/dev/null

log "1. a ServiceClaim before its Tenant waits with TenantReady=False"
t0=$SECONDS
claim web '  sso:
    redirectURIs: [https://web.payments.example.com/oauth2/callback]'
wait_cond 120 TenantReady=False -n team-payments serviceclaim/web || fail "web does not report TenantReady=False"
reason=$(kubectl -n team-payments get serviceclaim web -o jsonpath='{.status.conditions[?(@.type=="TenantReady")].reason}')
[[ $reason == TenantNotFound ]] || fail "TenantReady reason: want TenantNotFound, got $reason"
[[ -z $(kubectl -n team-payments get applications.argoproj.io -o name) ]] || fail "an Application was created before the Tenant"
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
wait_cond 300 Ready=True -n team-payments serviceclaim/web || fail "ServiceClaim web is not Ready once its Tenant is"
wait_cond 10 TenantReady=True -n team-payments serviceclaim/web || fail "web: TenantReady is not True"
fin=$(kubectl -n team-payments get applications.argoproj.io payments-web -o jsonpath='{.metadata.finalizers}')
[[ $fin == *resources-finalizer.argocd.argoproj.io* ]] || fail "Application payments-web lacks ArgoCD's finalizer: $fin"
wait_until 60 kubectl -n team-payments get secret web-oidc >/dev/null 2>&1 || fail "no Secret web-oidc in team-payments"
keys=$(kubectl -n team-payments get secret web-oidc -o jsonpath='{.data}')
[[ $keys == *client_id* && $keys == *client_secret* ]] || fail "Secret web-oidc lacks client_id/client_secret"
log "   web Ready: Application payments-web, OAuth2 client in Secret team-payments/web-oidc ($((SECONDS - t0)) s)"

log "3. a second ServiceClaim of the same Tenant"
t0=$SECONDS
claim worker ""
wait_cond 300 Ready=True -n team-payments serviceclaim/worker || fail "ServiceClaim worker is not Ready"
kubectl -n team-payments get applications.argoproj.io payments-worker >/dev/null || fail "no Application payments-worker"
log "   worker Ready ($((SECONDS - t0)) s)"

log "4. a KeystoneIdentityBackend: an LDAP domain of Keystone backed by slapd"
t0=$SECONDS
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
# Keystone lists the directory's users in that domain (hack/slapd.sh: LDAP_USERS).
users=$(hack/identity-snapshot.py --users-of "$domain_id" | paste -sd, -) || fail "cannot list the users of domain $domain_id"
[[ $users == "$LDAP_USERS" ]] || fail "Keystone lists users [$users] in domain $domain_id, want the directory's [$LDAP_USERS]"
log "   corp-ldap Ready: DomainReady/DomainProvisioned, ConfigProjected, domain $domain_id listing users $users ($((SECONDS - t0)) s)"

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


# gone KIND/NAME [kubectl args]: the object does not exist.
gone() { ! kubectl get "$@" >/dev/null 2>&1; }
# play_argocd NAME: what ArgoCD's resources finalizer does once it has pruned the service.
play_argocd() {
  kubectl -n team-payments patch applications.argoproj.io "$1" --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]' >/dev/null
}
# delete_claim NAME: deletes ServiceClaim NAME of team payments in the foreground (it goes after
# what it composed) and waits until its ArgoCD Application is being deleted (held by ArgoCD's
# finalizer). ArgoCD's kind is always named in full (applications.argoproj.io): a bare
# "application" may resolve to authentik's Application, depending on the order of the API
# groups the server lists.
delete_claim() {
  kubectl -n team-payments delete serviceclaim "$1" --cascade=foreground --wait=false >/dev/null
  wait_until 60 application_deleting "payments-$1" || fail "Application payments-$1 is not being deleted"
}
# application_deleting NAME: ArgoCD Application NAME of team payments has a deletionTimestamp.
# wait_until takes a command: a "$(kubectl ...)" in its arguments would be read once, before
# the first try, and never again.
application_deleting() {
  test -n "$(kubectl -n team-payments get applications.argoproj.io "$1" -o jsonpath='{.metadata.deletionTimestamp}' 2>/dev/null)"
}
# tenant_in_use: Tenant payments carries Crossplane's in-use label.
tenant_in_use() {
  test "$(kubectl get tenant payments -o jsonpath='{.metadata.labels.crossplane\.io/in-use}')" = true
}

log "7. the Tenant cannot be deleted while its ServiceClaims exist"
wait_until 60 tenant_in_use \
  || fail "Tenant payments is not labelled in use by its ServiceClaims' Usages"
if out=$(kubectl delete tenant payments --wait=false 2>&1); then
  fail "deleting Tenant payments with two ServiceClaims was accepted: $out"
fi
# The refusal counts the usages and names one of them (either claim's, in no fixed order).
[[ $out == *"in-use by 2 usage(s)"* && $out == *"by resource Application/payments-"* ]] \
  || fail "the refusal does not say what uses the Tenant: $out"
kubectl get tenant payments -o jsonpath='{.metadata.deletionTimestamp}' | grep -q . && fail "Tenant payments is being deleted"
log "   refused: ${out##*denied the request: }"

log "8. deleting a ServiceClaim waits for its Application, then removes its SSO objects"
t0=$SECONDS
delete_claim web
wait_until 120 gone -n team-payments oauth2providers.authentik.identity.m.crossplane.io payments-web || fail "OAuth2Provider payments-web is still there"
wait_until 60 gone -n team-payments secret web-oidc || fail "Secret team-payments/web-oidc is still there"
kubectl -n team-payments get serviceclaim web >/dev/null 2>&1 || fail "ServiceClaim web went before its Application"
play_argocd payments-web
wait_until 120 gone -n team-payments serviceclaim web || fail "ServiceClaim web is still there after its Application went"
kubectl get tenant payments >/dev/null || fail "Tenant payments went while ServiceClaim worker uses it"
log "   web gone after its Application; SSO provider and Secret gone; Tenant kept ($((SECONDS - t0)) s)"

log "9. the last ServiceClaim goes, and the refused Tenant deletion is replayed; its namespace goes last"
t0=$SECONDS
delete_claim worker
play_argocd payments-worker
wait_until 120 gone -n team-payments serviceclaim worker || fail "ServiceClaim worker is still there"
# The namespace must not start terminating while the team's Project or authentik Group exists.
ns_early=""
deadline=$((SECONDS + 300))
until gone namespace team-payments; do
  ((SECONDS < deadline)) || fail "namespace team-payments is still there"
  if [[ -n $(kubectl get namespace team-payments -o jsonpath='{.metadata.deletionTimestamp}' 2>/dev/null) ]] &&
    ! { gone -n team-payments projects.keystone.identity.m.crossplane.io team-payments &&
      gone -n team-payments groups.authentik.identity.m.crossplane.io team-payments; }; then
    ns_early=yes
  fi
  sleep 0.5
done
[[ -z $ns_early ]] || fail "namespace team-payments started terminating before the team's Project and authentik Group were gone"
# The garbage collector's first attempt was refused by the usage webhook and Crossplane replayed it.
grep -q 'Replaying deletion of the used resource.*"kind": "Namespace", "name": "team-payments"' "$LOGS/crossplane.log" \
  || grep -q 'Replaying deletion of the used resource.*Namespace.*team-payments' "$LOGS/crossplane.log" \
  || fail "Crossplane did not replay the refused deletion of namespace team-payments (see $LOGS/crossplane.log)"
wait_until 120 gone tenant payments || fail "Tenant payments is still there"
log "   worker, Tenant payments and namespace team-payments gone, the namespace last ($((SECONDS - t0)) s)"

log "10. deleting the backends and the federation leaves Keystone and authentik as they were"
t0=$SECONDS
kubectl -n platform-e2e delete authentikfederation authentik --wait=false >/dev/null
kubectl -n platform-e2e delete keystoneidentitybackend corp-ldap fed-oidc --wait=false >/dev/null
deadline=$((SECONDS + 300))
until [[ -z $(kubectl -n platform-e2e get authentikfederations,keystoneidentitybackends -o name 2>/dev/null) && -z $(kubectl get managed -A -o name 2>/dev/null) ]]; do
  ((SECONDS < deadline)) || fail "composites or managed resources are left: $(kubectl get managed -A -o name 2>&1 | tr '\n' ' ')"
  sleep 1
done
hack/identity-snapshot.py >"$STATE_DIR/after.txt" || fail "cannot snapshot Keystone and authentik"
diff -u "$STATE_DIR/before.txt" "$STATE_DIR/after.txt" >&2 || fail "Keystone or authentik differ from before the composites (diff above)"
log "   no managed resources left; Keystone and authentik hold the same $(wc -l <"$STATE_DIR/after.txt") objects as before ($((SECONDS - t0)) s)"

echo "10 passed, 0 failed"
