import Foundation

extension CaptureSource {
    /// No mismatch, unless a source says otherwise.
    public var countMismatch: String? { nil }

    /// No JPEG files, unless a source stores frames as JPEG.
    public func jpegData(at index: Int) throws -> [UInt8]? { nil }

    /// Every frame loads on its own, unless a source decodes a video.
    public func decodingStarts() throws -> [Int]? { nil }

    /// Loads `indices` through `frame(at:)`, a batch of frames at a time on up to `threads`
    /// threads, and hands them out in order.
    public func frames(_ indices: [Int], threads: Int) -> any CaptureFrameSequence {
        ParallelFrameLoader(source: self, indices: indices, threads: threads)
    }
}

/// Loads frames of a random-access source in parallel batches, delivering them in order; the
/// first failure (in frame order) is thrown and ends the sequence.
final class ParallelFrameLoader: CaptureFrameSequence {
    private let source: any CaptureSource
    private let indices: [Int]
    private let threads: Int
    private var loaded: [CaptureFrame] = []
    private var position = 0
    private var nextToLoad = 0
    /// The first failure, thrown once the frames before it have been delivered.
    private var pending: Error?
    private var finished = false

    init(source: any CaptureSource, indices: [Int], threads: Int) {
        self.source = source
        self.indices = indices
        self.threads = max(threads, 1)
    }

    func next() throws -> CaptureFrame? {
        guard !finished else { return nil }
        if position == loaded.count {
            if let pending {
                finished = true
                throw pending
            }
            guard nextToLoad < indices.count else { return nil }
            loadBatch()
            if loaded.isEmpty { return try next() }
        }
        defer { position += 1 }
        return loaded[position]
    }

    private func loadBatch() {
        let batch = Array(indices[nextToLoad ..< min(nextToLoad + (threads == 1 ? 1 : 2 * threads), indices.count)])
        nextToLoad += batch.count
        var results = [Result<CaptureFrame, Error>?](repeating: nil, count: batch.count)
        if batch.count == 1 {
            results[0] = Result { try source.frame(at: batch[0]) }
        } else {
            let source = self.source
            results.withUnsafeMutableBufferPointer { buffer in
                let out = SendablePointer(buffer.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: batch.count) { i in
                    out.base[i] = Result { try source.frame(at: batch[i]) }
                }
            }
        }
        loaded = []
        position = 0
        for result in results {
            switch result! {
            case .success(let frame): loaded.append(frame)
            case .failure(let error):
                pending = error
                return
            }
        }
    }
}
