import Foundation
@testable import PointPaint

/// Stores and store files for the store tests.
enum StoreFixtures {
    /// A store fed `frames` frames of `perFrame` samples each, spread over a cube of `extent`
    /// metres at voxel size 0.02 (wide colours included).
    static func store(policy: AccumulationPolicy = .mean, frames: Range<Int> = 0 ..< 4, perFrame: Int = 3000, extent: Float = 2,
                      seed: UInt64 = 1) -> SceneStore {
        var store = SceneStore(voxelSize: 0.02, policy: policy)
        for f in frames {
            let (points, colors) = samples(frame: f, count: perFrame, extent: extent, seed: seed)
            store.add(points: points, colors: colors, frame: f)
        }
        return store
    }

    /// The samples of frame `frame` (the same for any split of the frames).
    static func samples(frame: Int, count: Int, extent: Float, seed: UInt64) -> (points: [SIMD3<Float>], colors: [SIMD3<Float>]) {
        var state = seed &+ UInt64(frame) &* 0x9E37_79B9_7F4A_7C15
        func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24)
        }
        let points = (0 ..< count).map { _ in (SIMD3(next(), next(), next()) - 0.5) * extent }
        let colors = (0 ..< count).map { _ in SIMD3(next(), next(), next()) * 1.3 - 0.1 }
        return (points, colors)
    }

    /// Every voxel a source gives, in order.
    static func voxels(_ source: some VoxelChunkSource) throws -> [StoredVoxel] {
        try source.rewind()
        var out: [StoredVoxel] = []
        while let chunk = try source.nextChunk() { out.append(contentsOf: chunk) }
        return out
    }

    /// The bytes of a file.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes `bytes` to `path`.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// `bytes` with the header's checksum made right again after an edit.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        let headerBytes = Int(b[12]) | Int(b[13]) << 8 | Int(b[14]) << 16 | Int(b[15]) << 24
        let crc = b.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[..<(headerBytes - 4)])) }
        for i in 0 ..< 4 { b[headerBytes - 4 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        return b
    }

    /// Reads a whole store file, every chunk.
    static func readAll(_ path: String) throws -> [StoredVoxel] {
        try voxels(StoreFileReader(path: path))
    }
}
