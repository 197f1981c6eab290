import Foundation
import PointPaint

/// The root cube of a `PointOctree` and the Morton keys of points in it.
///
/// The cube is a function of the points' bounds alone, and a coarse one: its edge is twice the
/// power of two at or above the largest extent, and its corner sits on a multiple of half that
/// edge. A growing cloud therefore keeps its cube (and a live octree its structure) until its
/// bounds cross one of those steps, and the same points give the same cube in any order.
public struct OctreeCube: Sendable, Equatable {
    /// The corner with the smallest coordinates.
    public var origin: SIMD3<Double>
    /// The edge length.
    public var side: Double

    /// Bits of a key per axis: keys address a 2²¹ lattice in the cube.
    public static let bitsPerAxis = 21
    /// Lattice steps per axis.
    static let resolution = Double(1 << bitsPerAxis)

    /// The cube for points within `bounds` (finite, `min <= max`).
    public init(enclosing bounds: (min: SIMD3<Float>, max: SIMD3<Float>)) {
        let lo = SIMD3<Double>(bounds.min), hi = SIMD3<Double>(bounds.max)
        let extent = (hi - lo).max()
        // A single point or a cloud thinner than a millionth of its distance from the origin still
        // gets a cube a Float can resolve.
        let magnitude = max(lo.replacing(with: -lo, where: lo .< 0).max(), hi.replacing(with: -hi, where: hi .< 0).max())
        let floor = max(magnitude * 0x1p-20, 0x1p-40)
        let half = Foundation.exp2(Foundation.ceil(Foundation.log2(max(extent, floor))))
        origin = (lo / half).rounded(.down) * half
        side = 2 * half
    }

    /// The lattice coordinate of `value` along an axis starting at `start`, clamped to the cube.
    @inline(__always)
    private static func lattice(_ value: Float, _ start: Double, _ scale: Double) -> UInt64 {
        let scaled = (Double(value) - start) * scale
        // Scalar code: the SIMD3<Double> spelling of this ran many times slower.
        return scaled <= 0 ? 0 : scaled >= resolution - 1 ? UInt64(resolution - 1) : UInt64(scaled)
    }

    /// The Morton key of `p`: its lattice coordinates' bits interleaved (x in the lowest bit of
    /// each triple, then y, then z), so the top 3·L bits name the level-L node holding it and keys
    /// in order walk the cube depth first.
    @inline(__always)
    public func key(_ p: SIMD3<Float>) -> UInt64 {
        let scale = Self.resolution / side
        return Morton.spread(Self.lattice(p.x, origin.x, scale)) | Morton.spread(Self.lattice(p.y, origin.y, scale)) << 1
            | Morton.spread(Self.lattice(p.z, origin.z, scale)) << 2
    }

    /// The minimum corner and edge of the level-`level` node whose key prefix is `prefix`.
    func box(prefix: UInt64, level: Int) -> (origin: SIMD3<Float>, size: Float) {
        let size = side / Double(1 << level)
        let cell = SIMD3<Double>(Double(Morton.compact(prefix)), Double(Morton.compact(prefix >> 1)), Double(Morton.compact(prefix >> 2)))
        return (SIMD3<Float>(origin + cell * size), Float(size))
    }
}
