/// Exact voxels already in memory and in Morton order (`pointpaint paint`'s weighted voxels), as
/// a chunk source: what `StoreFileWriter`, `PLYWriter` and `LASWriter` write from.
package final class StoredVoxelArray: VoxelChunkSource {
    /// The voxels' grid, policy, contents and provenance; counts, samples and bounds are those of
    /// `voxels`.
    package let info: StoreInfo
    private let voxels: [StoredVoxel]
    private var position = 0
    /// The current chunk: `chunkCapacity` voxels, owned, freed in `deinit` (the array's own
    /// storage may not be handed out past a closure).
    private let buffer = UnsafeMutablePointer<StoredVoxel>.allocate(capacity: StoredVoxelArray.chunkCapacity)

    /// Voxels a chunk.
    static let chunkCapacity = 8192

    /// Wraps `voxels`, whose codes must increase strictly; `info` gives the grid, policy,
    /// contents, provenance and refused count.
    package init(_ voxels: [StoredVoxel], info: StoreInfo) {
        precondition(zip(voxels, voxels.dropFirst()).allSatisfy { $0.code < $1.code }, "voxels out of Morton order")
        self.voxels = voxels
        var info = info
        info.voxelCount = voxels.count
        info.sampleCount = voxels.reduce(0) { $0 + Int($1.count) }
        info.keyBounds = voxels.first.map { first in
            voxels.dropFirst().reduce(into: StoreInfo.KeyBounds(first.key)) { $0.include($1.key) }
        }
        self.info = info
    }

    deinit { buffer.deallocate() }

    package func nextChunk() throws -> UnsafeBufferPointer<StoredVoxel>? {
        guard position < voxels.count else { return nil }
        let end = min(voxels.count, position + Self.chunkCapacity)
        for i in position ..< end { (buffer + (i - position)).initialize(to: voxels[i]) }
        defer { position = end }
        return UnsafeBufferPointer(start: buffer, count: end - position)
    }

    package func rewind() throws { position = 0 }
}
