import Foundation

/// Core Data's external binary storage, for binary attributes that allow it
/// (``AttributeDescription/allowsExternalBinaryDataStorage``) in a store of Core Data's layout.
///
/// Such a column never holds the bare value. It holds a reference blob, as Core Data's
/// `_PFExternalReferenceData` writes it:
///
/// - `0x01` followed by the value's bytes, for a value kept in the row;
/// - `0x02` followed by a file name (a UUID string) and a NUL byte, for a value kept in the
///   file of that name in `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` beside the store.
///
/// Core Data decides per value; ObjectGraph keeps values longer than ``inlineLimit`` in files
/// (Core Data reads both forms whatever the size). Files are written before the save's
/// transaction commits (and removed if it does not); the files of replaced or deleted values
/// are removed once it has committed — for a save's objects and for the rows a batch update
/// or a batch delete changes alike.
struct ExternalBinaryStorage: Sendable {
    /// Where the files are: `.<StoreName>_SUPPORT/_EXTERNAL_DATA` beside the store (the store's
    /// file name without its extension); `nil` for a store in memory, which keeps every value
    /// in its row.
    let directory: URL?

    /// Values longer than this (100 KiB) are written to a file.
    static let inlineLimit = 100 * 1024
    /// The first byte of a reference blob whose value follows in the row.
    static let inlineMarker: UInt8 = 1
    /// The first byte of a reference blob naming a file.
    static let externalMarker: UInt8 = 2

    /// The storage of the store at `storePath` (`nil` or `:memory:` in memory).
    init(storePath: String?) {
        guard let storePath, storePath != ":memory:" else {
            directory = nil
            return
        }
        let store = URL(fileURLWithPath: storePath)
        let name = store.deletingPathExtension().lastPathComponent
        directory = store.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// The file a reference blob names, or `nil` when it names none. A name is taken only
    /// when it is a plain file name (letters, digits, `-`, `_`): a store's contents never lead
    /// outside the folder.
    func file(referencedBy blob: Data) -> URL? {
        guard let directory, blob.first == Self.externalMarker else { return nil }
        let name = String(decoding: blob.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
        guard !name.isEmpty, name.utf8.count <= 255,
            name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
        else { return nil }
        return directory.appendingPathComponent(name, isDirectory: false)
    }

    /// The value a column holds: an inline reference's bytes, or the contents of the file an
    /// external one names. A blob without a marker is read as it is.
    ///
    /// A file that is missing or unreadable is an error, never a `nil` value: Core Data fails
    /// the object's fault there too, and a save after a silent `nil` would lose the value.
    ///
    /// - Parameters:
    ///   - object: the object whose row holds `value` (its ID, described), for the error
    ///     (evaluated only then).
    ///   - attribute: the attribute's name, for the error (evaluated only then).
    /// - Throws: ``ObjectGraphError`` (``ObjectGraphError/Code/persistentStoreOperation``)
    ///   naming the file, the object and the attribute.
    func read(_ value: Value, of object: @autoclosure () -> String, attribute: @autoclosure () -> String) throws -> Value {
        guard case .data(let blob) = value, let marker = blob.first else { return value }
        switch marker {
        case Self.inlineMarker:
            return .data(Data(blob.dropFirst()))
        case Self.externalMarker:
            guard let url = file(referencedBy: blob) else {
                let name = String(decoding: blob.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
                throw ObjectGraphError(
                    .persistentStoreOperation,
                    "\(object()).\(attribute()) refers to external data '\(name)', which is not a file name in \(directory?.path ?? "a store in memory (it has no external data folder)")",
                    file: directory?.path
                )
            }
            do {
                return .data(try Data(contentsOf: url))
            } catch {
                let missing = !FileManager.default.fileExists(atPath: url.path)
                throw ObjectGraphError(
                    .persistentStoreOperation,
                    "\(object()).\(attribute()) keeps its value in the external data file \(url.path), which is \(missing ? "missing" : "unreadable")",
                    underlying: error,
                    file: url.path
                )
            }
        default:
            return value
        }
    }

    /// The column for `value` kept in the row (`0x01` and the bytes), as batch inserts write
    /// it (they write no files) and batch updates write values up to ``inlineLimit``.
    static func inline(_ value: Value) -> Value {
        guard case .data(let data) = value else { return value }
        return .data(Data([inlineMarker]) + data)
    }

    /// Whether ``encode(_:files:)`` keeps `value` in a file: binary data longer than
    /// ``inlineLimit``, in a store on disk.
    func keepsInFile(_ value: Value) -> Bool {
        guard directory != nil, case .data(let data) = value else { return false }
        return data.count > Self.inlineLimit
    }

    /// The column for `value`: `0x01` and the bytes, or, for a value longer than
    /// ``inlineLimit`` in a store on disk, a new file and its reference (the file noted in
    /// `files`, to be removed if the save does not commit).
    func encode(_ value: Value, files: inout ExternalFileChanges) throws -> Value {
        guard case .data(let data) = value else { return value }
        guard let directory, data.count > Self.inlineLimit else { return .data(Data([Self.inlineMarker]) + data) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let url = directory.appendingPathComponent(name, isDirectory: false)
        try data.write(to: url, options: .atomic)
        files.written.append(url)
        return .data(Data([Self.externalMarker]) + Data(name.utf8) + Data([0]))
    }
}

/// The files one save wrote and the files it made obsolete: the first removed if the save
/// rolls back, the second once it has committed.
struct ExternalFileChanges {
    var written: [URL] = []
    var obsolete: [URL] = []

    /// After the commit: the replaced and deleted values' files go.
    func committed() {
        for url in obsolete { try? FileManager.default.removeItem(at: url) }
    }

    /// After a rollback: the files this save wrote go; the old ones stay referenced.
    func rolledBack() {
        for url in written { try? FileManager.default.removeItem(at: url) }
    }
}
