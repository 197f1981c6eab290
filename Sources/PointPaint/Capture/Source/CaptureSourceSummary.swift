import Foundation

/// What `pointpaint info` reports about an app's recording: the format it was read as, its
/// frames and their time span, the images' size and colour description, the depth maps' size,
/// where points come from, and every note the reader made (the pose convention it turned into
/// ARKit's, the files it skipped).
public struct CaptureSourceSummary: CaptureReport {
    /// The path the recording was opened from.
    public var path: String
    /// The format it was read as.
    public var format: CaptureFormat
    /// Frames that can be replayed.
    public var frameCount: Int
    /// The first and last frame's time, seconds on the recorder's clock; nil without frames.
    public var timeSpan: (first: Double, last: Double)?
    /// Size and colour description of every frame's image.
    public var image: CaptureImageInfo
    /// How the first frame's image is stored: "JPEG file" when the source keeps it as one.
    public var storage: String
    /// The first frame's depth-map size and whether it has confidence; nil when it has none.
    public var depth: (width: Int, height: Int, confidence: Bool)?
    /// Feature points of the first frame, or nil when the format records none.
    public var featurePoints: Int?
    /// The recording's own point cloud.
    public var cloudFile: String?
    /// The parts' counts, when they disagree.
    public var countMismatch: String?
    /// The reader's notes, one line each.
    public var notes: [CaptureNote]

    /// Reads the source's description, the first and last frame's times, and the first frame
    /// whole (its depth map and points).
    /// - Throws: the first frame's errors.
    /// - Complexity: one frame loaded (for a video, the first frame decoded).
    public init(source: any CaptureSource) throws {
        path = source.path
        format = source.format
        frameCount = source.frameCount
        image = source.imageInfo
        cloudFile = source.cloudFile
        countMismatch = source.countMismatch
        notes = source.notes
        storage = "decoded planes"
        if frameCount > 0 {
            timeSpan = (try source.frameInfo(at: 0).timestamp, try source.frameInfo(at: frameCount - 1).timestamp)
            let frame = try source.frame(at: 0)
            depth = frame.depth.map { ($0.width, $0.height, $0.confidence != nil) }
            featurePoints = frame.points?.count
            if try source.jpegData(at: 0) != nil { storage = "JPEG files (decoded straight to Y′CbCr planes)" }
        }
    }

    /// None: what the summary reads either loads or throws.
    public var problems: [String] { [] }

    /// A human-readable report, one fact a line, the notes last.
    public var report: String {
        var lines = [
            "capture:      \(path)",
            "format:       \(format.displayName)",
        ]
        if let (first, last) = timeSpan {
            let duration = last - first
            let rate = frameCount > 1 && duration > 0 ? String(format: " (%.1f frames/s)", Double(frameCount - 1) / duration) : ""
            lines.append("frames:       \(frameCount), \(String(format: "%.2f", duration)) s\(rate), times \(String(format: "%.3f", first)) to \(String(format: "%.3f", last)) s")
        } else {
            lines.append("frames:       none")
        }
        lines.append("resolution:   \(image.width)x\(image.height), \(storage)")
        lines.append("colour:       \(image.range.rawValue) range, \(image.matrix.rawValue) matrix, \(image.primaries.rawValue) primaries, \(image.chromaSiting.rawValue)-sited chroma")
        if let depth {
            lines.append("depth:        \(depth.width)x\(depth.height)" + (depth.confidence ? " with confidence" : " without confidence (all taken as high)") + " (frame 0)")
        } else {
            lines.append("depth:        none in frame 0")
        }
        let points = featurePoints.map { "\($0) feature points in frame 0" } ?? (depth == nil ? "none recorded" : "from depth (no feature points recorded)")
        lines.append("points:       \(points)")
        if let cloudFile { lines.append("cloud:        \(cloudFile) (replay --points cloud)") }
        if let countMismatch, frameCount > 0 { lines.append("counts:       \(countMismatch): replay frames 0 to \(frameCount - 1) with --frames") }
        lines.append("notes:")
        lines += notes.map { "  - \($0.text)" }
        // Notes and paths are what the recording's files say: nothing in them may clear a
        // terminal or split a line.
        return PointPaintError.escapingInvisible(lines: lines)
    }
}
