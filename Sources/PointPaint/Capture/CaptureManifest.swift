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
    /// A JPEG file kept as it was recorded (JFIF: BT.601 full-range Y′CbCr with centred chroma),
    /// decoded straight to its planes.
    case jpeg(path: String)
}

/// How a frame's depth-map file stores its values.
public enum DepthEncoding: String, Sendable, CaseIterable, Hashable {
    /// A 16-bit greyscale PNG of whole millimetres, 0 for no depth: what phone apps store.
    case millimetres16 = "uint16-mm"
    /// Raw little-endian 32-bit floats in metres, row by row, without a header: ARKit's own
    /// values (0, negative or NaN for no depth).
    case metres32 = "float32-m"
}

/// A frame's depth map: a grid of its own size, registered to the frame's image (the same field
/// of view), and optionally its confidence map of the same size.
public struct FrameDepthSource: Sendable, Equatable {
    /// The depth file, relative to the capture directory.
    public var path: String
    /// How the file stores depths.
    public var encoding: DepthEncoding
    /// Width in depth pixels.
    public var width: Int
    /// Height in depth pixels.
    public var height: Int
    /// An 8-bit greyscale PNG of confidence levels 0, 1, 2 (ARKit's low, medium, high) at the
    /// depth map's size, relative to the capture directory; nil when there is none (every depth
    /// then counts as high).
    public var confidence: String?

    /// Creates a depth-map entry.
    public init(path: String, encoding: DepthEncoding, width: Int, height: Int, confidence: String? = nil) {
        self.path = path
        self.encoding = encoding
        self.width = width
        self.height = height
        self.confidence = confidence
    }
}

/// One entry of the manifest's `frames` array.
public struct CaptureFrameEntry: Sendable, Equatable {
    /// Seconds, increasing from frame to frame.
    public var timestamp: Double
    /// The planes.
    public var image: FrameImageSource
    /// The feature-point file (`.xyz` or `.ply`), relative to the capture directory; nil when
    /// the frame records no feature points.
    public var points: String?
    /// The depth map, or nil when the frame has none.
    public var depth: FrameDepthSource?
    /// Intrinsics and pose.
    public var camera: Camera

    /// Creates an entry.
    public init(timestamp: Double, image: FrameImageSource, points: String?, depth: FrameDepthSource? = nil, camera: Camera) {
        self.timestamp = timestamp
        self.image = image
        self.points = points
        self.depth = depth
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
    /// A point cloud of the whole scene that came with the recording (a PLY file with vertex
    /// x, y, z in world metres), relative to the capture directory; nil when there is none.
    public var cloud: String?

    /// Creates a manifest.
    public init(image: CaptureImageInfo, frames: [CaptureFrameEntry], cloud: String? = nil) {
        self.image = image
        self.frames = frames
        self.cloud = cloud
    }

    /// Whether frames of this image description may be JPEG files: JFIF's Y′CbCr is BT.601 at
    /// full range with centred chroma, so a manifest that says otherwise contradicts them.
    public var acceptsJPEGFrames: Bool {
        image.range == JPEGInfo.encoding.range && image.matrix == JPEGInfo.encoding.matrix && image.chromaSiting == JPEGInfo.siting
    }
}
