import Foundation
import ObjectGraph

/// The columns `query` prints for an entity: `pk`, `entity` (when it has subentities), its
/// attributes and to-one relationships, inherited ones first, each in the model's order.
struct QueryColumns {
    let names: [String]
    private let showsEntity: Bool
    private let properties: [PropertyDescription]

    init(entity: EntityDescription) {
        var chain: [EntityDescription] = []
        var current: EntityDescription? = entity
        while let next = current {
            chain.insert(next, at: 0)
            current = next.superentity
        }
        properties = chain.flatMap(\.properties).filter { property in
            if let relationship = property as? RelationshipDescription { return !relationship.isToMany }
            return property is AttributeDescription
        }
        showsEntity = !entity.subentities.isEmpty
        names = ["pk"] + (showsEntity ? ["entity"] : []) + properties.map(\.name)
    }

    /// The cells of `object`'s row.
    func values(of object: ManagedObject) -> [QueryValue] {
        var values: [QueryValue] = [.number(String(object.objectID.primaryKey))]
        if showsEntity { values.append(.text(object.entity.name)) }
        for property in properties {
            values.append(QueryValue(object.value(forKey: property.name)))
        }
        return values
    }
}

/// One cell: its text for tables and TSV, its JSON value.
enum QueryValue {
    case null
    case text(String)
    /// A number or boolean, kept as JSON's number or boolean.
    case number(String)
    case bool(Bool)
    /// Binary data: `<N bytes>` in text, base64 in JSON.
    case data(Data)

    init(_ value: Any?) {
        switch value {
        case nil, is NSNull: self = .null
        case let object as ManagedObject: self = .text("\(object.entity.name)/\(object.objectID.primaryKey)")
        case let string as String: self = .text(string)
        case let bool as Bool: self = .bool(bool)
        // ISO 8601 in UTC, with milliseconds.
        case let date as Date: self = .text(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case let data as Data: self = .data(data)
        case let uuid as UUID: self = .text(uuid.uuidString)
        case let url as URL: self = .text(url.absoluteString)
        case let decimal as Decimal: self = .number(decimal.description)
        case let int as Int: self = .number(String(int))
        case let int as Int16: self = .number(String(int))
        case let int as Int32: self = .number(String(int))
        case let int as Int64: self = .number(String(int))
        case let double as Double: self = .number(String(double))
        case let float as Float: self = .number(String(float))
        case let value?: self = .text(String(describing: value))
        }
    }

    /// The cell as a table or TSV shows it (`nil` as nothing).
    var text: String {
        switch self {
        case .null: ""
        case .text(let text), .number(let text): text
        case .bool(let bool): bool ? "true" : "false"
        case .data(let data): "<\(data.count) bytes>"
        }
    }

    /// The cell as a JSON value.
    var json: Any {
        switch self {
        case .null: NSNull()
        case .text(let text): text
        case .number(let text): Decimal(string: text).map { NSDecimalNumber(decimal: $0) } ?? text
        case .bool(let bool): bool
        case .data(let data): data.base64EncodedString()
        }
    }
}
