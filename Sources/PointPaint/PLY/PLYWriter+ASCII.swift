/// The ascii form of cloud files: one vertex a line, then one face a line for boxes.
extension PLYWriter {
    /// The whole file: `header`, then the vertices (8 a voxel for boxes, each with the voxel's
    /// colour) and, for boxes, the quads.
    ///
    /// - Complexity: O(cloud.count).
    static func asciiCloud(_ cloud: VoxelCloud, header: String, wide: Bool, boxes: Bool, positions: PositionLayout) -> [UInt8] {
        var out = Array(header.utf8)
        out.reserveCapacity(out.count + cloud.count * (boxes ? 8 * 40 + 6 * 40 : 40))
        asciiVertices(positions: cloud.positions, colors: cloud.colors, voxelSize: cloud.voxelSize, wide: wide, boxes: boxes,
                      layout: positions, into: &out)
        if boxes { asciiFaces(voxels: 0 ..< cloud.count, into: &out) }
        return out
    }

    /// The vertex lines of voxels at `positions` with `colors`: one a voxel, or 8 corners of an
    /// edge of `voxelSize` for boxes; each position written as `layout` says.
    static func asciiVertices(positions: [SIMD3<Float>], colors: [SIMD3<Float>], voxelSize: Float?, wide: Bool, boxes: Bool,
                              layout: PositionLayout, into out: inout [UInt8]) {
        let size = voxelSize ?? 0
        func vertex(_ p: SIMD3<Float>, _ c: SIMD3<Float>) {
            var line = "\(layout.text(p)) \(quantize(c.x)) \(quantize(c.y)) \(quantize(c.z))"
            if wide { line += " \(c.x) \(c.y) \(c.z)" }
            line += "\n"
            out.append(contentsOf: line.utf8)
        }
        for i in positions.indices {
            if boxes {
                for corner in corners { vertex(positions[i] + corner * size, colors[i]) }
            } else {
                vertex(positions[i], colors[i])
            }
        }
    }

    /// The face lines of the boxes of voxels `voxels` (indices in the whole file).
    static func asciiFaces(voxels: Range<Int>, into out: inout [UInt8]) {
        for i in voxels {
            let first = Int32(i * 8)
            for q in quads {
                out.append(contentsOf: "4 \(first + q[0]) \(first + q[1]) \(first + q[2]) \(first + q[3])\n".utf8)
            }
        }
    }
}
