import Foundation

// A typed query layer in the spirit of QueryKit: predicates and sort descriptors built from
// key paths of `@Managed` properties, so a property's name is never typed twice.
//
// ```swift
// request.predicate = \Photo.title == "Hoover Tower" && \Photo.views > 10
// request.predicate = (\Photo.title).beginsWith("hoo", [.caseInsensitive, .diacriticInsensitive])
// request.predicate = \Photo.photographer?.name == "Ansel"          // through a to-one
// request.sortDescriptors = [FetchSortDescriptor(\Photo.title, ascending: true)]
// ```
//
// Each builds the same `FetchPredicate` as the format string it stands for (`%K == %@`), so
// typed and format predicates behave identically.

extension FetchPredicate {
    /// String comparison options of typed predicates: `[c]` and `[d]`.
    public struct StringOptions: OptionSet, Sendable, Hashable {
        /// The raw value.
        public let rawValue: Int
        /// Creates a value from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `[c]`: ignore case (Unicode case folding).
        public static let caseInsensitive = StringOptions(rawValue: 1)
        /// `[d]`: ignore diacritics.
        public static let diacriticInsensitive = StringOptions(rawValue: 2)

        var modifier: String {
            let letters = (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
            return letters.isEmpty ? "" : "[\(letters)]"
        }
    }

    /// `%K op %@` for a typed key path.
    static func typed<Root: ManagedObject, Result>(_ keyPath: KeyPath<Root, Result>, _ op: String, _ value: Any?) -> FetchPredicate {
        FetchPredicate(format: "%K \(op) %@", argumentArray: [KeyPathRecorder.name(of: keyPath), value])
    }
}

/// `keyPath == value`; `nil` matches objects whose value is `nil`.
public func == <Root: ManagedObject, Result>(lhs: KeyPath<Root, Result>, rhs: Result) -> FetchPredicate {
    FetchPredicate.typed(lhs, "==", rhs)
}

/// `keyPath != value`; objects whose value is `nil` match a non-`nil` value.
public func != <Root: ManagedObject, Result>(lhs: KeyPath<Root, Result>, rhs: Result) -> FetchPredicate {
    FetchPredicate.typed(lhs, "!=", rhs)
}

/// `keyPath < value`.
public func < <Root: ManagedObject, Result: Comparable>(lhs: KeyPath<Root, Result>, rhs: Result) -> FetchPredicate {
    FetchPredicate.typed(lhs, "<", rhs)
}

/// `keyPath <= value`.
public func <= <Root: ManagedObject, Result: Comparable>(lhs: KeyPath<Root, Result>, rhs: Result) -> FetchPredicate {
    FetchPredicate.typed(lhs, "<=", rhs)
}

/// `keyPath > value`.
public func > <Root: ManagedObject, Result: Comparable>(lhs: KeyPath<Root, Result>, rhs: Result) -> FetchPredicate {
    FetchPredicate.typed(lhs, ">", rhs)
}

/// `keyPath >= value`.
public func >= <Root: ManagedObject, Result: Comparable>(lhs: KeyPath<Root, Result>, rhs: Result) -> FetchPredicate {
    FetchPredicate.typed(lhs, ">=", rhs)
}

/// `keyPath < value` for an optional property (`nil` never matches).
public func < <Root: ManagedObject, Wrapped: Comparable>(lhs: KeyPath<Root, Wrapped?>, rhs: Wrapped) -> FetchPredicate {
    FetchPredicate.typed(lhs, "<", rhs)
}

/// `keyPath <= value` for an optional property (`nil` never matches).
public func <= <Root: ManagedObject, Wrapped: Comparable>(lhs: KeyPath<Root, Wrapped?>, rhs: Wrapped) -> FetchPredicate {
    FetchPredicate.typed(lhs, "<=", rhs)
}

/// `keyPath > value` for an optional property (`nil` never matches).
public func > <Root: ManagedObject, Wrapped: Comparable>(lhs: KeyPath<Root, Wrapped?>, rhs: Wrapped) -> FetchPredicate {
    FetchPredicate.typed(lhs, ">", rhs)
}

/// `keyPath >= value` for an optional property (`nil` never matches).
public func >= <Root: ManagedObject, Wrapped: Comparable>(lhs: KeyPath<Root, Wrapped?>, rhs: Wrapped) -> FetchPredicate {
    FetchPredicate.typed(lhs, ">=", rhs)
}

extension KeyPath where Root: ManagedObject {
    /// `keyPath BEGINSWITH prefix`, with `[c]`/`[d]` options.
    public func beginsWith(_ prefix: String, _ options: FetchPredicate.StringOptions = []) -> FetchPredicate {
        FetchPredicate.typed(self, "BEGINSWITH\(options.modifier)", prefix)
    }

    /// `keyPath ENDSWITH suffix`, with `[c]`/`[d]` options.
    public func endsWith(_ suffix: String, _ options: FetchPredicate.StringOptions = []) -> FetchPredicate {
        FetchPredicate.typed(self, "ENDSWITH\(options.modifier)", suffix)
    }

    /// `keyPath CONTAINS text`: a substring test on a string property.
    public func contains(_ text: String, _ options: FetchPredicate.StringOptions = []) -> FetchPredicate {
        FetchPredicate.typed(self, "CONTAINS\(options.modifier)", text)
    }

    /// `keyPath LIKE pattern` (`*` any run, `?` one character).
    public func like(_ pattern: String, _ options: FetchPredicate.StringOptions = []) -> FetchPredicate {
        FetchPredicate.typed(self, "LIKE\(options.modifier)", pattern)
    }

    /// `keyPath MATCHES regularExpression` (the whole string, ICU syntax).
    public func matches(_ regularExpression: String, _ options: FetchPredicate.StringOptions = []) -> FetchPredicate {
        FetchPredicate.typed(self, "MATCHES\(options.modifier)", regularExpression)
    }

    /// `keyPath IN values`.
    public func `in`(_ values: some Sequence) -> FetchPredicate {
        FetchPredicate.typed(self, "IN", Array(values) as [Any])
    }

    /// `keyPath BETWEEN {low, high}` (both bounds included).
    public func between<Bound: Comparable>(_ range: ClosedRange<Bound>) -> FetchPredicate {
        FetchPredicate.typed(self, "BETWEEN", [range.lowerBound, range.upperBound] as [Any])
    }

    /// The name of the property path (`"photographer.name"`) this key path reads.
    public var managedKeyPath: String { KeyPathRecorder.name(of: self) }
}

extension FetchSortDescriptor {
    /// Sorts by a typed key path of `@Managed` properties.
    public init<Root: ManagedObject, Result>(_ keyPath: KeyPath<Root, Result>, ascending: Bool = true, selector: Selector = .compare) {
        self.init(key: KeyPathRecorder.name(of: keyPath), ascending: ascending, selector: selector)
    }
}
