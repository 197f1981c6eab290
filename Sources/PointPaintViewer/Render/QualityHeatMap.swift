import Foundation
import PointPaint

/// A per-voxel measure of how well a voxel's colour is known, shown by `QualityStrategy`.
public enum VoxelQuality: String, Sendable, CaseIterable {
    /// Observations of the voxel (`VoxelCloud.counts`: a store's sample counts, a painted PLY's
    /// `views`), on a log scale from 1 to `QualityHeatMap.viewsSaturation`.
    case views
    /// The spread of its observations' colours (`VoxelCloud.colourSD`, linear light), from 0 to
    /// `QualityHeatMap.spreadSaturation`.
    case spread
}

/// Where the colour a node buffer uploads for each voxel comes from.
public enum VoxelColorSource: Sendable, Equatable, Hashable {
    /// The voxel's own colour.
    case color
    /// A heat map of one of its quality measures (`QualityHeatMap`).
    case quality(VoxelQuality)
}

/// The heat map `QualityStrategy` paints voxels with: a measure scaled to 0…1 (`position`) and
/// shown along the upper three quarters of viridis (blue, teal, green, yellow: lightness rises
/// steadily, so the order reads in grey too and to colour-blind eyes; its dark purple quarter is
/// left out, as it vanishes on the viewer's dark backgrounds). Voxels without the measure (a
/// cloud without `colour_sd`, a point no frame saw) are mid grey, outside the map.
public enum QualityHeatMap {
    /// Views from which the map is at its top (yellow): 256, a quarter of a typical 1,000-frame
    /// recording seeing one voxel.
    public static let viewsSaturation: Float = 256
    /// The colour spread (standard deviation in linear light, 0…1 for a channel) from which the
    /// map is at its top: 0.1, a spread no exposure drift alone explains.
    public static let spreadSaturation: Float = 0.1
    /// The colour of a voxel without the measure.
    public static let missing = SIMD3<Float>(0.5, 0.5, 0.5)

    /// Viridis at ¼, ½, ¾ and 1 (sRGB-encoded), the map's stops at 0, ⅓, ⅔ and 1.
    static let stops: [SIMD3<Float>] = [
        SIMD3(0x3B, 0x52, 0x8B), SIMD3(0x21, 0x91, 0x8C), SIMD3(0x5E, 0xC9, 0x62), SIMD3(0xFD, 0xE7, 0x25),
    ].map { $0 / 255 }

    /// The map at `t` (clamped to 0…1; NaN is `missing`): piecewise linear between the stops.
    public static func color(at t: Float) -> SIMD3<Float> {
        guard !t.isNaN else { return missing }
        let x = min(max(t, 0), 1) * Float(stops.count - 1)
        let i = min(Int(x), stops.count - 2)
        let f = x - Float(i)
        return stops[i] + (stops[i + 1] - stops[i]) * f
    }

    /// Where `measure` of voxel `i` of `cloud` lies on the map (0…1), or NaN when the voxel has
    /// no such measure (no views, or no spread in the cloud; a voxel no frame saw has neither).
    @inline(__always)
    public static func position(of i: Int, in cloud: VoxelCloud, measure: VoxelQuality) -> Float {
        switch measure {
        case .views:
            let views = cloud.counts[i]
            guard views > 0 else { return .nan }
            return log2(Float(views)) / log2(viewsSaturation)
        case .spread:
            guard cloud.counts[i] > 0, let spread = cloud.colourSD?[i], spread.isFinite else { return .nan }
            return spread / spreadSaturation
        }
    }

    /// The colour node buffers upload for voxel `i` of `cloud` under `source`.
    @inline(__always)
    public static func color(of i: Int, in cloud: VoxelCloud, source: VoxelColorSource) -> SIMD3<Float> {
        switch source {
        case .color: cloud.colors[i]
        case .quality(let measure): color(at: position(of: i, in: cloud, measure: measure))
        }
    }

    /// A line saying what the map shows for `cloud`, printed when a quality strategy is chosen.
    public static func legend(_ measure: VoxelQuality, for cloud: VoxelCloud) -> String {
        switch measure {
        case .views:
            let note = cloud.hasViewCounts ? "" : " (this cloud carries no view counts: every voxel shows 1)"
            return "views: observations a voxel, blue 1 → yellow \(Int(viewsSaturation))+ (log scale), grey unseen" + note
        case .spread:
            let note = cloud.colourSD == nil ? " (this cloud carries no colour_sd: all grey; pointpaint paint --quality-properties writes it)" : ""
            return "spread: colour standard deviation of a voxel's observations (linear light), blue 0 → yellow \(spreadSaturation)+, grey unseen" + note
        }
    }
}
