import Foundation

/// The collection operators of ``ManagedObject/value(forKeyPath:)``: `@count`, `@sum`, `@avg`,
/// `@min`, `@max`.
enum KeyPathAggregate: String {
    case count = "@count"
    case sum = "@sum"
    case avg = "@avg"
    case min = "@min"
    case max = "@max"

    /// Applies the operator to `elements`, reading `key` (a key path) from each when given.
    func apply(to elements: [Any], key: String?) -> Any? {
        if self == .count { return elements.count }
        let values: [Any] = elements.compactMap { element in
            guard let key else { return element }
            return (element as? ManagedObject)?.value(forKeyPath: key)
        }
        switch self {
        case .count:
            return values.count
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
