/// The type of a written cloud's x, y and z.
public enum PLYPositionType: String, Sendable, CaseIterable, Codable {
    /// `double` when `float` would move some vertex by more than a sixteenth of the voxel size
    /// (a tenth of a millimetre for plain points), else `float`.
    case auto
    /// Always `float`, as every tool reads.
    case float
    /// Always `double`.
    case double
}

extension PLYWriter {
    /// How a file's positions are written: world coordinates `origin + offset`, as `float` or
    /// `double`.
    struct PositionLayout: Sendable, Equatable {
        /// The cloud's origin (`VoxelCloud.origin`), added to every offset.
        var origin: SIMD3<Double>
        /// Whether x, y and z are `double`.
        var double: Bool

        /// Positions of a cloud at the world origin as `float`: the offsets' own bits.
        static let plain = PositionLayout(origin: .zero, double: false)

        /// Bytes of x, y and z.
        var bytes: Int { double ? 24 : 12 }

        /// The world position of `offset`.
        @inline(__always)
        func world(_ offset: SIMD3<Float>) -> SIMD3<Double> { origin + SIMD3<Double>(offset) }

        /// The x, y and z a `double` file holds for `offset`: `exact` when the cloud kept its
        /// positions as read (`VoxelCloud.exactPositions`), else the world position.
        @inline(__always)
        func doubles(_ offset: SIMD3<Float>, exact: SIMD3<Double>? = nil) -> SIMD3<Double> { exact ?? world(offset) }

        /// The x, y and z a `float` file holds for `offset`: the offset's own bits at the world
        /// origin, else the world position (or `exact`) rounded.
        @inline(__always)
        func floats(_ offset: SIMD3<Float>, exact: SIMD3<Double>? = nil) -> SIMD3<Float> {
            origin == .zero && exact == nil ? offset : SIMD3<Float>(doubles(offset, exact: exact))
        }

        /// Stores `offset`'s world position as the file's x, y and z.
        @inline(__always)
        func store(_ offset: SIMD3<Float>, into o: inout ByteStore) {
            if double {
                let w = doubles(offset)
                o.double(w.x); o.double(w.y); o.double(w.z)
            } else {
                let w = floats(offset)
                o.float(w.x); o.float(w.y); o.float(w.z)
            }
        }

        /// `offset`'s world position as an ascii line writes it: a double's shortest exact
        /// digits, or a float's.
        func text(_ offset: SIMD3<Float>) -> String {
            if double {
                let w = doubles(offset)
                return "\(w.x) \(w.y) \(w.z)"
            }
            let w = floats(offset)
            return "\(w.x) \(w.y) \(w.z)"
        }
    }

    /// How this writer writes the positions of a cloud at `origin` whose offsets lie within
    /// `bounds` (nil: none finite), of voxels of `voxelSize` (nil: plain points). `bounds` is
    /// worked out only when the choice needs it (`.auto` away from the world origin): it is a
    /// pass over every position.
    func positionLayout(origin: SIMD3<Double>, bounds: @autoclosure () -> (min: SIMD3<Float>, max: SIMD3<Float>)?,
                        voxelSize: Float?) -> PositionLayout {
        switch positionType {
        case .float: return PositionLayout(origin: origin, double: false)
        case .double: return PositionLayout(origin: origin, double: true)
        case .auto:
            // At the world origin, a float writes the offsets themselves: nothing is lost.
            guard origin != .zero else { return .plain }
            let bounds = bounds()
            let lo = origin + SIMD3<Double>(bounds?.min ?? .zero), hi = origin + SIMD3<Double>(bounds?.max ?? .zero)
            let far = WorldOrigin.farthest(lo, hi)
            let tolerance = voxelSize.map { Double($0) / 16 } ?? 1e-4
            return PositionLayout(origin: origin, double: WorldOrigin.floatRoundingError(at: far) > tolerance)
        }
    }
}
