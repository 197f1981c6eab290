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
/// decoder's luma plane (`VideoDecoder.nextImage(where:)`). Releasing the sequence stops
/// both threads at their next frame.
final class StrayVideoFrames: CaptureFrameSequence {
    /// Decoded frames waiting for the caller: each about 1.5 bytes a pixel.
    static let imagesAhead = 3
    /// Depth maps read ahead (small: 256 × 192 is 240 kB with confidence).
    static let depthsAhead = 8

    private let source: StrayCapture
    private let indices: [Int]
    private let images: OrderedProducer<YCbCrImage>
    private let depths: OrderedProducer<DepthMap?>
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
        images = OrderedProducer(capacity: Self.imagesAhead, name: "Stray video") { emit in
            let keyframes = skips ? try VideoKeyframes.read(path: video, ignoreEditList: true) : nil
            var decoder: VideoDecoder?
            var last = Int.max
            for (index, number) in zip(wanted, numbers) {
                if decoder == nil || number <= last {
                    decoder = try VideoDecoder(path: video, threads: decoderThreads, maximumDimension: StrayCapture.maximumDimension, ignoreEditList: true)
                    last = -1
                }
                if let keyframes {
                    let key = keyframes.keyframe(before: number)
                    if key.frame > last + 1 { try decoder!.seek(to: key, in: keyframes) }
                }
                last = number
                guard emit(try StrayCapture.videoImage(decoder!, frameNumber: number, index: index, file: video)) else { return }
            }
        }
        let frames = source.frames
        depths = OrderedProducer(capacity: Self.depthsAhead, name: "Stray depth") { emit in
            for index in wanted {
                guard emit(try frames.depthMap(at: index)) else { return }
            }
        }
    }

    deinit {
        images.cancel()
        depths.cancel()
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
