// Points from depth on one core: DepthMap.appendPoints over LiDAR-sized maps (256x192, every
// pixel high confidence, depths 0.3 to 6 m so a few pass the 5 m limit), into buffers reused as
// a replay reuses them, timed with the monotonic clock and the thread's CPU clock (the wall
// clock moves with whatever else the machine runs); prints depth pixels a second by both.
//   DepthPoints [MAPS] [STRIDE]          default 2000 maps, stride 1
import Foundation
import PointPaint

let arguments = Array(CommandLine.arguments.dropFirst())
let maps = arguments.count > 0 ? Int(arguments[0]) ?? 2000 : 2000
let stride = arguments.count > 1 ? Int(arguments[1]) ?? 1 : 1
let width = 256, height = 192

// Eight different maps, so branch prediction sees a real mix of depths.
var generator = SystemRandomNumberGenerator()
let depthMaps: [DepthMap] = (0 ..< 8).map { _ in
    let depth = (0 ..< width * height).map { i -> Float in
        let x = Float(i % width) / Float(width), y = Float(i / width) / Float(height)
        return 0.3 + 7 * (0.5 * x + 0.3 * y) + Float.random(in: -0.01 ... 0.01, using: &generator)
    }
    return DepthMap(width: width, height: height, depth: depth, confidence: [UInt8](repeating: 2, count: width * height))
}
let camera = Camera(intrinsics: CameraIntrinsics(fx: 1450, fy: 1450, cx: 960, cy: 720),
                    transform: Matrix4x4(columnMajor: [0.8, 0, -0.6, 0, 0, 1, 0, 0, 0.6, 0, 0.8, 0, 1, 1.5, -2, 1]))!
var sampling = DepthSampling()
sampling.stride = stride
var positions: [SIMD3<Float>] = [], coordinates: [SIMD2<Float>] = []
var counts = DepthPointCounts()

@MainActor func run(_ count: Int) {
    for m in 0 ..< count {
        positions.removeAll(keepingCapacity: true)
        coordinates.removeAll(keepingCapacity: true)
        counts.add(depthMaps[m % depthMaps.count].appendPoints(camera: camera, imageWidth: 1920, imageHeight: 1440, sampling: sampling,
                                                               positions: &positions, coordinates: &coordinates))
    }
}

run(50)  // warm-up: buffers reach their size
counts = DepthPointCounts()
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
let start = DispatchTime.now().uptimeNanoseconds
let cpuStart = threadCPUSeconds()
run(maps)
let cpu = threadCPUSeconds() - cpuStart
let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
precondition(counts.points > 0 && counts.tooFar > 0 && counts.points + counts.tooFar == counts.considered, "every pixel is a point or too far")
let checksum = positions.reduce(Float(0)) { $0 + $1.x + $1.y + $1.z } + coordinates.reduce(Float(0)) { $0 + $1.x + $1.y }
print(String(format: "%d maps of %dx%d (stride %d) in %.3f s wall, %.3f s CPU: %.1f M depth pixels/s wall, %.1f M/s CPU; %.1f M points/s wall (%.1f%% of pixels), checksum %.3f",
             maps, width, height, stride, seconds, cpu, Double(counts.considered) / seconds / 1e6, Double(counts.considered) / cpu / 1e6,
             Double(counts.points) / seconds / 1e6, 100 * Double(counts.points) / Double(counts.considered), Double(checksum)))
