/// Feature points stored as a PLY file: the `vertex` element's `x`, `y`, `z`, and an integer
/// `id` property when present.
enum PLYFeaturePoints {
    static func parse(_ bytes: [UInt8], file: String) throws -> [FeaturePoint] {
        let ply = try PLYReader.read(bytes: bytes, file: file)
        guard let vertex = ply[element: "vertex"] else {
            throw PointPaintError(file: file, place: "header", "expected a vertex element with x, y, z")
        }
        var columns: [[Float]] = []
        for name in ["x", "y", "z"] {
            guard let property = vertex[property: name], property.listOffsets.isEmpty else {
                throw PointPaintError(file: file, place: "header", "expected a scalar vertex property \(name)")
            }
            columns.append(property.values.floats())
        }
        let ids = vertex[property: "id"].flatMap { $0.type.valueType.isInteger && $0.listOffsets.isEmpty ? $0.values.doubles() : nil }
        var points: [FeaturePoint] = []
        points.reserveCapacity(vertex.count)
        for i in 0 ..< vertex.count {
            let p = SIMD3(columns[0][i], columns[1][i], columns[2][i])
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                throw PointPaintError(file: file, place: "vertex \(i)", "expected finite coordinates, found (\(p.x), \(p.y), \(p.z))")
            }
            points.append(FeaturePoint(position: p, id: ids.flatMap { $0[i] >= 0 ? UInt64($0[i]) : nil }))
        }
        return points
    }
}
