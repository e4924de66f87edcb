# Keystone's public WSGI application, as /usr/bin/keystone-wsgi-public builds it, with SQLite's
# foreign keys enforced the way Keystone's own tests run it and the way MySQL always does.
#
# Without them SQLite ignores the schema's ON DELETE CASCADE: deleting a user bulk-deletes its
# application credentials but leaves their role rows behind, and SQLite hands the freed
# internal_id to the next credential, whose role insert then fails as
# "409 Duplicate entry found with name ..." for a user that has no credential at all.
from keystone.common.sql import core

core.enable_sqlite_foreign_key()

from keystone.server.wsgi import initialize_public_application  # noqa: E402

application = initialize_public_application()
