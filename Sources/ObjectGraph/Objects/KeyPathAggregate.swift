import Foundation

/// The collection operators of ``ManagedObject/value(forKeyPath:)``, as key-value coding has
/// them: `@count`, `@sum`, `@avg`, `@min`, `@max`, and the unions (`@unionOfObjects`,
/// `@distinctUnionOfObjects`, and the `…Arrays` and `…Sets` ones, which flatten collections).
enum KeyPathAggregate: String {
    case count = "@count"
    case sum = "@sum"
    case avg = "@avg"
    case min = "@min"
    case max = "@max"
    case unionOfObjects = "@unionOfObjects"
    case distinctUnionOfObjects = "@distinctUnionOfObjects"
    case unionOfArrays = "@unionOfArrays"
    case distinctUnionOfArrays = "@distinctUnionOfArrays"
    case unionOfSets = "@unionOfSets"
    case distinctUnionOfSets = "@distinctUnionOfSets"

    /// Applies the operator to `elements`, reading `key` (a key path) from each when given.
    ///
    /// The unions return arrays, as key-value coding's do: every non-nil value read, or each
    /// distinct one once (the `…Sets` unions are distinct, as sets are); the `…Arrays` and
    /// `…Sets` ones read a collection from each element and join them.
    func apply(to elements: [Any], key: String?) -> Any? {
        if self == .count { return elements.count }
        let values: [Any] = elements.compactMap { element in
            guard let key else { return element }
            return (element as? ManagedObject)?.value(forKeyPath: key)
        }
        switch self {
        case .count:
            return values.count
        case .unionOfObjects: return values
        case .distinctUnionOfObjects: return Self.distinct(values)
        case .unionOfArrays: return values.flatMap(Self.members)
        case .distinctUnionOfArrays, .unionOfSets, .distinctUnionOfSets: return Self.distinct(values.flatMap(Self.members))
        case .sum, .avg:
            let numbers = values.compactMap(Self.decimal)
            let sum = numbers.reduce(Decimal(0), +)
            if self == .sum { return Self.narrow(sum, like: values) }
            return numbers.isEmpty ? nil : NSDecimalNumber(decimal: sum / Decimal(numbers.count)).doubleValue
        case .min, .max:
            let ordered = values.sorted { Self.less($0, $1) }
            return self == .min ? ordered.first : ordered.last
        }
    }

    /// The members of a collection value (a to-many relationship's set or array, or an array
    /// attribute); another value is a collection of itself.
    private static func members(_ value: Any) -> [Any] {
        switch value {
        case let set as Set<ManagedObject>: set.map { $0 as Any }
        case let array as [ManagedObject]: array.map { $0 as Any }
        case let array as [Any]: array
        case let set as Set<AnyHashable>: set.map { $0.base }
        default: [value]
        }
    }

    /// Each value once, in the order first seen; values that are not hashable are all kept.
    private static func distinct(_ values: [Any]) -> [Any] {
        var seen = Set<AnyHashable>()
        return values.filter { value in
            guard let hashable = value as? AnyHashable else { return true }
            return seen.insert(hashable).inserted
        }
    }

    private static func decimal(_ value: Any) -> Decimal? {
        switch value {
        case let decimal as Decimal: decimal
        case let int as any BinaryInteger: Decimal(Int64(int))
        case let double as Double: Decimal(double)
        case let float as Float: Decimal(Double(float))
        default: nil
        }
    }

    /// A sum of integers stays an integer; of doubles a double; of decimals a decimal.
    private static func narrow(_ sum: Decimal, like values: [Any]) -> Any {
        if values.allSatisfy({ $0 is any BinaryInteger }) { return NSDecimalNumber(decimal: sum).int64Value }
        if values.contains(where: { $0 is Decimal }) { return sum }
        return NSDecimalNumber(decimal: sum).doubleValue
    }

    private static func less(_ lhs: Any, _ rhs: Any) -> Bool {
        switch (lhs, rhs) {
        case let (a as String, b as String): return a < b
        case let (a as Date, b as Date): return a < b
        default:
            if let a = decimal(lhs), let b = decimal(rhs) { return a < b }
            return false
        }
    }
}
