import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint paint`: colours an existing cloud from a capture's frames.
struct PaintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paint",
        abstract: "Colour an existing point cloud (PLY, with or without colours) from every frame of a capture.",
        discussion: """
            Every point is projected into every frame; a frame that sees it (in front of the \
            camera, inside the image, and not hidden: --visibility) adds a sample, taken exactly \
            as replay takes one and averaged in linear light. By default each input point gives \
            one output vertex; --voxel-size merges them into voxels. Points no frame sees are \
            counted and kept with their own colour (or, for a cloud without colour, written black \
            with a 'painted 0' property), or left out with --unseen drop.

            Visibility: depth tests each point against the frame's depth map (agreeing within \
            max(2 cm, 2 % of the depth)); zbuffer splats the cloud itself into a coarse depth \
            buffer per frame, each point covering its spacing (--point-spacing, the voxel size, \
            or an estimate); off accepts every point in the image (replay's behaviour); auto uses \
            depth for frames with depth maps, else zbuffer.
            """)

    @Argument(help: ArgumentHelp("The cloud to paint (PLY).", valueName: "cloud"))
    var cloudPath: String
    @OptionGroup var capture: CaptureArgument
    @Option(name: .shortAndLong, help: "File to write: .ply, .las, .laz or .copc.laz; with --voxel-size also .ppstore (an exact store, to merge later).")
    var output: String
    @OptionGroup var selection: FrameSelectionOptions
    @OptionGroup var poses: PosesOption
    @OptionGroup var sampling: SamplingOptions
    @Option(help: "Voxel edge length in metres: paint voxels instead of the cloud's own points (default: one vertex a point).")
    var voxelSize: Double?
    @Option(help: "Distance between neighbouring points, metres, for the z-buffer's footprints (default: the voxel size, else estimated).")
    var pointSpacing: Double?
    @Option(help: "Which projected points a frame really sees.")
    var visibility: CloudPainter.Visibility = .auto
    @Option(help: "How a point's (or voxel's) observations combine: mean (weighted, in linear light), best (the observation of the greatest weight), latest or first.")
    var accumulate: CloudPainter.Accumulation = .mean
    @Option(help: "Weight each observation by incidence, footprint, distance from the image border and clipping (default: on, except for voxels kept latest or first, where the weight decides nothing). A .ppstore then keeps each voxel's weight sum (format version 2).")
    var weights: Switch?
    @Option(help: "Even out exposure and white balance between frames: auto solves one RGB gain per frame (linear light) from points several frames see, in a first pass over the frames.")
    var exposure: ExposureMode = .off
    @Option(help: "Points no frame sees: keep them (own colour, or flagged unpainted) or drop them. Stores of parts of a capture merge to the whole's exactly only with drop: a kept point's own colour counts as a sample of its voxel.")
    var unseen: CloudPainter.Unseen = .keep
    @OptionGroup var ply: PLYEncodingOptions
    @Flag(help: "Add 'views' (observations of each point or voxel) and 'colour_sd' (the largest channel's weighted standard deviation of its observations, linear light) to the PLY; a .ppstore keeps each voxel's sums of squares for it.")
    var qualityProperties = false
    @Flag(help: "Print only the summary, no progress.")
    var quiet = false

    func validate() throws {
        // The extension names the file: PLY, or, for voxels, LAS or an exact store. An unknown
        // one (a typo) is refused rather than given PLY bytes under a name promising otherwise.
        let kind: CloudFileKind
        do { kind = try CloudFileKind(path: output) } catch let error as PointPaintError { throw ValidationError(error.description) }
        if kind == .ppstore, voxelSize == nil {
            throw ValidationError("a .ppstore file holds voxels: give --voxel-size to paint voxels into \(output), or write a .ply or .las of the cloud's own points")
        }
        if kind != .ply, let option = ply.optionGiven {
            throw ValidationError("\(option) applies to PLY output, not to the .\(kind.rawValue) file \(output)")
        }
        if kind.isLAS, qualityProperties {
            throw ValidationError("--quality-properties adds PLY properties (or a store's sums of squares), not LAS ones: write a .ply or .ppstore instead of \(output)")
        }
        try VoxelOptions.validate(voxelSize: voxelSize)
        if kind == .ppstore, accumulate == .best {
            throw ValidationError("a .ppstore file keeps sums, not one best observation a voxel: write --accumulate best to a .ply or .las, or use mean for \(output)")
        }
        if kind == .ppstore, accumulate != .mean, weights == .on || qualityProperties {
            throw ValidationError("a .ppstore file keeps weight sums and the spread of mean voxels only: leave out --weights on and --quality-properties with --accumulate \(accumulate.rawValue) for \(output)")
        }
        if weights == .off, accumulate == .best {
            throw ValidationError("--accumulate best keeps the observation of the greatest weight: it needs --weights on")
        }
        if let pointSpacing, !(pointSpacing > 0 && Float(pointSpacing).isFinite) {
            throw ValidationError("--point-spacing must be a positive number of metres, found \(pointSpacing)")
        }
    }

    func run() throws {
        let start = Date()
        let cloud = try PaintCloud.read(path: cloudPath)
        let source = try CaptureFormat.open(capture.path, format: capture.sourceFormat)
        var options = painterOptions
        options.pass.poses = try poses.load(for: source)
        var painter = try CloudPainter(cloud: cloud, source: source, options: options)
        let indices = painter.frameIndices
        try FrameSelectionOptions.requireFrames(indices.count, of: capture.path, frameCount: source.frameCount)
        if exposure == .auto {
            options.gains = try painter.solveExposure()
            painter = try CloudPainter(cloud: cloud, source: source, options: options)
        }
        var reporter = ProgressReporter(label: "frames", total: indices.count)
        let result = try painter.run { progress in
            if !quiet { reporter.update(done: progress.done, detail: "\(progress.observations) observations") }
            return true
        }
        let kind = try CloudFileKind(path: output)
        switch kind {
        case .ply:
            try result.writePLY(to: output, encoding: ply.plyEncoding.encoding, wideColor: ply.floatColors, source: capture.path,
                                comments: ["painted \(cloudPath) with visibility \(visibility.rawValue), accumulate \(accumulate.rawValue)"],
                                qualityProperties: qualityProperties, positionType: ply.positions)
        case .las where !result.hasStore, .laz where !result.hasStore:
            // One record a point, in the cloud's order (unseen points without a colour of their
            // own are black: LAS has no 'painted' flag).
            try LASWriter(comments: ["painted \(cloudPath) with visibility \(visibility.rawValue), accumulate \(accumulate.rawValue)"])
                .write(positions: result.cloud.positions, origin: result.cloud.origin, exact: result.cloud.exactPositions,
                       colors: result.cloud.colors, to: output,
                       source: capture.path)
        case .las, .laz, .ppstore:
            // Voxels: the store, in Morton order and exact. Painting a cloud is a replay of the
            // capture onto given points, and says so in the store's provenance.
            let provenance = StoreProvenance(kind: .replay, source: capture.path, frameCount: result.statistics.frames)
            if kind.isLAS {
                try result.writeLAS(to: output, provenance: provenance)
            } else {
                try result.writeStore(to: output, provenance: provenance)
            }
        }
        let seconds = Date().timeIntervalSince(start)
        print(Self.summary(result, cloud: cloud, painter: painter, seconds: seconds, output: output))
    }

    /// The library's painting options the command line describes (without exposure gains,
    /// which are solved from the frames).
    var painterOptions: CloudPainter.Options {
        var options = CloudPainter.Options()
        selection.apply(to: &options.pass)
        sampling.apply(to: &options.pass)
        options.visibility = visibility
        options.accumulate = accumulate
        options.weighted = weights.map { $0 == .on }
        options.unseen = unseen
        options.voxelSize = voxelSize.map { Float($0) }
        options.pointSpacing = pointSpacing.map { Float($0) }
        options.qualityProperties = qualityProperties
        return options
    }

    /// The lines printed after painting.
    static func summary(_ result: PaintResult, cloud: PaintCloud, painter: CloudPainter, seconds: Double, output: String) -> String {
        let s = result.statistics
        var text = String(format: "painted %d points from %d frames in %.2f s (%@ frames/s): %d observations; %d projections skipped (%d behind the camera, %d outside the image, %d hidden)",
                          s.points, s.frames, seconds, ProgressReporter.rate(frames: s.frames, seconds: seconds), s.observations,
                          s.behind + s.outside + s.hidden, s.behind, s.outside, s.hidden)
        var tests: [String] = []
        if s.depthFrames > 0 { tests.append("\(s.depthFrames) against depth maps") }
        if s.zbufferFrames > 0 { tests.append(String(format: "%d against a z-buffer (spacing %.3g m)", s.zbufferFrames, painter.spacing)) }
        text += "; visibility: " + (tests.isEmpty ? "off" : "frames tested " + tests.joined(separator: ", "))
        if painter.weighted { text += String(format: "; observations weighted (mean weight %.2f)", s.meanWeight) }
        if s.outOfSRGB > 0 { text += String(format: ", %d (%.1f%%) observations outside sRGB", s.outOfSRGB, 100 * Double(s.outOfSRGB) / Double(max(s.observations, 1))) }
        if let gains = painter.options.gains { text += "\n" + gains.summary }
        text += "\n\(s.seen) points seen, \(s.unseen) unseen"
        if s.unseen > 0 {
            switch painter.options.unseen {
            case .drop: text += " (dropped)"
            case .keep: text += !cloud.hasColors ? " (kept, flagged 'painted 0')" : " (kept with their own colour)"
            }
        }
        if cloud.nonFinite > 0 { text += ", \(cloud.nonFinite) vertices with non-finite coordinates left out" }
        text += "\nwrote \(result.vertexCount) vertices to \(output)"
        return text
    }
}

extension CloudPainter.Visibility: ExpressibleByArgument {}
extension CloudPainter.Accumulation: ExpressibleByArgument {}

/// `--exposure`: whether `paint` and `replay` even out exposure between frames.
enum ExposureMode: String, CaseIterable, ExpressibleByArgument {
    /// Solve and apply one RGB gain per frame.
    case auto
    /// Leave the frames as recorded.
    case off
}
extension CloudPainter.Unseen: ExpressibleByArgument {}
