"""``python -m drafts.sql migration``: write the migration the files call for (if any).
``python -m drafts.sql render [NAME]``: print the rendered SQL."""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "draftsite.settings")
    import django

    django.setup()
    from drafts import sql
    from drafts.sql import migration

    command = argv[0] if argv else ""
    if command == "render":
        for name, text in sql.render_all().items():
            if len(argv) < 2 or name in argv[1:]:
                sys.stdout.write(text + "\n")
        return 0
    if command == "migration":
        target = migration.write()
        print(f"wrote {target}" if target else "the latest migration already applies these functions")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
