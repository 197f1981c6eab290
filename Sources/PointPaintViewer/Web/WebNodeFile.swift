import CPointPaintSupport
import Foundation
import PointPaint

/// A node's points as the web page reads them (`cloud/nodes/N.bin`), little-endian, in the
/// order the octree keeps them, one layer after another:
/// - positions: 3 × uint16 a point, x y z, each the point's place in the node's cube in steps
///   of edge / 65,535 (the cube's minimum corner is 0; the error is at most edge / 131,070, 0.5 mm
///   for a 65 m cube, far below the node's grid spacing of edge / 64);
/// - colours: 3 × uint8 a point, sRGB (the cloud's gamma-encoded values clamped to 0…1, rounded);
/// - where the cloud has wide colour (some channel outside 0…1): 3 × uint8 a point, the same
///   colours in Display P3 (converted in linear light, encoded with the sRGB curve, clamped,
///   rounded), which the page draws on a `display-p3` canvas;
/// - where the cloud has view counts: 1 byte a point, the views heat position (as the desktop's
///   `QualityHeatMap`) as 1…255, 0 for a point no frame saw;
/// - where the cloud has colour spreads: 1 byte a point, the same for the spread.
/// 9 to 14 bytes a point, against the 16.
enum WebNodeFile {
    /// Which of the optional layers the cloud's files carry.
    struct Layers: Sendable {
        /// Display P3 colours.
        var wide: Bool
        /// The views heat map.
        var views: Bool
        /// The spread heat map.
        var spread: Bool

        init(cloud: VoxelCloud) {
            wide = cloud.hasWideColor
            views = cloud.hasViewCounts
            spread = cloud.colourSD != nil
        }

        /// Bytes a point takes.
        var stride: Int { 9 + (wide ? 3 : 0) + (views ? 1 : 0) + (spread ? 1 : 0) }
    }

    /// Node `node`'s file, into `raw`: `node.points.count × layers.stride` bytes.
    static func encode(_ node: PointOctree.Node, of cloud: VoxelCloud, layers: Layers, into raw: UnsafeMutableRawBufferPointer) {
        let count = node.points.count
        precondition(raw.count == count * layers.stride, "a node file's buffer holds its points")
        let scale = node.size > 0 ? 65_535 / Double(node.size) : 0
        let origin = SIMD3<Double>(node.origin)
        // Rounded to the nearest (halves up) by adding ½ and truncating: `rounded()` is a call
        // into libm on the baseline x86-64 this builds for (4 % of a 20M-point export's CPU time).
        func quantised(_ v: Double) -> UInt16 { UInt16(min(max(v, 0), 65_535) + 0.5) }
        func byte(_ c: Float) -> UInt8 { c.isFinite ? UInt8(min(max(c, 0), 1) * 255 + 0.5) : 0 }
        let toP3 = ColorConversion(from: .srgb, to: .displayP3)
        let out = raw.bindMemory(to: UInt8.self)
        node.points.withUnsafeBufferPointer { indices in
            cloud.positions.withUnsafeBufferPointer { positions in
                cloud.colors.withUnsafeBufferPointer { colors in
                    // A node's points lie all over the cloud's arrays (the octree orders them
                    // by place, not by index): fetch a point's lines 16 points ahead, as
                    // waiting for them was half of a 20M-point export.
                    let ahead = 16
                    for k in 0 ..< count {
                        if k + ahead < count {
                            let j = Int(indices[k + ahead])
                            pp_prefetch(positions.baseAddress! + j)
                            pp_prefetch(colors.baseAddress! + j)
                        }
                        let i = Int(indices[k])
                        let q = (SIMD3<Double>(positions[i]) - origin) * scale
                        let x = quantised(q.x), y = quantised(q.y), z = quantised(q.z)
                        out[6 * k] = UInt8(truncatingIfNeeded: x)
                        out[6 * k + 1] = UInt8(truncatingIfNeeded: x >> 8)
                        out[6 * k + 2] = UInt8(truncatingIfNeeded: y)
                        out[6 * k + 3] = UInt8(truncatingIfNeeded: y >> 8)
                        out[6 * k + 4] = UInt8(truncatingIfNeeded: z)
                        out[6 * k + 5] = UInt8(truncatingIfNeeded: z >> 8)
                        let colour = colors[i]
                        out[6 * count + 3 * k] = byte(colour.x)
                        out[6 * count + 3 * k + 1] = byte(colour.y)
                        out[6 * count + 3 * k + 2] = byte(colour.z)
                        if layers.wide {
                            let p3 = colour.x.isFinite && colour.y.isFinite && colour.z.isFinite ? toP3.encoded(colour) : .zero
                            out[9 * count + 3 * k] = byte(p3.x)
                            out[9 * count + 3 * k + 1] = byte(p3.y)
                            out[9 * count + 3 * k + 2] = byte(p3.z)
                        }
                    }
                }
            }
            var at = (layers.wide ? 12 : 9) * count
            for (present, measure) in [(layers.views, VoxelQuality.views), (layers.spread, .spread)] where present {
                for k in 0 ..< count {
                    let t = QualityHeatMap.position(of: Int(indices[k]), in: cloud, measure: measure)
                    out[at + k] = t.isNaN ? 0 : 1 + UInt8((min(max(t, 0), 1) * 254).rounded())
                }
                at += count
            }
        }
    }
}
