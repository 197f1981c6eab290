/// How sure the depth sensor was of a depth pixel, as ARKit's `ARConfidenceLevel`.
public enum DepthConfidence: Int, Sendable, CaseIterable, Comparable {
    /// ARKit's `.low` (0).
    case low = 0
    /// ARKit's `.medium` (1).
    case medium = 1
    /// ARKit's `.high` (2).
    case high = 2

    /// The level's name on the command line and in summaries.
    public var name: String {
        switch self {
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }

    /// Orders levels from low to high.
    public static func < (a: DepthConfidence, b: DepthConfidence) -> Bool { a.rawValue < b.rawValue }
}

/// A depth map registered to its frame's colour image (as ARKit's `sceneDepth` is): the same field
/// of view on a grid of its own size, usually much smaller (256 × 192 against 1920 × 1440).
///
/// Each value is the distance in metres from the camera plane along the viewing axis (z-depth),
/// at the centre of its pixel. Zero, negative and non-finite values mean "no depth here".
public struct DepthMap: Sendable, Equatable {
    /// Width in depth pixels.
    public let width: Int
    /// Height in depth pixels.
    public let height: Int
    /// `width × height` depths in metres, row by row.
    public let depth: [Float]
    /// `width × height` confidence levels (0 low, 1 medium, 2 high), row by row; nil when the
    /// recording has none, in which case every pixel with a depth counts as high.
    public let confidence: [UInt8]?

    /// Wraps a depth map. Traps if a plane's size does not match: readers check sizes against the
    /// file first and report a mismatch as an error.
    public init(width: Int, height: Int, depth: [Float], confidence: [UInt8]? = nil) {
        precondition(width > 0 && height > 0, "a depth map must not be empty")
        precondition(depth.count == width * height, "depth values do not match \(width)x\(height)")
        precondition(confidence.map { $0.count == depth.count } ?? true, "confidence values do not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.depth = depth
        self.confidence = confidence
    }

    /// A map from millimetres as 16-bit PNGs and phone apps store them (0 = no depth).
    public init(width: Int, height: Int, millimetres: [UInt16], confidence: [UInt8]? = nil) {
        self.init(width: width, height: height, depth: millimetres.map { Float($0) * 0.001 }, confidence: confidence)
    }
}
