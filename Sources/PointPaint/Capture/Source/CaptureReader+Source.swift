/// A capture in PointPaint's own format is one of the capture sources: replay, the viewer and
/// the commands read it as they read an app's recording, with nothing to convert (its cameras
/// are ARKit's, its images Y′CbCr planes or JPEG files, its depth metres).
extension CaptureReader: CaptureSource {
    /// Every frame's points checked, and a wide-colour capture's frames sampled (`CaptureSummary`).
    public func summary() throws -> any CaptureReport { CaptureSummary(reader: self) }

    /// Always `.pointpaint`.
    public var format: CaptureFormat { .pointpaint }

    /// The capture directory.
    public var path: String { directory }

    /// The manifest's cloud file, resolved against the capture directory (checked when the
    /// reader checked its files); nil when the manifest names none.
    public var cloudFile: String? { manifest.cloud.map(resolve) }

    /// What the capture holds, one line each: how its frames are stored, which frames have
    /// feature points and depth maps, and that poses are used as stored.
    /// - Complexity: O(frames).
    public var notes: [CaptureNote] {
        let frames = manifest.frames
        var notes: [CaptureNote] = [.poses("poses: camera-to-world with ARKit camera axes, intrinsics in pixels of the image, used as stored (format v1)")]
        var kinds: [(String, Int)] = []
        for (name, count) in [
            ("NV12", frames.count { if case .nv12 = $0.image { true } else { false } }),
            ("PNG planes", frames.count { if case .planes = $0.image { true } else { false } }),
            ("JPEG (decoded straight to its Y′CbCr planes)", frames.count { if case .jpeg = $0.image { true } else { false } }),
        ] where count > 0 { kinds.append((name, count)) }
        if !kinds.isEmpty {
            notes.append(.colour("images: " + kinds.map { "\(SourceFiles.count($0.1, "frame")) as \($0.0)" }.joined(separator: ", ")))
        }
        let withPoints = frames.count { $0.points != nil }
        notes.append(.points(withPoints == frames.count ? "feature points: every frame"
            : withPoints == 0 ? "feature points: none recorded" : "feature points: \(withPoints) of \(SourceFiles.count(frames.count, "frame"))"))
        let depths = frames.compactMap(\.depth)
        if depths.isEmpty {
            notes.append(.depth("depth: none"))
        } else {
            let sizes = Set(depths.map { "\($0.width)x\($0.height) \($0.encoding.rawValue)" }).sorted().joined(separator: ", ")
            let confidence = depths.count { $0.confidence != nil }
            notes.append(.depth("depth: \(depths.count) of \(SourceFiles.count(frames.count, "frame")) (\(sizes)); "
                         + (confidence == depths.count ? "confidence 0, 1, 2" : confidence == 0 ? "no confidence maps (all taken as high)"
                             : "\(confidence) with confidence maps")))
        }
        if let cloud = manifest.cloud { notes.append(.points("cloud: \(cloud)")) }
        return notes
    }
}
