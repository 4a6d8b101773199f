import Foundation
import ObjectGraph
import TestSupport

/// The stores Apple's Core Data wrote, under `Fixtures/CoreDataStores` (see its README), with
/// the models that wrote them, and the independent reference reader beside them.
///
/// Tests open copies only: SQLite may create or checkpoint a `-wal` beside a store it opens.
enum CoreDataStoreFixtures {
    /// The folder holding the fixtures, as copied into the test bundle.
    static let folder: URL = {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            preconditionFailure("the test bundle has no Fixtures folder")
        }
        return url.appendingPathComponent("CoreDataStores")
    }()

    /// The fixture at `relativePath` (e.g. `"objcio-Moody/Moody 2.moody"`).
    static func url(_ relativePath: String) -> URL {
        folder.appendingPathComponent(relativePath)
    }

    /// A copy of the store at `relativePath` (with its `-wal` and `-shm`) in a fresh
    /// temporary folder, keeping its file name.
    static func copy(_ relativePath: String) throws -> URL {
        let source = url(relativePath)
        let directory = TestDirectory.make("objectgraph-coredata")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = directory.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: target.path + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path + suffix)
        }
        return target
    }

    /// What the reference reader (`reference_reader.py`, Python's `sqlite3` and `plistlib`)
    /// prints for `arguments`, decoded from JSON.
    static func reference(_ arguments: [String]) throws -> [String: Any] {
        let script = folder.appendingPathComponent("reference_reader.py").path
        let (status, output) = try ChildExecutable.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script] + arguments)
        guard status == 0, let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] else {
            throw ReferenceReaderError(arguments: arguments, status: status, output: output)
        }
        return json
    }

    /// The `NSStoreModelVersionHashes` of the store at `url`, as the reference reader reads them.
    static func storedHashes(_ url: URL) throws -> [String: Data] {
        let metadata = try reference(["metadata", url.path])
        let hashes = metadata["hashes"] as? [String: String] ?? [:]
        return hashes.mapValues { Data(hex: $0) }
    }
}

/// The reference reader failed: its arguments, exit status and output.
struct ReferenceReaderError: Error, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    let output: String
    var description: String { "reference_reader.py \(arguments.joined(separator: " ")) exited \(status): \(output.prefix(300))" }
}

extension Data {
    /// The bytes spelled by `hex` (two digits a byte).
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }

    /// The bytes as lower-case hex digits.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
