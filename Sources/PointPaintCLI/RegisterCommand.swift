import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint register`: refines every frame's camera pose from the recording itself (or against
/// a fixed cloud) and writes a poses file for `replay --poses` and `paint --poses`.
struct RegisterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Refine each frame's camera pose so the frames agree in depth and colour (drift corrected); write poses.json for --poses.",
        discussion: """
            Geometric refinement (frames with depth): every frame's depth points, with normals \
            from the depth grid, are matched with the nearest points of the 10 frames on each \
            side and of every 10th frame, and all poses are solved together (point-to-plane \
            Gauss–Newton, Huber loss, correspondence radii 8, 4 and 2 cm). Photometric \
            refinement: the points several frames see should have the same luma in each; every \
            frame's pose steps on its image gradient, coarse to fine. With depth, colour runs \
            after depth, held by the depth's stiffness, when depth leaves some frame loose (a \
            frame facing one plane can slide along it; --method combined runs it always); with \
            --cloud, only colour, against that fixed cloud (as paint colours it). The anchor \
            frame (the first selected, or --anchor) keeps its pose. A correction past \
            --max-correction, or one that raises the frame's residual, is not applied and the \
            frame is named; a colour correction that lowers the frame's residual by less than \
            10 % is held. docs/registration.md describes the methods and the file.
            """)

    /// Which refinement runs.
    enum Method: String, CaseIterable, ExpressibleByArgument {
        /// Depth, then colour held by the depth where depth leaves some frame loose (a recording
        /// with depth); colour alone with --cloud.
        case auto
        /// Depth, then colour held by the depth, even where depth holds every frame.
        case combined
        /// Depth only.
        case geometric
        /// Colour only: against --cloud.
        case photometric
    }

    @OptionGroup var capture: CaptureArgument
    @Option(name: .shortAndLong, help: ArgumentHelp("The poses file to write.", valueName: "poses.json"))
    var output: String
    @Option(help: ArgumentHelp("Register by colour against this fixed cloud (PLY, LAS or LAZ, in the recording's world), as paint would colour it.",
                               valueName: "cloud"))
    var cloud: String?
    @Option(help: "Which refinement: auto (depth, then colour where depth leaves a frame loose; colour alone with --cloud), combined (depth, then colour always), geometric or photometric.")
    var method: Method = .auto
    @OptionGroup var selection: FrameSelectionOptions
    @Option(help: "The frame whose pose is held (default: the first selected).")
    var anchor: Int?
    @OptionGroup var depth: DepthSamplingOptions
    @Option(help: "With --cloud: which projected points a frame really sees (paint's test).")
    var visibility: CloudPainter.Visibility = .auto
    @Option(help: ArgumentHelp("Corrections larger than this are not applied.", valueName: "METRES,DEGREES"))
    var maxCorrection = "0.25,10"
    @Option(help: "Threads (default: all cores).")
    var threads: Int?

    /// `--max-correction` as metres and degrees.
    var limits: (metres: Double, degrees: Double)? {
        let parts = maxCorrection.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let m = parts[0], let d = parts[1], m > 0, d > 0, m.isFinite, d.isFinite else { return nil }
        return (m, d)
    }

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if limits == nil { throw ValidationError("--max-correction must be METRES,DEGREES, both positive; found \(maxCorrection)") }
        if !output.lowercased().hasSuffix(".json") { throw ValidationError("-o names the poses file to write: a .json file; found \(output)") }
        if cloud != nil, method == .geometric || method == .combined {
            throw ValidationError("--cloud registers by colour against a fixed cloud: leave out --method \(method.rawValue), which registers the recording's own depth")
        }
        if cloud == nil, method == .photometric {
            throw ValidationError("--method photometric registers against a fixed cloud: give --cloud (a recording with depth registers by depth and colour with --method auto)")
        }
        if cloud == nil, visibility != .auto {
            throw ValidationError("--visibility applies to --cloud: a recording's own depth points are tested against its depth maps")
        }
    }

    func run() throws {
        let source = try CaptureFormat.open(capture.path, format: capture.sourceFormat)
        var pass = FramePassOptions()
        selection.apply(to: &pass)
        if let threads { pass.threads = threads }
        if let anchor {
            guard anchor >= 0, anchor < source.frameCount else {
                throw CommandError("\(capture.path): --anchor: no frame \(anchor): the capture has \(source.frameCount)")
            }
        }
        var geometric = GeometricRegistration.Options()
        geometric.pass = pass
        depth.apply(to: &geometric.depth)
        geometric.anchor = anchor
        geometric.maximumCorrection = limits!
        var photometric = PhotometricRegistration.Options()
        photometric.pass = pass
        photometric.visibility = visibility
        photometric.anchor = anchor
        photometric.maximumCorrection = limits!
        let start = Date()
        let poses: CameraPoses
        var reports: [(String, RegistrationReport)] = []
        var colourSkipped: String?
        if let cloud {
            let result = try PhotometricRegistration.run(cloud: try PaintCloud.read(path: cloud), source: source, options: photometric)
            (poses, reports) = (result.poses, [("colour", result.report)])
        } else if method == .geometric {
            let result = try GeometricRegistration.run(source: source, options: geometric)
            (poses, reports) = (result.poses, [("depth", result.report)])
        } else {
            let result = try PoseRefinement.run(source: source, geometric: geometric, photometric: photometric, alwaysColour: method == .combined)
            (poses, reports) = (result.poses, [("depth", result.reports.geometric)])
            if let colour = result.reports.photometric {
                reports.append(("colour", colour))
            } else {
                colourSkipped = String(format: "colour: not run, depth holds every frame (to %.2f mm and %.3f° at most)",
                                       result.reports.loosest.metres * 1000, result.reports.loosest.degrees)
            }
        }
        try poses.write(to: output)
        let seconds = Date().timeIntervalSince(start)
        let stages = reports.map { name, report in
            let held = report.held > 0 ? ", \(report.held) held (gain under 10 %)" : ""
            let moves = report.corrected == 0 ? "" : String(format: " (median %.1f mm %.3f°, largest %.1f mm %.3f°)",
                                                            report.medianCorrection.metres * 1000, report.medianCorrection.degrees,
                                                            report.largestCorrection.metres * 1000, report.largestCorrection.degrees)
            return "\(name): \(report.corrected) corrected\(held)\(moves), residual \(Self.residual(report.residual.before, report.unit)) → \(Self.residual(report.residual.after, report.unit))"
        }
        let frames = reports.last?.1.frames ?? 0
        print(String(format: "registered %d frames in %.2f s; %@; wrote %@", frames, seconds, (stages + [colourSkipped].compactMap { $0 }).joined(separator: "; "), output))
        for (name, report) in reports {
            for (frame, reason) in report.refused { print("frame \(frame) kept its \(name == "colour" && reports.count > 1 ? "depth-registered" : "recorded") pose (\(name)): \(reason)") }
        }
    }

    /// A residual for the summary: millimetres for metres, else the value and its unit.
    static func residual(_ value: Double, _ unit: String) -> String {
        unit == "m" ? String(format: "%.2f mm", value * 1000) : String(format: "%.2f %@", value, unit)
    }
}
