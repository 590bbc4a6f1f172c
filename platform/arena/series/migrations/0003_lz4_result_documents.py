"""Result documents (about 6 kB each) compressed with lz4 instead of pglz on PostgreSQL.

Compressing a document with pglz cost about as much as everything else the
database does to record a result; lz4 takes a fraction of that for a little
less compression (docs/benchmarks.md, "Recording results"). A server built
without lz4 keeps pglz. SQLite has no such setting.
"""

from django.db import migrations

COLUMNS = (("series_seriesresultlog", "result"), ("series_pendingresult", "result"))


def use_lz4(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, column in COLUMNS:
        schema_editor.execute(
            f"DO $$ BEGIN ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION lz4; "
            "EXCEPTION WHEN feature_not_supported THEN RAISE NOTICE 'lz4 not available: pglz stays'; END $$"
        )


def use_pglz(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, column in COLUMNS:
        schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION pglz")


class Migration(migrations.Migration):
    dependencies = [("series", "0002_pendingresult_remove_series_series_state_and_more")]

    operations = [migrations.RunPython(use_lz4, use_pglz)]
