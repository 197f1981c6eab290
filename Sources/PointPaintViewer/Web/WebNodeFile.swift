import Foundation
import PointPaint

/// A node's points as the web page reads them (`cloud/nodes/N.bin`), little-endian, in the
/// order the octree keeps them:
/// - positions: 3 × uint16 a point, x y z, each the point's place in the node's cube in steps
///   of edge / 65,535 (the cube's minimum corner is 0; the error is at most edge / 131,070, 0.5 mm
///   for a 65 m cube, far below the node's grid spacing of edge / 64);
/// - colours: 3 × uint8 a point, sRGB (the cloud's gamma-encoded values clamped to 0…1, rounded);
/// - where the cloud has view counts: 1 byte a point, the views heat position (as the desktop's
///   `QualityHeatMap`) as 1…255, 0 for a point no frame saw;
/// - where the cloud has colour spreads: 1 byte a point, the same for the spread.
/// 9 to 11 bytes a point, against the 16.
enum WebNodeFile {
    /// Which heat maps the cloud carries.
    struct Heat {
        var views: Bool
        var spread: Bool

        init(cloud: VoxelCloud) {
            views = cloud.hasViewCounts
            spread = cloud.colourSD != nil
        }
    }

    /// Bytes a point takes with `heat`.
    static func stride(_ heat: Heat) -> Int { 9 + (heat.views ? 1 : 0) + (heat.spread ? 1 : 0) }

    /// Node `node`'s file.
    static func encode(_ node: PointOctree.Node, of cloud: VoxelCloud, heat: Heat) -> Data {
        let count = node.points.count
        var bytes = [UInt8](repeating: 0, count: count * stride(heat))
        let scale = node.size > 0 ? 65_535 / Double(node.size) : 0
        let origin = SIMD3<Double>(node.origin)
        for (k, index) in node.points.enumerated() {
            let i = Int(index)
            let q = (SIMD3<Double>(cloud.positions[i]) - origin) * scale
            for axis in 0 ..< 3 {
                let v = UInt16(min(max(q[axis].rounded(), 0), 65_535))
                bytes[6 * k + 2 * axis] = UInt8(v & 0xFF)
                bytes[6 * k + 2 * axis + 1] = UInt8(v >> 8)
            }
            let colour = cloud.colors[i]
            for channel in 0 ..< 3 {
                let c = colour[channel].isFinite ? min(max(colour[channel], 0), 1) : 0
                bytes[6 * count + 3 * k + channel] = UInt8((c * 255).rounded())
            }
        }
        var at = 9 * count
        for (present, measure) in [(heat.views, VoxelQuality.views), (heat.spread, .spread)] where present {
            for (k, index) in node.points.enumerated() {
                let t = QualityHeatMap.position(of: Int(index), in: cloud, measure: measure)
                bytes[at + k] = t.isNaN ? 0 : 1 + UInt8((min(max(t, 0), 1) * 254).rounded())
            }
            at += count
        }
        return Data(bytes)
    }
}
