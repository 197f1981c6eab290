import ArgumentParser
import PointPaint
import PointPaintViewer

/// How `view` shows the cloud: strategy, size, camera, sizes, background and overlays.
struct ViewerDisplayOptions: ParsableArguments {
    @Option(help: "How voxels are drawn: shaded or flat boxes, points, the wide-gamut highlight, or a heat map of each voxel's observations (views: a store's sample counts, a PLY's 'views') or of their colours' spread (spread: a PLY's 'colour_sd'; both written by paint --quality-properties).")
    var strategy: StrategyKind = .shaded
    @Option(help: "Window or screenshot size, WIDTHxHEIGHT.")
    var size = PixelSize(width: 1280, height: 720)
    @Option(help: "Camera yaw in degrees (0 looks along −z).")
    var yaw: Float?
    @Option(help: "Camera pitch in degrees (positive looks down).")
    var pitch: Float?
    @Option(help: "Camera distance from the cloud's centre (default: fit to view).")
    var distance: Float?
    @Option(help: "Point diameter in pixels (points strategy).")
    var pointSize: Float = 4
    @Option(help: "Box edge as a multiple of the voxel size.")
    var boxScale: Float = 1
    @Option(help: "Box edge in world units (default: the voxel size, else inferred from the point spacing).")
    var boxSize: Float?
    @Option(help: "Boxes drawn at most before falling back to points.")
    var boxBudget = 250_000
    @Option(help: ArgumentHelp(
        "Points drawn at most (keys , and . halve and double it; a quarter while the camera moves).",
        discussion: "A cloud with more points is drawn through a level-of-detail octree built when it loads (about 0.1 s per million points on one core of the reference machine: Benchmarks/README.md), nearest and largest-on-screen nodes first, and then at most 0.75 points a pixel of the window (691,200 at 1280x720): past that, more points mostly land on pixels already drawn."))
    var budget = 2_000_000
    @Option(help: "Eye-dome lighting of points: dark outlines where depth steps, as Potree and CloudCompare shade unlit clouds (key E).")
    var edl: Switch = .on
    @Option(help: "Background colour.")
    var background: Background = .dark
    @Flag(help: "Draw the axes.")
    var axes = false
    @Flag(help: "Draw a ground grid.")
    var grid = false
    @Flag(help: "Turn the camera slowly.")
    var autoOrbit = false
    @Flag(help: "Rotate as a trackball instead of a turntable.")
    var trackball = false

    /// The largest window or screenshot side, in pixels: an 8K screenshot fits, and the
    /// framebuffers, the read-back and the PNG rows stay near 1 GiB at 8192 × 8192.
    static let largestSide = 8192

    func validate() throws {
        guard size.width <= Self.largestSide, size.height <= Self.largestSide else {
            throw ValidationError("--size must be at most \(Self.largestSide)x\(Self.largestSide), found \(size)")
        }
        guard pointSize > 0, boxScale > 0, boxBudget >= 0 else { throw ValidationError("sizes must be positive") }
        guard budget >= 1 else { throw ValidationError("--budget must be at least 1, found \(budget)") }
        if let boxSize, !(boxSize > 0 && boxSize.isFinite) { throw ValidationError("--box-size must be a positive number, found \(boxSize)") }
    }

    /// The viewer options these describe, grading with `grade`, titled `title`.
    func viewerOptions(grade: Grade, title: String) -> ViewerOptions {
        var options = ViewerOptions()
        options.strategy = strategy
        options.width = size.width
        options.height = size.height
        options.yaw = yaw
        options.pitch = pitch
        options.distance = distance
        options.pointSize = pointSize
        options.boxScale = boxScale
        options.boxSize = boxSize
        options.boxBudget = boxBudget
        options.pointBudget = budget
        options.eyeDomeLighting = edl == .on
        options.background = background
        options.showAxes = axes
        options.showGrid = grid
        options.autoOrbit = autoOrbit
        options.trackball = trackball
        options.grade = grade
        options.title = title
        return options
    }
}

/// An option that is on or off.
enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
}
