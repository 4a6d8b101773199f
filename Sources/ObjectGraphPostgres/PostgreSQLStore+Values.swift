import Foundation
import NIOCore
import ObjectGraph
import PostgresNIO

extension PostgreSQLStore {
    /// The arguments of a statement, bound in their storage forms (see ``SQLValue``).
    static func binds(_ values: [SQLValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let int): bindings.append(int)
            case .real(let double): if double.isNaN { bindings.appendNull() } else { bindings.append(double) }
            case .text(let text): bindings.append(text)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            case .decimal(let decimal): if (try? bindings.append(decimal)) == nil { bindings.appendNull() }
            }
        }
        return bindings
    }

    /// A query of `sql` with `arguments`.
    static func query(_ sql: String, _ arguments: [SQLValue] = []) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: binds(arguments))
    }

    /// Column `index` of `row` when it holds an integer.
    static func integer(_ row: PostgresRandomAccessRow, _ index: Int) -> Int64? {
        let cell = row[index]
        guard cell.bytes != nil else { return nil }
        return try? cell.decode(Int64.self)
    }

    /// Column `index` of `row`, read for an attribute of `type` from its storage form.
    static func value(_ row: PostgresRandomAccessRow, _ index: Int, type: AttributeType) -> Value {
        let cell = row[index]
        guard cell.bytes != nil else { return .null }
        switch type {
        case .string:
            return (try? cell.decode(String.self)).map { .string($0) } ?? .null
        case .uri:
            return (try? cell.decode(String.self)).flatMap(URL.init(string:)).map { .url($0) } ?? .null
        case .boolean:
            return (try? cell.decode(Int64.self)).map { .bool($0 != 0) } ?? .null
        case .integer16, .integer32, .integer64:
            return (try? cell.decode(Int64.self)).map { .int($0) } ?? .null
        case .double, .float:
            return (try? cell.decode(Double.self)).map { .double($0) } ?? .null
        case .date:
            return (try? cell.decode(Double.self)).map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
        case .decimal:
            return (try? cell.decode(Decimal.self)).map { .decimal($0) } ?? .null
        case .binaryData, .transformable:
            return (try? cell.decode(ByteBuffer.self)).map { .data(Data($0.readableBytesView)) } ?? .null
        case .uuid:
            guard let bytes = try? cell.decode(ByteBuffer.self), bytes.readableBytes == 16 else { return .null }
            let data = Data(bytes.readableBytesView)
            return .uuid(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        }
    }
}
