/// One Swift source file the generator writes.
public struct GeneratedFile: Sendable, Hashable {
    /// Who owns the file: the generator (rewritten on every run) or the developer (written once).
    public enum Owner: Sendable, Hashable {
        /// A machine file (`_Photo.swift`, the model file): rewritten on every run, never edit it.
        case generator
        /// A human file (`Photo.swift`): written only when missing, then the developer's.
        case developer
    }

    /// The file name, e.g. `_Photo.swift`.
    public var name: String
    /// The file's Swift source.
    public var contents: String
    /// Whether the generator rewrites the file on every run.
    public var owner: Owner

    /// Creates a file description.
    public init(name: String, contents: String, owner: Owner) {
        self.name = name
        self.contents = contents
        self.owner = owner
    }
}

/// What a run of the generator did to each file of its output folder.
public struct GenerationResult: Sendable, Hashable {
    /// Files written (created or rewritten), by name, in the order written.
    public var written: [String] = []
    /// Human files left as they were because they exist.
    public var kept: [String] = []
}
