import Foundation

/// The frames of a recording that keeps each frame in files of its own — a JPEG (or PNG) image,
/// a depth map (a 16-bit PNG of integer depths, a float EXR or a NumPy array of millimetres) and
/// a confidence map — with the time and camera its reader found when it opened the recording.
/// Loads frames for the sources of such recordings (Polycam, 3D Scanner App, nerfstudio, Stray
/// Scanner's extracted frames, and Stray's depth maps beside its video); an immutable value,
/// safe to load from several threads at once.
struct SourceFrames: Sendable {
    /// One frame's time, camera and files.
    struct Entry: Sendable {
        /// Seconds.
        var timestamp: Double
        /// Intrinsics (pixels of the image) and pose (ARKit's axes).
        var camera: Camera
        /// The image: a `.png` is 8-bit R′G′B′ or grey, anything else a JPEG.
        var image: String
        /// The depth map: a `.exr` holds float metres, a `.npy` uint16 millimetres (NumPy's
        /// format), anything else is a 16-bit PNG.
        var depth: String?
        /// The confidence map (8-bit PNG), for a frame with a depth map.
        var confidence: String?
    }

    /// The frames, in order.
    let entries: [Entry]
    /// What every image holds.
    let imageInfo: CaptureImageInfo
    /// The size of every depth map; nil when no frame has one.
    let depthSize: (width: Int, height: Int)?
    /// Metres a unit of the depth PNGs (0.001: millimetres).
    let metresPerDepthUnit: Double
    /// The confidence maps' codes of low, medium and high.
    let confidenceCodes: [UInt8]
    /// Names the recording in errors about frame numbers.
    let file: String

    /// Creates the frame list of a recording.
    init(_ entries: [Entry], imageInfo: CaptureImageInfo, depthSize: (width: Int, height: Int)?, metresPerDepthUnit: Double = 0.001,
         confidenceCodes: [UInt8] = [0, 1, 2], file: String) {
        self.entries = entries
        self.imageInfo = imageInfo
        self.depthSize = depthSize
        self.metresPerDepthUnit = metresPerDepthUnit
        self.confidenceCodes = confidenceCodes
        self.file = file
    }

    /// The time and camera of frame `index`.
    func info(at index: Int) throws -> CaptureFrameInfo {
        let entry = try self[index]
        return CaptureFrameInfo(timestamp: entry.timestamp, camera: entry.camera)
    }

    /// Frame `index`: its image as Y′CbCr planes, its camera, and its depth map (metres) with
    /// confidence (0, 1, 2) when it has them.
    /// - Throws: `PointPaintError` at `.frame(index)` for a missing, corrupt or wrongly sized file.
    func frame(at index: Int) throws -> CaptureFrame {
        let entry = try self[index]
        let image = isPNG(entry.image) ? try pngImage(entry.image, frame: index)
            : try SourceFiles.jpegFrame(entry.image, frame: index, info: imageInfo).image
        return CaptureFrame(index: index, timestamp: entry.timestamp, image: image, camera: entry.camera, points: nil, depth: try depthMap(at: index))
    }

    /// The depth map (metres) of frame `index` with its confidence (0, 1, 2), or nil when the
    /// frame has none, without its image.
    /// - Throws: `PointPaintError` at `.frame(index)` for a missing, corrupt or wrongly sized file.
    func depthMap(at index: Int) throws -> DepthMap? {
        let entry = try self[index]
        let confidence = entry.confidence.map { SourceFiles.Confidence(path: $0, codes: confidenceCodes) }
        return try entry.depth.map { path in
            switch (path as NSString).pathExtension.lowercased() {
            case "exr": try SourceFiles.depthEXR(path, confidence: confidence, size: depthSize!, frame: index)
            case "npy": try SourceFiles.depthNPY(path, confidence: confidence, size: depthSize!, frame: index)
            default: try SourceFiles.depthPNG(path, metresPerUnit: metresPerDepthUnit, confidence: confidence, size: depthSize!, frame: index)
            }
        }
    }

    /// The JPEG file of frame `index`, byte for byte; nil for a PNG frame.
    func jpegData(at index: Int) throws -> [UInt8]? {
        let entry = try self[index]
        guard !isPNG(entry.image) else { return nil }
        return try SourceFiles.read(entry.image, limit: SourceFiles.maximumJPEGBytes, frame: index, what: "JPEG frame")
    }

    /// Entry `index`, or `.outOfRange` naming the frames there are.
    private subscript(index: Int) -> Entry {
        get throws {
            guard entries.indices.contains(index) else {
                throw PointPaintError(.outOfRange, file: file, place: .frame(index),
                                      entries.isEmpty ? "no such frame: the capture holds none" : "no such frame: expected 0 to \(entries.count - 1)")
            }
            return entries[index]
        }
    }

    private func isPNG(_ path: String) -> Bool { path.lowercased().hasSuffix(".png") }

    /// The planes of a PNG frame (grey or RGB, 8 or 16 bits, alpha ignored), converted to Y′CbCr
    /// 4:4:4 (`YCbCrPlanes.init(_:encoding:)`).
    private func pngImage(_ path: String, frame: Int) throws -> YCbCrImage {
        guard FileBytes.size(of: path) != nil else {
            throw PointPaintError(.missing, file: path, place: .frame(frame), "expected the PNG frame, found no such file")
        }
        let png: (image: PNGImage, header: PNGHeader)
        do {
            // The header first, so a PNG of another size is named as such before decoding.
            try checkPNG(PNGImage.readInfo(path: path), path, frame: frame)
            png = try PNGImage.read(path: path, maximumPixels: imageInfo.width * imageInfo.height)
        } catch var error as PointPaintError {
            error.place = .frame(frame)
            throw error
        }
        try checkPNG(png.header, path, frame: frame)
        return YCbCrImage(YCbCrPlanes(png.image))
    }

    private func checkPNG(_ header: PNGHeader, _ path: String, frame: Int) throws {
        guard header.width == imageInfo.width, header.height == imageInfo.height else {
            throw PointPaintError(.malformed, file: path, place: .frame(frame),
                                  "expected a \(imageInfo.width)x\(imageInfo.height) image (the capture's size), found \(header.width)x\(header.height)")
        }
    }
}
