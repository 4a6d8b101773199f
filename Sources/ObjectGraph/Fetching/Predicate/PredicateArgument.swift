import Foundation

/// Turns Swift and Foundation values into predicate ``Value``s and ``PredicateOperand``s.
///
/// Used for `%@` arguments (at init, so the predicate holds a Sendable tree), substitution
/// variables, dictionary values and the object given to `evaluate(with:)`.
///
/// | Argument | Value |
/// | --- | --- |
/// | `String`, `Substring`, `Character`, `NSString` | `.string`, NFC-normalized |
/// | every `BinaryInteger` (`Int`…`UInt64`, `Int128`) | `.int`; beyond `Int64`, `.decimal` |
/// | every `BinaryFloatingPoint` (`Double`, `Float`, `Float16`, `CGFloat`) | `.double` |
/// | `Bool` | `.bool` |
/// | `Decimal`, `NSDecimalNumber` | `.decimal` |
/// | `NSNumber` | `.bool`, `.double` or `.int` by its type |
/// | `Date`, `Data`, `UUID`, `URL` (and their `NS` classes) | `.date`, `.data`, `.uuid`, `.url` |
/// | `nil`, `NSNull`, `Optional.none` at any depth | `.null` |
/// | arrays, sets, `NSArray`, `NSSet` | `.array` of converted elements |
/// | `PredicateArgumentConvertible` (managed objects, IDs) | its `predicateArgument` |
package enum PredicateArgument {
    /// The value for `argument`, or `nil` if it has no predicate form.
    package static func value(from argument: Any?) -> Value? {
        guard let any = unwrap(argument) else { return .null }
        if let value = any as? Value { return normalized(value) }
        if let convertible = any as? any PredicateArgumentConvertible { return convertible.predicateArgument }
        if type(of: any) is NSNumber.Type || type(of: any) is NSDecimalNumber.Type, let number = any as? NSNumber {
            return value(fromNumber: number)
        }
        switch any {
        case is NSNull: return .null
        case let s as String: return .string(s.precomposed)
        case let s as Substring: return .string(String(s).precomposed)
        case let c as Character: return .string(String(c).precomposed)
        case let b as Bool: return .bool(b)
        case let i as any BinaryInteger: return integerValue(i)
        case let f as any BinaryFloatingPoint: return .double(double(f))
        case let d as Decimal: return .decimal(d)
        case let d as Date: return .date(d)
        case let d as Data: return .data(d)
        case let u as UUID: return .uuid(u)
        case let u as URL: return .url(u)
        case let s as NSString: return .string(s.substring(from: 0).precomposed)
        case let d as NSDate: return .date(Date(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate))
        case let d as NSData: return .data(Data(bytes: d.bytes, count: d.length))
        case let u as NSUUID: return UUID(uuidString: u.uuidString).map(Value.uuid)
        case let u as NSURL: return URL(string: u.absoluteString).map(Value.url)
        default:
            guard let elements = elements(of: any) else { return nil }
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = value(from: element) else { return nil }
                values.append(value)
            }
            return .array(values)
        }
    }

    /// The operand for the object given to `evaluate(with:)`, a dictionary value or a bound
    /// variable: objects and dictionaries stay objects, collections become collections.
    ///
    /// - Throws: ``FetchPredicateError`` (type mismatch) for a value with no predicate form.
    package static func operand(from argument: Any?) throws -> PredicateOperand {
        guard let any = unwrap(argument) else { return .value(.null) }
        if let operand = any as? PredicateOperand { return operand }
        if let object = any as? any PredicateEvaluable { return .object(object) }
        if let value = any as? Value { return operand(from: normalized(value)) }
        if let dictionary = stringKeyed(any) { return .object(dictionary) }
        if !(any is String), !(any is Data), let elements = elements(of: any) {
            return .collection(try elements.map { try operand(from: $0) })
        }
        guard let value = value(from: any) else {
            throw FetchPredicateError.typeMismatch("a value of type \(typeName(any)) cannot be evaluated")
        }
        return .value(value)
    }

    /// The operand for a value: `.array` becomes a collection, anything else a `.value`.
    package static func operand(from value: Value) -> PredicateOperand {
        if case .array(let values) = value { return .collection(values.map { operand(from: $0) }) }
        return .value(value)
    }

    /// The string a `%K` argument holds, if it is one.
    static func keyPathString(_ argument: Any?) -> String? {
        switch unwrap(argument) {
        case let s as String: return s
        case let s as Substring: return String(s)
        case let s as NSString: return s.substring(from: 0)
        default: return nil
        }
    }

    /// The dynamic type's name, for messages.
    static func typeName(_ argument: Any?) -> String {
        guard let any = unwrap(argument) else { return "nil" }
        return String(describing: type(of: any))
    }

    /// `value` as an exact integer (`%d`-style specifiers), if it is one.
    static func integer(_ value: Value) -> Int64? {
        switch value {
        case .int(let i): return i
        case .bool(let b): return b ? 1 : 0
        case .double(let d): return Int64(exactly: d)
        case .decimal(let d): return Int64(d.description)
        default: return nil
        }
    }

    /// `value` as a double (`%f`-style specifiers and arithmetic on numbers), if it is a number.
    package static func double(_ value: Value) -> Double? {
        switch value {
        case .int(let i): return Double(i)
        case .bool(let b): return b ? 1 : 0
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        default: return nil
        }
    }

    // MARK: Helpers

    /// `argument` without its layers of `Optional`; `nil` if any layer is empty.
    static func unwrap(_ argument: Any?) -> Any? {
        guard let any = argument else { return nil }
        if let optional = any as? any OptionalUnwrapping { return unwrap(optional.unwrappedAny) }
        return any
    }

    private static func normalized(_ value: Value) -> Value {
        switch value {
        case .string(let s): return .string(s.precomposed)
        case .array(let values): return .array(values.map(normalized))
        default: return value
        }
    }

    private static func value(fromNumber number: NSNumber) -> Value {
        if let decimal = number as? NSDecimalNumber { return .decimal(decimal.decimalValue) }
        if String(describing: type(of: number)).contains("Boolean") { return .bool(number.boolValue) }
        switch String(cString: number.objCType) {
        case "f", "d": return .double(number.doubleValue)
        case "Q", "L":
            let unsigned = number.uint64Value
            return unsigned <= UInt64(Int64.max) ? .int(Int64(unsigned)) : .decimal(Decimal(unsigned))
        default: return .int(number.int64Value)
        }
    }

    private static func integerValue(_ integer: some BinaryInteger) -> Value {
        if let exact = Int64(exactly: integer) { return .int(exact) }
        return .decimal(Decimal(string: String(integer)) ?? Decimal(Double(integer)))
    }

    private static func double(_ value: some BinaryFloatingPoint) -> Double { Double(value) }

    /// `[AnyHashable: Any]` (what mixed dictionary literals become) or `NSDictionary` whose
    /// keys are all strings, as `[String: Any]`.
    private static func stringKeyed(_ any: Any) -> [String: Any]? {
        let pairs: [(AnyHashable, Any)]
        if let dictionary = any as? [AnyHashable: Any] {
            pairs = dictionary.map { ($0.key, $0.value) }
        } else if let dictionary = any as? NSDictionary {
            pairs = dictionary.map { (AnyHashable($0.key as? String ?? ""), $0.value) }
        } else {
            return nil
        }
        var result: [String: Any] = [:]
        for (key, value) in pairs {
            guard let name = key.base as? String else { return nil }
            result[name] = value
        }
        return result
    }

    /// The elements of an array, set or other collection value (never of a dictionary).
    private static func elements(of any: Any) -> [Any]? {
        if let array = any as? NSArray { return array.map { $0 } }
        if let set = any as? NSSet { return set.map { $0 } }
        let mirror = Mirror(reflecting: any)
        switch mirror.displayStyle {
        case .collection?, .set?: return mirror.children.map(\.value)
        default: return nil
        }
    }
}

/// Lets ``PredicateArgument`` see through `Optional`s wrapped in `Any`.
protocol OptionalUnwrapping {
    /// The wrapped value as `Any`, or `nil`.
    var unwrappedAny: Any? { get }
}

extension Optional: OptionalUnwrapping {
    var unwrappedAny: Any? { self.map { $0 as Any } }
}
