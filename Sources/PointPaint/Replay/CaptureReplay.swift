import Foundation

/// Replays a capture — any `CaptureSource` — into a `SceneStore`: for each frame, finds its
/// points (its feature points, the world points of its depth map, or the recording's own cloud,
/// as `Options.points` says), projects them with its camera, skips those behind the camera or
/// outside the image, samples the colour of the rest with a `CapturedImageSampler`, and adds the
/// samples to the store. What colour a sample gets (clamped to the capture's gamut, converted to
/// linear extended sRGB, optionally graded) is `SampleColorPolicy`'s decision, the same that
/// `pointpaint sample` shows.
///
/// Frames come from the source's own frame sequence (`CaptureSource.frames(_:threads:)`: loaded
/// in parallel batches, or decoded in order on a thread of their own for a video), are sampled
/// in parallel a batch at a time, then added to the store in frame order, so the result is
/// identical whatever the thread count.
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
        /// Frames to replay (indices into the capture); all when nil.
        public var frames: Range<Int>?
        /// Replay every Nth frame of the range (1 = all).
        public var every = 1
        /// How the sampler reads between texels.
        public var interpolation: Interpolation = .bilinear
        /// A colour cube applied to each sample's encoded sRGB colour (clamped to 0…1 first, so a
        /// grade gives up wide colour; `SampleColorPolicy.grade`), or nil.
        public var grade: ColorCube?
        /// Threads that load and sample frames; defaults to the active processor count.
        public var threads = ProcessInfo.processInfo.activeProcessorCount
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
    public let colorPolicy: SampleColorPolicy
    /// The recording's own cloud, read once, for `PointSource.cloud`; nil otherwise.
    private let cloud: [FeaturePoint]?
    /// The frames of `options.shard` when the source decodes a video: a contiguous run
    /// (`contiguousShard`); nil for round-robin shards or none.
    private let contiguousFrames: [Int]?

    /// Creates a replay of `source` with `options`, reading the recording's own cloud when the
    /// points come from it.
    /// - Throws: `.malformed` when the source's parts hold different numbers of frames
    ///   (`countMismatch`) and the frames asked for (all, when `options.frames` is nil) reach past
    ///   what all of them have; `.missing` for `PointSource.cloud` when the source ships no cloud;
    ///   the cloud file's errors; with a shard, the errors of reading a video's keyframes.
    public init(source: any CaptureSource, options: Options = Options()) throws {
        self.source = source
        self.options = options
        colorPolicy = SampleColorPolicy(primaries: source.imageInfo.primaries, grade: options.grade)
        if let mismatch = source.countMismatch, (options.frames?.upperBound ?? .max) > source.frameCount {
            throw PointPaintError(.malformed, file: source.path,
                                  "\(mismatch): frames past \(source.frameCount - 1) lack a part; replay a range within frames 0 to \(source.frameCount - 1)")
        }
        if options.points == .cloud {
            guard let file = source.cloudFile else {
                throw PointPaintError(.missing, file: source.path,
                                      "expected the recording's own point cloud to replay, but this \(source.format.displayName) recording has none")
            }
            let bytes = try FileBytes.read(file, expected: "the recording's point cloud (PLY)")
            cloud = try PLYFeaturePoints.parse(bytes, file: file)
        } else {
            cloud = nil
        }
        if let shard = options.shard, let starts = try source.decodingStarts() {
            let selected = Self.selectedFrames(options, frameCount: source.frameCount)
            contiguousFrames = Self.contiguousShard(selected, starts: starts, shard: shard)
        } else {
            contiguousFrames = nil
        }
    }

    /// The frame indices `options.frames` and `options.every` select, in order, before
    /// `options.shard` takes its part of them.
    package var selectedFrames: [Int] { Self.selectedFrames(options, frameCount: source.frameCount) }

    /// The frame indices `options.frames` and `options.every` select of `frameCount` frames.
    private static func selectedFrames(_ options: Options, frameCount: Int) -> [Int] {
        let range = (options.frames ?? 0 ..< frameCount).clamped(to: 0 ..< frameCount)
        return Array(stride(from: range.lowerBound, to: range.upperBound, by: max(options.every, 1)))
    }

    /// The frame indices this replay visits, in order. A shard of frames that load on their own
    /// takes every Nth selected frame (K, K+N, …); a shard of a video recording takes a
    /// contiguous run of them (`contiguousShard`), so that N shards decode the video about once
    /// in all. Either way the shards' stores merge into exactly the whole replay's.
    public var frameIndices: [Int] {
        if let contiguousFrames { return contiguousFrames }
        let selected = selectedFrames
        guard let shard = options.shard else { return selected }
        return selected.enumerated().compactMap { shard.contains($0.offset) ? $0.element : nil }
    }

    /// Part `shard` of `selected` cut into contiguous runs: the N − 1 cuts fall as near as they
    /// can to equal shares, but only where decoding can start afresh (before a selected frame
    /// with a start of `starts` since the previous selected frame), so no two shards decode the
    /// same group of frames. A video with fewer groups than shards leaves some shards empty.
    package static func contiguousShard(_ selected: [Int], starts: [Int], shard: Shard) -> [Int] {
        // Positions q where a cut may fall: a start lies in (selected[q − 1], selected[q]].
        var cuts: [Int] = []
        var s = 0
        for q in 1 ..< max(selected.count, 1) {
            while s < starts.count, starts[s] <= selected[q - 1] { s += 1 }
            if s < starts.count, starts[s] <= selected[q] { cuts.append(q) }
        }
        var bounds = [0]
        for j in 1 ..< shard.count {
            let ideal = j * selected.count / shard.count
            // The nearest allowed cut (the lower on a tie), never before the previous bound.
            let nearest = cuts.min { abs($0 - ideal) < abs($1 - ideal) || (abs($0 - ideal) == abs($1 - ideal) && $0 < $1) }
            bounds.append(max(bounds.last!, nearest ?? selected.count))
        }
        bounds.append(selected.count)
        return Array(selected[bounds[shard.index] ..< max(bounds[shard.index], bounds[shard.index + 1])])
    }

    /// The bytes of decoded frames a replay keeps in flight at most, roughly: frames are loaded
    /// on fewer threads, down to one at a time, when their images (and depth maps, at most the
    /// image's size) would take more (`frameThreads`).
    package static let frameBudgetBytes = 256 << 20

    /// Threads that load frames: `options.threads`, fewer when that many frames in flight (two
    /// batches of twice the threads) would pass `frameBudgetBytes`. A frame is counted at 8
    /// bytes a pixel: up to 3 for the image's planes, 5 for a depth map's metres and confidence.
    package var frameThreads: Int {
        let pixels = max(1, source.imageInfo.width * source.imageInfo.height)
        let frames = Self.frameBudgetBytes / (8 * pixels)
        return max(1, min(options.threads, frames / 4))
    }

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
        if let points = givenPoints(of: frame) {
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
        let sampler = CapturedImageSampler(image: frame.image, encoding: info.encoding, siting: info.chromaSiting,
                                           primaries: info.primaries, interpolation: options.interpolation, edgePolicy: .clamp)
        sampler.sample(coordinates, into: &result.colors, space: .capture)
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
    /// With more than one thread, a thread of the replay's own loads and samples the next batch
    /// of frames while this one adds the last batch to the store (which only this thread
    /// touches), so the store's work overlaps the decoding. A frame of a large depth map is
    /// added a band at a time (`Options.depthPiecePixels`), which gives the same store as adding it
    /// whole (`SceneStore.add(points:colors:frame:)` is the same as one sample at a time).
    /// - Returns: the counts of the frames replayed.
    /// - Throws: the first error loading a frame, after the frames before it have been added.
    @discardableResult
    public func run(into store: inout SceneStore, afterFrame: (Progress, SceneStore) -> Bool) throws -> Statistics {
        let indices = frameIndices
        let threads = max(1, options.threads)
        var statistics = Statistics()
        var done = 0
        // Adds a batch in frame order; false once `afterFrame` stops the replay.
        func add(_ batch: [FrameSamples]) -> Bool {
            for var frame in batch {
                options.gains?.apply(frame: frame.frame, to: &frame.colors)
                let accepted = store.add(points: frame.positions, colors: frame.colors, frame: frame.frame)
                frame.statistics.painted = accepted
                frame.statistics.rejected = frame.positions.count - accepted
                statistics.add(frame.statistics)
                guard frame.endsFrame else { continue }
                done += 1
                if !afterFrame(Progress(statistics: statistics, done: done, total: indices.count, voxels: store.count), store) { return false }
            }
            return true
        }
        if threads == 1 {
            try produceBatches(indices, threads: 1, frameThreads: 1, emit: add)
            return statistics
        }
        let frameThreads = frameThreads
        let producer = OrderedProducer<[FrameSamples]>(capacity: 1, name: "PointPaint replay") { [self] emit in
            try produceBatches(indices, threads: threads, frameThreads: frameThreads, emit: emit)
        }
        defer { producer.cancel() }
        while let batch = try producer.next() {
            guard add(batch) else { break }
        }
        return statistics
    }

    /// Loads `indices` through the source's frame sequence on `frameThreads` threads a batch at
    /// a time (one frame on one thread, else twice `frameThreads`), samples the batch's pieces
    /// (`pieces(of:)`) on up to `threads` threads, twice `threads` pieces at a time, and hands
    /// them to `emit` in order until it returns false.
    /// - Throws: the first error loading a frame, after the pieces of the frames before it.
    private func produceBatches(_ indices: [Int], threads: Int, frameThreads: Int, emit: ([FrameSamples]) -> Bool) throws {
        let batchSize = frameThreads == 1 ? 1 : frameThreads * 2
        let piecesAtOnce = threads == 1 ? 1 : threads * 2
        let sequence = source.frames(indices, threads: frameThreads)
        while true {
            var batch: [CaptureFrame] = []
            var failure: Error?
            do {
                while batch.count < batchSize, let frame = try sequence.next() { batch.append(frame) }
            } catch {
                failure = error
            }
            let work = batch.flatMap { frame in pieces(of: frame).map { (frame: frame, rows: $0) } }
            for start in Swift.stride(from: 0, to: work.count, by: piecesAtOnce) {
                let group = work[start ..< min(start + piecesAtOnce, work.count)]
                if !emit(sample(Array(group), threads: threads)) { return }
            }
            if let failure { throw failure }
            if batch.count < batchSize { return }
        }
    }

    /// Samples `work` on up to `threads` threads; results in order.
    private func sample(_ work: [(frame: CaptureFrame, rows: Range<Int>?)], threads: Int) -> [FrameSamples] {
        if threads == 1 || work.count == 1 {
            return work.map { samples(of: $0.frame, rows: $0.rows) }
        }
        var results = [FrameSamples?](repeating: nil, count: work.count)
        results.withUnsafeMutableBufferPointer { buffer in
            let out = SendablePointer(buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: work.count) { i in
                out.base[i] = samples(of: work[i].frame, rows: work[i].rows)
            }
        }
        return results.map { $0! }
    }
}
