import ArgumentParser
import PointPaint

/// Writing a store's voxels (`replay`, `voxelize`, `merge`) as the file `-o` names: every cloud
/// is written from the exact voxels in Morton order, so the same samples give the same bytes
/// however the work was split.
extension PLYOutputOptions {
    /// Writes `source` to `path` as PLY, with the source and comments its provenance gives.
    func write(_ source: some VoxelChunkSource, to path: String) throws {
        var writer = writer(source: source.info.provenance.source)
        writer.comments = source.info.plyComments
        try writer.write(source, to: path)
    }
}
