import Foundation

extension LZFSE {
    /// The largest raw block `encodeRaw` writes unless told otherwise: the format's size field is
    /// 32 bits; 16 MiB keeps a block well inside it.
    package static let defaultRawBlockSize = 16 << 20

    /// `bytes` as a valid LZFSE stream that does not compress: raw blocks (`bvx-`, the decoded
    /// size as a little-endian `UInt32`, then the bytes as they are) of at most `blockSize` bytes
    /// each, and the end-of-stream block `bvx$`. Any LZFSE decoder, Apple's included, decodes it
    /// to `bytes`. The synthesizer writes Record3D's depth and confidence maps with it (PointPaint
    /// has no LZFSE compressor).
    /// - Complexity: O(`bytes.count`).
    package static func encodeRaw(_ bytes: some ContiguousBytes, blockSize: Int = defaultRawBlockSize) -> [UInt8] {
        precondition(blockSize > 0 && blockSize <= Int(UInt32.max), "a raw block holds 1 to 2³² − 1 bytes")
        return bytes.withUnsafeBytes { input in
            let blocks = (input.count + blockSize - 1) / blockSize
            var out: [UInt8] = []
            out.reserveCapacity(input.count + 8 * blocks + 4)
            func append(_ word: UInt32) { withUnsafeBytes(of: word.littleEndian) { out += $0 } }
            var start = 0
            while start < input.count {
                let count = min(blockSize, input.count - start)
                append(Magic.raw)
                append(UInt32(count))
                out += input[start ..< start + count]
                start += count
            }
            append(Magic.endOfStream)
            return out
        }
    }
}
