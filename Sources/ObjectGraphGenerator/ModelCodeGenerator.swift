public import Foundation
public import ObjectGraph

/// Writes typed `ManagedObject` subclasses for the entities of a model, split as mogenerator
/// does: per entity a machine file `_Photo.swift` (the `@Managed` properties, rewritten on every
/// run) and a human file `Photo.swift` (the class you edit, written once), plus a model file
/// that builds the model in Swift with every entity bound to its class.
///
/// ```swift
/// let generator = try ModelCodeGenerator(contentsOf: URL(fileURLWithPath: "Model.xcdatamodeld"))
/// let result = try generator.write(to: URL(fileURLWithPath: "Sources/App/Model"))
/// print(result.written, result.kept)
/// ```
///
/// Each entity's class is named after the model's class name (`representedClassName`, without
/// a module prefix) or else the entity. Attributes map to Swift types as ObjectGraph returns
/// them: numbers and booleans are non-optional when the model requires them, other values are
/// optional; to-one relationships are optional objects, to-many ones `Set`s (arrays when
/// ordered).
public struct ModelCodeGenerator {
    /// How generated declarations are exposed.
    public enum AccessLevel: String, Sendable, CaseIterable {
        /// `internal` (the default): the classes belong to the module they are compiled in.
        case `internal`
        /// `public`: the classes, properties and model are part of the module's interface.
        case `public`
    }

    /// The model, checked.
    public let model: ManagedObjectModel
    /// The name of the model (`Library` for `Library.xcdatamodeld`): the model file is
    /// `LibraryModel.swift`, declaring `enum LibraryModel`.
    public let modelName: String
    /// Where the model came from, quoted in the header of generated files.
    public let source: String
    /// The access level of generated declarations.
    public var accessLevel: AccessLevel = .internal

    /// Creates a generator for `model`, checking it.
    ///
    /// - Throws: ``ObjectGraph/ManagedObjectModelError`` when the model is invalid.
    public init(model: ManagedObjectModel, modelName: String, source: String) throws {
        try model.validate()
        self.model = model
        self.modelName = modelName
        self.source = source
    }

    /// Creates a generator for the current version of the Xcode model at `url`
    /// (`.xcdatamodeld` or `.xcdatamodel`), or for the version named `versionName`.
    ///
    /// - Throws: ``ObjectGraph/ObjectGraphError`` when `url` is not a readable model or has no
    ///   such version; ``ObjectGraph/ManagedObjectModelError`` when the model is invalid.
    public init(contentsOf url: URL, versionName: String? = nil) throws {
        let bundle = try ManagedObjectModelBundle(contentsOf: url)
        guard let version = versionName.map({ bundle.version(named: $0) }) ?? bundle.currentVersion else {
            throw GeneratorError("\(url.path) has no version named '\(versionName ?? "")' (it has \(bundle.versionNames.joined(separator: ", ")))")
        }
        let name = url.deletingPathExtension().lastPathComponent
        let source = url.pathExtension == "xcdatamodeld" ? "\(url.lastPathComponent), version \"\(version.name)\"" : url.lastPathComponent
        try self.init(model: version.model, modelName: SwiftSource.typeName(name), source: source)
    }

    /// Every file, machine and human, in a stable order: per entity (by name) the machine file
    /// then the human file, then the model file.
    public func files() -> [GeneratedFile] {
        var files: [GeneratedFile] = []
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            files.append(GeneratedFile(name: "_\(className(of: entity)).swift", contents: machineFile(for: entity), owner: .generator))
            files.append(GeneratedFile(name: "\(className(of: entity)).swift", contents: humanFile(for: entity), owner: .developer))
        }
        files.append(GeneratedFile(name: "\(modelName)Model.swift", contents: modelFile(), owner: .generator))
        return files
    }

    /// Writes the files into `directory` (created if missing): machine files always, human
    /// files only when missing.
    ///
    /// - Returns: Which files were written and which human files were kept.
    /// - Throws: The file system's error when a file cannot be written.
    @discardableResult
    public func write(to directory: URL) throws -> GenerationResult {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var result = GenerationResult()
        for file in files() {
            let url = directory.appendingPathComponent(file.name)
            if file.owner == .developer && FileManager.default.fileExists(atPath: url.path) {
                result.kept.append(file.name)
                continue
            }
            try Data(file.contents.utf8).write(to: url, options: .atomic)
            result.written.append(file.name)
        }
        return result
    }

    /// The Swift class name of `entity`'s objects.
    func className(of entity: EntityDescription) -> String {
        let declared = entity.representedClassName.flatMap { $0.split(separator: ".").last.map(String.init) }
        guard let declared, !declared.isEmpty, declared != "NSManagedObject" else { return SwiftSource.typeName(entity.name) }
        return SwiftSource.typeName(declared)
    }

    /// `public ` or nothing, before a declaration.
    var access: String { accessLevel == .public ? "public " : "" }

    /// `import module`, made `public import` when public declarations use the module's types
    /// (so the output compiles with the `InternalImportsByDefault` upcoming feature too).
    func importLine(_ module: String, publicly: Bool) -> String {
        accessLevel == .public && publicly ? "public import \(module)" : "import \(module)"
    }

    /// The comment every machine file starts with.
    var machineHeader: String {
        """
        // Generated by objectgraph-gen from \(source).
        // Do not edit: this file is rewritten every time the generator runs.
        // swift-format-ignore-file

        """
    }
}

/// A generator failure that is not the model's or the file system's.
public struct GeneratorError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}

extension SwiftSource {
    /// `name` as a Swift type name: characters other than letters, digits and `_` become `_`.
    static func typeName(_ name: String) -> String {
        var result = String(name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "_" ? Character($0) : "_" })
        if let first = result.unicodeScalars.first, CharacterSet.decimalDigits.contains(first) { result = "_" + result }
        return result.isEmpty ? "_" : result
    }
}
