/// Saving a store as a `.ppstore` file and reading one back as a cloud.
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
}

extension StoreFileReader {
    /// Every voxel of the file as a cloud in Morton order: centres, gamma-encoded extended sRGB
    /// colours and counts, as `SceneStore.canonicalCloud()` gives them for the same voxels.
    ///
    /// - Complexity: O(voxels); the cloud in memory (36 bytes a voxel), one chunk of the file at a time.
    public func cloud() throws -> VoxelCloud { try readCloud() }
}
