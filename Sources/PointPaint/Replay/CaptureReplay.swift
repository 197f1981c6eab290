import Foundation

/// Replays a capture into a `SceneStore`: for each frame, projects its feature points with its
/// camera, skips those behind the camera or outside the image, samples the colour of the rest
/// with a `CapturedImageSampler`, and adds the samples to the store. What colour a sample gets
/// (clamped to the capture's gamut, converted to linear extended sRGB, optionally graded) is
/// `SampleColorPolicy`'s decision, the same that `pointpaint sample` shows.
///
/// Frames are loaded and sampled in parallel (batches across cores), then added to the store in
/// frame order, so the result is identical whatever the thread count.
public struct CaptureReplay: Sendable {
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
        /// Only part K of N of the frames selected above: the Kth, (K+N)th, … (nil: all). The
        /// stores of all N parts merge into exactly the store of the whole replay.
        public var shard: Shard?

        /// Default options: every frame, bilinear, no grade.
        public init() {}
    }

    /// Counts of one replay.
    public struct Statistics: Sendable, Equatable {
        /// Frames replayed.
        public var frames = 0
        /// Feature points read.
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
        }
    }

    /// One frame's samples, ready for the store.
    public struct FrameSamples: Sendable {
        /// Frame index.
        public var frame: Int
        /// World positions of the painted points.
        public var positions: [SIMD3<Float>] = []
        /// Their colours, linear-light extended sRGB.
        public var colors: [SIMD3<Float>] = []
        /// Counts for this frame (`painted` is filled in when added to a store).
        public var statistics = Statistics()
    }

    /// The capture being replayed.
    public let reader: CaptureReader
    /// Frames, interpolation, grade and threads of this replay.
    public let options: Options
    /// What each decoded sample becomes: the capture's primaries and `options.grade`.
    public let colorPolicy: SampleColorPolicy

    /// Creates a replay of `reader` with `options`.
    public init(reader: CaptureReader, options: Options = Options()) {
        self.reader = reader
        self.options = options
        colorPolicy = SampleColorPolicy(primaries: reader.imageInfo.primaries, grade: options.grade)
    }

    /// The frame indices this replay visits, in order.
    public var frameIndices: [Int] {
        let range = (options.frames ?? 0 ..< reader.frameCount).clamped(to: 0 ..< reader.frameCount)
        let selected = stride(from: range.lowerBound, to: range.upperBound, by: max(options.every, 1))
        guard let shard = options.shard else { return Array(selected) }
        return selected.enumerated().compactMap { shard.contains($0.offset) ? $0.element : nil }
    }

    /// Loads frame `index` and samples the colour of each of its visible feature points.
    public func samples(ofFrame index: Int) throws -> FrameSamples {
        let info = reader.imageInfo
        let image = try reader.image(at: index)
        let points = try reader.points(at: index)
        let camera = reader.manifest.frames[index].camera
        var result = FrameSamples(frame: index)
        result.statistics.frames = 1
        result.statistics.pointsSeen = points.count
        var coordinates: [SIMD2<Float>] = []
        coordinates.reserveCapacity(points.count)
        result.positions.reserveCapacity(points.count)
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
        let sampler = CapturedImageSampler(image: image, encoding: info.encoding, siting: info.chromaSiting,
                                           primaries: info.primaries, interpolation: options.interpolation, edgePolicy: .clamp)
        sampler.sample(coordinates, into: &result.colors, space: .capture)
        result.statistics.outOfSRGB = colorPolicy.linearize(&result.colors)
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
        let frames = reader.manifest.frames
        live.publish(cloud: store.cloud(), framesDone: 0, frameCount: indices.count)
        guard live.waitIfPaused() else { return Statistics() }
        var due = Date()  // when the frame just published was due on the paced clock
        return try run(into: &store) { state, store in
            live.publish(cloud: store.cloud(), framesDone: state.done)
            guard state.done < state.total else { return true }
            if speed > 0 {
                let gap = (frames[indices[state.done]].timestamp - frames[indices[state.done - 1]].timestamp) / speed
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
    /// - Returns: the counts of the frames replayed.
    @discardableResult
    public func run(into store: inout SceneStore, afterFrame: (Progress, SceneStore) -> Bool) throws -> Statistics {
        let indices = frameIndices
        var statistics = Statistics()
        let threads = max(1, options.threads)
        let batchSize = threads == 1 ? 1 : threads * 4
        var done = 0
        var start = 0
        while start < indices.count {
            let batch = Array(indices[start ..< min(start + batchSize, indices.count)])
            start += batch.count
            let results = try sampleBatch(batch, threads: threads)
            for var frame in results {
                let accepted = store.add(points: frame.positions, colors: frame.colors, frame: frame.frame)
                frame.statistics.painted = accepted
                frame.statistics.rejected = frame.positions.count - accepted
                statistics.add(frame.statistics)
                done += 1
                if !afterFrame(Progress(statistics: statistics, done: done, total: indices.count, voxels: store.count), store) { return statistics }
            }
        }
        return statistics
    }

    /// Samples `batch` on up to `threads` threads; results in batch order, the first error (in
    /// frame order) thrown.
    private func sampleBatch(_ batch: [Int], threads: Int) throws -> [FrameSamples] {
        if threads == 1 || batch.count == 1 {
            return try batch.map { try samples(ofFrame: $0) }
        }
        var results = [Result<FrameSamples, Error>?](repeating: nil, count: batch.count)
        results.withUnsafeMutableBufferPointer { buffer in
            let out = SendablePointer(buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: batch.count) { i in
                out.base[i] = Result { try samples(ofFrame: batch[i]) }
            }
        }
        return try results.map { try $0!.get() }
    }
}
