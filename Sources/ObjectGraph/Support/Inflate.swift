import Foundation

/// Raw DEFLATE (RFC 1951) decompression, for the compiled model Core Data keeps compressed in
/// a store's `Z_MODELCACHE` (Foundation on Linux has no decompression API, and ObjectGraph
/// takes no dependency for one small blob).
enum Inflate {
    /// Why a stream could not be inflated.
    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "malformed DEFLATE data: \(reason)" }
    }

    /// The bytes `data` (a raw DEFLATE stream, no zlib header) decompresses to.
    static func decompress(_ data: Data, limit: Int = 256 << 20) throws -> Data {
        var state = State(input: [UInt8](data))
        var output: [UInt8] = []
        var final = false
        while !final {
            final = try state.bits(1) == 1
            switch try state.bits(2) {
            case 0:
                state.alignToByte()
                let length = try state.bits(16)
                let complement = try state.bits(16)
                guard length == ~complement & 0xFFFF else { throw Malformed(reason: "a stored block's length check fails") }
                for _ in 0..<length { output.append(UInt8(try state.bits(8))) }
            case 1:
                try inflateBlock(&state, &output, literals: Self.fixedLiterals, distances: Self.fixedDistances, limit: limit)
            case 2:
                let (literals, distances) = try dynamicTables(&state)
                try inflateBlock(&state, &output, literals: literals, distances: distances, limit: limit)
            default:
                throw Malformed(reason: "a block of reserved type 3")
            }
            guard output.count <= limit else { throw Malformed(reason: "it inflates past \(limit) bytes") }
        }
        return Data(output)
    }

    /// A canonical Huffman code: symbols by code length, and how many codes each length has.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<16 { offsets[length] = offsets[length - 1] + counts[length - 1] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    private struct State {
        let input: [UInt8]
        var position = 0
        var bitBuffer = 0
        var bitCount = 0

        init(input: [UInt8]) { self.input = input }

        mutating func bits(_ count: Int) throws -> Int {
            while bitCount < count {
                guard position < input.count else { throw Malformed(reason: "it ends in the middle of a block") }
                bitBuffer |= Int(input[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let value = bitBuffer & ((1 << count) - 1)
            bitBuffer >>= count
            bitCount -= count
            return value
        }

        mutating func alignToByte() {
            bitBuffer = 0
            bitCount = 0
        }

        mutating func decode(_ code: Huffman) throws -> Int {
            var value = 0
            var first = 0
            var index = 0
            for length in 1..<16 {
                value |= try bits(1)
                let count = code.counts[length]
                if value - count < first { return code.symbols[index + (value - first)] }
                index += count
                first += count
                first <<= 1
                value <<= 1
            }
            throw Malformed(reason: "an invalid Huffman code")
        }
    }

    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385,
        24577,
    ]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// The fixed codes of block type 1.
    private static let fixedLiterals = Huffman(
        lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24)
            + [Int](repeating: 8, count: 8)
    )
    private static let fixedDistances = Huffman(lengths: [Int](repeating: 5, count: 30))

    private static func dynamicTables(_ state: inout State) throws -> (Huffman, Huffman) {
        let literalCount = try state.bits(5) + 257
        let distanceCount = try state.bits(5) + 1
        let codeCount = try state.bits(4) + 4
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeCount { codeLengths[order[index]] = try state.bits(3) }
        let lengthCode = Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try state.decode(lengthCode)
            switch symbol {
            case 0..<16:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw Malformed(reason: "a repeat with nothing to repeat") }
                lengths += [Int](repeating: previous, count: 3 + (try state.bits(2)))
            case 17:
                lengths += [Int](repeating: 0, count: 3 + (try state.bits(3)))
            default:
                lengths += [Int](repeating: 0, count: 11 + (try state.bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw Malformed(reason: "code lengths overrun their count") }
        return (Huffman(lengths: Array(lengths[0..<literalCount])), Huffman(lengths: Array(lengths[literalCount...])))
    }

    private static func inflateBlock(_ state: inout State, _ output: inout [UInt8], literals: Huffman, distances: Huffman, limit: Int) throws {
        while true {
            let symbol = try state.decode(literals)
            if symbol < 256 {
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < lengthBase.count else { throw Malformed(reason: "a length symbol \(symbol)") }
                let length = lengthBase[index] + (try state.bits(lengthExtra[index]))
                let distanceSymbol = try state.decode(distances)
                guard distanceSymbol < distanceBase.count else { throw Malformed(reason: "a distance symbol \(distanceSymbol)") }
                let distance = distanceBase[distanceSymbol] + (try state.bits(distanceExtra[distanceSymbol]))
                guard distance <= output.count else { throw Malformed(reason: "a distance before the start") }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
                guard output.count <= limit else { throw Malformed(reason: "it inflates past \(limit) bytes") }
            }
        }
    }
}
