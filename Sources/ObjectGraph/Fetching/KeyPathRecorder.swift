import Foundation
import Synchronization

/// Finds the property names behind Swift key paths of `@Managed` properties, so typed queries
/// (`\Photo.title == "Hoover Tower"`) never spell a name twice.
///
/// It reads the key path on a throw-away probe object; the probe's accessors record their key
/// instead of reading storage. Results are cached per key path.
final class KeyPathRecorder: @unchecked Sendable {
    // @unchecked Sendable: a recorder lives on one thread for one resolution; never shared.
    @TaskLocal static var current: KeyPathRecorder?

    private var probes: Set<ObjectIdentifier> = []
    private var keys: [String] = []
    private var retained: [ManagedObject] = []

    func isRecording(_ object: ManagedObject) -> Bool { probes.contains(ObjectIdentifier(object)) }
    func record(_ key: String) { keys.append(key) }

    /// A probe of `type`, for following to-one key paths (`\Photo.photographer?.name`).
    func probe(of type: ManagedObject.Type) -> ManagedObject {
        let object = type.init(entity: ManagedObjectClassRegistry.entity(for: type) ?? EntityDescription(), insertInto: nil)
        object.storage.becomeProbe()
        probes.insert(ObjectIdentifier(object))
        retained.append(object)
        return object
    }

    /// A key path as a dictionary key: key paths are immutable values, safe to share.
    private struct CacheKey: Hashable, @unchecked Sendable {
        let keyPath: AnyKeyPath
    }

    private static let cache = Mutex<[CacheKey: String]>([:])

    /// The dotted key path (`"photographer.name"`) behind `keyPath`.
    ///
    /// Traps when the key path does not lead to an `@Managed` property (a programming error).
    static func name<Root: ManagedObject, Result>(of keyPath: KeyPath<Root, Result>) -> String {
        if let name = cache.withLock({ $0[CacheKey(keyPath: keyPath)] }) { return name }
        let recorder = KeyPathRecorder()
        let probe = recorder.probe(of: Root.self)
        $current.withValue(recorder) { _ = (probe as! Root)[keyPath: keyPath] }
        guard !recorder.keys.isEmpty else {
            preconditionFailure("ObjectGraph: \(keyPath) is not a key path of @Managed properties")
        }
        let name = recorder.keys.joined(separator: ".")
        cache.withLock { $0[CacheKey(keyPath: keyPath)] = name }
        return name
    }
}

/// Lets a probe follow an optional to-one property to its destination's probe.
protocol OptionalManagedObject {
    static var wrappedObjectType: ManagedObject.Type { get }
}

extension Optional: OptionalManagedObject where Wrapped: ManagedObject {
    static var wrappedObjectType: ManagedObject.Type { Wrapped.self }
}
