/// One recorded frame, loaded: its Y′CbCr image, camera and feature points.
public struct Frame: Sendable {
    /// Position in the capture, from 0.
    public var index: Int
    /// Seconds.
    public var timestamp: Double
    /// The planes.
    public var image: YCbCrImage
    /// Intrinsics and pose.
    public var camera: Camera
    /// The feature points ARKit reported with this frame, world space.
    public var points: [FeaturePoint]

    /// Creates a frame.
    public init(index: Int, timestamp: Double, image: YCbCrImage, camera: Camera, points: [FeaturePoint]) {
        self.index = index
        self.timestamp = timestamp
        self.image = image
        self.camera = camera
        self.points = points
    }
}
