import PointPaint

/// Everything the viewer can be told from the command line or by a caller.
public struct ViewerOptions: Sendable {
    /// The strategy shown first.
    public var strategy: StrategyKind = .shaded
    /// Window or screenshot width in pixels.
    public var width = 1280
    /// Window or screenshot height in pixels.
    public var height = 720
    /// Camera yaw in degrees (nil: suggested by the scene's shape).
    public var yaw: Float?
    /// Camera pitch in degrees (nil: suggested by the scene's shape).
    public var pitch: Float?
    /// Camera distance from the scene's centre (nil: fit to view).
    public var distance: Float?
    /// Point diameter in pixels for the points strategy.
    public var pointSize: Float = 4
    /// Box edge as a multiple of the voxel size.
    public var boxScale: Float = 1
    /// Box edge in world units, replacing the cloud's voxel size (or the inferred spacing).
    public var boxSize: Float?
    /// Background colour.
    public var background = Background.dark
    /// Whether the axes are drawn.
    public var showAxes = false
    /// Whether a ground grid is drawn under the cloud.
    public var showGrid = false
    /// The colour grade applied in the fragment shader (`Grade()` changes nothing).
    public var grade = Grade()
    /// Whether the camera turns slowly by itself.
    public var autoOrbit = false
    /// Whether drags rotate as a trackball instead of a turntable.
    public var trackball = false
    /// Boxes drawn at most; larger clouds fall back to points so frames stay interactive on a
    /// software renderer (frame times in `Benchmarks/README.md`).
    public var boxBudget = 250_000
    /// Points drawn at most: past it every k-th voxel is drawn (k = ⌈voxels / budget⌉), each
    /// √k times larger so surfaces stay covered — a level of detail that keeps a million-voxel
    /// cloud interactive on a software renderer. `Int.max` draws every voxel (screenshots do).
    public var pointBudget = 500_000
    /// Window title prefix.
    public var title = "PointPaint"
    /// Wait for the display's refresh between frames.
    public var vsync = true
    /// Folder `R` reloads shaders from.
    public var shaderDirectory = "Shaders"
    /// Folder interactive screenshots (`P`) are written to.
    public var screenshotDirectory = "."

    /// Default options.
    public init() {}
}

/// What the viewer shows.
public enum ViewerContent: Sendable {
    /// A finished cloud.
    case cloud(VoxelCloud)
    /// A cloud a replay is still painting (see `LiveCloud`).
    case live(LiveCloud)
}
