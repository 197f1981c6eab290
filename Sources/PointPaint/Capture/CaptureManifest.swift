/// The `image` block of a capture: what every frame's Y′CbCr planes are and mean.
public struct CaptureImageInfo: Sendable, Equatable {
    /// Width in pixels (even, at most `CaptureManifest.maximumDimension`).
    public var width: Int
    /// Height in pixels (even, at most `CaptureManifest.maximumDimension`).
    public var height: Int
    /// Code range: ARKit's `420f` is full, `420v` video.
    public var range: YCbCrRange
    /// Y′CbCr matrix.
    public var matrix: YCbCrMatrix
    /// Primaries of the decoded R′G′B′.
    public var primaries: ColorPrimaries
    /// Chroma siting (default centre).
    public var chromaSiting: ChromaSiting

    /// Creates image info; the defaults are ARKit's.
    public init(width: Int, height: Int, range: YCbCrRange = .full, matrix: YCbCrMatrix = .bt601,
                primaries: ColorPrimaries = .srgb, chromaSiting: ChromaSiting = .center) {
        self.width = width
        self.height = height
        self.range = range
        self.matrix = matrix
        self.primaries = primaries
        self.chromaSiting = chromaSiting
    }

    /// The matrix and range together.
    public var encoding: YCbCrEncoding { YCbCrEncoding(matrix: matrix, range: range) }
}

/// Where a frame's planes are stored, paths relative to the capture directory.
public enum FrameImageSource: Sendable, Equatable {
    /// One raw NV12 file: `height` rows of `lumaStride` bytes, then `height/2` rows of `chromaStride`.
    case nv12(path: String, lumaStride: Int, chromaStride: Int)
    /// Three 8-bit grey PNGs: Y at full size, Cb and Cr at half size.
    case planes(y: String, cb: String, cr: String)
}

/// One entry of the manifest's `frames` array.
public struct CaptureFrameEntry: Sendable, Equatable {
    /// Seconds, increasing from frame to frame.
    public var timestamp: Double
    /// The planes.
    public var image: FrameImageSource
    /// The feature-point file (`.xyz` or `.ply`), relative to the capture directory.
    public var points: String
    /// Intrinsics and pose.
    public var camera: Camera

    /// Creates an entry.
    public init(timestamp: Double, image: FrameImageSource, points: String, camera: Camera) {
        self.timestamp = timestamp
        self.image = image
        self.points = points
        self.camera = camera
    }
}

/// `capture.json`, version 1: the contract between recorders and readers (see Captures/README.md).
public struct CaptureManifest: Sendable, Equatable {
    /// The value of the `format` field.
    public static let formatName = "pointpaint.capture"
    /// The version this code reads and writes.
    public static let version = 1
    /// The largest width or height accepted, so a lying header cannot ask for huge buffers.
    public static let maximumDimension = 16384
    /// The largest stride accepted, in bytes.
    public static let maximumStride = 65536
    /// The longest file path accepted, in UTF-8 bytes (Linux's `PATH_MAX`).
    public static let longestPath = 4096

    /// What the frames' planes are.
    public var image: CaptureImageInfo
    /// The frames in time order.
    public var frames: [CaptureFrameEntry]

    /// Creates a manifest.
    public init(image: CaptureImageInfo, frames: [CaptureFrameEntry]) {
        self.image = image
        self.frames = frames
    }
}
