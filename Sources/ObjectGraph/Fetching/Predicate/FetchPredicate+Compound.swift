import Foundation

/// Compound predicates: `NSCompoundPredicate`'s initializers, plus `&&`, `||` and `!`.
extension FetchPredicate {
    /// All of `subpredicates` (`TRUEPREDICATE` when empty; the one itself when alone).
    ///
    /// A compound of predicates of which one carries an error carries the first such error.
    public init(andPredicateWithSubpredicates subpredicates: [FetchPredicate]) {
        self = Self.compound(subpredicates, empty: true, make: PredicateNode.and)
    }

    /// Any of `subpredicates` (`FALSEPREDICATE` when empty; the one itself when alone).
    public init(orPredicateWithSubpredicates subpredicates: [FetchPredicate]) {
        self = Self.compound(subpredicates, empty: false, make: PredicateNode.or)
    }

    /// The negation of `subpredicate`.
    public init(notPredicateWithSubpredicate subpredicate: FetchPredicate) {
        if let node = subpredicate.node {
            self.init(node: .not(node))
        } else {
            self = subpredicate
        }
    }

    /// All of `subpredicates`: `FetchPredicate.and([a, b])`.
    public static func and(_ subpredicates: [FetchPredicate]) -> FetchPredicate {
        FetchPredicate(andPredicateWithSubpredicates: subpredicates)
    }

    /// Any of `subpredicates`: `FetchPredicate.or([a, b])`.
    public static func or(_ subpredicates: [FetchPredicate]) -> FetchPredicate {
        FetchPredicate(orPredicateWithSubpredicates: subpredicates)
    }

    /// The negation of `subpredicate`: `FetchPredicate.not(a)`.
    public static func not(_ subpredicate: FetchPredicate) -> FetchPredicate {
        FetchPredicate(notPredicateWithSubpredicate: subpredicate)
    }

    /// Both predicates: `a && b` is `FetchPredicate.and([a, b])`.
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        .and([lhs, rhs])
    }

    /// Either predicate: `a || b` is `FetchPredicate.or([a, b])`.
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        .or([lhs, rhs])
    }

    /// The negation: `!a` is `FetchPredicate.not(a)`.
    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate {
        .not(predicate)
    }

    private static func compound(
        _ subpredicates: [FetchPredicate],
        empty: Bool,
        make: ([PredicateNode]) -> PredicateNode
    ) -> FetchPredicate {
        var nodes: [PredicateNode] = []
        for subpredicate in subpredicates {
            guard let node = subpredicate.node else { return subpredicate }
            nodes.append(node)
        }
        switch nodes.count {
        case 0: return FetchPredicate(value: empty)
        case 1: return FetchPredicate(node: nodes[0])
        default: return FetchPredicate(node: make(nodes))
        }
    }
}
