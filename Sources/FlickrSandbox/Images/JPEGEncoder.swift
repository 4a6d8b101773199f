import Foundation

/// A baseline (sequential, Huffman-coded, 8-bit) JFIF encoder: the one JPEG flavour every
/// browser and image library decodes.
///
/// It uses the Annex K tables, libjpeg's quality scaling and the AAN floating-point DCT
/// (libjpeg's `jfdctflt`), with the DCT's output scaling folded into the quantiser divisors.
///
/// The hot loops are written with `while`, raw pointers and no generic helpers (`min`, `abs`,
/// `for … in`), because unoptimised debug builds do not specialise generics: written the idiomatic
/// way, a debug build encodes several times slower, and the sandbox's tests run in debug.
enum JPEGEncoder {
    /// JFIF bytes for `canvas`. With `subsampleChroma` the colour planes are stored at half
    /// resolution (4:2:0, like cameras do); otherwise at full resolution (4:4:4).
    static func encode(_ canvas: PostcardCanvas, quality: Int, subsampleChroma: Bool) -> [UInt8] {
        let width = canvas.width
        let height = canvas.height
        let lumaTable = JPEGTables.scaled(JPEGTables.luminanceQuantization, quality: quality)
        let chromaTable = JPEGTables.scaled(JPEGTables.chrominanceQuantization, quality: quality)
        var out: [UInt8] = []
        out.reserveCapacity(width * height / 4 + 1024)
        writeHeaders(into: &out, width: width, height: height, luma: lumaTable, chroma: chromaTable, subsample: subsampleChroma)

        let planes = Planes(canvas, factor: subsampleChroma ? 2 : 1)
        defer { planes.deallocate() }
        let lumaDivisors = divisors(lumaTable)
        let chromaDivisors = divisors(chromaTable)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        let coefficients = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        let zigZag = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        zigZag.initialize(from: JPEGTables.zigZag, count: 64)
        defer {
            lumaDivisors.deallocate()
            chromaDivisors.deallocate()
            scratch.deallocate()
            coefficients.deallocate()
            zigZag.deallocate()
        }
        let lumaCoder = BlockCoder(
            divisors: lumaDivisors,
            dc: HuffmanCode(JPEGTables.luminanceDCCounts, JPEGTables.luminanceDCSymbols),
            ac: HuffmanCode(JPEGTables.luminanceACCounts, JPEGTables.luminanceACSymbols),
            block: scratch,
            coefficients: coefficients,
            zigZag: zigZag
        )
        let chromaCoder = BlockCoder(
            divisors: chromaDivisors,
            dc: HuffmanCode(JPEGTables.chrominanceDCCounts, JPEGTables.chrominanceDCSymbols),
            ac: HuffmanCode(JPEGTables.chrominanceACCounts, JPEGTables.chrominanceACSymbols),
            block: scratch,
            coefficients: coefficients,
            zigZag: zigZag
        )

        var writer = BitWriter(output: out)
        var dc = (y: 0, cb: 0, cr: 0)
        let factor = planes.factor
        let mcu = 8 * factor
        var my = 0
        while my < planes.mcusDown {
            var mx = 0
            while mx < planes.mcusAcross {
                var by = 0
                while by < factor {
                    var bx = 0
                    while bx < factor {
                        let origin = planes.luma + (my * mcu + by * 8) * planes.lumaWidth + mx * mcu + bx * 8
                        lumaCoder.encode(origin, stride: planes.lumaWidth, previousDC: &dc.y, into: &writer)
                        bx += 1
                    }
                    by += 1
                }
                let offset = my * 8 * planes.chromaWidth + mx * 8
                chromaCoder.encode(planes.cb + offset, stride: planes.chromaWidth, previousDC: &dc.cb, into: &writer)
                chromaCoder.encode(planes.cr + offset, stride: planes.chromaWidth, previousDC: &dc.cr, into: &writer)
                mx += 1
            }
            my += 1
        }
        writer.flush()
        out = writer.output
        out += [0xFF, 0xD9]  // EOI
        return out
    }

    /// SOI, JFIF APP0, DQT, SOF0, DHT and SOS: everything before the entropy-coded data.
    private static func writeHeaders(into out: inout [UInt8], width: Int, height: Int, luma: [Int], chroma: [Int], subsample: Bool) {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        out += [0xFF, 0xD8]  // SOI
        out += [0xFF, 0xE0] + u16(16) + Array("JFIF".utf8) + [0, 1, 1, 0] + u16(1) + u16(1) + [0, 0]
        out += [0xFF, 0xDB] + u16(2 + 2 * 65)
        out.append(0x00)
        out += JPEGTables.zigZag.map { UInt8(luma[$0]) }
        out.append(0x01)
        out += JPEGTables.zigZag.map { UInt8(chroma[$0]) }
        // SOF0: 8-bit samples, three components; luma sampled 2×2 (or 1×1) relative to chroma.
        out += [0xFF, 0xC0] + u16(17) + [8] + u16(height) + u16(width) + [3]
        out += [1, subsample ? 0x22 : 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]
        let tables: [(UInt8, [UInt8], [UInt8])] = [
            (0x00, JPEGTables.luminanceDCCounts, JPEGTables.luminanceDCSymbols),
            (0x10, JPEGTables.luminanceACCounts, JPEGTables.luminanceACSymbols),
            (0x01, JPEGTables.chrominanceDCCounts, JPEGTables.chrominanceDCSymbols),
            (0x11, JPEGTables.chrominanceACCounts, JPEGTables.chrominanceACSymbols),
        ]
        out += [0xFF, 0xC4] + u16(2 + tables.reduce(0) { $0 + 17 + $1.2.count })
        for (id, counts, symbols) in tables {
            out.append(id)
            out += counts
            out += symbols
        }
        out += [0xFF, 0xDA] + u16(12) + [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]
    }

    /// Per-coefficient multipliers (natural order) that undo the AAN DCT's scaling and quantise.
    /// The caller owns (and deallocates) the 64 values.
    private static func divisors(_ table: [Int]) -> UnsafeMutablePointer<Float> {
        let aan: [Float] = [1.0, 1.387039845, 1.306562965, 1.175875602, 1.0, 0.785694958, 0.541196100, 0.275899379]
        let result = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        for i in 0..<64 {
            (result + i).initialize(to: 1 / (Float(table[i]) * aan[i / 8] * aan[i % 8] * 8))
        }
        return result
    }
}

extension JPEGEncoder {
    /// The image as level-shifted Y, Cb and Cr planes padded to whole MCUs.
    ///
    /// Padding repeats the last row and column: a constant fill would ring visibly along the
    /// right and bottom edges after compression.
    struct Planes {
        /// 1 for 4:4:4, 2 for 4:2:0.
        let factor: Int
        /// MCU columns.
        let mcusAcross: Int
        /// MCU rows.
        let mcusDown: Int
        /// Row length of `luma`.
        let lumaWidth: Int
        /// Row length of `cb` and `cr`.
        let chromaWidth: Int
        /// Luma, minus 128.
        let luma: UnsafeMutablePointer<Float>
        /// Blue-difference chroma, centred on 0.
        let cb: UnsafeMutablePointer<Float>
        /// Red-difference chroma, centred on 0.
        let cr: UnsafeMutablePointer<Float>

        /// Converts `canvas` (JFIF's YCbCr) and subsamples chroma by `factor`.
        init(_ canvas: PostcardCanvas, factor: Int) {
            let width = canvas.width
            let height = canvas.height
            self.factor = factor
            let mcu = 8 * factor
            mcusAcross = (width + mcu - 1) / mcu
            mcusDown = (height + mcu - 1) / mcu
            let paddedWidth = mcusAcross * mcu
            let paddedHeight = mcusDown * mcu
            lumaWidth = paddedWidth
            chromaWidth = paddedWidth / factor
            let count = paddedWidth * paddedHeight
            luma = .allocate(capacity: count)
            let fullCb = UnsafeMutablePointer<Float>.allocate(capacity: count)
            let fullCr = UnsafeMutablePointer<Float>.allocate(capacity: count)
            let rgb = canvas.pixels
            var y = 0
            while y < height {
                let row = y * paddedWidth
                var x = 0
                var i = y * width * 3
                while x < width {
                    // Via Int: Float(UInt8) is the generic initialiser, slow in debug builds.
                    let r = Float(Int(rgb[i]))
                    let g = Float(Int(rgb[i + 1]))
                    let b = Float(Int(rgb[i + 2]))
                    luma[row + x] = 0.299 * r + 0.587 * g + 0.114 * b - 128
                    fullCb[row + x] = -0.168736 * r - 0.331264 * g + 0.5 * b
                    fullCr[row + x] = 0.5 * r - 0.418688 * g - 0.081312 * b
                    x += 1
                    i += 3
                }
                while x < paddedWidth {
                    luma[row + x] = luma[row + width - 1]
                    fullCb[row + x] = fullCb[row + width - 1]
                    fullCr[row + x] = fullCr[row + width - 1]
                    x += 1
                }
                y += 1
            }
            while y < paddedHeight {
                let last = (height - 1) * paddedWidth
                (luma + y * paddedWidth).update(from: luma + last, count: paddedWidth)
                (fullCb + y * paddedWidth).update(from: fullCb + last, count: paddedWidth)
                (fullCr + y * paddedWidth).update(from: fullCr + last, count: paddedWidth)
                y += 1
            }
            if factor == 1 {
                cb = fullCb
                cr = fullCr
                return
            }
            let chromaHeight = paddedHeight / 2
            cb = .allocate(capacity: chromaWidth * chromaHeight)
            cr = .allocate(capacity: chromaWidth * chromaHeight)
            var cy = 0
            while cy < chromaHeight {
                var cx = 0
                let top = 2 * cy * paddedWidth
                let bottom = top + paddedWidth
                while cx < chromaWidth {
                    let a = top + 2 * cx
                    let b = bottom + 2 * cx
                    cb[cy * chromaWidth + cx] = (fullCb[a] + fullCb[a + 1] + fullCb[b] + fullCb[b + 1]) * 0.25
                    cr[cy * chromaWidth + cx] = (fullCr[a] + fullCr[a + 1] + fullCr[b] + fullCr[b + 1]) * 0.25
                    cx += 1
                }
                cy += 1
            }
            fullCb.deallocate()
            fullCr.deallocate()
        }

        /// Frees the planes.
        func deallocate() {
            luma.deallocate()
            cb.deallocate()
            cr.deallocate()
        }
    }

    /// Transforms, quantises and Huffman-codes 8×8 blocks of one kind of plane.
    struct BlockCoder {
        /// Quantiser multipliers, natural order.
        let divisors: UnsafeMutablePointer<Float>
        /// The DC difference code.
        let dc: HuffmanCode
        /// The AC run/size code.
        let ac: HuffmanCode
        /// 64 samples, transformed in place.
        let block: UnsafeMutablePointer<Float>
        /// Quantised coefficients in zig-zag order.
        let coefficients: UnsafeMutablePointer<Int>
        /// ``JPEGTables/zigZag``, copied out of its array.
        let zigZag: UnsafeMutablePointer<Int>

        /// Codes the block whose top-left sample is `origin` in a plane `stride` samples wide.
        func encode(_ origin: UnsafeMutablePointer<Float>, stride: Int, previousDC: inout Int, into writer: inout BitWriter) {
            var row = 0
            while row < 8 {
                (block + row * 8).update(from: origin + row * stride, count: 8)
                JPEGEncoder.forwardDCT(block + row * 8, step: 1)
                row += 1
            }
            var column = 0
            while column < 8 {
                JPEGEncoder.forwardDCT(block + column, step: 8)
                column += 1
            }
            var k = 0
            while k < 64 {
                let n = zigZag[k]
                let v = block[n] * divisors[n]
                coefficients[k] = Int(v < 0 ? v - 0.5 : v + 0.5)
                k += 1
            }

            let diff = coefficients[0] - previousDC
            previousDC = coefficients[0]
            let dcSize = JPEGEncoder.bitLength(diff)
            writer.write(dc.codes[dcSize], count: dc.lengths[dcSize])
            if dcSize > 0 { writer.write(JPEGEncoder.magnitudeBits(diff, dcSize), count: dcSize) }

            var run = 0
            k = 1
            while k < 64 {
                let value = coefficients[k]
                k += 1
                if value == 0 {
                    run += 1
                    continue
                }
                while run > 15 {
                    writer.write(ac.codes[0xF0], count: ac.lengths[0xF0])  // ZRL: sixteen zeros
                    run -= 16
                }
                let size = JPEGEncoder.bitLength(value)
                let symbol = run << 4 | size
                writer.write(ac.codes[symbol], count: ac.lengths[symbol])
                writer.write(JPEGEncoder.magnitudeBits(value, size), count: size)
                run = 0
            }
            if run > 0 { writer.write(ac.codes[0], count: ac.lengths[0]) }  // EOB
        }
    }

    /// One pass of the AAN 8-point forward DCT over eight values `s` apart, in place.
    static func forwardDCT(_ p: UnsafeMutablePointer<Float>, step s: Int) {
        let tmp0 = p[0] + p[7 * s]
        let tmp7 = p[0] - p[7 * s]
        let tmp1 = p[s] + p[6 * s]
        let tmp6 = p[s] - p[6 * s]
        let tmp2 = p[2 * s] + p[5 * s]
        let tmp5 = p[2 * s] - p[5 * s]
        let tmp3 = p[3 * s] + p[4 * s]
        let tmp4 = p[3 * s] - p[4 * s]

        let tmp10 = tmp0 + tmp3
        let tmp13 = tmp0 - tmp3
        let tmp11 = tmp1 + tmp2
        let tmp12 = tmp1 - tmp2
        p[0] = tmp10 + tmp11
        p[4 * s] = tmp10 - tmp11
        let z1 = (tmp12 + tmp13) * 0.707106781
        p[2 * s] = tmp13 + z1
        p[6 * s] = tmp13 - z1

        let odd10 = tmp4 + tmp5
        let odd11 = tmp5 + tmp6
        let odd12 = tmp6 + tmp7
        let z5 = (odd10 - odd12) * 0.382683433
        let z2 = 0.541196100 * odd10 + z5
        let z4 = 1.306562965 * odd12 + z5
        let z3 = odd11 * 0.707106781
        let z11 = tmp7 + z3
        let z13 = tmp7 - z3
        p[5 * s] = z13 + z2
        p[3 * s] = z13 - z2
        p[s] = z11 + z4
        p[7 * s] = z11 - z4
    }

    /// JPEG's magnitude category: the number of bits in |value|.
    static func bitLength(_ value: Int) -> Int {
        value == 0 ? 0 : Int.bitWidth - (value < 0 ? -value : value).leadingZeroBitCount
    }

    /// The `size` low bits JPEG appends after a category: the value, or its one's complement if negative.
    static func magnitudeBits(_ value: Int, _ size: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: value < 0 ? value - 1 : value) & ((1 << UInt32(size)) - 1)
    }

    /// A canonical Huffman code built from a DHT-style (counts, symbols) description (Annex C).
    final class HuffmanCode {
        /// Code bits per symbol value.
        let codes: UnsafeMutablePointer<UInt32>
        /// Code length per symbol value; 0 for symbols the table cannot encode.
        let lengths: UnsafeMutablePointer<Int>

        /// Assigns codes in order of length, exactly as a decoder reading the same DHT segment will.
        init(_ counts: [UInt8], _ symbols: [UInt8]) {
            codes = .allocate(capacity: 256)
            codes.initialize(repeating: 0, count: 256)
            lengths = .allocate(capacity: 256)
            lengths.initialize(repeating: 0, count: 256)
            var code: UInt32 = 0
            var index = 0
            for length in 1...16 {
                for _ in 0..<Int(counts[length - 1]) {
                    codes[Int(symbols[index])] = code
                    lengths[Int(symbols[index])] = length
                    code += 1
                    index += 1
                }
                code <<= 1
            }
        }

        deinit {
            codes.deallocate()
            lengths.deallocate()
        }
    }

    /// Packs variable-length codes into bytes, stuffing a zero after every 0xFF as JPEG requires.
    struct BitWriter {
        /// Bytes written so far (headers included).
        private(set) var output: [UInt8]
        /// Pending bits, right-aligned.
        private var buffer: UInt64 = 0
        /// How many of `buffer`'s low bits are pending.
        private var pending = 0

        /// A writer appending to `output`.
        init(output: [UInt8]) {
            self.output = output
        }

        /// Appends the `count` low bits of `bits`, most significant first.
        mutating func write(_ bits: UInt32, count: Int) {
            buffer = buffer << UInt64(count) | UInt64(bits)
            pending += count
            while pending >= 8 {
                pending -= 8
                let byte = UInt8(truncatingIfNeeded: buffer >> UInt64(pending))
                output.append(byte)
                if byte == 0xFF { output.append(0x00) }
            }
        }

        /// Pads the last partial byte with one-bits (so it cannot look like a marker) and emits it.
        mutating func flush() {
            if pending > 0 { write((1 << UInt32(8 - pending)) - 1, count: 8 - pending) }
        }
    }
}
