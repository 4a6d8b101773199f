#!/usr/bin/env python3
"""Builds, by hand, a store in the layout Core Data writes for DuckDuckGo's bookmarks model
(BrowserServicesKit, Sources/Bookmarks/BookmarksModel.xcdatamodeld, versions 4 and 5), cut
down to what its join table needs: one entity, BookmarkEntity (number 1), whose ordered
to-many `favorites` has the unordered to-many `favoriteFolders` (renaming identifier
`favoriteFolder`) as its inverse, and whose ordered `children` have the to-one `parent`.

Core Data keeps `favorites` in one join table named from the ordered side:

  CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER,
      Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) )

`Z_1FAVORITEFOLDERS` holds the folder, `Z_1FAVORITES` the favorite, `Z_FOK_1FAVORITES` its
place among the folder's favorites (1024 apart). Only Python's sqlite3 and plistlib are used;
the entity's version hash (which depends on the model, not on this layout) is given.

  bookmarks_store.py STORE HASH_HEX [--named-from-inverse]
      writes STORE and prints JSON {"bookmarks": {uuid: pk}}; with --named-from-inverse the
      join table is Z_1FAVORITEFOLDERS, as a Core Data that met `favoriteFolders` first would
      name it (same columns)

Rows: the favorites folder (pk 1, uuid "favorites_root") with five favorites in the order
b5, b3, b1, b4, b2; a second folder (pk 7, uuid "mobile_favorites_root") with b2 and b1; the
bookmarks b1..b5 (pks 2..6) children of a root folder (pk 8, uuid "bookmarks_root"), and b6
(pk 9), which is no one's favorite.
"""
import json
import plistlib
import sqlite3
import sys
import uuid


def main():
    path, hash_hex = sys.argv[1], sys.argv[2]
    table = "Z_1FAVORITEFOLDERS" if "--named-from-inverse" in sys.argv[3:] else "Z_1FAVORITES"
    db = sqlite3.connect(path)
    db.executescript(("""
        CREATE TABLE ZBOOKMARKENTITY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
            ZISFOLDER INTEGER, ZPARENT INTEGER, Z_FOK_PARENT INTEGER, ZTITLE VARCHAR, ZUUID VARCHAR );
        CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER,
            Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) );
        CREATE INDEX Z_1FAVORITES_Z_1FAVORITES_INDEX ON Z_1FAVORITES (Z_1FAVORITES, Z_1FAVORITEFOLDERS);
        CREATE INDEX ZBOOKMARKENTITY_ZPARENT_INDEX ON ZBOOKMARKENTITY (ZPARENT);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
    """).replace("Z_1FAVORITES (", table + " (").replace("Z_1FAVORITES_Z_1FAVORITES_INDEX", table + "_Z_1FAVORITES_INDEX"))
    rows = [
        (1, 1, None, None, "Favorites", "favorites_root"),
        (2, 0, 8, 1024, "One", "b1"),
        (3, 0, 8, 2048, "Two", "b2"),
        (4, 0, 8, 3072, "Three", "b3"),
        (5, 0, 8, 4096, "Four", "b4"),
        (6, 0, 8, 5120, "Five", "b5"),
        (7, 1, None, None, "Mobile favorites", "mobile_favorites_root"),
        (8, 1, None, None, "Bookmarks", "bookmarks_root"),
        (9, 0, 8, 6144, "Six", "b6"),
    ]
    db.executemany(
        "INSERT INTO ZBOOKMARKENTITY (Z_PK, Z_ENT, Z_OPT, ZISFOLDER, ZPARENT, Z_FOK_PARENT, ZTITLE, ZUUID) VALUES (?, 1, 1, ?, ?, ?, ?, ?)",
        rows,
    )
    favorites = [(1, pk, 1024 * (place + 1)) for place, pk in enumerate([6, 4, 2, 5, 3])]
    favorites += [(7, pk, 1024 * (place + 1)) for place, pk in enumerate([3, 2])]
    db.executemany("INSERT INTO " + table + " (Z_1FAVORITEFOLDERS, Z_1FAVORITES, Z_FOK_1FAVORITES) VALUES (?, ?, ?)", favorites)
    db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'BookmarkEntity', 0, 9)")
    store_uuid = str(uuid.uuid4()).upper()
    plist = plistlib.dumps({
        "NSStoreType": "SQLite",
        "NSStoreUUID": store_uuid,
        "NSStoreModelVersionHashes": {"BookmarkEntity": bytes.fromhex(hash_hex)},
        "NSStoreModelVersionHashesVersion": 3,
        "NSStoreModelVersionIdentifiers": [""],
        "NSPersistenceFrameworkVersion": 1344,
    }, fmt=plistlib.FMT_BINARY)
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (store_uuid, plist))
    db.commit()
    db.close()
    print(json.dumps({"bookmarks": {row[5]: row[0] for row in rows}}, sort_keys=True))


if __name__ == "__main__":
    main()
