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
    /// Points drawn at most when the camera is still (and in screenshots): a cloud past it is
    /// drawn through its level-of-detail octree, the nodes nearest and largest on screen first
    /// until the budget is spent, each point as large as the gap its node's sampling leaves.
    /// While the camera moves a quarter of it is drawn (`interactivePointBudget`). `Int.max`
    /// draws every voxel.
    public var pointBudget = 2_000_000
    /// Whether point drawing is shaded by eye-dome lighting (outlines in unlit points).
    public var eyeDomeLighting = true
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

    /// Points drawn at most while the camera moves: a quarter of `pointBudget`, so frames stay
    /// interactive on a software renderer; the still frame after refines to the full budget.
    public var interactivePointBudget: Int { max(pointBudget / 4, min(pointBudget, 1)) }

    /// Points a frame drawn through the level of detail spends at most for each pixel of its
    /// viewport, below `pointBudget` when the viewport is small: past about one point a pixel,
    /// more points land on pixels already covered (hidden surfaces, neighbours within a pixel)
    /// and change little of the picture but cost the same to draw (see Benchmarks/README.md
    /// for the pictures compared). `.infinity` leaves only `pointBudget`.
    public var pointsPerPixel = 0.75

    /// The points a frame of `detail` draws at most through the level of detail in a viewport of
    /// `width × height`: the budget for the detail (`pointBudget` still, `interactivePointBudget`
    /// moving), at most `pointsPerPixel` a pixel; a cloud within `pointBudget` is drawn whole.
    public func levelOfDetailBudget(_ detail: FrameDetail, width: Int, height: Int) -> Int {
        let budget = detail == .full ? pointBudget : interactivePointBudget
        let pixels = Double(max(width, 1)) * Double(max(height, 1)) * pointsPerPixel
        guard pixels.isFinite, pixels < Double(budget) else { return budget }
        // A moving frame draws a quarter of what the still frame after it draws.
        let still = max(Int(pixels), 1)
        return detail == .full ? still : max(still / 4, 1)
    }

    /// Past the point budget, nodes are refined only while their grid spacing covers at least
    /// this many pixels: finer detail than the pixels show is not drawn.
    public static let minimumSpacingPixels: Float = 1.5

    /// The point budget's range for the keys that halve and double it.
    public static let pointBudgetRange = 10_000 ... 1 << 30
}

/// How much of a cloud past the point budget a frame draws.
public enum FrameDetail: Sendable {
    /// The full point budget: the camera is still, or a screenshot.
    case full
    /// The interactive budget (a quarter): the camera is moving.
    case interactive
}

/// What the viewer shows.
public enum ViewerContent: Sendable {
    /// A finished cloud.
    case cloud(VoxelCloud)
    /// A cloud a replay is still painting (see `LiveCloud`).
    case live(LiveCloud)
}
