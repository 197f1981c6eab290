extension PLYFile {
    /// The property names recognised as colour, in order of preference: PointPaint's exact
    /// float colours, then the common 8-bit or float names.
    static let colorNames: [(String, String, String)] = [
        ("red_f", "green_f", "blue_f"),
        ("red", "green", "blue"),
        ("r", "g", "b"),
        ("diffuse_red", "diffuse_green", "diffuse_blue"),
    ]

    /// The colour properties of the `vertex` element, when it has a complete set.
    public var vertexColorProperties: (red: PLYProperty, green: PLYProperty, blue: PLYProperty)? {
        guard let vertex = self[element: "vertex"] else { return nil }
        for (r, g, b) in PLYFile.colorNames {
            if let pr = vertex[property: r], let pg = vertex[property: g], let pb = vertex[property: b],
               case .scalar = pr.type, case .scalar = pg.type, case .scalar = pb.type {
                return (pr, pg, pb)
            }
        }
        return nil
    }

    /// The `vertex` element's x, y, z as a cloud with its colours (gamma-encoded; integer
    /// channels scaled by their type's maximum, float channels taken as they are; white when the
    /// file has no colour), and its `views` and `colour_sd` when it has them (`qualityColumns`). The voxel size comes from a `comment voxel_size S` line when present.
    /// `file` names the source in errors.
    ///
    /// Boxes (as `PLYWriter` writes them with `.boxes`) become one voxel each again: when the file
    /// says `comment geometry boxes`, or has a `face` element with 6 quads or 12 triangles per 8
    /// vertices, and each run of 8 vertices is the corners of one axis-aligned cube of a common
    /// edge, each cube gives one point at its centre with its first corner's colour, and the edge
    /// is the voxel size (the `voxel_size` comment's value when it agrees). A file that says
    /// `geometry boxes` but holds something else is an error; an undeclared one that does not
    /// fit is read as points.
    ///
    /// - Complexity: O(vertices).
    public func cloud(file: String) throws -> VoxelCloud {
        guard let vertex = self[element: "vertex"] else {
            throw PointPaintError(.missing, file: file, "expected a 'vertex' element, found \(elements.map { PointPaintError.quote($0.name) }.joined(separator: ", "))")
        }
        var axes: [[Double]] = []
        for name in ["x", "y", "z"] {
            guard let p = vertex[property: name], case .scalar = p.type else {
                throw PointPaintError(.missing, file: file, "expected a scalar property '\(name)' in the 'vertex' element")
            }
            axes.append(p.values.doubles())
        }
        let n = vertex.count
        func world(_ i: Int) -> SIMD3<Double> { SIMD3(axes[0][i], axes[1][i], axes[2][i]) }
        let bounds = WorldBounds(finite: (0 ..< n).lazy.map(world))
        let origin = try bounds?.origin(file: file) ?? .zero
        let exact = WorldOrigin.needsExactPositions(bounds, origin: origin) ? (0 ..< n).map(world) : nil
        let positions = [SIMD3<Float>](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in 0 ..< n { buffer[i] = SIMD3<Float>(world(i) - origin) }
            initialized = n
        }
        var colors: [SIMD3<Float>]
        if let (r, g, b) = vertexColorProperties {
            let channels = [r, g, b].map { PLYFile.unitChannel($0.values) }
            colors = [SIMD3<Float>](unsafeUninitializedCapacity: n) { buffer, initialized in
                for i in 0 ..< n { buffer[i] = SIMD3(channels[0][i], channels[1][i], channels[2][i]) }
                initialized = n
            }
        } else {
            colors = Array(repeating: SIMD3(1, 1, 1), count: n)
        }
        if let boxes = try boxVoxels(positions: positions, origin: origin, colors: colors, file: file) { return boxes }
        let (counts, spread) = qualityColumns(vertex)
        var cloud = VoxelCloud(voxelSize: voxelSize, origin: origin, positions: positions, colors: colors, counts: counts, colourSD: spread)
        cloud.exactPositions = exact
        return cloud
    }

    /// The names of the per-vertex quality properties `pointpaint paint --quality-properties`
    /// writes: observations of each vertex, and the spread of their colours.
    static let viewsName = "views", colourSDName = "colour_sd"

    /// The `views` and `colour_sd` columns of `vertex` when it has them (scalars of any type):
    /// views as counts (`PLYScalar.viewCount`: integers exact, floats rounded, negative and NaN
    /// as 0), the spread as floats.
    func qualityColumns(_ vertex: PLYElement) -> (counts: [UInt32]?, colourSD: [Float]?) {
        var counts: [UInt32]?, spread: [Float]?
        if let p = vertex[property: Self.viewsName], case .scalar = p.type {
            counts = p.values.values.viewCounts
        }
        if let p = vertex[property: Self.colourSDName], case .scalar = p.type { spread = p.values.floats() }
        return (counts, spread)
    }

    /// A floating-point `views` value as a count: rounded, NaN and negatives 0, past
    /// `UInt32.max` the maximum.
    @inline(__always)
    static func viewCount(_ value: Float) -> UInt32 {
        value.isNaN || value <= 0 ? 0 : value >= 4_294_967_296 ? .max : UInt32(value.rounded())
    }

    /// Whether a `comment geometry boxes` line says the vertices are cube corners.
    var declaresBoxes: Bool {
        comments.contains { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }) == ["geometry", "boxes"] }
    }

    /// The cubes among `positions` as one voxel each, or nil when the file does not hold boxes
    /// (see `cloud(file:)`).
    private func boxVoxels(positions: [SIMD3<Float>], origin: SIMD3<Double>, colors: [SIMD3<Float>], file: String) throws -> VoxelCloud? {
        let n = positions.count
        let declared = declaresBoxes
        var faceHint = false
        if n > 0, n % 8 == 0, let face = self[element: "face"] {
            faceHint = face.count == 6 * (n / 8) || face.count == 12 * (n / 8)
        }
        guard declared || faceHint else { return nil }
        func notBoxes(_ why: String, vertex: Int) throws -> VoxelCloud? {
            guard declared else { return nil }
            throw PointPaintError(.malformed, file: file, place: .element("vertex", vertex), "the header says 'geometry boxes', but \(why)")
        }
        guard n % 8 == 0 else { return try notBoxes("the \(n) vertices are not a whole number of 8-corner boxes", vertex: n - n % 8) }
        var centres: [SIMD3<Float>] = []
        var boxColors: [SIMD3<Float>] = []
        centres.reserveCapacity(n / 8)
        boxColors.reserveCapacity(n / 8)
        var edge: Float = 0
        for g in 0 ..< n / 8 {
            let corners = positions[8 * g ..< 8 * g + 8]
            let lo = corners.reduce(SIMD3<Float>(repeating: .infinity)) { pointwiseMin($0, $1) }
            let hi = corners.reduce(SIMD3<Float>(repeating: -.infinity)) { pointwiseMax($0, $1) }
            let e = hi - lo
            let scale = max(lo.x.magnitude, lo.y.magnitude, lo.z.magnitude, hi.x.magnitude, hi.y.magnitude, hi.z.magnitude)
            if g == 0 { edge = (e.x + e.y + e.z) / 3 }
            let tolerance = max(edge * 1e-3, 4 * scale.ulp)
            var seen = 0
            for p in corners {
                let onLo = p .== lo, onHi = p .== hi
                guard all(onLo .| onHi) else { seen = -1; break }
                seen |= 1 << ((onHi[0] ? 1 : 0) | (onHi[1] ? 2 : 0) | (onHi[2] ? 4 : 0))
            }
            let d = e - SIMD3(repeating: edge)
            guard seen == 0xFF, e.min() > 0, e.max() < .infinity,
                  max(d.x.magnitude, d.y.magnitude, d.z.magnitude) <= tolerance else {
                return try notBoxes("vertices \(8 * g)…\(8 * g + 7) are not the corners of a cube with edge \(edge)", vertex: 8 * g)
            }
            centres.append((lo + hi) * 0.5)
            boxColors.append(colors[8 * g])
        }
        var size: Float? = n > 0 ? edge : voxelSize
        if let stated = voxelSize, n == 0 || abs(stated - edge) <= max(edge * 1e-3, 1e-7) { size = stated }
        return VoxelCloud(voxelSize: size, origin: origin, positions: centres, colors: boxColors)
    }

    /// An 8-bit colour code scaled to 0…1, as both ways of reading a cloud scale it.
    @inline(__always)
    static func unitValue(_ code: UInt8) -> Float { code.unitChannel }

    /// A colour channel scaled to 0…1 (integer types by their maximum).
    static func unitChannel(_ column: PLYColumn) -> [Float] { column.values.unitChannels }
}

extension PLYReader {
    /// Reads the vertices of any PLY file with x, y, z and optional colour as a cloud
    /// (see `PLYFile.cloud(file:)`).
    ///
    /// Binary files whose elements are all fixed-size records (no lists, no faces; see
    /// `PLYCloudLayout` for the rule), the layout PointPaint, Open3D and most scanners write, are
    /// read in one pass from the mapped file straight into the cloud; everything else is parsed in
    /// full first. Both give the same cloud.
    ///
    /// - Complexity: O(file size).
    public static func readCloud(path: String) throws -> VoxelCloud {
        try MappedBytes(mapping: path, expected: "a PLY file").withUnsafeBytes { try readCloud($0, file: path) }
    }

    /// Reads the cloud of a whole PLY file already in memory (see `readCloud(path:)`); `file`
    /// names it in errors.
    ///
    /// - Complexity: O(bytes.count).
    package static func readCloud(bytes: [UInt8], file: String) throws -> VoxelCloud {
        try bytes.withUnsafeBytes { try readCloud($0, file: file) }
    }

    /// The cloud of the PLY file in `raw`: in one pass when `directCloud` can, else parsed in full.
    private static func readCloud(_ raw: UnsafeRawBufferPointer, file: String) throws -> VoxelCloud {
        var (ply, data) = try parseHeader(raw, file: file)
        if let cloud = try directCloud(ply, data, file: file) { return cloud }
        try parseData(&ply, from: data, file: file)
        return try ply.cloud(file: file)
    }

    /// The cloud of a binary file of fixed-size records read straight from `data`, or nil when
    /// the file is not of that kind (`PLYCloudLayout`; a damaged file is not: the full parse
    /// then says how).
    /// - Throws: `.outOfRange` for a coordinate past `WorldOrigin.maxCoordinate`.
    static func directCloud(_ header: PLYFile, _ data: ByteCursor, file: String) throws -> VoxelCloud? {
        guard let layout = PLYCloudLayout(header, dataBytes: data.remaining) else { return nil }
        let records = layout.records(in: data)
        let bounds = layout.worldBounds(records)
        let origin = try bounds?.origin(file: file) ?? .zero
        var cloud = VoxelCloud(voxelSize: header.voxelSize, origin: origin, positions: layout.positions(records, origin: origin),
                               colors: layout.colors(records), counts: layout.counts(records), colourSD: layout.colourSDs(records))
        if WorldOrigin.needsExactPositions(bounds, origin: origin) { cloud.exactPositions = layout.worldPositions(records) }
        return cloud
    }
}
