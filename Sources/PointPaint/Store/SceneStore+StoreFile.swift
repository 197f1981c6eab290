/// Saving a store as a `.ppstore`, PLY or LAS file, and reading a store file back.
extension SceneStore {
    /// Writes the store to `path` as a `.ppstore` file (Morton order, checksummed chunks,
    /// atomically), described as coming from `provenance`.
    ///
    /// - Complexity: O(count): a sort, then one streaming pass.
    /// - Returns: the header as written.
    @discardableResult
    public func writeStore(to path: String, provenance: StoreProvenance) throws -> StoreInfo {
        try StoreFileWriter.write(sortedVoxels(provenance: provenance), to: path)
    }

    /// Writes the store's voxels to `path` as PLY in Morton order with `writer`'s encoding,
    /// geometry and float colours; the header names `provenance`'s source and says what it
    /// replayed (`StoreInfo.plyComments`), then `writer`'s own comments.
    ///
    /// - Complexity: O(count): a sort, then one streaming pass.
    public func writePLY(to path: String, provenance: StoreProvenance, writer: PLYWriter = PLYWriter()) throws {
        try sortedVoxels(provenance: provenance).writePLY(to: path, writer: writer)
    }

    /// Writes the store's voxels to `path` as LAS 1.4, point format 7 (`LASWriter`), in Morton
    /// order, with `provenance`'s source and comments in PointPaint's records.
    ///
    /// - Complexity: O(count): a sort, then one streaming pass.
    public func writeLAS(to path: String, provenance: StoreProvenance) throws {
        try sortedVoxels(provenance: provenance).writeLAS(to: path)
    }
}

extension StoreFileReader {
    /// Every voxel of the file as a cloud in Morton order: centres, gamma-encoded extended sRGB
    /// colours and counts, as `SceneStore.canonicalCloud()` gives them for the same voxels.
    ///
    /// - Complexity: O(voxels); the cloud in memory (36 bytes a voxel), one chunk of the file at a time.
    public func cloud() throws -> VoxelCloud { try readCloud() }

    /// Reads every chunk, checking checksums, order and counts; returns the number of voxels.
    ///
    /// - Complexity: O(file size), one chunk in memory at a time.
    @discardableResult
    public func verify() throws -> Int {
        try rewind()
        var voxels = 0
        while let chunk = try nextChunk() { voxels += chunk.count }
        return voxels
    }

    /// Writes the file's voxels as PLY (see `SceneStore.writePLY(to:provenance:writer:)`).
    public func writePLY(to path: String, writer: PLYWriter = PLYWriter()) throws {
        try (self as any VoxelChunkSource).writePLY(to: path, writer: writer)
    }

    /// Writes the file's voxels as LAS (see `SceneStore.writeLAS(to:provenance:)`).
    public func writeLAS(to path: String) throws {
        try (self as any VoxelChunkSource).writeLAS(to: path)
    }
}

extension VoxelChunkSource {
    /// Writes the voxels as PLY with `writer`'s options, the header's source and comments from
    /// the source's provenance first.
    package func writePLY(to path: String, writer: PLYWriter = PLYWriter()) throws {
        var w = writer
        w.source = info.provenance.source ?? writer.source
        w.comments = info.plyComments + writer.comments
        try w.write(self, to: path)
    }

    /// Writes the voxels as LAS with the source's provenance comments.
    package func writeLAS(to path: String) throws {
        try LASWriter(comments: info.plyComments).write(self, to: path)
    }
}
