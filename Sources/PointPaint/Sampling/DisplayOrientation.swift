/// How the device was held when a coordinate was taken on its screen, relative to the camera
/// sensor. ARKit's `capturedImage` is always in the sensor's orientation, which matches
/// `landscapeRight` (home button or USB port on the right).
public enum DisplayOrientation: String, Sendable, CaseIterable, Hashable {
    /// The sensor's own orientation: no rotation.
    case landscapeRight = "landscape-right"
    /// Upright phone: the image appears rotated 90° clockwise.
    case portrait
    /// Upside-down phone: the image appears rotated 90° counter-clockwise.
    case portraitUpsideDown = "portrait-upside-down"
    /// Landscape the other way round: the image appears rotated 180°.
    case landscapeLeft = "landscape-left"

    /// Whether the displayed image has its width and height swapped relative to the sensor.
    public var swapsAxes: Bool { self == .portrait || self == .portraitUpsideDown }

    /// Maps scalar display coordinates (0…1, origin top-left of the displayed image) onto scalar
    /// sensor-image coordinates.
    @inlinable
    public func sensorCoordinates(_ d: SIMD2<Double>) -> SIMD2<Double> {
        switch self {
        case .landscapeRight: d
        case .portrait: SIMD2(d.y, 1 - d.x)
        case .portraitUpsideDown: SIMD2(1 - d.y, d.x)
        case .landscapeLeft: SIMD2(1 - d.x, 1 - d.y)
        }
    }

    /// The inverse of `sensorCoordinates`.
    @inlinable
    public func displayCoordinates(_ s: SIMD2<Double>) -> SIMD2<Double> {
        switch self {
        case .landscapeRight: s
        case .portrait: SIMD2(1 - s.y, s.x)
        case .portraitUpsideDown: SIMD2(s.y, 1 - s.x)
        case .landscapeLeft: SIMD2(1 - s.x, 1 - s.y)
        }
    }
}

/// Maps a point on a screen (or any viewport) that shows the camera image onto the image,
/// as ARKit's `ARFrame.displayTransform(for:viewportSize:)` does: the image is rotated to the
/// display orientation and scaled to fill the viewport (aspect fill, centred, overflow cropped).
public struct DisplayMapping: Sendable, Hashable {
    /// How the device was held.
    public var orientation: DisplayOrientation
    /// Scale from viewport-normalised to rotated-image-normalised coordinates, per axis (≤ 1).
    private var scale: SIMD2<Double>

    /// A mapping for an image of `imageWidth` × `imageHeight` (sensor orientation) shown in a
    /// viewport of `viewport` points, or filling it exactly when `viewport` is nil.
    public init(orientation: DisplayOrientation, imageWidth: Int, imageHeight: Int, viewport: SIMD2<Double>? = nil) {
        self.orientation = orientation
        guard let viewport, viewport.x > 0, viewport.y > 0 else {
            scale = SIMD2(1, 1)
            return
        }
        let rotated = orientation.swapsAxes
            ? SIMD2(Double(imageHeight), Double(imageWidth)) : SIMD2(Double(imageWidth), Double(imageHeight))
        let fill = max(viewport.x / rotated.x, viewport.y / rotated.y)
        scale = viewport / (rotated * fill)
    }

    /// Scalar image coordinates of a viewport point given as a fraction of the viewport size
    /// (a tap's location divided by the screen size).
    @inlinable
    public func imageCoordinates(viewport p: SIMD2<Double>) -> SIMD2<Double> {
        orientation.sensorCoordinates(0.5 + (p - 0.5) * scaleFactor)
    }

    @usableFromInline var scaleFactor: SIMD2<Double> { scale }
}
