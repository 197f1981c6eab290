import Foundation

extension CaptureSource {
    /// No mismatch, unless a source says otherwise.
    public var countMismatch: String? { nil }

    /// No JPEG files, unless a source stores frames as JPEG.
    public func jpegData(at index: Int) throws -> [UInt8]? { nil }

    /// Every frame loads on its own, unless a source decodes a video.
    public func decodingStarts() throws -> [Int]? { nil }

    /// The description any source gives, and its first frame read whole.
    public func summary() throws -> any CaptureReport { try CaptureSourceSummary(source: self) }

    /// Loads `indices` through `frame(at:)`, a batch of frames at a time on up to `threads`
    /// threads, and hands them out in order.
    public func frames(_ indices: [Int], threads: Int) -> any CaptureFrameSequence {
        ParallelFrameLoader(source: self, indices: indices, threads: threads)
    }
}

/// Loads frames of a random-access source on up to `threads` threads (`OrderedPipeline`, at most
/// twice as many frames in flight), delivering them in order; the first failure (in frame order)
/// is thrown and ends the sequence.
final class ParallelFrameLoader: CaptureFrameSequence {
    private let pipeline: OrderedPipeline<Int, CaptureFrame>

    init(source: any CaptureSource, indices: [Int], threads: Int) {
        let threads = max(threads, 1)
        var position = 0
        pipeline = OrderedPipeline(workers: threads - 1, window: threads == 1 ? 1 : 2 * threads, name: "PointPaint frames",
                                   input: {
                                       guard position < indices.count else { return nil }
                                       defer { position += 1 }
                                       return indices[position]
                                   },
                                   transform: { try source.frame(at: $0) })
    }

    func next() throws -> CaptureFrame? { try pipeline.next() }
}
