#!/usr/bin/env python3
"""Builds, by hand, a store in the layout Core Data writes for a to-many relationship that is
its own inverse: one entity, Person (number 1), whose `friends` has `friends` as its inverse
(a friendship is mutual). Core Data keeps it in one join table whose members' column is named
REFLEXIVE, both of its names being Z_1FRIENDS otherwise:

  CREATE TABLE Z_1FRIENDS ( Z_1FRIENDS INTEGER, REFLEXIVE INTEGER,
      PRIMARY KEY (Z_1FRIENDS, REFLEXIVE) )
  CREATE INDEX Z_1FRIENDS_REFLEXIVE_INDEX ON Z_1FRIENDS (REFLEXIVE, Z_1FRIENDS)

Each friendship is a row from each side: (ada, bob) and (bob, ada). Only Python's sqlite3 and
plistlib are used; the entity's version hash (which depends on the model) is given.

  friends_store.py STORE HASH_HEX [--objectgraph-column]
      writes STORE; with --objectgraph-column the members' column is Z_1FRIENDS1, where an
      earlier ObjectGraph put it (with the same index, named after it)

Rows: ada (pk 1) friends with bob (2) and cyd (3); bob with cyd; dee (4) with no one.
"""
import plistlib
import sqlite3
import sys
import uuid


def main():
    path, hash_hex = sys.argv[1], sys.argv[2]
    members = "Z_1FRIENDS1" if "--objectgraph-column" in sys.argv[3:] else "REFLEXIVE"
    db = sqlite3.connect(path)
    db.executescript(("""
        CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
        CREATE TABLE Z_1FRIENDS ( Z_1FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_1FRIENDS, REFLEXIVE) );
        CREATE INDEX Z_1FRIENDS_REFLEXIVE_INDEX ON Z_1FRIENDS (REFLEXIVE, Z_1FRIENDS);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
    """).replace("REFLEXIVE", members))
    people = [(1, "ada"), (2, "bob"), (3, "cyd"), (4, "dee")]
    db.executemany("INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, ?)", people)
    friendships = [(1, 2), (1, 3), (2, 3)]
    rows = friendships + [(b, a) for a, b in friendships]
    db.executemany("INSERT INTO Z_1FRIENDS (Z_1FRIENDS, " + members + ") VALUES (?, ?)", rows)
    db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Person', 0, 4)")
    store_uuid = str(uuid.uuid4()).upper()
    plist = plistlib.dumps({
        "NSStoreType": "SQLite",
        "NSStoreUUID": store_uuid,
        "NSStoreModelVersionHashes": {"Person": bytes.fromhex(hash_hex)},
        "NSStoreModelVersionHashesVersion": 3,
        "NSStoreModelVersionIdentifiers": [""],
        "NSPersistenceFrameworkVersion": 1344,
    }, fmt=plistlib.FMT_BINARY)
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (store_uuid, plist))
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
