import Foundation
import ObjectGraphData
import TestSupport

/// The photos the differential tests fetch from: titles unique, other values drawn from small
/// pools so that comparisons hit.
enum PhotoFixtures {
    static let words = ["Hoover", "Quad", "Oval", "tower", "Café", "hoop", "Main", "quad"]
    static let tagNames = ["campus", "tower", "arch", "Tower", "café"]
    static let placeNames = ["Quad", "Oval", "Dish"]

    static func insert(into context: ModelContext, count: Int, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let tags = tagNames.enumerated().map { Tag(name: $0.element, uses: $0.offset) }
        let places = placeNames.map { Place(name: $0, elevation: $0.count * 10) }
        for index in 0..<count {
            let photo = Photo(
                title: "\(words.randomElement(using: &random)!) \(index)",
                views: Int.random(in: 0...12, using: &random),
                rating: Bool.random(using: &random) ? Double(Int.random(in: 0...5, using: &random)) : nil,
                caption: Bool.random(using: &random) ? words.randomElement(using: &random)! : nil
            )
            photo.isFavorite = Bool.random(using: &random)
            photo.kind = Photo.Kind.allCases.randomElement(using: &random)!
            photo.tags = tags.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
            photo.place = Bool.random(using: &random) ? places.randomElement(using: &random) : nil
            context.insert(photo)
        }
        try context.save()
    }
}

/// Random `Predicate<Photo>`s built from the expressions `#Predicate` makes: comparisons of
/// every attribute kind, optionals, strings, relationships and collections, combined with
/// `&&`, `||` and `!`; some with arithmetic (`%` stays in memory, `+`, `-`, `*` compile).
struct PredicateGenerator {
    typealias Expression = any StandardPredicateExpression<Bool>
    typealias Root = PredicateExpressions.Variable<Photo>
    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed &* 7919 &+ 1) }

    mutating func predicate() -> Predicate<Photo> {
        let shape = tree(depth: 3)
        return Predicate<Photo> { root in shape(root) }
    }

    private mutating func tree(depth: Int) -> (Root) -> Expression {
        if depth == 0 || Int.random(in: 0..<3, using: &random) == 0 { return atom() }
        let (lhs, rhs) = (tree(depth: depth - 1), tree(depth: depth - 1))
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return { root in Self.and(lhs(root), rhs(root)) }
        case 1: return { root in Self.or(lhs(root), rhs(root)) }
        default: return { root in Self.not(lhs(root)) }
        }
    }

    private static func and(_ lhs: some StandardPredicateExpression<Bool>, _ rhs: some StandardPredicateExpression<Bool>) -> Expression {
        PredicateExpressions.build_Conjunction(lhs: lhs, rhs: rhs)
    }
    private static func or(_ lhs: some StandardPredicateExpression<Bool>, _ rhs: some StandardPredicateExpression<Bool>) -> Expression {
        PredicateExpressions.build_Disjunction(lhs: lhs, rhs: rhs)
    }
    private static func not(_ wrapped: some StandardPredicateExpression<Bool>) -> Expression {
        PredicateExpressions.build_Negation(wrapped)
    }

    private mutating func atom() -> (Root) -> Expression {
        let views = Int.random(in: 0...12, using: &random)
        let word = PhotoFixtures.words.randomElement(using: &random)!
        let prefix = String(word.prefix(Int.random(in: 1...3, using: &random)))
        let tag = PhotoFixtures.tagNames.randomElement(using: &random)!
        let place = PhotoFixtures.placeNames.randomElement(using: &random)!
        let rating = Double(Int.random(in: 0...5, using: &random))
        let count = Int.random(in: 0...3, using: &random)
        let flag = Bool.random(using: &random)
        typealias E = PredicateExpressions
        switch Int.random(in: 0..<14, using: &random) {
        case 0:
            return { E.build_Comparison(lhs: Self.key($0, \.views), rhs: E.build_Arg(views), op: .greaterThan) }
        case 1:
            return { E.build_Comparison(lhs: Self.key($0, \.views), rhs: E.build_Arg(views), op: .lessThanOrEqual) }
        case 2:
            return { E.build_starts(Self.key($0, \.title), with: E.build_Arg(prefix)) }
        case 3:
            return { root in
                let title: E.KeyPath<Root, String> = Self.key(root, \.title)
                let other: E.Value<String> = E.build_Arg(prefix)
                return E.build_contains(title, other) as E.CollectionContainsCollection<E.KeyPath<Root, String>, E.Value<String>>
            }
        case 4:
            return { E.build_Equal(lhs: Self.key($0, \.caption), rhs: E.build_Arg(Optional(word))) }
        case 5:
            return { E.build_Equal(lhs: Self.key($0, \.caption), rhs: E.build_NilLiteral()) }
        case 6:
            return {
                E.build_Comparison(
                    lhs: E.build_NilCoalesce(lhs: Self.key($0, \.rating), rhs: E.build_Arg(-1.0)),
                    rhs: E.build_Arg(rating),
                    op: .greaterThanOrEqual
                )
            }
        case 7:
            return { E.build_Equal(lhs: Self.key($0, \.isFavorite), rhs: E.build_Arg(flag)) }
        case 8:
            return {
                E.build_contains(Self.key($0, \.tags)) { tagVariable in
                    E.build_Equal(lhs: E.build_KeyPath(root: tagVariable, keyPath: \Tag.name), rhs: E.build_Arg(tag))
                }
            }
        case 9:
            return {
                E.build_Equal(
                    lhs: E.build_flatMap(Self.key($0, \.place)) { placeVariable in
                        E.build_KeyPath(root: placeVariable, keyPath: \Place.name)
                    },
                    rhs: E.build_Arg(Optional(place))
                )
            }
        case 10:
            return {
                E.build_Comparison(
                    lhs: E.build_KeyPath(root: Self.key($0, \.tags), keyPath: \[Tag].count),
                    rhs: E.build_Arg(count),
                    op: .greaterThanOrEqual
                )
            }
        case 11:
            if Bool.random(using: &random) {
                return { E.build_Equal(lhs: E.build_Remainder(lhs: Self.key($0, \.views), rhs: E.build_Arg(3)), rhs: E.build_Arg(count)) }
            }
            // Arithmetic that compiles to SQL.
            return {
                E.build_Comparison(
                    lhs: E.build_Arithmetic(
                        lhs: E.build_Arithmetic(lhs: Self.key($0, \.views), rhs: E.build_Arg(count), op: .multiply),
                        rhs: E.build_Arg(views),
                        op: flag ? .add : .subtract
                    ),
                    rhs: E.build_Arg(views),
                    op: .greaterThan
                )
            }
        case 12:
            return {
                E.build_NilCoalesce(
                    lhs: E.build_flatMap(Self.key($0, \.caption)) { caption in
                        E.build_localizedStandardContains(caption, E.build_Arg(prefix))
                    },
                    rhs: E.build_Arg(false)
                )
            }
        default:
            return {
                E.build_allSatisfy(Self.key($0, \.tags)) { tagVariable in
                    E.build_Comparison(lhs: E.build_KeyPath(root: tagVariable, keyPath: \Tag.uses), rhs: E.build_Arg(count), op: .greaterThanOrEqual)
                }
            }
        }
    }

    /// `root.<keyPath>`, as `#Predicate` writes a property access.
    private static func key<Value>(_ root: Root, _ keyPath: KeyPath<Photo, Value> & Sendable) -> PredicateExpressions.KeyPath<Root, Value> {
        PredicateExpressions.build_KeyPath(root: root, keyPath: keyPath)
    }
}
