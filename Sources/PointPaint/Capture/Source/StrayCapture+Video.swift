import Foundation

extension StrayCapture {
    /// Decodes on through `decoder` to video sample `frameNumber` (copying no planes before it)
    /// and returns its image, for frame `index` of the capture.
    /// - Throws: the decoder's errors; `.malformed` at `.frame(index)` when the video ends first.
    static func videoImage(_ decoder: VideoDecoder, frameNumber: Int, index: Int, file: String) throws -> YCbCrImage {
        guard let frame = try decoder.nextImage(where: { $0 == frameNumber }) else {
            throw PointPaintError(.malformed, file: file, place: .frame(index),
                                  "expected video frame \(frameNumber), found the video's end before it"
                                      + (decoder.info.frameCount.map { " (its container lists \($0) frames)" } ?? ""))
        }
        return frame.image
    }
}

/// The frames of a Stray Scanner video, in order: one thread decodes `rgb.mp4` a few frames
/// ahead of the caller (libavcodec's frame threads beneath it), another reads the depth maps
/// beside it, and `next()` pairs them with the frames' cameras. Frames not asked for are decoded
/// (later ones depend on them) but their planes are never copied; those asked for keep the
/// decoder's luma plane (`VideoDecoder.nextImage(where:)`). Both threads are `OrderedPipeline`
/// workers: releasing the sequence stops them at their next frame.
final class StrayVideoFrames: CaptureFrameSequence {
    /// Decoded frames waiting for the caller: each about 1.5 bytes a pixel.
    static let imagesAhead = 3
    /// Depth maps read ahead (small: 256 × 192 is 240 kB with confidence).
    static let depthsAhead = 8

    private let source: StrayCapture
    private let indices: [Int]
    private let images: OrderedPipeline<YCbCrImage, YCbCrImage>
    private let depths: OrderedPipeline<DepthMap?, DepthMap?>
    private var position = 0
    private var finished = false

    /// Starts decoding `video` for frames `indices` of `source` with `decoderThreads` libavcodec
    /// threads. Indices need not increase (a smaller one restarts the decoder from the start);
    /// the first that is no frame of the capture is an error in its turn.
    init(source: StrayCapture, video: String, indices: [Int], decoderThreads: Int) {
        self.source = source
        self.indices = indices
        // The frames up to the first index that is none of the capture's (which fails in turn).
        let valid = indices.firstIndex { !(0 ..< source.frameCount).contains($0) } ?? indices.count
        let wanted = Array(indices[..<valid])
        let numbers = wanted.map { source.frameNumbers[$0] }
        // Frames that skip ahead of the next to decode (`--frames`, a shard, `--every`) start from
        // the keyframe before them, when that is past where decoding stands.
        let skips = zip(numbers, [-1] + numbers).contains { $0 > $1 + 1 }
        // The decoder's state, touched by one thread at a time (the pipeline pulls serially).
        var keyframes: VideoKeyframes?, decoder: VideoDecoder?
        var last = Int.max, next = 0
        images = OrderedPipeline(workers: 1, window: Self.imagesAhead, name: "Stray video") {
            guard next < wanted.count else { return nil }
            let (index, number) = (wanted[next], numbers[next])
            next += 1
            if skips, keyframes == nil { keyframes = try VideoKeyframes.read(path: video, ignoreEditList: true) }
            if decoder == nil || number <= last {
                decoder = try VideoDecoder(path: video, threads: decoderThreads, maximumDimension: StrayCapture.maximumDimension, ignoreEditList: true)
                last = -1
            }
            if let keyframes {
                let key = keyframes.keyframe(before: number)
                if key.frame > last + 1 { try decoder!.seek(to: key, in: keyframes) }
            }
            last = number
            return try StrayCapture.videoImage(decoder!, frameNumber: number, index: index, file: video)
        }
        let frames = source.frames
        var depthNext = 0
        depths = OrderedPipeline(workers: 1, window: Self.depthsAhead, name: "Stray depth") {
            guard depthNext < wanted.count else { return nil }
            defer { depthNext += 1 }
            return .some(try frames.depthMap(at: wanted[depthNext]))
        }
    }

    /// The next frame, or nil after the last.
    /// - Throws: the first error loading a frame (the decoder's, a depth map's, or an index that
    ///   is no frame of the capture), in frame order; nothing after it is delivered.
    func next() throws -> CaptureFrame? {
        guard !finished, position < indices.count else { return nil }
        do {
            let index = indices[position]
            let info = try source.frameInfo(at: index)
            guard let image = try images.next(), let depth = try depths.next() else {
                // Both producers deliver every valid index: an early end is a bug.
                preconditionFailure("a frame producer ended before frame \(index)")
            }
            position += 1
            return CaptureFrame(index: index, timestamp: info.timestamp, image: image, camera: info.camera, points: nil, depth: depth)
        } catch {
            finished = true
            images.cancel()
            depths.cancel()
            throw error
        }
    }
}
