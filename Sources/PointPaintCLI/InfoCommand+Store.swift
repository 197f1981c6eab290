import PointPaint

/// The store part of `pointpaint info`: the header, the bounds, and a check of every chunk. The
/// header's text (the source, the grade) shows its control and invisible characters spelled out.
func storeReport(path: String) throws -> String {
    let reader = try StoreFileReader(path: path)
    // Read every chunk: checksums, order and counts.
    try reader.verify()
    let info = reader.info
    let p = info.provenance
    func f(_ v: SIMD3<Double>) -> String { PointPaintError.tuple(v) }
    var lines = ["\(path): PointPaint store, \(info.voxelCount) voxel\(info.voxelCount == 1 ? "" : "s") in \(reader.chunkCount) chunk\(reader.chunkCount == 1 ? "" : "s"), \(reader.byteCount) bytes"]
    lines.append("  voxel size: \(info.voxelSize)")
    lines.append("  accumulation: \(info.policy.rawValue)" + (info.contents.isEmpty ? "" : ", voxels keep \(info.contents)"))
    lines.append("  colour space: \(info.colorSpace)")
    lines.append("  samples: \(info.sampleCount)" + (info.rejectedCount > 0 ? " (\(info.rejectedCount) refused)" : ""))
    let what = p.kind == .replay ? "replay of \(p.frameCount) frame\(p.frameCount == 1 ? "" : "s")" : "voxelised points"
    lines.append("  from: \(what)" + (p.source.map { " of \(PointPaintError.quote($0, limit: 200))" } ?? ""))
    lines.append("  grade: " + (p.grade ?? "none"))
    if let bounds = info.keyBounds {
        let centres = bounds.centers(voxelSize: info.voxelSize)
        func cell(_ v: SIMD3<Int32>) -> String { "[\(v.x) \(v.y) \(v.z)]" }
        lines.append("  cells: \(cell(bounds.min)) … \(cell(bounds.max))")
        if info.origin != .zero { lines.append("  origin: \(f(info.origin)) (cells and offsets are measured from it)") }
        let world = (info.origin + SIMD3<Double>(centres.min), info.origin + SIMD3<Double>(centres.max))
        lines.append("  bounds (voxel centres): min \(f(world.0)) max \(f(world.1))")
    } else {
        lines.append("  bounds: none (no voxels)")
    }
    lines.append("  checksums: \(reader.chunkCount) chunk\(reader.chunkCount == 1 ? "" : "s") verified")
    return PointPaintError.escapingInvisible(lines: lines)
}
