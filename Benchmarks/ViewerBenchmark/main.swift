// The viewer's frame time, beside `peers/cubes.c` (plain C + OpenGL drawing the same scene):
// `peers/viewer_bench.sh` builds both and runs them in turn under Xvfb.
//
//   ViewerBenchmark VOXELS [FRAMES]
//
// Draws a lattice of VOXELS cubes offscreen at 1280×720 through the viewer's own renderer
// (`OffscreenRenderer`, the shaded strategy, the interactive level of detail) from yaw 30°,
// pitch 25°, and times FRAMES frames (default 20), each ended by glFinish, after 3 untimed ones.
// Past the viewer's box budget (250,000) the cloud is drawn as points, as in the window.
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

let arguments = CommandLine.arguments.dropFirst()
guard let voxels = arguments.first.flatMap({ Int($0) }), voxels >= 1,
      let frames = arguments.dropFirst().first.map({ Int($0) }) ?? 20, frames >= 1
else {
    FileHandle.standardError.write(Data("usage: ViewerBenchmark VOXELS [FRAMES]   (both at least 1; needs a display: xvfb-run)\n".utf8))
    exit(2)
}

var options = ViewerOptions()
options.yaw = 30
options.pitch = 25
do {
    let renderer = try OffscreenRenderer(cloud: lattice(count: voxels), options: options)
    defer { renderer.close() }
    for _ in 0 ..< 3 { try renderer.render(levelOfDetail: true) }
    var times: [Double] = []
    var geometry = StrategyGeometry.boxes
    for _ in 0 ..< frames {
        let start = DispatchTime.now().uptimeNanoseconds
        geometry = try renderer.render(levelOfDetail: true)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    let mean = times.reduce(0, +) / Double(times.count)
    print("ViewerBenchmark: \(voxels) voxels as \(geometry.rawValue) at \(options.width)x\(options.height): "
          + String(format: "%.1f ms/frame (fastest %.1f)", mean, times.min() ?? 0)
          + " over \(times.count) frames (\(renderer.rendererName))")
} catch {
    FileHandle.standardError.write(Data("ViewerBenchmark: \(error)\n".utf8))
    exit(1)
}
