import Foundation

/// What a video file's chosen stream is, as the container and the codec describe it.
public struct VideoStreamInfo: Sendable, Hashable {
    /// FFmpeg's short name of the codec: `h264` or `hevc`.
    public var codec: String
    /// FFmpeg's name of the decoded pixel format, such as `yuv420p` or `yuvj420p`.
    public var pixelFormat: String
    /// Luma width in pixels.
    public var width: Int
    /// Luma height in pixels.
    public var height: Int
    /// How the chroma planes are subsampled.
    public var subsampling: ChromaSubsampling
    /// How many frames the container says the stream holds; `nil` when it does not say.
    public var frameCount: Int?
    /// Frames per second (the stream's average rate, else its base rate); `nil` when unknown.
    public var frameRate: Double?
    /// The stream's duration in seconds (else the file's); `nil` when unknown.
    public var duration: Double?
    /// Matrix, range, primaries, transfer and chroma siting, with the defaults that applied.
    public var color: VideoColorDescription
    /// The rotation, in degrees counter-clockwise, that the container's display matrix asks a
    /// player to apply (NaN for a matrix that is no pure rotation); nil without one. Never
    /// applied: the pictures are read as stored, the orientation their camera's intrinsics
    /// describe.
    public var displayRotation: Double?

    /// Creates a description.
    public init(codec: String, pixelFormat: String, width: Int, height: Int, subsampling: ChromaSubsampling,
                frameCount: Int?, frameRate: Double?, duration: Double?, color: VideoColorDescription, displayRotation: Double? = nil) {
        self.codec = codec
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.subsampling = subsampling
        self.frameCount = frameCount
        self.frameRate = frameRate
        self.duration = duration
        self.color = color
        self.displayRotation = displayRotation
    }
}

extension VideoStreamInfo: CustomStringConvertible {
    /// One line for `info`: `hevc 1920×1440 yuv420p (4:2:0), 300 frames, 30 fps, 10 s; bt709, …`,
    /// and the container's display rotation, when it has one, which is not applied.
    public var description: String {
        var parts = ["\(codec) \(width)×\(height) \(pixelFormat) (\(subsampling.rawValue))"]
        if let frameCount { parts.append("\(frameCount) frame\(frameCount == 1 ? "" : "s")") }
        if let frameRate { parts.append("\(Self.short(frameRate)) fps") }
        if let duration { parts.append("\(Self.short(duration)) s") }
        var text = parts.joined(separator: ", ") + "; \(color)"
        if let displayRotation, displayRotation != 0 {
            let turn = displayRotation.isNaN ? "a display matrix that is no pure rotation" : "a display rotation of \(Self.short(displayRotation))°"
            text += "; \(turn) in the container, not applied (pictures read as stored)"
        }
        return text
    }

    /// A number with at most three decimals and no trailing zeros: 29.97, 30, 10.5.
    private static func short(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
