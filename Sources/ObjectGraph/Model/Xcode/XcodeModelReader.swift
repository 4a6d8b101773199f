import Foundation

/// Finds and reads Xcode model folders: an `.xcdatamodeld` bundle of versions, or one
/// `.xcdatamodel` version whose `contents` file holds the model as XML.
enum XcodeModelReader {
    /// What a path holds.
    enum Kind {
        /// An `.xcdatamodeld`: several versions and `.xccurrentversion`.
        case bundle
        /// An `.xcdatamodel`: one version.
        case version
    }

    /// Whether `url` is a model bundle or a single version.
    ///
    /// - Throws: ``ObjectGraphError`` (``ObjectGraphError/Code/invalidModelFile``) naming the
    ///   path when it does not exist or is not an Xcode model folder.
    static func kind(of url: URL) throws -> Kind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ObjectGraphError(.invalidModelFile, "there is no Xcode model at \(url.path): no such file or folder")
        }
        guard isDirectory.boolValue else {
            throw ObjectGraphError(
                .invalidModelFile,
                "\(url.path) is not an Xcode model: a model is a folder (.xcdatamodeld or .xcdatamodel), this is a file"
            )
        }
        switch url.pathExtension {
        case "xcdatamodeld": return .bundle
        case "xcdatamodel": return .version
        default:
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            if names.contains(".xccurrentversion") || names.contains(where: { $0.hasSuffix(".xcdatamodel") }) { return .bundle }
            if names.contains("contents") || names.contains("elements") { return .version }
            throw ObjectGraphError(
                .invalidModelFile,
                "\(url.path) is not an Xcode model: it is neither an .xcdatamodeld nor an .xcdatamodel folder, and holds no model 'contents'"
            )
        }
    }

    /// Reads the model version in the `.xcdatamodel` folder at `url`.
    ///
    /// - Throws: ``ObjectGraphError`` naming the path when the folder has no `contents` (or
    ///   only Xcode 3's binary `elements`), or when `contents` is not well-formed XML (with its
    ///   line and column) or not a data model.
    static func readVersion(at url: URL, modelClasses: [String: ManagedObject.Type]) throws -> ManagedObjectModel {
        let contents = url.appendingPathComponent("contents")
        guard FileManager.default.fileExists(atPath: contents.path) else {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("elements").path) {
                throw ObjectGraphError(
                    .invalidModelFile,
                    "\(url.path) is in the binary format of Xcode 3 ('elements' and 'layout' files), which ObjectGraph cannot read; open it in Xcode 4 or later and save it to convert it to XML"
                )
            }
            throw ObjectGraphError(.invalidModelFile, "\(url.path) is not an Xcode model: it has no 'contents' file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            throw ObjectGraphError(.invalidModelFile, "cannot read \(contents.path)", underlying: error)
        }
        if data.starts(with: Array("bplist".utf8)) {
            throw ObjectGraphError(
                .invalidModelFile,
                "\(contents.path) is a binary property list, not the XML Xcode 4 and later write; open the model in Xcode and save it to convert it"
            )
        }
        let root: XMLTree
        do {
            root = try XMLTree.parse(data)
        } catch {
            throw ObjectGraphError(
                .invalidModelFile,
                "\(contents.path):\(error.line):\(error.column): malformed XML at line \(error.line), column \(error.column): \(error.reason)"
            )
        }
        var mapper = XcodeModelMapper(url: url, modelClasses: modelClasses)
        let model = try mapper.model(from: root, contentsPath: contents.path)
        model.importReport = XcodeModelReport(url: url, entries: mapper.entries)
        model.resolveReferencesByName()
        return model
    }

    /// The `.xcdatamodel` folders of the bundle at `url`, ordered by name as Xcode numbers
    /// versions ("Model", "Model 2", … "Model 10"), and the name of the current one.
    static func versions(inBundle url: URL) throws -> (urls: [URL], current: String?) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ObjectGraphError(.invalidModelFile, "cannot list the model versions in \(url.path)", underlying: error)
        }
        let versions = names.filter { $0.hasSuffix(".xcdatamodel") }
            .sorted { versionOrder(String($0.dropLast(".xcdatamodel".count)), String($1.dropLast(".xcdatamodel".count))) }
        guard !versions.isEmpty else {
            throw ObjectGraphError(.invalidModelFile, "\(url.path) is not an Xcode model: it holds no .xcdatamodel version")
        }
        var current: String?
        let plistURL = url.appendingPathComponent(".xccurrentversion")
        if FileManager.default.fileExists(atPath: plistURL.path) {
            let plist: Any
            do {
                plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: plistURL), format: nil)
            } catch {
                throw ObjectGraphError(.invalidModelFile, "\(plistURL.path) is not a property list", underlying: error)
            }
            guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
                throw ObjectGraphError(.invalidModelFile, "\(plistURL.path) names no current version (_XCCurrentVersionName)")
            }
            guard versions.contains(name) else {
                throw ObjectGraphError(
                    .invalidModelFile,
                    "\(plistURL.path) names '\(name)' as the current version, but \(url.path) has no such version (it has \(versions.joined(separator: ", ")))"
                )
            }
            current = name
        }
        return (versions.map { url.appendingPathComponent($0) }, current.map { String($0.dropLast(".xcdatamodel".count)) })
    }

    /// Records in `model`'s report that its bundle has no `.xccurrentversion`, so the version
    /// `name` (the last) was taken as current.
    static func noteMissingCurrentVersion(in model: ManagedObjectModel, name: String) {
        model.importReport?.entries.insert(
            .init(
                kind: .changed,
                entity: nil,
                property: nil,
                item: ".xccurrentversion",
                message: "the bundle has no .xccurrentversion: its last version, '\(name)', is taken as current",
                line: 1
            ),
            at: 0
        )
    }

    /// Xcode's version order: by name, numbers compared as numbers, so "Model 2" < "Model 10".
    static func versionOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.compare(rhs, options: [.numeric]) == .orderedAscending
    }
}
