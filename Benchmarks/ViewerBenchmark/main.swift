// The viewer's frame time, beside `peers/cubes.c` (plain C + OpenGL drawing the same scene):
// `peers/viewer_bench.sh` builds both and runs them in turn under Xvfb.
//
//   ViewerBenchmark VOXELS [FRAMES] [--edl off] [--points-per-pixel P|inf] [--png STILL.png] [--ply CLOUD.ply]
//
// Draws a lattice of VOXELS cubes offscreen at 1280×720 through the viewer's own renderer
// (`OffscreenRenderer`, the shaded strategy, eye-dome lighting as the viewer has it by default)
// from yaw 30°, pitch 25°, and times FRAMES frames (default 20), each ended by glFinish, after 3
// untimed ones; beside the wall clock, the process's CPU time a frame (user + system, llvmpipe's
// threads included). Past the viewer's box budget (250,000) the cloud is drawn as points, as in the
// window; past its point budget (2,000,000) through the level-of-detail octree: the still frames
// (`.full`, the whole budget, as a window draws once the camera stops and as a screenshot) and
// the moving frames (`.interactive`, a quarter of it, as a window draws while the camera moves)
// are timed separately, and so is the octree's build (inside the renderer's creation) and the
// first frame (which uploads the nodes it draws). `--points-per-pixel` sets the level of detail's
// cap a pixel (`ViewerOptions.pointsPerPixel`; `inf`: the budget alone), `--png` writes the last
// still frame, to compare pictures drawn under different caps. `--ply` draws that cloud instead of
// the lattice (VOXELS is then ignored but for the report), read before the timing starts.
import Foundation
import PointPaint
import PointPaintViewer

/// The benchmark's scene, identical to `peers/cubes.c`'s: `count` voxels on a cubic lattice of
/// side ⌈∛count⌉ filling the unit cube centred at the origin, each coloured by its position, with
/// boxes of 0.8 lattice steps.
func lattice(count: Int) -> VoxelCloud {
    var side = 1
    while side * side * side < count { side += 1 }
    let step = 1 / Float(side)
    var positions = [SIMD3<Float>](), colors = [SIMD3<Float>]()
    positions.reserveCapacity(count)
    colors.reserveCapacity(count)
    for i in 0 ..< count {
        let g = SIMD3<Float>(Float(i % side), Float(i / side % side), Float(i / (side * side)))
        positions.append((g + 0.5) * step - 0.5)
        colors.append((g + 0.5) * step)
    }
    return VoxelCloud(voxelSize: 0.8 * step, positions: positions, colors: colors)
}

func milliseconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }

/// CPU time of the whole process so far (user + system, every llvmpipe thread), in milliseconds:
/// on a shared machine it moves far less than the wall clock when other work takes turns.
func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3
}

var arguments = CommandLine.arguments.dropFirst()
var options = ViewerOptions()
/// The value after `flag`, removed from the arguments with it.
@MainActor func option(_ flag: String) -> String? {
    guard let at = arguments.firstIndex(of: flag), arguments.index(after: at) < arguments.endIndex else { return nil }
    let value = arguments[arguments.index(after: at)]
    arguments.removeSubrange(at ... arguments.index(after: at))
    return value
}
if let edl = option("--edl") { options.eyeDomeLighting = edl != "off" }
if let perPixel = option("--points-per-pixel") { options.pointsPerPixel = Double(perPixel) ?? .infinity }
let png = option("--png")
let ply = option("--ply")
guard let voxels = arguments.first.flatMap({ Int($0) }), voxels >= 1,
      let frames = arguments.dropFirst().first.map({ Int($0) }) ?? 20, frames >= 1
else {
    FileHandle.standardError.write(Data("usage: ViewerBenchmark VOXELS [FRAMES] [--edl off] [--points-per-pixel P|inf] [--png STILL.png] [--ply CLOUD.ply]   (both at least 1; needs a display: xvfb-run)\n".utf8))
    exit(2)
}

options.yaw = 30
options.pitch = 25
do {
    let cloud = try ply.map { try PLYReader.readCloud(path: $0) } ?? lattice(count: voxels)
    var start = DispatchTime.now().uptimeNanoseconds
    let renderer = try OffscreenRenderer(cloud: cloud, options: options)
    defer { renderer.close() }
    let setup = milliseconds(since: start)
    start = DispatchTime.now().uptimeNanoseconds
    var statistics = try renderer.render(detail: .full)
    let first = milliseconds(since: start)
    let details: [FrameDetail] = statistics.levelOfDetail ? [.interactive, .full] : [.full]
    var lines: [String] = []
    for detail in details {
        for _ in 0 ..< 3 { try renderer.render(detail: detail) }
        var times: [Double] = []
        let cpuStart = processCPUMilliseconds()
        for _ in 0 ..< frames {
            start = DispatchTime.now().uptimeNanoseconds
            statistics = try renderer.render(detail: detail)
            times.append(milliseconds(since: start))
        }
        let mean = times.reduce(0, +) / Double(times.count)
        let cpu = (processCPUMilliseconds() - cpuStart) / Double(times.count)
        let kind = !statistics.levelOfDetail ? "" : detail == .full ? " still" : " moving"
        let drawn = statistics.levelOfDetail ? ", \(statistics.voxelsDrawn) drawn in \(statistics.nodesDrawn) nodes" : ""
        let edl = statistics.eyeDomeLighting ? " + EDL" : ""
        lines.append("ViewerBenchmark: \(voxels) voxels as \(statistics.geometry.rawValue)\(edl)\(kind) at \(options.width)x\(options.height): "
                     + String(format: "%.1f ms/frame (fastest %.1f; CPU %.1f ms/frame)", mean, times.min() ?? 0, cpu)
                     + " over \(times.count) frames\(drawn) (\(renderer.rendererName))")
    }
    lines.append("ViewerBenchmark: \(voxels) voxels: " + String(format: "%.0f ms to open and build the octree, first frame %.0f ms (uploads included)", setup, first))
    if let png {
        try renderer.render(detail: .full)
        try renderer.image().write(to: png)
    }
    lines.forEach { print($0) }
} catch {
    FileHandle.standardError.write(Data("ViewerBenchmark: \(error)\n".utf8))
    exit(1)
}
