import Foundation

/// A binary property list (`bplist00`) read into values, keyed-archive UIDs included (which
/// Foundation's reader on Linux hands back as opaque objects).
///
/// Compiled models (`.mom`) and a store's `Z_MODELCACHE` are `NSKeyedArchiver` archives in
/// this format; ``KeyedArchive`` follows their UIDs.
enum BinaryPropertyList {
    /// One value of the list.
    indirect enum Value: Sendable {
        case null
        case bool(Bool)
        case int(Int64)
        case real(Double)
        /// Seconds since 2001-01-01.
        case date(Double)
        case data(Data)
        case string(String)
        /// A keyed archive's reference to an object of its `$objects` array.
        case uid(Int)
        case array([Value])
        case dictionary([String: Value])
    }

    /// Why a list could not be read.
    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "malformed binary property list: \(reason)" }
    }

    /// The top object of the list in `data`.
    static func parse(_ data: Data) throws -> Value {
        let bytes = [UInt8](data)
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { throw Malformed(reason: "no bplist00 header") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = Int(try integer(bytes, at: trailer + 8, size: 8))
        let top = Int(try integer(bytes, at: trailer + 16, size: 8))
        let tableOffset = Int(try integer(bytes, at: trailer + 24, size: 8))
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, top < count,
            tableOffset >= 8, tableOffset + count * offsetSize <= trailer
        else { throw Malformed(reason: "its trailer is inconsistent") }
        var reader = Reader(bytes: bytes, offsetSize: offsetSize, referenceSize: referenceSize, count: count, tableOffset: tableOffset)
        return try reader.object(top, depth: 0)
    }

    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) throws -> UInt64 {
        guard offset >= 0, offset + size <= bytes.count else { throw Malformed(reason: "an integer runs past the end") }
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let count: Int
        let tableOffset: Int

        func offset(of object: Int) throws -> Int {
            guard object >= 0, object < count else { throw Malformed(reason: "a reference to object \(object) of \(count)") }
            return Int(try integer(bytes, at: tableOffset + object * offsetSize, size: offsetSize))
        }

        /// The length in a marker's low nibble, or in the integer object after it (`0xF`).
        func length(_ info: UInt8, after position: inout Int) throws -> Int {
            guard info == 0xF else { return Int(info) }
            guard position < bytes.count else { throw Malformed(reason: "a length runs past the end") }
            let marker = bytes[position]
            guard marker >> 4 == 1 else { throw Malformed(reason: "a length that is not an integer") }
            let size = 1 << Int(marker & 0xF)
            let value = try integer(bytes, at: position + 1, size: size)
            position += 1 + size
            guard value < UInt64(bytes.count) * 2 else { throw Malformed(reason: "a length of \(value)") }
            return Int(value)
        }

        mutating func object(_ index: Int, depth: Int) throws -> Value {
            guard depth < 512 else { throw Malformed(reason: "objects nested too deeply") }
            var position = try offset(of: index)
            guard position < bytes.count else { throw Malformed(reason: "object \(index) past the end") }
            let marker = bytes[position]
            position += 1
            let info = marker & 0xF
            switch marker >> 4 {
            case 0x0:
                switch info {
                case 0x8: return .bool(false)
                case 0x9: return .bool(true)
                default: return .null
                }
            case 0x1:
                let size = 1 << Int(info)
                let raw = try integer(bytes, at: position, size: size)
                return .int(size >= 8 ? Int64(bitPattern: raw) : Int64(raw))
            case 0x2:
                let size = 1 << Int(info)
                let raw = try integer(bytes, at: position, size: size)
                return .real(size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
            case 0x3:
                return .date(Double(bitPattern: try integer(bytes, at: position, size: 8)))
            case 0x4:
                let length = try length(info, after: &position)
                guard position + length <= bytes.count else { throw Malformed(reason: "data past the end") }
                return .data(Data(bytes[position..<(position + length)]))
            case 0x5:
                let length = try length(info, after: &position)
                guard position + length <= bytes.count else { throw Malformed(reason: "a string past the end") }
                return .string(String(decoding: bytes[position..<(position + length)], as: UTF8.self))
            case 0x6:
                let length = try length(info, after: &position)
                guard position + 2 * length <= bytes.count else { throw Malformed(reason: "a string past the end") }
                let units = (0..<length).map { UInt16(bytes[position + 2 * $0]) << 8 | UInt16(bytes[position + 2 * $0 + 1]) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                return .uid(Int(try integer(bytes, at: position, size: Int(info) + 1)))
            case 0xA, 0xC:
                let length = try length(info, after: &position)
                var items: [Value] = []
                for item in 0..<length {
                    let reference = Int(try integer(bytes, at: position + item * referenceSize, size: referenceSize))
                    items.append(try object(reference, depth: depth + 1))
                }
                return .array(items)
            case 0xD:
                let length = try length(info, after: &position)
                var dictionary: [String: Value] = [:]
                for item in 0..<length {
                    let key = Int(try integer(bytes, at: position + item * referenceSize, size: referenceSize))
                    let value = Int(try integer(bytes, at: position + (length + item) * referenceSize, size: referenceSize))
                    guard case .string(let name) = try object(key, depth: depth + 1) else {
                        throw Malformed(reason: "a dictionary key that is not a string")
                    }
                    dictionary[name] = try object(value, depth: depth + 1)
                }
                return .dictionary(dictionary)
            default:
                throw Malformed(reason: "an object of unknown type 0x\(String(marker, radix: 16))")
            }
        }
    }
}
