extension SIMD3 where Scalar == Float {
    /// Whether all three coordinates are finite: the viewer's own, inlinable copy of the core
    /// library's `isFinite`, which hot loops over millions of points would otherwise call across
    /// the module boundary once a point.
    @inline(__always)
    var hasFiniteCoordinates: Bool { x.isFinite && y.isFinite && z.isFinite }
}
