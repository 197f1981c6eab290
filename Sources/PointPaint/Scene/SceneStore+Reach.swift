import Foundation

/// How far from the grid's origin a store's keys reach, and the error for a point past it.
///
/// A key holds a cell in `VoxelKey.range` on each axis (±2²⁰ cells), so a store reaches
/// ±2²⁰ · `voxelSize` from the origin: ±52.4 km at 5 cm voxels, ±1.05 km at 1 mm. A finite
/// point past that is never dropped in silence: the commands stop with `unheldError`, one line
/// naming the point, the limit and the file (docs/DESIGN.md, "The scene store").
extension SceneStore {
    /// How far the keys reach from the origin on each axis, in metres: 2²⁰ · `voxelSize`.
    public var reach: Double { Self.reach(voxelSize: voxelSize) }

    /// How far keys of `voxelSize` reach from the origin on each axis, in metres.
    /// The size is taken as the decimal it was written as (`0.05`, not 0.0500000007).
    public static func reach(voxelSize: Float) -> Double {
        Double(VoxelKey.range.upperBound + 1) * decimal(voxelSize)
    }

    /// `size` as the decimal it was written as: the shortest digits that read back as it.
    static func decimal(_ size: Float) -> Double { Double(size.description) ?? Double(size) }

    /// The error for a finite sample the keys cannot hold (`unheld`), naming `file` and `place`
    /// when given; nil when every finite sample so far was held.
    public func unheldError(file: String? = nil, place: PointPaintError.Place? = nil) -> PointPaintError? {
        guard let first = unheld.first else { return nil }
        return Self.unheldError(first, count: unheld.count, voxelSize: voxelSize, origin: origin, file: file, place: place)
    }

    /// The error for `count` finite points, the first `point` (an offset from `origin`), that
    /// lie past the reach of keys of `voxelSize`; the message gives world coordinates.
    public static func unheldError(_ point: SIMD3<Float>, count: Int, voxelSize: Float, origin: SIMD3<Double> = .zero,
                                   file: String? = nil, place: PointPaintError.Place? = nil) -> PointPaintError {
        let others = count > 1 ? " (and \(count - 1) more)" : ""
        let world = origin + SIMD3<Double>(point)
        let text = [world.x, world.y, world.z].map { String(format: "%.3f", $0) }.joined(separator: ", ")
        let from = origin == .zero ? "the origin" : "the grid's origin " + StoreInfo.describe(origin)
        return PointPaintError(.outOfRange, file: file, place: place,
                               "point (\(text))\(others) lies past the voxel grid's reach: at "
                               + metres(decimal(voxelSize)) + " voxels a cell must lie within ±"
                               + metres(reach(voxelSize: voxelSize)) + " (2^20 cells) of \(from) on each axis")
    }

    /// The finite points of `points` past the reach of keys of `voxelSize`: how many, and the
    /// first.
    /// - Complexity: O(n).
    public static func unheldPoints(_ points: [SIMD3<Float>], voxelSize: Float) -> (count: Int, first: SIMD3<Float>?) {
        var found: (count: Int, first: SIMD3<Float>?) = (0, nil)
        for p in points where p.isFinite && VoxelKey.packedCell(p, voxelSize: voxelSize) == nil {
            found = (found.count + 1, found.first ?? p)
        }
        return found
    }

    /// Throws `unheldError` when a finite sample was refused for lying past the keys' reach.
    public func requireEveryPointHeld(file: String? = nil, place: PointPaintError.Place? = nil) throws {
        if let error = unheldError(file: file, place: place) { throw error }
    }

    /// `0.05 m`, `52428.8 m`: a length with the digits it needs.
    static func metres(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + " m"
    }
}
