import Foundation

/// What `pointpaint info` reports about a capture in PointPaint's format: its geometry, encoding,
/// timing, feature-point and depth statistics, size on disk, the reader's notes and any problems
/// found while reading every frame's points (and, in a wide-colour capture, sampling its frames).
public struct CaptureSummary: CaptureReport {
    /// The capture directory.
    public var directory: String
    /// The manifest's image block.
    public var image: CaptureImageInfo
    /// Number of frames.
    public var frameCount: Int
    /// Last timestamp minus first, seconds.
    public var duration: Double
    /// How frames are stored: "nv12", "png", "jpeg" or "mixed".
    public var storage: String
    /// Feature points a frame: minimum, mean, maximum.
    public var pointsPerFrame: (min: Int, mean: Double, max: Int)
    /// Total feature points.
    public var totalPoints: Int
    /// Points that project in front of their camera and inside the image.
    public var visiblePoints: Int
    /// Bytes of all files under the capture directory.
    public var bytesOnDisk: Int
    /// Problems found (empty when none).
    public var problems: [String]
    /// For captures in primaries other than sRGB: painted samples and how many of them lie
    /// outside sRGB (colours an sRGB display cannot show). Nil for sRGB captures.
    public var wideColor: (samples: Int, outsideSRGB: Int)?
    /// Frames that record feature points (the others are painted from their depth maps).
    public var framesWithPoints: Int
    /// Frames with a depth map, and the maps' sizes ("256x192 uint16-mm"); 0 and empty without.
    public var depth: (frames: Int, sizes: [String])
    /// The reader's notes (`CaptureReader.notes`): the pose convention, how frames are stored.
    public var notes: [CaptureNote]
    /// Frames the wide-colour count leaves out because they could not be sampled (an image that
    /// fails to decode: only its header is checked before), in order; each one's error is among
    /// `problems`. Empty when none, and for sRGB captures.
    public var unsampledFrames: [Int] = []

    /// Reads the capture's manifest and every point file (images are checked, not decoded). A
    /// capture in primaries other than sRGB whose files check out then has every frame sampled
    /// as a replay would, for `wideColor`; a frame that fails is counted in `unsampledFrames`.
    public init(reader: CaptureReader) {
        directory = reader.directory
        image = reader.imageInfo
        let frames = reader.manifest.frames
        frameCount = frames.count
        duration = (frames.last?.timestamp ?? 0) - (frames.first?.timestamp ?? 0)
        let kinds = Set(frames.map { frame in
            switch frame.image {
            case .nv12: "nv12"
            case .planes: "png"
            case .jpeg: "jpeg"
            }
        })
        storage = kinds.count == 1 ? kinds.first! : (kinds.isEmpty ? "none" : "mixed")
        var counts: [Int] = []
        var visible = 0
        var problems: [String] = []
        framesWithPoints = frames.count { $0.points != nil }
        let depths = frames.compactMap(\.depth)
        depth = (depths.count, Set(depths.map { "\($0.width)x\($0.height) \($0.encoding.rawValue)" }).sorted())
        notes = reader.notes
        for index in frames.indices {
            do {
                try reader.checkFiles(ofFrame: index)
                guard let points = try reader.points(at: index) else { continue }
                counts.append(points.count)
                let camera = frames[index].camera
                for p in points {
                    if case .visible = camera.project(SIMD3<Double>(p.position), width: image.width, height: image.height) { visible += 1 }
                }
            } catch {
                problems.append("\(error)")
            }
        }
        if frames.isEmpty { problems.append("the capture holds no frames") }
        totalPoints = counts.reduce(0, +)
        visiblePoints = visible
        pointsPerFrame = (counts.min() ?? 0, counts.isEmpty ? 0 : Double(totalPoints) / Double(counts.count), counts.max() ?? 0)
        if totalPoints > 0, visible * 2 < totalPoints {
            problems.append("only \(visible) of \(totalPoints) feature points project into their frame's image: check the camera transforms")
        }
        bytesOnDisk = Self.diskUsage(reader.directory)
        if image.primaries != .srgb, problems.isEmpty {
            // Sample every visible point as a replay would, counting the out-of-gamut colours. A
            // frame that cannot be sampled is left out of the count, and its error is a problem
            // (a replay would stop there); a replay that cannot start leaves no count.
            do {
                let replay = try CaptureReplay(source: reader)
                var samples = 0, outside = 0
                for index in frames.indices {
                    do {
                        let frame = try replay.samples(ofFrame: index)
                        samples += frame.colors.count
                        outside += frame.statistics.outOfSRGB
                    } catch {
                        unsampledFrames.append(index)
                        problems.append("left out of the wide-colour count: \(error)")
                    }
                }
                wideColor = (samples, outside)
            } catch {
                problems.append("no wide-colour count: \(error)")
            }
        }
        self.problems = problems
    }

    private static func diskUsage(_ directory: String) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return 0 }
        var total = 0
        while let name = walker.nextObject() as? String {
            total += FileBytes.size(of: (directory as NSString).appendingPathComponent(name)) ?? 0
        }
        return total
    }

    /// A human-readable report, one fact a line; control and invisible characters of what the
    /// capture's files say (paths, the manifest's strings in notes and problems) spelled out
    /// (`\u{1B}`).
    public var report: String {
        func bytes(_ n: Int) -> String {
            n >= 1 << 20 ? String(format: "%.1f MiB", Double(n) / 1048576) : String(format: "%.1f KiB", Double(n) / 1024)
        }
        var lines = [
            "capture:      \(directory)",
            "format:       \(CaptureFormat.pointpaint.displayName)",
            "frames:       \(frameCount), \(String(format: "%.2f", duration)) s\(frameCount > 1 && duration > 0 ? String(format: " (%.1f frames/s)", Double(frameCount - 1) / duration) : "")",
            "resolution:   \(image.width)x\(image.height), stored as \(storage)",
            "colour:       \(image.range.rawValue) range, \(image.matrix.rawValue) matrix, \(image.primaries.rawValue) primaries, \(image.chromaSiting.rawValue)-sited chroma",
        ]
        if depth.frames > 0 {
            lines.append("depth:        \(depth.frames) of \(frameCount) frames, \(depth.sizes.joined(separator: ", "))")
        }
        if framesWithPoints == 0 {
            lines.append("points/frame: none recorded" + (depth.frames > 0 ? " (frames are painted from depth)" : ""))
        } else {
            let some = framesWithPoints < frameCount ? "; \(framesWithPoints) of \(frameCount) frames record them" : ""
            lines.append("points/frame: min \(pointsPerFrame.min), mean \(String(format: "%.1f", pointsPerFrame.mean)), max \(pointsPerFrame.max) (\(totalPoints) in all, \(visiblePoints) visible in their frame\(some))")
        }
        lines.append("on disk:      \(bytes(bytesOnDisk))")
        if let wideColor {
            let share = 100 * Double(wideColor.outsideSRGB) / Double(max(wideColor.samples, 1))
            let left = unsampledFrames.isEmpty ? "" : "; \(unsampledFrames.count) of \(frameCount) frames could not be sampled (see problems)"
            lines.append("wide colour:  \(wideColor.outsideSRGB) of \(wideColor.samples) samples (\(String(format: "%.1f", share))%) lie outside sRGB\(left)")
        }
        lines.append("notes:")
        lines += notes.map { "  - \($0.text)" }
        if problems.isEmpty {
            lines.append("problems:     none")
        } else {
            lines.append("problems:     \(problems.count)")
            lines += problems.map { "  - \($0)" }
        }
        return PointPaintError.escapingInvisible(lines: lines)
    }
}
