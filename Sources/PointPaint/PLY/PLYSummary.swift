/// What `pointpaint info FILE.ply` prints: format, elements and their properties, comments,
/// vertex bounds, colour and voxel size.
public struct PLYSummary: Sendable, CustomStringConvertible {
    /// The file as named by the user.
    public var path: String
    /// The data encoding.
    public var encoding: PLYEncoding
    /// Each element's name, count and declared properties (`float x`, `list uchar int vertex_indices`).
    public var elements: [(name: String, count: Int, properties: [String])]
    /// `comment` lines.
    public var comments: [String]
    /// `obj_info` lines.
    public var objInfo: [String]
    /// Bounds of the finite vertex positions, when the file has vertices with scalar x, y, z
    /// properties and at least one is finite.
    public var bounds: (min: SIMD3<Double>, max: SIMD3<Double>)?
    /// Whether some position property is `double` (its bounds are then printed with a double's
    /// digits, else a float's).
    public var doublePositions = false
    /// Vertices with a NaN or infinite coordinate (left out of `bounds`).
    public var nonFiniteCount = 0
    /// The vertex colour properties (`red green blue (uchar)`), or nil when there are none.
    public var color: String?
    /// The voxel size from a `comment voxel_size` line.
    public var voxelSize: Float?

    /// Summarises a parsed file.
    public init(_ ply: PLYFile, path: String) {
        self.path = path
        encoding = ply.encoding
        elements = ply.elements.map { e in (e.name, e.count, e.properties.map { "\($0.type) \($0.name)" }) }
        comments = ply.comments
        objInfo = ply.objInfo
        voxelSize = ply.voxelSize
        if let c = ply.vertexColorProperties {
            color = "\(c.red.name) \(c.green.name) \(c.blue.name) (\(c.red.type))"
        }
        if let vertex = ply[element: "vertex"], vertex.count > 0,
           let x = vertex[property: "x"], let y = vertex[property: "y"], let z = vertex[property: "z"],
           case .scalar = x.type, case .scalar = y.type, case .scalar = z.type,
           x.entryCount == vertex.count, y.entryCount == vertex.count, z.entryCount == vertex.count {
            // Exactly as the file holds them: map coordinates keep every digit.
            let (xs, ys, zs) = (x.values.doubles(), y.values.doubles(), z.values.doubles())
            doublePositions = [x, y, z].contains { $0.values.scalarType == .float64 }
            let positions = (0 ..< vertex.count).lazy.map { SIMD3(xs[$0], ys[$0], zs[$0]) }
            bounds = WorldBounds(finite: positions).map { ($0.min, $0.max) }
            nonFiniteCount = positions.count { !($0.x.isFinite && $0.y.isFinite && $0.z.isFinite) }
        }
    }

    /// Reads and summarises the file at `path`.
    public static func read(path: String) throws -> PLYSummary {
        PLYSummary(try PLYReader.read(path: path), path: path)
    }

    /// Several lines, the first naming the file and format; control and invisible characters of
    /// the file's names and comments spelled out (`\u{1B}`).
    public var description: String {
        func f(_ v: SIMD3<Double>) -> String { doublePositions ? PointPaintError.tuple(v) : PointPaintError.tuple(SIMD3<Float>(v)) }
        var lines = ["\(path): PLY \(encoding.headerName), \(elements.count) element\(elements.count == 1 ? "" : "s")"]
        for e in elements {
            lines.append("  element \(e.name) \(e.count): \(e.properties.joined(separator: ", "))")
        }
        for c in comments { lines.append("  comment \(c)") }
        for o in objInfo { lines.append("  obj_info \(o)") }
        let vertices = elements.first { $0.name == "vertex" }?.count ?? 0
        let noBounds = vertices == 0 ? "none (no vertices)"
            : nonFiniteCount == vertices ? "none (no vertex has finite x, y, z)"
            : "none (the vertices lack scalar x, y, z properties)"
        var boundsLine = "  bounds: " + (bounds.map { "min \(f($0.min)) max \(f($0.max))" } ?? noBounds)
        if nonFiniteCount > 0 && bounds != nil {
            boundsLine += " (\(nonFiniteCount) \(nonFiniteCount == 1 ? "vertex" : "vertices") with NaN or infinite coordinates left out)"
        }
        lines.append(boundsLine)
        lines.append("  colour: " + (color ?? "none"))
        lines.append("  voxel size: " + (voxelSize.map { "\($0)" } ?? "unknown"))
        // Names and comments are the file's text: nothing in them may clear the terminal or
        // break a line.
        return PointPaintError.escapingInvisible(lines: lines)
    }
}
