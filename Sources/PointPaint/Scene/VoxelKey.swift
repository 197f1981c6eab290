/// The integer cell of a voxel grid, `floor(p / voxelSize)` on each axis.
///
/// The grid is anchored at the world origin, not at a cloud's bounds, so two replays of the same
/// world produce the same keys and their stores can be merged. Each axis holds a cell in
/// `VoxelKey.range` (±2²⁰ cells: ±10.4 km at 1 cm voxels), which lets a key pack into one
/// 64-bit integer for hashing.
public struct VoxelKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Cell index along x.
    public var x: Int32
    /// Cell index along y.
    public var y: Int32
    /// Cell index along z.
    public var z: Int32

    /// The cells a key may hold on each axis: 21 bits, two's complement.
    public static let range: ClosedRange<Int32> = -(1 << 20) ... (1 << 20) - 1

    /// Creates a key from cell indices; each must lie in `VoxelKey.range`.
    public init(x: Int32, y: Int32, z: Int32) {
        precondition(VoxelKey.range.contains(x) && VoxelKey.range.contains(y) && VoxelKey.range.contains(z),
                     "voxel cell (\(x), \(y), \(z)) lies outside ±2^20")
        self.x = x
        self.y = y
        self.z = z
    }

    /// The cell holding `point`, or nil when the point is not finite or its cell lies outside
    /// `VoxelKey.range`.
    @inlinable
    public init?(containing point: SIMD3<Float>, voxelSize: Float) {
        guard let packed = VoxelKey.packedCell(point, voxelSize: voxelSize) else { return nil }
        self.init(packed: packed)
    }

    /// The centre of this cell in world space.
    @inlinable
    public func center(voxelSize: Float) -> SIMD3<Float> {
        (SIMD3<Float>(Float(x), Float(y), Float(z)) + 0.5) * voxelSize
    }

    /// `x y z` in brackets.
    public var description: String { "[\(x) \(y) \(z)]" }

    /// Orders by z, then y, then x.
    public static func < (a: VoxelKey, b: VoxelKey) -> Bool {
        (a.z, a.y, a.x) < (b.z, b.y, b.x)
    }

    // MARK: packing

    /// Bias that maps a cell in `range` to an unsigned 21-bit field.
    @usableFromInline static let bias: Int64 = 1 << 20
    /// Mask of one 21-bit field.
    @usableFromInline static let fieldMask: Int64 = (1 << 21) - 1

    /// The key as one non-negative integer: `(x+2²⁰) | (y+2²⁰) << 21 | (z+2²⁰) << 42`.
    @inlinable
    package var packed: Int64 {
        (Int64(x) + VoxelKey.bias) | (Int64(y) + VoxelKey.bias) << 21 | (Int64(z) + VoxelKey.bias) << 42
    }

    /// Unpacks a value made by `packed`.
    @inlinable
    package init(packed: Int64) {
        x = Int32(truncatingIfNeeded: (packed & VoxelKey.fieldMask) - VoxelKey.bias)
        y = Int32(truncatingIfNeeded: ((packed >> 21) & VoxelKey.fieldMask) - VoxelKey.bias)
        z = Int32(truncatingIfNeeded: ((packed >> 42) & VoxelKey.fieldMask) - VoxelKey.bias)
    }

    /// `floor(value)` as an integer cell on one axis, or nil when outside the range or NaN.
    @inlinable @inline(__always)
    static func cell(_ value: Float) -> Int64? {
        // NaN fails both comparisons, so it is rejected here too.
        guard value >= -1_048_576, value < 1_048_576 else { return nil }
        let t = Int64(value)  // truncates toward zero
        return Float(t) > value ? t - 1 : t
    }

    /// The packed key of the cell holding `point`, or nil when it has none.
    ///
    /// - Complexity: O(1); a division and three conversions.
    @inlinable @inline(__always)
    package static func packedCell(_ point: SIMD3<Float>, voxelSize: Float) -> Int64? {
        let q = point / voxelSize
        guard let cx = cell(q.x), let cy = cell(q.y), let cz = cell(q.z) else { return nil }
        return (cx + bias) | (cy + bias) << 21 | (cz + bias) << 42
    }
}
