import PointPaint

/// CPU ray picking against the voxel boxes.
public enum Picking {
    /// The index of the nearest voxel whose box (edge `boxSize`, centred on its position) the ray
    /// hits, or nil.
    /// - Complexity: O(n), a slab test per voxel.
    public static func pick(_ cloud: VoxelCloud, boxSize: Float, origin: SIMD3<Float>, direction: SIMD3<Float>) -> Int? {
        let inverse = SIMD3<Float>(1, 1, 1) / direction
        let half = SIMD3<Float>(repeating: boxSize / 2)
        var best = Float.infinity, index: Int?
        cloud.positions.withUnsafeBufferPointer { positions in
            for i in positions.indices {
                let a = (positions[i] - half - origin) * inverse
                let b = (positions[i] + half - origin) * inverse
                let lo = pointwiseMin(a, b), hi = pointwiseMax(a, b)
                let enter = max(lo.x, lo.y, lo.z), exit = min(hi.x, hi.y, hi.z)
                if enter <= exit && exit >= 0 {
                    let t = max(enter, 0)
                    if t < best { best = t; index = i }
                }
            }
        }
        return index
    }
}
