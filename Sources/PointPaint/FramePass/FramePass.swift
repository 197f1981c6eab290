import Foundation

/// The walk over a capture's frames that replay (`CaptureReplay`) and paint (`CloudPainter`)
/// share: which frames (`--frames`, `--every`, `--shard`), how they load (in order, in parallel,
/// within a memory budget), how a frame's image is sampled (one `CapturedImageSampler` setting,
/// one `SampleColorPolicy`), and the ordered parallel work on them (`run`). Replay and paint
/// bring only what differs: where a frame's points come from, and what accumulates them.
///
/// What a run hands over does not depend on the thread count; the first failing frame stops it,
/// in frame order, after everything before it was handed over (docs/DESIGN.md, "Threads").
struct FramePass: Sendable {
    /// The capture walked.
    let source: any CaptureSource
    /// The frame indices `frames` and `every` select, in order, before a shard takes its part.
    let selected: [Int]
    /// The frame indices this pass visits, in order.
    let indices: [Int]
    /// Threads that work on frames.
    let threads: Int
    /// How the sampler reads between texels.
    let interpolation: Interpolation
    /// What each decoded sample becomes: the capture's primaries and the grade.
    let colorPolicy: SampleColorPolicy
    /// Where the points the frames are matched with are measured from (`VoxelCloud.origin`,
    /// `WorldOrigin`): each frame's camera and feature points reach the callers measured from
    /// it (`Camera.measured(from:)`), so map coordinates keep their precision.
    let origin: SIMD3<Double>
    /// The poses to use instead of the recorded ones (`FramePassOptions.poses`).
    let poses: CameraPoses?

    /// A pass over `source`'s frames `options.frames` (all when nil), every `options.every`th of
    /// them, and of those only part `shard`.
    /// - Parameter verb: what the error message tells the user to do with a range ("replay",
    ///   "paint from").
    /// - Throws: `.malformed` when the source's parts hold different numbers of frames
    ///   (`countMismatch`) and the frames asked for reach past what all of them have; with a
    ///   shard, the errors of reading a video's keyframes.
    init(source: any CaptureSource, options: FramePassOptions, shard: Shard?, grade: ColorCube? = nil, origin: SIMD3<Double> = .zero,
         verb: String) throws {
        let frames = options.frames
        if let mismatch = source.countMismatch, (frames?.upperBound ?? .max) > source.frameCount {
            throw PointPaintError(.malformed, file: source.path,
                                  "\(mismatch): frames past \(source.frameCount - 1) lack a part; \(verb) a range within frames 0 to \(source.frameCount - 1)")
        }
        self.source = source
        self.origin = origin
        poses = options.poses
        threads = max(1, options.threads)
        interpolation = options.interpolation
        colorPolicy = SampleColorPolicy(primaries: source.imageInfo.primaries, grade: grade)
        let range = (frames ?? 0 ..< source.frameCount).clamped(to: 0 ..< source.frameCount)
        selected = Array(stride(from: range.lowerBound, to: range.upperBound, by: max(options.every, 1)))
        if let shard {
            if let starts = try source.decodingStarts() {
                indices = Self.contiguousShard(selected, starts: starts, shard: shard)
            } else {
                indices = selected.enumerated().compactMap { shard.contains($0.offset) ? $0.element : nil }
            }
        } else {
            indices = selected
        }
    }

    /// Part `shard` of `selected` cut into contiguous runs: the N − 1 cuts fall as near as they
    /// can to equal shares, but only where decoding can start afresh (before a selected frame
    /// with a start of `starts` since the previous selected frame), so no two shards decode the
    /// same group of frames. A video with fewer groups than shards leaves some shards empty.
    static func contiguousShard(_ selected: [Int], starts: [Int], shard: Shard) -> [Int] {
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

    /// The bytes of decoded frames a pass keeps in flight at most, roughly: frames are loaded on
    /// fewer threads, down to one at a time, when their images (and depth maps, at most the
    /// image's size) would take more (`frameThreads`).
    static let frameBudgetBytes = 256 << 20

    /// Threads that load frames: `threads`, fewer when that many frames in flight (twice the
    /// threads loading, twice as many being worked on) would pass `frameBudgetBytes`. A frame is
    /// counted at 8 bytes a pixel: up to 3 for the image's planes, 5 for a depth map's metres and
    /// confidence.
    var frameThreads: Int {
        let pixels = max(1, source.imageInfo.width * source.imageInfo.height)
        let frames = Self.frameBudgetBytes / (8 * pixels)
        return max(1, min(threads, frames / 4))
    }

    /// A sampler of `image`, one of this capture's frames, as replay and paint both read them:
    /// the capture's encoding, siting and primaries, this pass's interpolation, edges clamped.
    func sampler(of image: YCbCrImage) -> CapturedImageSampler {
        let info = source.imageInfo
        return CapturedImageSampler(image: image, encoding: info.encoding, siting: info.chromaSiting, primaries: info.primaries,
                                    interpolation: interpolation, edgePolicy: .clamp)
    }

    /// Walks the frames: loads them in order (on `frameThreads` threads), cuts each into the
    /// pieces `pieces` gives (its points in bounded batches, say), transforms every piece on up
    /// to `threads` threads, and hands the outputs to `body`, on this thread, in frame and piece
    /// order, until `body` returns false. At most twice `frameThreads` pieces are in flight
    /// beyond the frames loading, so memory stays within `frameBudgetBytes` or so.
    /// - Throws: the first error, in frame order, of loading a frame or of `transform`, after
    ///   the outputs before it were handed to `body`; `body`'s errors.
    func run<Piece, Output>(pieces: @escaping (CaptureFrame) -> [Piece], transform: @escaping (CaptureFrame, Piece) throws -> Output,
                            body: (Output) throws -> Bool) throws {
        let frames = source.frames(indices, threads: frameThreads)
        let origin = origin, poses = poses
        // The pieces of the frame being cut, in order.
        var current: CaptureFrame?, rest: ArraySlice<Piece> = []
        let pipeline = OrderedPipeline<(CaptureFrame, Piece), Output>(
            workers: threads - 1, window: threads == 1 ? 1 : 2 * frameThreads, name: "PointPaint frames",
            input: {
                while rest.isEmpty {
                    guard var frame = try frames.next() else { return nil }
                    frame.repose(poses)
                    frame.measure(from: origin)
                    current = frame
                    rest = pieces(frame)[...]
                }
                return (current!, rest.removeFirst())
            },
            transform: { try transform($0.0, $0.1) })
        while let output = try pipeline.next() {
            guard try body(output) else { return }
        }
    }
}

extension CaptureFrame {
    /// This frame with its refined pose from `poses`, when they list it: its camera's pose
    /// replaced (the intrinsics stay), its feature points (world space, placed with the recorded
    /// pose) moved by the correction. The depth map is the camera's own and stays.
    mutating func repose(_ all: CameraPoses?) {
        guard let poses = all?.frame(index) else { return }
        // A refined pose is rigid (`CameraPoses` refuses any other), so it has an inverse.
        camera = Camera(intrinsics: camera.intrinsics, transform: poses.refined)!
        guard let recorded = points else { return }
        let correction = poses.correction
        points = recorded.map { FeaturePoint(world: correction.transformPoint($0.world), id: $0.id) }
    }

    /// This frame measured from `origin`: its camera (`Camera.measured(from:)`) and feature
    /// points; its depth map is the camera's own and stays. Nothing changes for a zero origin.
    mutating func measure(from origin: SIMD3<Double>) {
        guard origin != .zero else { return }
        camera = camera.measured(from: origin)
        points = points?.measured(from: origin)
    }
}

extension [FeaturePoint] {
    /// These points with their positions measured from `origin` (`VoxelCloud.origin`); the
    /// points themselves for a zero origin.
    func measured(from origin: SIMD3<Double>) -> [FeaturePoint] {
        guard origin != .zero else { return self }
        return map { p in
            var q = p
            q.position = SIMD3<Float>(p.world - origin)
            q.exact = nil
            return q
        }
    }
}
