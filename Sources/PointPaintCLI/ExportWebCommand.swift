import ArgumentParser
import Foundation
import PointPaint
import PointPaintViewer

/// `pointpaint export-web`: a cloud, or a recording replayed first, as a static site that streams
/// it into any WebGL2 browser (docs/web.md).
struct ExportWebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-web",
        abstract: "Write a self-contained web page that streams a cloud (PLY, LAS, LAZ, a store, or a recording replayed first) into any browser.",
        discussion: """
            DIR gets index.html, the viewer's own JavaScript and CSS, and the cloud as a level-of-detail octree \
            (cloud/metadata.json, cloud/hierarchy.bin, cloud/nodes/N.bin), each node fetched when the view needs it. \
            Nothing is fetched from any other host. Publish DIR with any static server, for example \
            `python3 -m http.server -d DIR`, and open it; the view is given in the URL as view's options are: \
            #yaw=25&pitch=15&distance=2&edl=off. A previous export in DIR is replaced; any other non-empty DIR is refused.
            """)

    @Argument(help: "A cloud file (PLY, LAS, LAZ or a .ppstore store) or a recording to replay first (default: \(defaultCapturePath)).")
    var input: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write the site into.", valueName: "DIR"))
    var output: String
    @Option(help: "Points the page draws at most while the view is still (a quarter while it moves).")
    var budget = WebExport.Options().budget
    @Option(help: "The page's title (default: the input's name).")
    var title: String?
    @Option(help: "Read the recording as this format instead of the one its files show.")
    var sourceFormat: CaptureFormat?
    @OptionGroup(title: "Replay (when INPUT is a recording)")
    var replay: ReplayOptions

    func validate() throws {
        guard budget > 0 else { throw ValidationError("--budget must be at least 1, found \(budget)") }
    }

    func run() throws {
        try WebExport.checkDestination(output)
        let cloud: VoxelCloud, name: String
        switch ViewCommand.Source.resolve(input, sourceFormat: sourceFormat) {
        case .ply(let path):
            cloud = try readCloudFile(path)
            name = URL(fileURLWithPath: path).lastPathComponent
        case .capture(let path):
            let capture = try replay.replay(of: path, format: sourceFormat)
            var store = SceneStore(voxelSize: replay.grid.size, policy: replay.grid.policy, origin: capture.origin)
            var reporter = ProgressReporter(label: "frames", total: capture.frameIndices.count)
            let statistics = try capture.run(into: &store) { progress in
                reporter.update(done: progress.done, detail: "\(progress.voxels) voxels")
                return true
            }
            cloud = store.cloud()
            name = URL(fileURLWithPath: path).lastPathComponent
            print("replayed \(statistics.frames) frames of \(path): \(statistics.painted) samples in \(cloud.count) voxels")
        }
        var options = WebExport.Options()
        options.budget = budget
        options.title = title ?? "PointPaint — \(name)"
        let summary = try WebExport.write(cloud, to: output, options: options)
        let skipped = cloud.count - summary.points
        let perPoint = summary.points > 0 ? Double(summary.nodeBytes) / Double(summary.points) : 0
        print("wrote \(output): \(summary.points) points in \(summary.nodes) nodes (\(String(format: "%.1f", perPoint)) bytes a point)"
              + (skipped > 0 ? ", \(skipped) with a non-finite coordinate left out" : ""))
        print("serve it with: python3 -m http.server -d \(output)")
    }
}
