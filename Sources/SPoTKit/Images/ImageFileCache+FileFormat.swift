import Flickr
import Foundation

extension ImageFileCache {
    /// The layout of one cache file: the image, then a trailer that lets a reader tell a whole,
    /// intact file for *this* key from anything else.
    ///
    /// ```
    /// image bytes | key bytes | key length | image length | checksum | magic
    ///                           (UInt64 LE)  (UInt64 LE)    (UInt64 LE) "SPoTImg1"
    /// ```
    ///
    /// - The lengths must add up to the file's size, so a truncated (or appended-to) file fails.
    /// - The checksum (FNV-1a 64 over key and image bytes) catches flipped bytes.
    /// - The key itself is stored, so two keys whose hashed file names collided can never be
    ///   served each other's image: the loser is refetched instead.
    ///
    /// The magic sits at the very end because a write torn short loses the end first.
    enum FileFormat {
        static let magic: [UInt8] = Array("SPoTImg1".utf8)
        /// Key length, image length, checksum and magic.
        static let fixedTrailerSize = 8 * 3 + 8

        /// The bytes that identify a key inside a file (and, hashed, name the file).
        static func keyBytes(_ key: ImageCacheKey) -> [UInt8] {
            // A photo id cannot hide the boundary: the separator is followed by the format's
            // suffix, which never contains one, and the trailer records the total length.
            var bytes = Array(key.photoID.utf8)
            bytes.append(0)
            bytes += key.format.suffix.utf8
            return bytes
        }

        /// The size on disk of `imageSize` bytes stored under `key`.
        static func fileSize(imageSize: Int, key: ImageCacheKey) -> Int {
            imageSize + keyBytes(key).count + fixedTrailerSize
        }

        /// The whole file for `image` under `key`.
        static func encode(_ image: [UInt8], key: ImageCacheKey) -> Data {
            let keyBytes = keyBytes(key)
            var data = Data(capacity: image.count + keyBytes.count + fixedTrailerSize)
            data.append(contentsOf: image)
            data.append(contentsOf: keyBytes)
            let checksum = FNV1a64.hash(keyBytes, seed: FNV1a64.hash(image))
            for value in [UInt64(keyBytes.count), UInt64(image.count), checksum] {
                withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
            }
            data.append(contentsOf: magic)
            return data
        }

        /// The image in `file` if it is a whole, intact file for `key`, else `nil`.
        static func decode(_ file: Data, key: ImageCacheKey) -> [UInt8]? {
            guard let lengths = trailerLengths(file.suffix(fixedTrailerSize), fileSize: file.count) else { return nil }
            let keyBytes = keyBytes(key)
            guard lengths.key == keyBytes.count else { return nil }
            let imageEnd = file.startIndex + lengths.image
            let image = [UInt8](file[file.startIndex..<imageEnd])
            guard file[imageEnd..<(imageEnd + keyBytes.count)].elementsEqual(keyBytes) else { return nil }
            let stored = readUInt64(file, at: file.endIndex - magic.count - 8)
            guard stored == FNV1a64.hash(keyBytes, seed: FNV1a64.hash(image)) else { return nil }
            return image
        }

        /// The key and image lengths a file's `trailer` (its last ``fixedTrailerSize`` bytes)
        /// records, or `nil` if the trailer is missing or its lengths do not add up to
        /// `fileSize`.
        ///
        /// This is the cheap check: it needs only the trailer, not the checksum over the image,
        /// so a reopened cache can index a large directory quickly. Reads do the full check.
        static func trailerLengths(_ trailer: Data, fileSize: Int) -> (key: Int, image: Int)? {
            guard fileSize >= fixedTrailerSize, trailer.count == fixedTrailerSize,
                trailer.suffix(magic.count).elementsEqual(magic)
            else { return nil }
            let keyLength = readUInt64(trailer, at: trailer.startIndex)
            let imageLength = readUInt64(trailer, at: trailer.startIndex + 8)
            // Compare without adding first: a damaged trailer may hold huge lengths.
            let room = UInt64(fileSize - fixedTrailerSize)
            guard keyLength <= room, imageLength == room - keyLength else { return nil }
            return (Int(keyLength), Int(imageLength))
        }

        private static func readUInt64(_ data: Data, at offset: Data.Index) -> UInt64 {
            data[offset..<(offset + 8)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
