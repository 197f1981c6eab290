@testable import PointPaint

/// Scene store files (`.ppstore`), from a file: the header and chunk index, then every chunk in
/// order. The CRC-32C of the header, of each chunk and of the index are recomputed first (as the
/// PNG harnesses fix chunk CRCs), so mutations reach the checks behind them.
enum StoreHarness: FuzzHarness {
    static let name = "store"

    static func fuzz(_ bytes: [UInt8]) throws {
        let reader = try StoreFileReader(path: Fuzz.write(fixingChecksums(bytes), to: "scene.ppstore"))
        var voxels = 0
        var last: UInt64?
        while let chunk = try reader.nextChunk() {
            for v in chunk {
                if let last { Fuzz.require(v.code > last, "codes out of order") }
                last = v.code
            }
            voxels += chunk.count
        }
        Fuzz.require(voxels == reader.info.voxelCount, "\(voxels) voxels read of \(reader.info.voxelCount)")
    }
}

extension StoreHarness {
    /// `bytes` with every checksum the layout in `StoreFileFormat` names recomputed, as far as
    /// the lengths it finds lie inside the bytes.
    static func fixingChecksums(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= out.count else { return nil }
            return Int(out[at]) | Int(out[at + 1]) << 8 | Int(out[at + 2]) << 16 | Int(out[at + 3]) << 24
        }
        func u64(_ at: Int) -> Int? {
            guard let low = u32(at), let high = u32(at + 4), high < 1 << 30 else { return nil }
            return low | high << 32
        }
        func put(_ crc: UInt32, at: Int) {
            for k in 0 ..< 4 { out[at + k] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k))) }
        }
        func checksum(_ range: Range<Int>) -> UInt32 {
            out[range].withUnsafeBytes { CRC32C.checksum($0) }
        }
        guard let headerBytes = u32(12), headerBytes >= 4, headerBytes <= out.count else { return out }
        put(checksum(0 ..< headerBytes - 4), at: headerBytes - 4)
        let indexOffset = u64(64) ?? out.count
        var at = headerBytes
        while at + 32 <= min(indexOffset, out.count), u32(at) == 0x4B43_5050, let n = u32(at + 4) {
            let end = at + 32 + n * 44
            guard end <= out.count else { break }
            put(checksum(at + 32 ..< end), at: at + 24)
            put(checksum(at ..< at + 28), at: at + 28)
            at = end
        }
        if let chunks = u64(indexOffset + 8), chunks < 1 << 20 {
            let end = indexOffset + 16 + 32 * chunks
            if end + 4 <= out.count { put(checksum(indexOffset ..< end), at: end) }
        }
        return out
    }
}
