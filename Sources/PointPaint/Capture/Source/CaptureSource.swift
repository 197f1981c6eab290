/// A recorded capture, whichever app wrote it: frames, each with a Y′CbCr colour image, a camera
/// in ARKit's axes (camera-to-world, +x right, +y up, looking down −z; intrinsics in pixels of
/// the image as stored), and feature points, a depth map, or both.
///
/// Each format is one conformer that translates its app's conventions (axes, matrix memory
/// order, depth units, confidence scales) into these once, when it reads them, so replay, the
/// viewer and the commands never see a format. A source is immutable and `Sendable`: several
/// threads may load frames of it at once.
///
/// `frames(_:threads:)` has a default implementation that loads frames in parallel through
/// `frame(at:)`; a source whose frames must be decoded in order (a video) provides its own.
public protocol CaptureSource: Sendable {
    /// The format the source was read as.
    var format: CaptureFormat { get }
    /// The path the source was opened from (a directory or a file).
    var path: String { get }
    /// Size and colour description shared by every frame's image.
    var imageInfo: CaptureImageInfo { get }
    /// Number of frames, numbered from 0.
    var frameCount: Int { get }
    /// What the reader assumed or converted, for `info`: one line each, such as the pose
    /// convention it turned into ARKit's or the frames it skipped.
    var notes: [CaptureNote] { get }
    /// The app's own fused point cloud (a PLY file), if the recording ships one.
    var cloudFile: String? { get }
    /// When the recording's parts hold different numbers of frames (poses, images, depth maps):
    /// one line naming the counts. `frameCount` is then what all of them have, and a replay that
    /// asks for all frames is refused with this line. Nil when the counts agree.
    var countMismatch: String? { get }

    /// The time and camera of frame `index`, without loading its image or depth.
    func frameInfo(at index: Int) throws -> CaptureFrameInfo
    /// Loads frame `index` whole: image, camera, and whatever points or depth it has.
    func frame(at index: Int) throws -> CaptureFrame
    /// The JPEG file of frame `index` as recorded, when the frame is stored as one (so `import`
    /// can copy it byte for byte); nil for frames stored otherwise.
    func jpegData(at index: Int) throws -> [UInt8]?
    /// Loads the frames `indices` (increasing) for a replay, in that order, using up to
    /// `threads` threads to load ahead.
    func frames(_ indices: [Int], threads: Int) -> any CaptureFrameSequence
    /// The frames at which loading can start without decoding earlier ones, in order, when
    /// frames depend on those before them (a video: the first frame of each keyframe's group);
    /// nil when any frame loads on its own (separate files). Shards of a replay are contiguous
    /// runs that begin at these (`CaptureReplay.frameIndices`).
    func decodingStarts() throws -> [Int]?
    /// What `pointpaint info` reports about the source: by default a `CaptureSourceSummary`
    /// (the first frame read whole); PointPaint's own captures check every frame's points
    /// (`CaptureSummary`).
    func summary() throws -> any CaptureReport
}

/// A report on a capture for `pointpaint info`: the text, and the problems found (which make
/// `info` exit with status 1).
public protocol CaptureReport: Sendable {
    /// One fact a line, ready to print (invisible characters spelt out).
    var report: String { get }
    /// Problems found while reading; empty when none.
    var problems: [String] { get }
}

/// The time and camera of one frame.
public struct CaptureFrameInfo: Sendable, Equatable {
    /// Seconds, increasing from frame to frame (the recorder's own clock).
    public var timestamp: Double
    /// Intrinsics (pixels of the stored image) and pose (ARKit axes).
    public var camera: Camera

    /// Creates frame information.
    public init(timestamp: Double, camera: Camera) {
        self.timestamp = timestamp
        self.camera = camera
    }
}

/// One frame, loaded.
public struct CaptureFrame: Sendable {
    /// Position in the capture, from 0.
    public var index: Int
    /// Seconds.
    public var timestamp: Double
    /// The decoded Y′CbCr planes.
    public var image: YCbCrImage
    /// Intrinsics and pose.
    public var camera: Camera
    /// The feature points recorded with the frame (world space), or nil when the format records
    /// none.
    public var points: [FeaturePoint]?
    /// The frame's depth map, or nil when it has none.
    public var depth: DepthMap?

    /// Creates a frame.
    public init(index: Int, timestamp: Double, image: YCbCrImage, camera: Camera, points: [FeaturePoint]?, depth: DepthMap?) {
        self.index = index
        self.timestamp = timestamp
        self.image = image
        self.camera = camera
        self.points = points
        self.depth = depth
    }
}

/// Frames delivered in order, each at most once.
public protocol CaptureFrameSequence: AnyObject {
    /// The next frame, or nil after the last.
    /// - Throws: the first error loading a frame, in frame order; nothing after it is delivered.
    func next() throws -> CaptureFrame?
}
