import Foundation

/// Replays a capture — any `CaptureSource` — into a `SceneStore`: for each frame, finds its
/// points (its feature points, the world points of its depth map, or the recording's own cloud,
/// as `Options.points` says), projects them with its camera, skips those behind the camera or
/// outside the image, samples the colour of the rest with a `CapturedImageSampler`, and adds the
/// samples to the store. What colour a sample gets (clamped to the capture's gamut, converted to
/// linear extended sRGB, optionally graded) is `SampleColorPolicy`'s decision, the same that
/// `pointpaint sample` shows.
///
/// The walk over the frames is the `FramePass` paint takes too: frames come from the source's own
/// frame sequence (`CaptureSource.frames(_:threads:)`), are sampled in parallel, and are added to
/// the store in frame order, so the result is identical whatever the thread count.
public struct CaptureReplay: Sendable {
    /// Where a frame's points come from.
    public enum PointSource: String, Sendable, CaseIterable, Hashable {
        /// The frame's feature points when it has any, else its depth map.
        case auto
        /// The frame's feature points only (none for a frame without).
        case features
        /// The frame's depth map only (none for a frame without).
        case depth
        /// The recording's own point cloud (`CaptureSource.cloudFile`), projected into every frame.
        case cloud
    }

    /// What to replay and how.
    public struct Options: Sendable {
        /// Which frames, how they are read, and on how many threads.
        public var pass = FramePassOptions()
        /// A colour cube applied to each sample's encoded sRGB colour (clamped to 0…1 first, so a
        /// grade gives up wide colour; `SampleColorPolicy.grade`), or nil.
        public var grade: ColorCube?
        /// Only part K of N of the frames selected above: the Kth, (K+N)th, …, or for a video a
        /// contiguous run of them (`frameIndices`); nil: all. The
        /// stores of all N parts merge into exactly the store of the whole replay.
        public var shard: Shard?
        /// Where each frame's points come from.
        public var points: PointSource = .auto
        /// Which depth pixels become points, for frames whose points come from depth.
        public var depth = DepthSampling()
        /// Per-frame RGB gains applied to every sample (linear light) before it is added to the
        /// store (`solveExposure(voxelSize:)`), or nil for none.
        public var gains: ExposureGains?
        /// The most depth pixels one piece of a frame turns into points at once. A frame whose
        /// depth map has more (after the stride) is sampled a band of rows at a time, each band
        /// its own `FrameSamples`, so the points, coordinates and colours in memory stay within
        /// about 3 MB a piece whatever the map's size (a constant 8192×6144 depth PNG is a few
        /// hundred kilobytes, and its 50 M points would take 2.4 GB at once). The store is the
        /// same whatever the value; tests set it low to cut small maps into bands.
        package var depthPiecePixels = 1 << 16

        /// Default options: every frame, bilinear, no grade, feature points or else depth (high
        /// confidence, up to 5 m, every pixel).
        public init() {}
    }

    /// Counts of one replay.
    public struct Statistics: Sendable, Equatable {
        /// Frames replayed.
        public var frames = 0
        /// Points looked at: feature points or cloud points read, and points made from depth.
        public var pointsSeen = 0
        /// Points that got a colour and went into the store.
        public var painted = 0
        /// Points at or behind their camera.
        public var behind = 0
        /// Points in front of the camera but outside the image.
        public var outside = 0
        /// Points the store refused (positions outside its key range).
        public var rejected = 0
        /// Painted samples whose colour lies outside sRGB (wide-colour captures).
        public var outOfSRGB = 0
        /// Frames whose points came from their depth map.
        public var depthFrames = 0
        /// What happened to the depth pixels of those frames.
        public var depth = DepthPointCounts()

        /// Creates zero counts.
        public init() {}

        mutating func add(_ other: Statistics) {
            frames += other.frames
            pointsSeen += other.pointsSeen
            painted += other.painted
            behind += other.behind
            outside += other.outside
            rejected += other.rejected
            outOfSRGB += other.outOfSRGB
            depthFrames += other.depthFrames
            depth.add(other.depth)
        }
    }

    /// One frame's samples, or a piece of them, ready for the store.
    public struct FrameSamples: Sendable {
        /// Frame index.
        public var frame: Int
        /// Whether these samples end their frame: false for every band of a large depth map
        /// (`Options.depthPiecePixels`) but the last.
        public var endsFrame = true
        /// World positions of the painted points.
        public var positions: [SIMD3<Float>] = []
        /// Their colours, linear-light extended sRGB.
        public var colors: [SIMD3<Float>] = []
        /// Counts for this frame (`painted` is filled in when added to a store).
        public var statistics = Statistics()
    }

    /// The capture being replayed.
    public let source: any CaptureSource
    /// Frames, interpolation, grade, threads and points of this replay.
    public let options: Options
    /// What each decoded sample becomes: the capture's primaries and `options.grade`.
    public var colorPolicy: SampleColorPolicy { pass.colorPolicy }
    /// The walk over the frames: selection, loading, sampling and the ordered parallel work.
    let pass: FramePass
    /// The recording's own cloud, read once, for `PointSource.cloud`; nil otherwise.
    private let cloud: [FeaturePoint]?
    /// That cloud's positions and blocks, for the projection kernel, when every position is
    /// finite (the kernel's condition; a cloud with others projects point by point).
    private let cloudProjection: (positions: [SIMD3<Float>], blocks: CloudBlocks)?

    /// Creates a replay of `source` with `options`, reading the recording's own cloud when the
    /// points come from it.
    /// - Throws: `.malformed` when the source's parts hold different numbers of frames
    ///   (`countMismatch`) and the frames asked for (all, when `options.pass.frames` is nil) reach past
    ///   what all of them have; `.missing` for `PointSource.cloud` when the source ships no cloud;
    ///   the cloud file's errors; with a shard, the errors of reading a video's keyframes.
    public init(source: any CaptureSource, options: Options = Options()) throws {
        self.source = source
        self.options = options
        let origin = try Self.origin(of: source)
        self.origin = origin
        pass = try FramePass(source: source, options: options.pass, shard: options.shard, grade: options.grade, origin: origin,
                             verb: "replay")
        if options.points == .cloud {
            guard let file = source.cloudFile else {
                throw PointPaintError(.missing, file: source.path,
                                      "expected the recording's own point cloud to replay, but this \(source.format.displayName) recording has none")
            }
            let bytes = try FileBytes.read(file, expected: "the recording's point cloud (PLY)")
            let points = try PLYFeaturePoints.parse(bytes, file: file).measured(from: origin)
            let positions = points.map(\.position)
            cloud = points
            cloudProjection = positions.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
                ? (positions, CloudBlocks(positions)) : nil
        } else {
            cloud = nil
            cloudProjection = nil
        }
    }

    /// Where the replay's points are measured from, in whole metres (`WorldOrigin`): zero for a
    /// capture near the world origin, else the rounded centre of all its frames' camera
    /// positions, the same for every shard. Its store must have this origin
    /// (`SceneStore.origin`).
    public let origin: SIMD3<Double>

    /// The origin of `source`'s points: `WorldOrigin.choose` over every frame's camera position
    /// (frames whose pose cannot be read are left out: their error comes in its place).
    /// - Throws: `.outOfRange` for a camera past `WorldOrigin.maxCoordinate`.
    static func origin(of source: any CaptureSource) throws -> SIMD3<Double> {
        let cameras = (0 ..< source.frameCount).lazy.compactMap { try? source.frameInfo(at: $0).camera.position }
        return try WorldBounds(finite: cameras)?.origin(file: source.path) ?? .zero
    }

    /// The frame indices `options.pass.frames` and `options.pass.every` select, in order, before
    /// `options.shard` takes its part of them.
    package var selectedFrames: [Int] { pass.selected }

    /// The frame indices this replay visits, in order. A shard of frames that load on their own
    /// takes every Nth selected frame (K, K+N, …); a shard of a video recording takes a
    /// contiguous run of them (`FramePass.contiguousShard`), so that N shards decode the video
    /// about once in all. Either way the shards' stores merge into exactly the whole replay's.
    public var frameIndices: [Int] { pass.indices }

    /// Loads frame `index` and samples it (`samples(of:)`).
    public func samples(ofFrame index: Int) throws -> FrameSamples {
        samples(of: try source.frame(at: index))
    }

    /// The points `frame` is painted with: its feature points or the recording's cloud; nil when
    /// they come from its depth map.
    private func givenPoints(of frame: CaptureFrame) -> [FeaturePoint]? {
        switch options.points {
        case .features: frame.points ?? []
        case .cloud: cloud ?? []
        case .depth: frame.depth == nil ? [] : nil
        case .auto: frame.points.flatMap { $0.isEmpty ? nil : $0 } ?? (frame.depth == nil ? frame.points ?? [] : nil)
        }
    }

    /// The pieces `frame` is sampled in: the whole frame (nil), or bands of its depth map's rows
    /// of at most `Options.depthPiecePixels` pixels each, top to bottom.
    package func pieces(of frame: CaptureFrame) -> [Range<Int>?] {
        guard givenPoints(of: frame) == nil, let depth = frame.depth else { return [nil] }
        let step = max(options.depth.stride, 1)
        let columns = (depth.width + step - 1) / step
        let rows = max(1, options.depthPiecePixels / columns) * step
        guard rows < depth.height else { return [nil] }
        return Swift.stride(from: 0, to: depth.height, by: rows).map { $0 ..< min($0 + rows, depth.height) }
    }

    /// Samples the colour of each of `frame`'s points that its camera sees: its feature points
    /// or the recording's cloud projected into its image, or the points of its depth map, which
    /// lie in the image by construction (each at its depth pixel's centre). With `rows`, only
    /// the points of those rows of the depth map (a piece, `pieces(of:)`); the frame then counts
    /// in the statistics with its first piece.
    public func samples(of frame: CaptureFrame, rows: Range<Int>? = nil) -> FrameSamples {
        let info = source.imageInfo
        var result = FrameSamples(frame: frame.index)
        let first = rows.map { $0.lowerBound == 0 } ?? true
        result.statistics.frames = first ? 1 : 0
        result.endsFrame = frame.depth.map { depth in rows.map { $0.upperBound >= depth.height } ?? true } ?? true
        var coordinates: [SIMD2<Float>] = []
        if options.points == .cloud, let (positions, blocks) = cloudProjection {
            // The recording's cloud through the projection kernel: the candidates, coordinates
            // and counts of `Camera.project` point by point (`FrameProjection`), runs of points no
            // frame pixel reaches counted a block at a time.
            result.statistics.pointsSeen = positions.count
            let projection = FrameProjection(positions: positions, blocks: blocks, camera: frame.camera, width: info.width, height: info.height)
            result.statistics.behind = projection.behind
            result.statistics.outside = projection.outside
            result.positions = projection.candidates.map { positions[Int($0)] }
            coordinates = projection.coordinates
        } else if let points = givenPoints(of: frame) {
            result.statistics.pointsSeen = points.count
            coordinates.reserveCapacity(points.count)
            result.positions.reserveCapacity(points.count)
            let camera = frame.camera
            for p in points {
                switch camera.project(SIMD3<Double>(p.position), width: info.width, height: info.height) {
                case .visible(let s, let t):
                    coordinates.append(SIMD2(Float(s), Float(t)))
                    result.positions.append(p.position)
                case .behind:
                    result.statistics.behind += 1
                case .outside:
                    result.statistics.outside += 1
                }
            }
        } else if let depth = frame.depth {
            let counts = depth.appendPoints(camera: frame.camera, imageWidth: info.width, imageHeight: info.height, sampling: options.depth,
                                            rows: rows, positions: &result.positions, coordinates: &coordinates)
            result.statistics.pointsSeen = counts.points
            result.statistics.depthFrames = first ? 1 : 0
            result.statistics.depth = counts
        }
        pass.sampler(of: frame.image).sample(coordinates, into: &result.colors, space: .capture)
        result.statistics.outOfSRGB = colorPolicy.linearizeBatch(&result.colors)
        return result
    }

    /// Where a replay stands after a frame.
    public struct Progress: Sendable {
        /// Counts so far.
        public var statistics: Statistics
        /// Frames added so far.
        public var done: Int
        /// Frames in all.
        public var total: Int
        /// Voxels in the store now.
        public var voxels: Int
    }

    /// Replays into `store`, calling `progress` after each frame has been added; `progress`
    /// returns false to stop early.
    /// - Returns: the counts of the frames replayed.
    @discardableResult
    public func run(into store: inout SceneStore, progress: (Progress) -> Bool = { _ in true }) throws -> Statistics {
        try run(into: &store) { state, _ in progress(state) }
    }

    /// Replays into `store` and shows it live: after each frame, publishes the store's cloud to
    /// `live`, then waits while the viewer has paused the replay (one frame per step). Stops
    /// early, without an error, when the viewer cancels (its window closed). Calls
    /// `live.finish()` when done, also when a frame fails (the error is rethrown).
    /// The store ends exactly as `run(into:progress:)` leaves it.
    /// - Parameter speed: paces the frames to the capture's timestamps: 1 is real time, 2 twice as
    ///   fast; 0 (the default) replays as fast as frames can be processed. A replay that falls
    ///   behind does not hurry to catch up, and a pause moves the clock on.
    /// - Returns: the counts of the frames replayed.
    /// - Complexity: O(voxels) per frame on top of the replay, to build the published cloud.
    @discardableResult
    public func run(into store: inout SceneStore, publishingTo live: LiveCloud, speed: Double = 0) throws -> Statistics {
        defer { live.finish() }
        let indices = frameIndices
        let times = speed > 0 ? try indices.map { try source.frameInfo(at: $0).timestamp } : []
        live.publish(cloud: store.cloud(), framesDone: 0, frameCount: indices.count)
        guard live.waitIfPaused() else { return Statistics() }
        var due = Date()  // when the frame just published was due on the paced clock
        return try run(into: &store) { state, store in
            live.publish(cloud: store.cloud(), framesDone: state.done)
            guard state.done < state.total else { return true }
            if speed > 0 {
                let gap = (times[state.done] - times[state.done - 1]) / speed
                due = max(due.addingTimeInterval(gap), Date())
                guard live.pace(seconds: due.timeIntervalSinceNow) else { return false }
            }
            guard live.waitIfPaused() else { return false }
            due = max(due, Date())
            return true
        }
    }

    /// Replays into `store`, calling `afterFrame` with the progress and the store itself after
    /// each frame has been added; `afterFrame` returns false to stop early.
    ///
    /// Other threads load and sample the frames after the one being added (`FramePass.run`),
    /// while this one adds to the store (which only this thread touches), so the store's work
    /// overlaps the decoding. A frame of a large depth map is added a band at a time
    /// (`Options.depthPiecePixels`), which gives the same store as adding it whole
    /// (`SceneStore.add(points:colors:frame:)` is the same as one sample at a time).
    /// - Returns: the counts of the frames replayed.
    /// - Throws: the first error loading a frame, after the frames before it have been added;
    ///   `.outOfRange` naming the frame when one of its points lies past the store's reach
    ///   (`SceneStore+Reach.swift`).
    @discardableResult
    public func run(into store: inout SceneStore, afterFrame: (Progress, SceneStore) -> Bool) throws -> Statistics {
        let total = frameIndices.count
        var statistics = Statistics()
        var done = 0
        try forEachPiece { piece in
            var frame = piece
            options.gains?.apply(frame: frame.frame, to: &frame.colors)
            let accepted = store.add(points: frame.positions, colors: frame.colors, frame: frame.frame)
            try store.requireEveryPointHeld(place: .frame(frame.frame))
            frame.statistics.painted = accepted
            frame.statistics.rejected = frame.positions.count - accepted
            statistics.add(frame.statistics)
            guard frame.endsFrame else { return true }
            done += 1
            return afterFrame(Progress(statistics: statistics, done: done, total: total, voxels: store.count), store)
        }
        return statistics
    }

    /// Samples the frames' pieces (`pieces(of:)`) in parallel and hands them to `body` in order
    /// until it returns false.
    /// - Throws: the first error loading a frame, after the pieces of the frames before it.
    func forEachPiece(_ body: (FrameSamples) throws -> Bool) throws {
        let replay = self
        try pass.run(pieces: { replay.pieces(of: $0) }, transform: { replay.samples(of: $0, rows: $1) }, body: body)
    }
}
