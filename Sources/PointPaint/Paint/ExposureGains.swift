import Foundation

/// One RGB gain per frame, in linear light, that evens out exposure and white balance between
/// the frames of a capture (`--exposure auto`): each observation of frame f is multiplied by
/// `gain(frame: f)` before it is accumulated.
///
/// Solved from points several frames see: an observation is modelled as o = c·e_f (the point's
/// colour times the frame's exposure, per channel), in logarithms log o = log c + log e_f, and
/// a few Gauss–Seidel sweeps alternate between the points (log c = median over its frames of
/// log o − log e_f) and the frames (log e_f = median over its points of log o − log c). Medians
/// make the solve robust to the odd wrong observation (an occluder, a specular highlight).
/// Dark observations (a channel below 0.5 % linear) and clipped ones (luma near white) carry
/// no exposure information and are left out. After each sweep the median frame is fixed at 1;
/// the gains applied are 1/e_f, clamped to [1/2, 2].
public struct ExposureGains: Sendable, Equatable {
    /// The gain of each frame solved, by frame index.
    public var gains: [Int: SIMD3<Float>]
    /// Points that entered the solve (seen well by at least two frames).
    public var points: Int
    /// Observations that entered the solve.
    public var observations: Int

    /// The most points the solve looks at: an even subset of the cloud.
    public static let maximumPoints = 20_000
    /// The bounds of a gain.
    public static let range: ClosedRange<Float> = 0.5 ... 2

    /// Gains as given (1 for frames not listed).
    public init(gains: [Int: SIMD3<Float>], points: Int = 0, observations: Int = 0) {
        self.gains = gains
        self.points = points
        self.observations = observations
    }

    /// The gain of frame `index` (1, 1, 1 for a frame not solved).
    public func gain(frame index: Int) -> SIMD3<Float> { gains[index] ?? SIMD3(1, 1, 1) }

    /// Multiplies `colors` (linear light) by frame `index`'s gain.
    public func apply(frame index: Int, to colors: inout [SIMD3<Float>]) {
        let g = gain(frame: index)
        guard g != SIMD3(1, 1, 1) else { return }
        for i in colors.indices { colors[i] *= g }
    }

    /// Frames whose gain differs from 1 by more than 1 % in some channel.
    public var adjustedFrames: Int {
        gains.values.filter { g in max(abs(g.x - 1), abs(g.y - 1), abs(g.z - 1)) > 0.01 }.count
    }
    /// Frames whose gain reached a bound of `range` in some channel.
    public var clampedFrames: Int { gains.values.filter { $0.min() <= Self.range.lowerBound || $0.max() >= Self.range.upperBound }.count }

    /// Smallest and largest gain over all frames and channels.
    public var extremes: (min: Float, max: Float) {
        gains.values.reduce((Float(1), Float(1))) { (min($0.0, $1.min()), max($0.1, $1.max())) }
    }

    /// One line for a summary: range of gains, frames adjusted and clamped, points used.
    public var summary: String {
        let (lo, hi) = extremes
        return String(format: "exposure: gains %.3f to %.3f, %d of %d frames adjusted by more than 1%%, %d clamped to [1/2, 2]; solved from %d points seen by several frames (%d observations)",
                      lo, hi, adjustedFrames, gains.count, clampedFrames, points, observations)
    }

    /// Whether an observation carries exposure information: no channel too dark, luma not clipped.
    @inline(__always)
    static func usable(_ c: SIMD3<Float>) -> Bool {
        let luma = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
        return c.min() > 0.005 && luma < 0.85 && c.max() < 0.98
    }

    /// Solves the gains of `frames` from observations: `point[i]` (any integer naming a shared
    /// point) seen by `frame[i]` (a frame index of `frames`) with linear colour `colors[i]`.
    /// - Complexity: O(sweeps × observations × log observations).
    public static func solve(frames: [Int], point: [Int], frame: [Int], colors: [SIMD3<Float>], sweeps: Int = 6) -> ExposureGains {
        precondition(point.count == frame.count && frame.count == colors.count, "observation arrays differ in length")
        let frameSlot = Dictionary(uniqueKeysWithValues: frames.enumerated().map { ($0.element, $0.offset) })
        // Usable observations, grouped by point; points with fewer than two frames dropped.
        var byPoint: [Int: [(frame: Int, log: SIMD3<Float>)]] = [:]
        for i in point.indices {
            guard let f = frameSlot[frame[i]], usable(colors[i]) else { continue }
            let c = colors[i]
            byPoint[point[i], default: []].append((f, SIMD3(log(c.x), log(c.y), log(c.z))))
        }
        let groups = byPoint.values.filter { Set($0.map(\.frame)).count >= 2 }
        var logExposure = [SIMD3<Float>](repeating: .zero, count: frames.count)
        var logColor = [SIMD3<Float>](repeating: .zero, count: groups.count)
        let bound = log(Float(2))
        for _ in 0 ..< max(sweeps, 1) {
            for (p, group) in groups.enumerated() {
                logColor[p] = median(group.map { $0.log - logExposure[$0.frame] })
            }
            var residuals = [[SIMD3<Float>]](repeating: [], count: frames.count)
            for (p, group) in groups.enumerated() {
                for o in group { residuals[o.frame].append(o.log - logColor[p]) }
            }
            for f in frames.indices where !residuals[f].isEmpty {
                logExposure[f] = median(residuals[f])
            }
            // The median frame (of those seen) at 1, every gain within bounds.
            let seen = frames.indices.filter { !residuals[$0].isEmpty }
            guard !seen.isEmpty else { break }
            let centre = median(seen.map { logExposure[$0] })
            for f in frames.indices {
                logExposure[f] = residuals[f].isEmpty ? .zero : (logExposure[f] - centre).clamped(lowerBound: SIMD3(repeating: -bound), upperBound: SIMD3(repeating: bound))
            }
        }
        var gains: [Int: SIMD3<Float>] = [:]
        for (f, index) in frames.enumerated() {
            let e = logExposure[f]
            gains[index] = SIMD3(exp(-e.x), exp(-e.y), exp(-e.z)).clamped(lowerBound: SIMD3(repeating: range.lowerBound), upperBound: SIMD3(repeating: range.upperBound))
        }
        return ExposureGains(gains: gains, points: groups.count, observations: groups.reduce(0) { $0 + $1.count })
    }

    /// The channel-wise median (the lower middle for an even count).
    static func median(_ values: [SIMD3<Float>]) -> SIMD3<Float> {
        guard !values.isEmpty else { return .zero }
        var result = SIMD3<Float>()
        for k in 0 ..< 3 {
            let sorted = values.map { $0[k] }.sorted()
            result[k] = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : 0.5 * (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2])
        }
        return result
    }
}
