#!/usr/bin/env python3
"""Writes cluster/configuration/keystoneidentitybackend/definition.yaml, the XRD of
KeystoneIdentityBackend. spec.ldap and spec.mappings are copied (without descriptions) from the
DomainConfig and Mapping CRDs in package/crds (the namespaced kinds', which the backend composes,
or the cluster-scoped ones while a namespaced CRD is not generated yet: both scopes share the
parameter types), so the backend accepts what the provider accepts; test/render checks they stay
in step. `make generate` runs it."""
import copy
import os
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def crd_path(kind):
    crds = os.path.join(ROOT, 'package', 'crds')
    namespaced = os.path.join(crds, f'keystone.identity.m.crossplane.io_{kind}.yaml')
    if os.path.exists(namespaced):
        return namespaced
    return os.path.join(crds, f'keystone.identity.crossplane.io_{kind}.yaml')


def for_provider(kind):
    with open(crd_path(kind)) as f:
        d = yaml.safe_load(f)
    return d['spec']['versions'][0]['schema']['openAPIV3Schema']['properties']['spec']['properties']['forProvider']


def strip(s):
    if isinstance(s, dict):
        return {k: strip(v) for k, v in s.items() if k != 'description'}
    if isinstance(s, list):
        return [strip(x) for x in s]
    return s


rules = strip(for_provider('mappings')['properties']['rules'])
rules['maxItems'] = 32
rules['description'] = ('Keystone federation mapping rules of the protocol, typed like the Mapping kind '
                        '(camelCase here, snake_case in Keystone). Federation backends only; an empty list parks the '
                        'backend at MappingsReady=False/NoMappingRules.')
ldap = strip(for_provider('domainconfigs')['properties']['ldap'])
ldap['properties']['bindCredentialsSecretRef'] = {
    'type': 'object', 'required': ['name'],
    'description': 'Secret in the backend\'s namespace holding the bind DN under "username" and its password under "password".',
    'properties': {'name': {'type': 'string', 'minLength': 1}}}
ldap['description'] = ('LDAP/AD connection, tree layout and attribute mapping; required when type is LDAP. Applied as '
                       'the domain\'s Keystone configuration (DomainConfig).')
ldap['properties']['url']['pattern'] = '^ldaps?://'
name_rule = '^[A-Za-z0-9_-]+$'
fed_common = {
    'identityProviderName': {'type': 'string', 'maxLength': 64, 'pattern': name_rule,
                             'description': 'Keystone identity provider ID. Default: the claim\'s name.'},
    'protocolID': {'type': 'string', 'maxLength': 64, 'pattern': name_rule},
    'remoteIDAttribute': {'type': 'string', 'maxLength': 128, 'minLength': 1,
                          'description': 'The WSGI environ key Keystone reads the asserted issuer/entityID from '
                                         '(the protocol\'s remote_id_attribute).'},
    'description': {'type': 'string', 'maxLength': 255},
}
oidc = {'type': 'object', 'required': ['issuer'],
        'description': 'OpenID Connect federation; required when type is OIDC. The issuer is registered as the '
                       'identity provider\'s remote ID.',
        'properties': dict({'issuer': {'type': 'string', 'maxLength': 512, 'pattern': '^https?://'}},
                           **copy.deepcopy(fed_common))}
oidc['properties']['protocolID']['default'] = 'openid'
saml = {'type': 'object', 'required': ['idpEntityID'],
        'description': 'SAML 2.0 federation; required when type is SAML. The IdP entityID is registered as the '
                       'identity provider\'s remote ID.',
        'properties': dict({'idpEntityID': {'type': 'string', 'minLength': 1, 'maxLength': 512}},
                           **copy.deepcopy(fed_common))}
saml['properties']['protocolID']['default'] = 'mapped'
saml['properties']['remoteIDAttribute']['default'] = 'HTTP_MELLON_IDP'
saml['properties']['remoteIDAttribute']['x-kubernetes-validations'] = [
    {'rule': "self.startsWith('HTTP_')",
     'message': 'saml.remoteIDAttribute must keep the HTTP_ prefix: it reaches Keystone as a request header'}]
groups = {
    'type': 'array', 'maxItems': 32,
    'description': 'Local groups in the backend\'s domain that the mapping rules target, with their role '
                   'assignments. Federation backends only.',
    'x-kubernetes-validations': [{'rule': 'self.all(g, self.exists_one(h, h.name == g.name))',
                                  'message': 'groups[].name must be unique'}],
    'items': {'type': 'object', 'required': ['name'], 'properties': {
        'name': {'type': 'string', 'minLength': 1, 'maxLength': 128},
        'description': {'type': 'string', 'maxLength': 255},
        'roleAssignments': {'type': 'array', 'maxItems': 32, 'items': {
            'type': 'object', 'required': ['role'],
            'x-kubernetes-validations': [{'rule': 'has(self.project) != (has(self.domain) && self.domain)',
                                          'message': 'a role assignment is scoped to exactly one of project or '
                                                     'domain (domain: true)'}],
            'properties': {
                'role': {'type': 'string', 'minLength': 1, 'maxLength': 255,
                         'description': 'Name of an existing Keystone role, e.g. member.'},
                'project': {'type': 'object', 'required': ['name'], 'properties': {
                    'name': {'type': 'string', 'minLength': 1, 'maxLength': 64},
                    'domainName': {'type': 'string', 'minLength': 1, 'maxLength': 64,
                                   'description': 'Default: the backend\'s own domain.'}}},
                'domain': {'type': 'boolean', 'description': 'Scopes the assignment to the backend\'s domain.'}}}}}}}
spec = {
    'type': 'object', 'required': ['keystoneRef', 'domain', 'type'],
    'x-kubernetes-validations': [
        {'rule': "(self.type == 'LDAP') == has(self.ldap)",
         'message': 'spec.ldap is required when type is LDAP and not allowed otherwise'},
        {'rule': "(self.type == 'OIDC') == has(self.oidc)",
         'message': 'spec.oidc is required when type is OIDC and not allowed otherwise'},
        {'rule': "(self.type == 'SAML') == has(self.saml)",
         'message': 'spec.saml is required when type is SAML and not allowed otherwise'},
        {'rule': "self.type != 'LDAP' || (!has(self.mappings) && !has(self.groups))",
         'message': 'mappings and groups apply to federation backends (OIDC, SAML) only'},
        {'rule': 'self.type == oldSelf.type', 'message': 'type cannot change: delete the backend and create another'},
        {'rule': 'self.keystoneRef == oldSelf.keystoneRef',
         'message': 'keystoneRef cannot change: re-pointing a backend at another Keystone would strand its domain; '
                    'delete and recreate it instead'},
    ],
    'properties': {
        'keystoneRef': {'type': 'object', 'required': ['name'],
                        'description': 'The Keystone this backend attaches to: a ClusterProviderConfig, or a '
                                       'ProviderConfig in the backend\'s namespace. It does not have to exist yet: the '
                                       'backend reports DomainReady=False/KeystoneNotFound until it does.',
                        'properties': {
                            'kind': {'type': 'string', 'enum': ['ClusterProviderConfig', 'ProviderConfig'],
                                     'default': 'ClusterProviderConfig'},
                            'name': {'type': 'string', 'minLength': 1}}},
        'type': {'type': 'string', 'enum': ['LDAP', 'OIDC', 'SAML']},
        'domain': {
            'type': 'object', 'required': ['name'],
            'x-kubernetes-validations': [
                {'rule': 'self.name == oldSelf.name', 'message': 'domain.name cannot change'},
                {'rule': 'self.mode == oldSelf.mode', 'message': 'domain.mode cannot change'}],
            'properties': {
                'name': {'type': 'string', 'minLength': 1, 'maxLength': 64, 'pattern': '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
                         'x-kubernetes-validations': [{
                             'rule': "self.lowerAscii() != 'default'",
                             'message': 'the Default domain hosts Keystone\'s service users and bootstrap admin and is '
                                        'never backed by an external directory'}]},
                'mode': {'type': 'string', 'enum': ['Manage', 'Adopt'], 'default': 'Manage',
                         'description': 'Manage creates the domain (and fails on a same-named domain it did not '
                                        'create); Adopt looks an existing domain up by name and never changes it.'},
                'deletionPolicy': {'type': 'string', 'enum': ['Retain', 'Delete'], 'default': 'Retain',
                                   'description': 'Retain leaves a managed domain in Keystone when the backend is '
                                                  'deleted; Delete deletes it. Adopted domains are always retained. '
                                                  'Mapped onto the Domain\'s management policies (Delete: ["*"]; '
                                                  'Retain: all but Delete).'},
                'description': {'type': 'string', 'maxLength': 255}}},
        'ldap': ldap, 'oidc': oidc, 'saml': saml, 'mappings': rules, 'groups': groups}}
status = {'type': 'object', 'properties': {
    'domainID': {'type': 'string', 'description': 'Keystone ID of the domain.'},
    'domainRef': {'type': 'string',
                  'description': 'Name of the Domain managed resource (keystone.identity.m.crossplane.io) in the '
                                 'backend\'s namespace.'}}}
xrd = {
    'apiVersion': 'apiextensions.crossplane.io/v2', 'kind': 'CompositeResourceDefinition',
    'metadata': {'name': 'keystoneidentitybackends.platform.identity.crossplane.io'},
    'spec': {
        'group': 'platform.identity.crossplane.io',
        'names': {'kind': 'KeystoneIdentityBackend', 'plural': 'keystoneidentitybackends',
                  'categories': ['crossplane', 'composite', 'platform']},
        'scope': 'Namespaced',
        'defaultCompositionRef': {'name': 'keystoneidentitybackend'},
        'versions': [{
            'name': 'v1alpha1', 'served': True, 'referenceable': True,
            'additionalPrinterColumns': [
                {'name': 'TYPE', 'type': 'string', 'jsonPath': '.spec.type'},
                {'name': 'DOMAIN', 'type': 'string', 'jsonPath': '.spec.domain.name'},
                {'name': 'KEYSTONE', 'type': 'string', 'jsonPath': '.spec.keystoneRef.name'},
                {'name': 'BACKEND-READY', 'type': 'string',
                 'jsonPath': ".status.conditions[?(@.type=='BackendReady')].status"}],
            'schema': {'openAPIV3Schema': {'type': 'object', 'properties': {'spec': spec, 'status': status}}}}]}}
HEADER = '''# Generated by hack/gen-backend-xrd.py: edit that script, not this file.
# KeystoneIdentityBackend: one external identity backend (LDAP, OIDC or SAML) for one Keystone
# domain: a namespaced composite (Crossplane v2, no claim) whose objects are namespaced managed
# resources (keystone.identity.m.crossplane.io) in its own namespace. keystoneRef names the
# ClusterProviderConfig (or the namespace's ProviderConfig) of the Keystone. Composes the Domain
# (Manage: created; Adopt: looked up and never changed), and per type the DomainConfig (LDAP) or
# the IdentityProvider, Mapping and Protocol plus the declared groups and their role assignments
# (OIDC, SAML); reports DomainReady, ConfigProjected (LDAP), FederationObjectsReady and
# MappingsReady (federation) and BackendReady. spec.ldap and spec.mappings share the schemas (and
# CEL rules) of the DomainConfig and Mapping kinds in package/crds.
'''
out = os.path.join(ROOT, 'cluster', 'configuration', 'keystoneidentitybackend', 'definition.yaml')
with open(out, 'w') as f:
    f.write(HEADER + yaml.safe_dump(xrd, sort_keys=False, width=100))
