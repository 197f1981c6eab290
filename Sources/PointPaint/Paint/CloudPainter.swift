import Foundation

/// Colours an existing cloud (`PaintCloud`: a LiDAR scan, another tool's output, a replay's own
/// result) from every frame of a capture: `pointpaint paint`.
///
/// Each frame's camera projects every point; a point in front of the camera and inside the image
/// that passes the frame's visibility test (`Visibility`) is sampled exactly as `CaptureReplay`
/// samples a point (the same `CapturedImageSampler` settings and `SampleColorPolicy`, so colours
/// are linear-light extended sRGB), scaled by the frame's exposure gain when there is one (`Options.gains`,
/// `solveExposure()`), and accumulated: per point by default (one output vertex a point), or in a
/// `SceneStore` of `Options.voxelSize`. Frames are loaded and observed in parallel batches and
/// accumulated in frame order, so the result does not depend on the thread count.
public struct CloudPainter: Sendable {
    /// How a frame decides which of the points it projects it really sees.
    public enum Visibility: String, Sendable, CaseIterable, Hashable {
        /// `depth` for a frame with a depth map, else `zbuffer`.
        case auto
        /// Against the frame's depth map: the point's depth must agree with the map at its pixel
        /// within max(2 cm, 2 % of the depth), interpolating only between depth pixels that agree.
        case depth
        /// Against a coarse depth buffer splatted from the cloud itself: each point covers its
        /// footprint (its spacing seen at its depth), each bin keeps the nearest depth.
        case zbuffer
        /// No test: every point in front of the camera and inside the image (as replay does).
        case off
    }

    /// What happens to points that no frame sees.
    public enum Unseen: String, Sendable, CaseIterable, Hashable {
        /// Kept: with their own colour when the cloud has colour, else flagged as unpainted.
        case keep
        /// Left out of the result.
        case drop
    }

    /// How the observations of a point (or voxel) combine.
    public enum Accumulation: String, Sendable, CaseIterable, Hashable {
        /// The (weighted) mean in linear light.
        case mean
        /// The single observation of the greatest weight (the earliest frame among equals): per
        /// point only.
        case best
        /// The observation of the last frame that saw it.
        case latest
        /// The observation of the first frame that saw it.
        case first

        /// The store's policy of the same name, for voxels (none for `best`).
        public var policy: AccumulationPolicy? {
            switch self {
            case .mean: .mean
            case .best: nil
            case .latest: .latest
            case .first: .first
            }
        }
    }

    /// What to paint from and how.
    public struct Options: Sendable {
        /// Which frames, how they are read, and on how many threads.
        public var pass = FramePassOptions()
        /// The visibility test.
        public var visibility: Visibility = .auto
        /// How the observations of a point (or voxel) combine.
        public var accumulate: Accumulation = .mean
        /// Whether observations are weighted (`ObservationWeight`): nil weights them, except in
        /// voxels kept `latest` or `first` (where the weight decides nothing, and the voxels go to a
        /// plain store). Weighted mean voxels come as a store keeping Σ w (`PaintResult.storeVoxels`).
        public var weighted: Bool?
        /// What happens to points no frame sees.
        public var unseen: Unseen = .keep
        /// Voxel edge length: when set, points are accumulated into voxels of this size (one
        /// output vertex a voxel); nil keeps one output vertex a point.
        public var voxelSize: Float?
        /// The distance between neighbouring points for the z-buffer's footprints; nil: the
        /// voxel size when set, else `PaintCloud.estimatedSpacing()`.
        public var pointSpacing: Float?
        /// Keep, per point or voxel, what the spread of its observations' colours needs
        /// (`PaintResult.colourSD`; for mean voxels, a store keeping Σ w·c²).
        public var qualityProperties = false
        /// Per-frame RGB gains applied to every observation (linear light) before it is
        /// accumulated (`solveExposure()`), or nil for none.
        public var gains: ExposureGains?

        /// Defaults: every frame, bilinear, visibility `auto`, mean, unseen points kept, one
        /// vertex a point.
        public init() {}
    }

    /// Counts of one painting.
    public struct Statistics: Sendable, Equatable {
        /// Frames used.
        public var frames = 0
        /// Points of the cloud (finite ones).
        public var points = 0
        /// Observations accumulated (a point seen by a frame).
        public var observations = 0
        /// Projections at or behind the camera.
        public var behind = 0
        /// Projections in front of the camera but outside the image.
        public var outside = 0
        /// Projections inside the image that the visibility test refused.
        public var hidden = 0
        /// Observations whose colour lies outside sRGB.
        public var outOfSRGB = 0
        /// Frames tested against their depth map.
        public var depthFrames = 0
        /// Frames tested against a splatted depth buffer.
        public var zbufferFrames = 0
        /// Points at least one frame saw.
        public var seen = 0
        /// Points no frame saw.
        public var unseen = 0
        /// The sum of the observations' quantised weights (1…255 each; 255 an observation when
        /// unweighted).
        public var weightSum = 0

        /// The mean weight of an observation, 0…1 (1 when unweighted).
        public var meanWeight: Double {
            observations == 0 ? 1 : Double(weightSum) / Double(observations * Int(ObservationWeight.full))
        }

        /// Creates zero counts.
        public init() {}

        mutating func add(_ o: Statistics) {
            frames += o.frames
            observations += o.observations
            behind += o.behind
            outside += o.outside
            hidden += o.hidden
            outOfSRGB += o.outOfSRGB
            depthFrames += o.depthFrames
            zbufferFrames += o.zbufferFrames
            weightSum += o.weightSum
        }
    }

    /// The capture painted from.
    public let source: any CaptureSource
    /// The cloud painted.
    public let cloud: PaintCloud
    /// Frames, visibility, accumulation and gains.
    public let options: Options
    /// What each decoded sample becomes (the capture's primaries, no grade).
    public var colorPolicy: SampleColorPolicy { pass.colorPolicy }
    /// The walk over the frames: selection, loading, sampling and the ordered parallel work.
    let pass: FramePass
    /// The spacing the z-buffer splats with.
    public let spacing: Float
    /// Whether observations are weighted.
    public let weighted: Bool
    /// The cloud's estimated normals, for the incidence weight (empty when unweighted).
    let normals: [PackedNormal]
    /// The bounding boxes of the cloud's points a block at a time, for skipping runs no frame
    /// sees (`FrameProjection`).
    let blocks: CloudBlocks
    /// The arrays frames observe into, reused from frame to frame (a set a thread).
    let scratch = ObservationScratch()

    /// Creates a painting of `cloud` from `source`.
    /// - Throws: `.malformed` when the source's parts hold different numbers of frames and the
    ///   frames asked for reach past what all of them have; `.unsupported` for `best` without
    ///   weights; `.outOfRange` naming the cloud when `voxelSize` is set and a finite point lies
    ///   past the reach of its keys (`SceneStore+Reach.swift`).
    /// - Complexity: O(n log n) for the normals when weighted.
    public init(cloud: PaintCloud, source: any CaptureSource, options: Options = Options()) throws {
        self.cloud = cloud
        self.source = source
        self.options = options
        pass = try FramePass(source: source, options: options.pass, shard: nil, origin: cloud.origin, verb: "paint from")
        spacing = options.pointSpacing ?? options.voxelSize ?? cloud.estimatedSpacing()
        weighted = options.weighted ?? (options.voxelSize == nil || options.accumulate == .mean || options.accumulate == .best)
        if options.accumulate == .best, !weighted {
            throw PointPaintError(.unsupported, file: cloud.path, "expected weighted observations for accumulate best: the best observation is the one of the greatest weight")
        }
        if let size = options.voxelSize {
            let unheld = SceneStore.unheldPoints(cloud.positions, voxelSize: size)
            if let first = unheld.first {
                throw SceneStore.unheldError(first, count: unheld.count, voxelSize: size, origin: cloud.origin, file: cloud.path)
            }
        }
        normals = weighted ? cloud.estimatedNormals(spacing: spacing, threads: options.pass.threads) : []
        blocks = CloudBlocks(cloud.positions)
    }

    /// The frame indices this painting visits, in order.
    public var frameIndices: [Int] { pass.indices }

    /// Observes the frames in parallel (`FramePass.run`) and hands the observations to `body`
    /// in frame order; `body` returns false to stop. What `body` sees does not depend on the
    /// thread count.
    /// - Throws: the first error loading a frame or observing it, after the frames before it
    ///   were handed over.
    func forEachFrame(_ body: (FrameObservations) throws -> Bool) throws {
        // Run last: the observation arrays are freed once no thread can take them (the pass's
        // threads have ended when `run` returns).
        defer { scratch.releaseAll() }
        let painter = self
        try pass.run(pieces: { _ in [()] }, transform: { frame, _ in try painter.observe(frame) }, body: body)
    }

    /// Where a painting stands after a frame.
    public struct Progress: Sendable {
        /// Frames accumulated so far.
        public var done: Int
        /// Frames in all.
        public var total: Int
        /// Observations so far.
        public var observations: Int
    }

    /// Paints the cloud, calling `progress` after each frame (return false to stop early).
    /// - Returns: the painted cloud and the counts.
    /// - Throws: frame loading errors, a missing depth map under `Visibility.depth`, and
    ///   `.outOfRange` naming the cloud when no frame sees any of its points (most likely the
    ///   cloud and the capture are in different coordinate frames).
    /// - Complexity: O(frames × (points + depth pixels + z-buffer bins)).
    public func run(progress: (Progress) -> Bool = { _ in true }) throws -> PaintResult {
        let indices = frameIndices
        var accumulator = PaintAccumulator(cloud: cloud, accumulation: options.accumulate, voxelSize: options.voxelSize,
                                           spread: options.qualityProperties, weighted: weighted)
        var statistics = Statistics()
        statistics.points = cloud.count
        var done = 0
        try forEachFrame { frame in
            var colors = frame.colors
            options.gains?.apply(frame: frame.frame, to: &colors)
            accumulator.add(points: frame.points, colors: colors, weights: frame.weights, frame: frame.frame, cloud: cloud)
            statistics.add(frame.statistics)
            done += 1
            return progress(Progress(done: done, total: indices.count, observations: statistics.observations))
        }
        statistics.seen = accumulator.seenCount
        statistics.unseen = cloud.count - statistics.seen
        guard statistics.seen > 0 else {
            throw PointPaintError(.outOfRange, file: cloud.path,
                                  "no frame of \(PointPaintError.quote(source.path)) sees any of the cloud's \(cloud.count) points (\(statistics.behind) projections behind the camera, \(statistics.outside) outside the image, \(statistics.hidden) hidden): the cloud and the capture are likely in different coordinate frames")
        }
        return accumulator.result(cloud: cloud, unseen: options.unseen, statistics: statistics)
    }

    /// Solves per-frame exposure gains (`ExposureGains`) from this painting's own observations:
    /// one pass over the frames (projection, visibility and sampling as `run` does) that keeps
    /// the observations of an even subset of at most `ExposureGains.maximumPoints` points.
    /// Set the result as `Options.gains` of the painting that follows.
    /// - Throws: frame loading errors.
    public func solveExposure() throws -> ExposureGains {
        let stride = max(1, (cloud.count + ExposureGains.maximumPoints - 1) / ExposureGains.maximumPoints)
        var point: [Int] = [], frame: [Int] = [], colors: [SIMD3<Float>] = []
        try forEachFrame { observed in
            for (n, p) in observed.points.enumerated() where Int(p) % stride == 0 {
                point.append(Int(p))
                frame.append(observed.frame)
                colors.append(observed.colors[n])
            }
            return true
        }
        return ExposureGains.solve(frames: frameIndices, point: point, frame: frame, colors: colors)
    }
}
