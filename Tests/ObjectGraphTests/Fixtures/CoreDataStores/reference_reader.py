#!/usr/bin/env python3
"""An independent reader of stores in Core Data's SQLite layout, for ObjectGraph's tests.

It knows nothing of ObjectGraph: only Python's sqlite3 and plistlib, and the layout facts of
README.md. It opens the store read-only (immutable when there is no -wal) and prints JSON.

  reference_reader.py metadata STORE
      {"keys": [...], "hashes": {entity: hex}, "identifiers": [...], "uuid": ..., "type": ...,
       "plist": hex of the stored property list}
  reference_reader.py schema STORE
      {"sql": [CREATE statements], "integrity": [PRAGMA integrity_check rows],
       "primarykeys": {Z_NAME: {"ent", "super", "max"}}}
  reference_reader.py entity STORE ENTITY [OLD_NAME]
      {"count": n, "rows": {pk: {column: value}}, "names": {Z_ENT: Z_NAME}} for the entity and
      its subentities; values: numbers as they are, text as text, blobs as {"hex": ...}
"""
import json
import os
import plistlib
import sqlite3
import sys


def connect(path):
    wal = path + "-wal"
    immutable = not (os.path.exists(wal) and os.path.getsize(wal) > 0)
    uri = "file:" + path + ("?immutable=1" if immutable else "?mode=ro")
    return sqlite3.connect(uri, uri=True)


def plain(value):
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def metadata(db):
    blob = db.execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()[0]
    plist = plistlib.loads(blob)
    return {
        "keys": sorted(plist.keys()),
        "hashes": {name: value.hex() for name, value in plist.get("NSStoreModelVersionHashes", {}).items()},
        "identifiers": plist.get("NSStoreModelVersionIdentifiers", []),
        "uuid": plist.get("NSStoreUUID"),
        "type": plist.get("NSStoreType"),
        "plist": blob.hex(),
    }


def schema(db):
    rows = db.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name").fetchall()
    keys = db.execute("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").fetchall()
    return {
        "sql": [row[2] for row in rows],
        "integrity": [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()],
        "primarykeys": {row[1]: {"ent": row[0], "super": row[2], "max": row[3]} for row in keys},
    }


def entity(db, names):
    rows = db.execute("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY").fetchall()
    numbers = {row[1]: row[0] for row in rows}
    parents = {row[0]: row[2] for row in rows}
    number = next(numbers[name] for name in names if name in numbers)
    family = {number}
    changed = True
    while changed:
        changed = False
        for child, parent in parents.items():
            if parent in family and child not in family:
                family.add(child)
                changed = True
    root = number
    while parents.get(root, 0):
        root = parents[root]
    root_name = next(key for key, value in numbers.items() if value == root)
    table = "Z" + root_name.upper()
    marks = ", ".join("?" for _ in family)
    cursor = db.execute(f"SELECT * FROM {table} WHERE Z_ENT IN ({marks}) ORDER BY Z_PK", sorted(family))
    columns = [description[0] for description in cursor.description]
    result = {}
    for row in cursor.fetchall():
        values = dict(zip(columns, row))
        result[str(values["Z_PK"])] = {key: plain(value) for key, value in values.items()}
    names = {str(row[0]): row[1] for row in rows}
    return {"table": table, "count": len(result), "rows": result, "names": names}


def main():
    command, path = sys.argv[1], sys.argv[2]
    db = connect(path)
    if command == "metadata":
        print(json.dumps(metadata(db), sort_keys=True))
    elif command == "schema":
        print(json.dumps(schema(db), sort_keys=True))
    elif command == "entity":
        print(json.dumps(entity(db, sys.argv[3:]), sort_keys=True))
    else:
        sys.exit("unknown command " + command)


if __name__ == "__main__":
    main()
