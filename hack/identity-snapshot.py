#!/usr/bin/python3
"""hack/identity-snapshot.py — prints what Keystone and the authentik API server hold, one sorted
line per object ("<system> <collection> <id> <name>"), so that two snapshots taken before and
after a test can be compared with diff. `hack/identity-snapshot.py --users-of DOMAIN_ID` prints
the names of the users Keystone lists in that domain instead (e.g. an LDAP domain's). Reads KEYSTONE_URL, KEYSTONE_ADMIN_* (hack/keystone.sh)
and AUTHENTIK_URL, AUTHENTIK_TOKEN (hack/authentik.sh) from the environment."""

import json
import os
import sys
import urllib.request

KEYSTONE_COLLECTIONS = [
    # (path, key in the response, field that names the object)
    ("domains", "domains", "name"),
    ("projects", "projects", "name"),
    ("groups", "groups", "name"),
    ("users", "users", "name"),
    ("roles", "roles", "name"),
    ("role_assignments", "role_assignments", None),
    ("OS-FEDERATION/identity_providers", "identity_providers", "id"),
    ("OS-FEDERATION/mappings", "mappings", "id"),
]
AUTHENTIK_COLLECTIONS = [
    ("core/applications/", "slug"),
    ("providers/all/", "name"),
    ("core/groups/", "name"),
    ("core/users/", "username"),
]


def request(url, headers, body=None):
    req = urllib.request.Request(url, headers=headers, data=body)
    with urllib.request.urlopen(req, timeout=30) as rsp:
        return rsp.headers, json.load(rsp)


def keystone_token():
    scope = {"project": {"name": os.environ["KEYSTONE_ADMIN_PROJECT"],
                         "domain": {"name": os.environ["KEYSTONE_ADMIN_DOMAIN"]}}}
    user = {"name": os.environ["KEYSTONE_ADMIN_USERNAME"], "password": os.environ["KEYSTONE_ADMIN_PASSWORD"],
            "domain": {"name": os.environ["KEYSTONE_ADMIN_DOMAIN"]}}
    body = json.dumps({"auth": {"identity": {"methods": ["password"], "password": {"user": user}},
                                "scope": scope}}).encode()
    headers, _ = request(os.environ["KEYSTONE_URL"] + "/auth/tokens", {"Content-Type": "application/json"}, body)
    return headers["X-Subject-Token"]


def assignment_id(a):
    # The scope is a project, a domain or the system, possibly inherited: keep all of it.
    scope = json.dumps(a["scope"], sort_keys=True, separators=(",", ":"))
    actor = "user/" + a["user"]["id"] if "user" in a else "group/" + a["group"]["id"]
    return f"{scope}/{actor}/role/{a['role']['id']}"


def keystone_lines():
    headers = {"X-Auth-Token": keystone_token()}
    for path, key, name in KEYSTONE_COLLECTIONS:
        _, body = request(f"{os.environ['KEYSTONE_URL']}/{path}", headers)
        for o in body[key]:
            if name is None:
                yield f"keystone {path} {assignment_id(o)} -"
            else:
                yield f"keystone {path} {o.get('id')} {o.get(name)}"


def authentik_lines():
    headers = {"Authorization": "Bearer " + os.environ["AUTHENTIK_TOKEN"]}
    for path, name in AUTHENTIK_COLLECTIONS:
        page = 1
        while page:
            _, body = request(f"{os.environ['AUTHENTIK_URL']}/api/v3/{path}?page={page}&page_size=100", headers)
            for o in body["results"]:
                yield f"authentik {path.rstrip('/')} {o.get('pk')} {o.get(name)}"
            page = body["pagination"]["next"]


def domain_users(domain_id):
    headers = {"X-Auth-Token": keystone_token()}
    _, body = request(f"{os.environ['KEYSTONE_URL']}/users?domain_id={domain_id}", headers)
    return sorted(u["name"] for u in body["users"])


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--users-of":
        for name in domain_users(sys.argv[2]):
            print(name)
        return
    for line in sorted(list(keystone_lines()) + list(authentik_lines())):
        print(line)


if __name__ == "__main__":
    sys.exit(main())
