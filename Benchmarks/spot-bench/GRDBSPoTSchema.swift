import Flickr
import Foundation
import GRDB
import SPoTKit

/// SPoT's tables written by hand for GRDB — the code a developer would write instead of
/// using SPoTKit's importer: the same columns, uniqueness and counts.
enum GRDBSPoTSchema {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE photographer (id INTEGER PRIMARY KEY, userID TEXT NOT NULL UNIQUE, name TEXT NOT NULL, photoCount INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, displayName TEXT NOT NULL, rank INTEGER NOT NULL, photoCount INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE photo (
                    id INTEGER PRIMARY KEY, flickrID TEXT NOT NULL UNIQUE, title TEXT NOT NULL, subtitle TEXT NOT NULL,
                    sectionTitle TEXT NOT NULL, spotTitle TEXT NOT NULL, spotList TEXT NOT NULL, server TEXT, secret TEXT, farm INTEGER NOT NULL,
                    originalSecret TEXT, originalFormat TEXT, uploadDate DOUBLE, latitude DOUBLE, longitude DOUBLE,
                    hidden INTEGER NOT NULL DEFAULT 0, photographerID INTEGER REFERENCES photographer(id));
                CREATE INDEX photo_section ON photo(sectionTitle);
                CREATE INDEX photo_hidden ON photo(hidden);
                CREATE TABLE photoTag (photoID INTEGER NOT NULL REFERENCES photo(id), tagID INTEGER NOT NULL REFERENCES tag(id), PRIMARY KEY (photoID, tagID)) WITHOUT ROWID;
                CREATE INDEX photoTag_tag ON photoTag(tagID);
                """
        )
    }

    /// Upserts one page in one transaction; returns how many photos were new.
    @discardableResult
    static func upsert(_ photos: [FlickrPhoto], into pool: DatabasePool, rules: ImportRules = ImportRules()) throws -> Int {
        try pool.write { db in
            let spotNames = photos.map { rules.spotNames(of: $0.tags) }
            // Spots: one query finds them, the missing ones are inserted.
            let wanted = Set(spotNames.joined()).union([""])
            var tagIDs: [String: Int64] = [:]
            for row in try Row.fetchAll(
                db,
                sql: "SELECT id, name FROM tag WHERE name IN (\(wanted.map { _ in "?" }.joined(separator: ",")))",
                arguments: StatementArguments(Array(wanted))
            ) {
                tagIDs[row["name"]] = row["id"]
            }
            for name in wanted where tagIDs[name] == nil {
                try db.execute(
                    sql: "INSERT INTO tag (name, displayName, rank) VALUES (?, ?, ?)",
                    arguments: [name, name.isEmpty ? "All" : rules.displayName(ofSpot: name), name.isEmpty ? 0 : 1]
                )
                tagIDs[name] = db.lastInsertedRowID
            }
            // Photographers, the same way.
            let owners = Set(photos.map(\.owner))
            var photographerIDs: [String: Int64] = [:]
            for row in try Row.fetchAll(
                db,
                sql: "SELECT id, userID FROM photographer WHERE userID IN (\(owners.map { _ in "?" }.joined(separator: ",")))",
                arguments: StatementArguments(Array(owners))
            ) {
                photographerIDs[row["userID"]] = row["id"]
            }
            for photo in photos where photographerIDs[photo.owner] == nil {
                try db.execute(
                    sql: "INSERT INTO photographer (userID, name) VALUES (?, ?)",
                    arguments: [photo.owner, photo.ownerName ?? photo.owner]
                )
                photographerIDs[photo.owner] = db.lastInsertedRowID
            }
            // Photos: one query finds the page's existing ones.
            var existing: [String: (id: Int64, spotList: String, hidden: Bool)] = [:]
            for row in try Row.fetchAll(
                db,
                sql: "SELECT id, flickrID, spotList, hidden FROM photo WHERE flickrID IN (\(photos.map { _ in "?" }.joined(separator: ",")))",
                arguments: StatementArguments(photos.map(\.id))
            ) {
                existing[row["flickrID"]] = (row["id"], row["spotList"], row["hidden"])
            }
            var new = 0
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO photo (flickrID, title, subtitle, sectionTitle, spotTitle, spotList, server, secret, farm, originalSecret, originalFormat, uploadDate, latitude, longitude, photographerID)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            )
            let update = try db.cachedStatement(
                sql: """
                    UPDATE photo SET title = ?, subtitle = ?, sectionTitle = ?, spotTitle = ?, spotList = ?, server = ?, secret = ?, farm = ?, originalSecret = ?, originalFormat = ?, uploadDate = ?, latitude = ?, longitude = ?, photographerID = ? WHERE id = ?
                    """
            )
            let link = try db.cachedStatement(sql: "INSERT OR IGNORE INTO photoTag (photoID, tagID) VALUES (?, ?)")
            let count = try db.cachedStatement(sql: "UPDATE tag SET photoCount = photoCount + 1 WHERE id = ?")
            for (photo, names) in zip(photos, spotNames) {
                let title = rules.title(of: photo)
                let values: [(any DatabaseValueConvertible)?] = [
                    title, rules.subtitle(of: photo), rules.sectionTitle(ofTitle: title),
                    names.first.map(rules.displayName(ofSpot:)) ?? ImportRules.noSpotTitle, names.joined(separator: " "),
                    photo.server, photo.secret, photo.farm ?? 0, photo.originalSecret, photo.originalFormat,
                    photo.uploadDate?.timeIntervalSinceReferenceDate, photo.coordinate?.latitude, photo.coordinate?.longitude,
                    photographerIDs[photo.owner],
                ]
                if let known = existing[photo.id] {
                    try update.execute(arguments: StatementArguments(values + [known.id]))
                    continue
                }
                try insert.execute(arguments: StatementArguments([photo.id] + values))
                let photoID = db.lastInsertedRowID
                new += 1
                for name in [""] + names {
                    guard let tagID = tagIDs[name] else { continue }
                    try link.execute(arguments: [photoID, tagID])
                    try count.execute(arguments: [tagID])
                }
                try db.execute(sql: "UPDATE photographer SET photoCount = photoCount + 1 WHERE id = ?", arguments: [photographerIDs[photo.owner]])
            }
            return new
        }
    }
}
