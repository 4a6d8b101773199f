import Foundation
import ObjectGraph

/// Converts between a model property's Swift value and the value ObjectGraph stores: models
/// become their managed objects, arrays of models arrays of managed objects, and back.
enum ModelValue {
    /// The value to give ObjectGraph's `setValue(_:forKey:)` for `value`; models not yet in
    /// `context` are inserted into it first, as SwiftData inserts related models.
    static func encode(_ value: Any, in context: ModelContext) -> Any? {
        // Most values are attributes ObjectGraph stores as they are.
        if SchemaBuilder.attributeType(of: type(of: value)) != nil { return value }
        if let optional = value as? any _ModelOptional {
            guard let wrapped = optional._wrapped else { return nil }
            return encode(wrapped, in: context)
        }
        if let model = value as? any PersistentModel {
            return context.managedObject(for: model)
        }
        if let array = value as? any _ModelArray, let models = array._models {
            return models.map { context.managedObject(for: $0) }
        }
        // An enum with raw values is stored as its raw value.
        if let representable = value as? any RawRepresentable, SchemaBuilder.attributeType(of: type(of: representable.rawValue)) != nil {
            return representable.rawValue
        }
        return value
    }

    /// Sets the property `key` of `object` to `value`: a composite (a `Codable` struct) leaf
    /// by leaf, anything else through ``encode(_:in:)``.
    static func store(_ value: Any, forKey key: String, in object: ManagedObject, context: ModelContext) {
        let valueType = type(of: value)
        if SchemaBuilder.attributeType(of: valueType) == nil,
            let layout = CompositeLayout.of((valueType as? any _ModelOptional.Type)?._wrappedType ?? valueType)
        {
            let wrapped: Any? = (value as? any _ModelOptional).map { $0._wrapped } ?? value
            let leaves = wrapped.map(layout.leafValues) ?? [:]
            for leaf in layout.leaves {
                object.setValue(leaves[leaf.name] ?? nil, forKey: CompositeLayout.attributeName(key, leaf.name))
            }
            return
        }
        object.setValue(encode(value, in: context), forKey: key)
    }

    /// The composite property `key` of `object` as a `Value`, when `Value` (or the type it
    /// wraps) is a struct stored as a composite attribute; `nil` otherwise.
    static func composite<Value>(_ key: String, of object: ManagedObject, as type: Value.Type, in context: ModelContext) -> Value? {
        let optionalType = Value.self as? any _ModelOptional.Type
        guard let layout = CompositeLayout.of(optionalType?._wrappedType ?? Value.self) else { return nil }
        let rebuilt: Any?
        do {
            rebuilt = try layout.value { object.value(forKey: CompositeLayout.attributeName(key, $0.name)) }
        } catch {
            preconditionFailure("ObjectGraphData: \(object.entity.name).\(key) does not decode as \(Value.self) from its columns (\(error)); its CodingKeys must be its property names")
        }
        if let rebuilt { return rebuilt as? Value }
        return optionalType?._decode(nil, in: context) as? Value
    }

    /// `raw`, a value ObjectGraph returned, as a `Value`; `nil` when it does not convert.
    static func decode<Value>(_ raw: Any?, as type: Value.Type, in context: ModelContext) -> Value? {
        // Most values come back as the property's type (or its optional's wrapped type).
        if let raw, let value = raw as? Value { return value }
        if let optionalType = Value.self as? any _ModelOptional.Type {
            return optionalType._decode(raw, in: context) as? Value
        }
        guard let raw else { return nil }
        if let value = raw as? Value { return value }
        if Value.self is any PersistentModel.Type, let object = raw as? ManagedObject {
            return context.model(for: object) as? Value
        }
        if let arrayType = Value.self as? any _ModelArray.Type {
            let objects: [ManagedObject]
            switch raw {
            case let set as Set<ManagedObject>: objects = set.sorted(by: ModelValue.storeOrder)
            case let array as [ManagedObject]: objects = array
            default: return nil
            }
            return arrayType._fromModels(objects.map { context.model(for: $0) }) as? Value
        }
        if let integerType = Value.self as? any BinaryInteger.Type, let integer = raw as? any BinaryInteger {
            return convert(integer, to: integerType) as? Value
        }
        if Value.self == Float.self, let double = raw as? Double { return Float(double) as? Value }
        if Value.self == Double.self, let float = raw as? Float { return Double(float) as? Value }
        if let representable = Value.self as? any RawRepresentable.Type {
            return fromRawValue(raw, as: representable, in: context) as? Value
        }
        return nil
    }

    private static func fromRawValue<T: RawRepresentable>(_ raw: Any, as type: T.Type, in context: ModelContext) -> T? {
        decode(raw, as: T.RawValue.self, in: context).flatMap(T.init(rawValue:))
    }

    /// A to-many relationship's members in a stable order: saved objects by primary key, then
    /// new ones in the order they were made.
    static func storeOrder(_ lhs: ManagedObject, _ rhs: ManagedObject) -> Bool {
        let (l, r) = (lhs.objectID.primaryKey, rhs.objectID.primaryKey)
        if (l < 0) != (r < 0) { return l > 0 }
        return l < 0 ? l > r : l < r
    }

    private static func convert<T: BinaryInteger>(_ integer: any BinaryInteger, to type: T.Type) -> T? {
        T(exactly: integer)
    }

    /// A value of `Value` for a key-path probe to return (see ``_ModelKeyPathRecorder``); `nil` for a
    /// type it cannot make up.
    static func placeholder<Value>(_ type: Value.Type, recorder: _ModelKeyPathRecorder) -> Value? {
        if let optionalType = Value.self as? any _ModelOptional.Type {
            return optionalType._placeholder(recorder: recorder) as? Value
        }
        if let modelType = Value.self as? any PersistentModel.Type {
            return recorder.probe(of: modelType) as? Value
        }
        if let arrayType = Value.self as? any _ModelArray.Type { return arrayType._fromModels([]) as? Value }
        let known: [Any] = [
            "", 0, Int64(0), Int32(0), Int16(0), Int8(0), UInt(0), UInt64(0), UInt32(0), UInt16(0), UInt8(0),
            0.0, Float(0), false, Date(timeIntervalSinceReferenceDate: 0), Data(), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            URL(fileURLWithPath: "/"), Decimal(0),
        ]
        for candidate in known { if let value = candidate as? Value { return value } }
        return nil
    }
}

/// `Optional`, seen through a protocol so generic code can unwrap and make optionals.
public protocol _ModelOptional {
    /// The wrapped value, or `nil`.
    var _wrapped: Any? { get }
    /// The wrapped type.
    static var _wrappedType: Any.Type { get }
    /// `raw` decoded as this optional (`.some(nil)` for a nil `raw`), or `nil` when it does not convert.
    static func _decode(_ raw: Any?, in context: ModelContext) -> Self?
    /// A probe's value: a probe model for an optional model, else `nil`.
    static func _placeholder(recorder: _ModelKeyPathRecorder) -> Self
}

extension Optional: _ModelOptional {
    /// The wrapped value, or `nil`.
    public var _wrapped: Any? { self.map { $0 as Any } }
    /// The wrapped type.
    public static var _wrappedType: Any.Type { Wrapped.self }
    /// `raw` decoded as this optional.
    public static func _decode(_ raw: Any?, in context: ModelContext) -> Self? {
        guard let raw else { return .some(.none) }
        guard let wrapped = ModelValue.decode(raw, as: Wrapped.self, in: context) else { return nil }
        return .some(wrapped)
    }
    /// A probe's value.
    public static func _placeholder(recorder: _ModelKeyPathRecorder) -> Self {
        ModelValue.placeholder(Wrapped.self, recorder: recorder)
    }
}

/// `Array`, seen through a protocol so generic code can tell arrays of models.
public protocol _ModelArray {
    /// The elements as models, when the elements are models.
    var _models: [any PersistentModel]? { get }
    /// The element type.
    static var _elementType: Any.Type { get }
    /// An array of `models`, which must be of the element type.
    static func _fromModels(_ models: [any PersistentModel]) -> Self?
}

extension Array: _ModelArray {
    /// The elements as models, when the elements are models.
    public var _models: [any PersistentModel]? {
        Element.self is any PersistentModel.Type ? map { $0 as! any PersistentModel } : nil
    }
    /// The element type.
    public static var _elementType: Any.Type { Element.self }
    /// An array of `models`.
    public static func _fromModels(_ models: [any PersistentModel]) -> Self? {
        var result: [Element] = []
        result.reserveCapacity(models.count)
        for model in models {
            guard let element = model as? Element else { return nil }
            result.append(element)
        }
        return result
    }
}
