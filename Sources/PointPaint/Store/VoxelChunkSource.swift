import Foundation

/// Exact voxels in Morton order, chunk by chunk: a store in memory (`SceneStore.sortedVoxels()`),
/// a store file (`StoreFileReader`) or a merge. Every cloud file is written from one of these
/// (`PLYWriter.write(_:to:)` for sources, `LASWriter`, `StoreFileWriter`), so the same voxels give
/// the same bytes whichever kind of source they come from.
package protocol VoxelChunkSource: AnyObject {
    /// The header of what is read: grid, policy, counts and provenance.
    var info: StoreInfo { get }

    /// The next chunk of voxels (codes strictly increasing across chunks), or nil after the last.
    /// The buffer is valid until the next call.
    func nextChunk() throws -> UnsafeBufferPointer<StoredVoxel>?

    /// Goes back to the first chunk.
    func rewind() throws
}

extension VoxelChunkSource {
    /// Every voxel, in order, as one cloud: centres, gamma-encoded extended sRGB colours and
    /// counts (`VoxelCloud`), as `SceneStore.canonicalCloud()` gives them; and each voxel's
    /// colour spread (`VoxelCloud.colourSD`) when the store keeps it.
    ///
    /// - Complexity: O(voxels); the whole cloud in memory (36 bytes a voxel).
    package func readCloud() throws -> VoxelCloud {
        try rewind()
        let info = info
        var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = [], counts: [UInt32] = []
        let spread = info.contents.contains(.spread)
        var spreads: [Float] = []
        positions.reserveCapacity(info.voxelCount)
        colors.reserveCapacity(info.voxelCount)
        counts.reserveCapacity(info.voxelCount)
        if spread { spreads.reserveCapacity(info.voxelCount) }
        var chunk = CloudChunk()
        while let voxels = try nextChunk() {
            chunk.fill(from: voxels, voxelSize: info.voxelSize, policy: info.policy)
            positions.append(contentsOf: chunk.positions)
            colors.append(contentsOf: chunk.colors)
            counts.append(contentsOf: voxels.lazy.map(\.count))
            if spread { spreads.append(contentsOf: voxels.lazy.map(\.colourSD)) }
        }
        return VoxelCloud(voxelSize: info.voxelSize, origin: info.origin, positions: positions, colors: colors, counts: counts,
                          colourSD: spread ? spreads : nil)
    }
}

/// One chunk of exact voxels converted for a cloud file: centres and gamma-encoded extended sRGB
/// colours. The buffers are reused from chunk to chunk.
package struct CloudChunk {
    /// Voxel centres.
    package private(set) var positions: [SIMD3<Float>] = []
    /// Gamma-encoded extended sRGB colours (`SRGBTransfer.encode`, unclamped).
    package private(set) var colors: [SIMD3<Float>] = []

    /// An empty chunk.
    package init() {}

    /// Chunks of at least this many voxels convert their colours on every core.
    static let parallelThreshold = 4096

    /// Converts `voxels`: each centre from its key, each colour from its accumulator
    /// (`StoredVoxel.color`) through the sRGB curve, exactly as `SceneStore.cloud()` does.
    ///
    /// - Complexity: O(voxels.count); three `pow` a voxel, spread over the cores for large chunks.
    package mutating func fill(from voxels: UnsafeBufferPointer<StoredVoxel>, voxelSize: Float, policy: AccumulationPolicy) {
        let n = voxels.count
        if positions.count != n {
            positions = [SIMD3<Float>](repeating: .zero, count: n)
            colors = [SIMD3<Float>](repeating: .zero, count: n)
        }
        guard n > 0 else { return }
        positions.withUnsafeMutableBufferPointer { p in
            colors.withUnsafeMutableBufferPointer { c in
                let out = (SendablePointer(p.baseAddress!), SendablePointer(c.baseAddress!))
                let input = SendablePointer(UnsafeMutablePointer(mutating: voxels.baseAddress!))
                let bands = n < CloudChunk.parallelThreshold ? 1 : ProcessInfo.processInfo.activeProcessorCount
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    for i in n * band / bands ..< n * (band + 1) / bands {
                        let v = input.base[i]
                        out.0.base[i] = VoxelKey(packed: VoxelKey.packed(mortonCode: v.code)).center(voxelSize: voxelSize)
                        out.1.base[i] = SceneStore.encode(v.color(policy))
                    }
                }
            }
        }
    }
}
