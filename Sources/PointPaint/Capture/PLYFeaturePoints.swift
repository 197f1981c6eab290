/// Feature points stored as a PLY file: the `vertex` element's `x`, `y`, `z`, and an integer
/// `id` property when present (a non-integer `id` property is ignored; a negative id is an error,
/// as ids are unsigned).
package enum PLYFeaturePoints {
    /// The points of the PLY file `bytes`; `file` names it in errors.
    package static func parse(_ bytes: [UInt8], file: String) throws -> [FeaturePoint] {
        let ply = try PLYReader.read(bytes: bytes, file: file)
        guard let vertex = ply[element: "vertex"] else {
            throw PointPaintError(.missing, file: file, place: .part("header"), "expected a vertex element with x, y, z")
        }
        var columns: [[Double]] = []
        for name in ["x", "y", "z"] {
            guard let property = vertex[property: name], property.listOffsets.isEmpty else {
                throw PointPaintError(.missing, file: file, place: .part("header"), "expected a scalar vertex property \(name)")
            }
            columns.append(property.values.doubles())
        }
        let ids = vertex[property: "id"].flatMap { $0.type.valueType.isInteger && $0.listOffsets.isEmpty ? $0.values.doubles() : nil }
        var points: [FeaturePoint] = []
        points.reserveCapacity(vertex.count)
        for i in 0 ..< vertex.count {
            let p = SIMD3(columns[0][i], columns[1][i], columns[2][i])
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite, WorldOrigin.farthest(p, p) <= Double(Float.greatestFiniteMagnitude) else {
                throw PointPaintError(.outOfRange, file: file, place: .element("vertex", i), "expected finite coordinates, found (\(p.x), \(p.y), \(p.z))")
            }
            var id: UInt64?
            if let ids {
                // PLY integers are at most 32 bits, so the double holds the value exactly.
                guard ids[i] >= 0 else {
                    throw PointPaintError(.outOfRange, file: file, place: .element("vertex", i), "expected an unsigned id, found \(Int64(ids[i]))")
                }
                id = UInt64(ids[i])
            }
            points.append(FeaturePoint(world: p, id: id))
        }
        return points
    }
}
