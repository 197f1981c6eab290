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
    /// file has no colour). The voxel size comes from a `comment voxel_size S` line when present.
    /// `file` names the source in errors.
    ///
    /// - Complexity: O(vertices).
    public func cloud(file: String) throws -> VoxelCloud {
        guard let vertex = self[element: "vertex"] else {
            throw PointPaintError(file: file, "expected a 'vertex' element, found \(elements.map { "'\($0.name)'" }.joined(separator: ", "))")
        }
        var axes: [[Float]] = []
        for name in ["x", "y", "z"] {
            guard let p = vertex[property: name], case .scalar = p.type else {
                throw PointPaintError(file: file, "expected a scalar property '\(name)' in the 'vertex' element")
            }
            axes.append(p.values.floats())
        }
        let n = vertex.count
        let positions = [SIMD3<Float>](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in 0 ..< n { buffer[i] = SIMD3(axes[0][i], axes[1][i], axes[2][i]) }
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
        return VoxelCloud(voxelSize: voxelSize, positions: positions, colors: colors)
    }

    /// A colour channel scaled to 0…1 (integer types by their maximum).
    static func unitChannel(_ column: PLYColumn) -> [Float] {
        switch column {
        case .uint8(let v): return v.map { Float($0) * (1 / 255) }
        case .uint16(let v): return v.map { Float($0) * (1 / 65535) }
        case .int8(let v): return v.map { Float($0) / 127 }
        case .int16(let v): return v.map { Float($0) / 32767 }
        case .int32(let v): return v.map { Float(Double($0) / 2_147_483_647) }
        case .uint32(let v): return v.map { Float(Double($0) / 4_294_967_295) }
        case .float32(let v): return v
        case .float64(let v): return v.map(Float.init)
        }
    }
}

extension PLYReader {
    /// Reads the vertices of any PLY file with x, y, z and optional colour as a cloud
    /// (see `PLYFile.cloud(file:)`).
    public static func readCloud(path: String) throws -> VoxelCloud {
        try read(path: path).cloud(file: path)
    }
}
