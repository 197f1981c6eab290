import Foundation

/// Writes any capture source as a PointPaint capture (format v1) that replays to the same cloud,
/// bit for bit: JPEG frames copied byte for byte, other frames (video, PNG) as the PNG planes of
/// the very Y′CbCr codes the source decoded, depth maps exact (16-bit millimetres when that holds
/// every value, else 32-bit floats) with their confidence, feature points where the source has
/// them, cameras and times as the source converted them, and the recording's own cloud.
public enum CaptureImport {
    /// What an import wrote.
    public struct Counts: Sendable, Equatable {
        /// Frames written.
        public var frames = 0
        /// JPEG files copied as recorded.
        public var jpegFrames = 0
        /// Frames written as PNG planes.
        public var planeFrames = 0
        /// Depth maps written as 16-bit millimetre PNGs.
        public var millimetreDepthMaps = 0
        /// Depth maps written as raw 32-bit floats.
        public var floatDepthMaps = 0
        /// Confidence maps written.
        public var confidenceMaps = 0
        /// Frames with feature points.
        public var framesWithPoints = 0
        /// Whether the recording's own cloud was copied.
        public var cloud = false

        /// Creates zero counts.
        public init() {}
    }

    /// Writes every frame of `source` (`0 ..< frameCount`: the frames all of its parts have) into
    /// `directory`, which must be new or empty, loading frames with up to `threads` threads
    /// (`frames(_:threads:)`: a video is decoded once, in order). A frame `poses` lists is written
    /// with its refined pose, its feature points moved with it (`CaptureFrame.repose`). Calls
    /// `progress` with the frames written after each one.
    /// - Throws: `.malformed` when `directory` is a file or a folder that already holds files;
    ///   the source's errors for a frame that fails; the writer's errors.
    /// - Complexity: one pass over the frames: each is loaded (decoded) once.
    @discardableResult
    public static func write(_ source: any CaptureSource, to directory: String, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                             poses: CameraPoses? = nil, progress: (Int) -> Void = { _ in }) throws -> Counts {
        // Written as a hidden folder beside `directory`, renamed into place once complete: an
        // interrupted import leaves no half capture behind (the next write there removes it).
        try AtomicFile.writeDirectory(to: directory) { temporary in
            try fill(temporary, from: source, threads: threads, poses: poses, progress: progress)
        }
    }

    /// Writes every frame of `source` and its cloud into the new folder `directory`.
    private static func fill(_ directory: String, from source: any CaptureSource, threads: Int, poses: CameraPoses?,
                             progress: (Int) -> Void) throws -> Counts {
        var writer = try CaptureWriter(directory: directory, imageInfo: source.imageInfo, encoding: .png)
        var counts = Counts()
        let sequence = source.frames(Array(0 ..< source.frameCount), threads: threads)
        while var frame = try sequence.next() {
            frame.repose(poses)
            if let jpeg = try source.jpegData(at: frame.index) {
                try writer.append(jpeg: jpeg, camera: frame.camera, points: frame.points, depth: frame.depth, timestamp: frame.timestamp)
                counts.jpegFrames += 1
            } else {
                try writer.append(image: frame.image, camera: frame.camera, points: frame.points, depth: frame.depth, timestamp: frame.timestamp)
                counts.planeFrames += 1
            }
            counts.frames += 1
            if let depth = writer.frames.last?.depth {
                if depth.encoding == .millimetres16 { counts.millimetreDepthMaps += 1 } else { counts.floatDepthMaps += 1 }
                if depth.confidence != nil { counts.confidenceMaps += 1 }
            }
            if frame.points != nil { counts.framesWithPoints += 1 }
            progress(counts.frames)
        }
        if let cloud = source.cloudFile {
            try writer.writeCloud(copying: cloud)
            counts.cloud = true
        }
        try writer.finish()
        return counts
    }
}
