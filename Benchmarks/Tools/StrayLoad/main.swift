// Loads every frame of a Stray Scanner recording with StrayCapture's sequential loader, as a
// replay does before it samples (rgb.mp4 decoded in order on the loader's thread, the planes
// made into the capture's image, depth maps read beside it), so `peers/stray_load_bench.sh` can
// time it beside `ffmpeg -threads 2 -f null`.
//   StrayLoad DIR [THREADS]              load every frame; prints the count and a checksum
//   StrayLoad --make DIR VIDEO           make a recording around VIDEO (a frame a row, 256x192
//                                        depth and confidence PNGs, camera_matrix.csv)
import Foundation
import PointPaint

let arguments = Array(CommandLine.arguments.dropFirst())
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

do {
    if arguments.first == "--make" {
        guard arguments.count == 3 else { fail("usage: StrayLoad --make DIR VIDEO") }
        let dir = arguments[1], video = arguments[2]
        let info = try VideoDecoder(path: video, threads: 1, ignoreEditList: true).info
        guard let count = info.frameCount else { fail("\(video): the container lists no frame count") }
        for folder in ["depth", "confidence"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
        }
        if !FileManager.default.fileExists(atPath: dir + "/rgb.mp4") {
            try FileManager.default.createSymbolicLink(atPath: dir + "/rgb.mp4", withDestinationPath: video)
        }
        let f = 0.8 * Double(info.width), cx = Double(info.width) / 2, cy = Double(info.height) / 2
        var odometry = "timestamp, frame, x, y, z, qx, qy, qz, qw, fx, fy, cx, cy, distortion_center_x, distortion_center_y\n"
        for frame in 0 ..< count {
            // A camera moving along x, turned 180° about x from ARKit's (OpenCV's axes).
            odometry += "\(1000 + Double(frame) / 30), \(String(format: "%06d", frame)), \(Float(frame) * 0.01), 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, "
                + "\(Float(f)), \(Float(f)), \(Float(cx)), \(Float(cy)), , \n"
            let depth = (0 ..< 256 * 192).map { UInt16(800 + ($0 % 256) + frame) }
            try PNGImage(width: 256, height: 192, channels: 1, samples16: depth).write(to: dir + String(format: "/depth/%06d.png", frame))
            try PNGImage(width: 256, height: 192, channels: 1, samples: [UInt8](repeating: 2, count: 256 * 192))
                .write(to: dir + String(format: "/confidence/%06d.png", frame))
        }
        try Data(odometry.utf8).write(to: URL(fileURLWithPath: dir + "/odometry.csv"))
        try Data("\(Float(f)), 0.0, \(Float(cx))\n0.0, \(Float(f)), \(Float(cy))\n0.0, 0.0, 1.0".utf8)
            .write(to: URL(fileURLWithPath: dir + "/camera_matrix.csv"))
        print("\(dir): \(count) frames around \(video)")
    } else {
        guard let dir = arguments.first, arguments.count <= 2, let threads = Int(arguments.count == 2 ? arguments[1] : "2") else {
            fail("usage: StrayLoad DIR [THREADS] | StrayLoad --make DIR VIDEO")
        }
        let source = try StrayCapture(path: dir)
        let frames = source.frames(Array(0 ..< source.frameCount), threads: threads)
        var loaded = 0
        var checksum: UInt64 = 0
        while let frame = try frames.next() {
            // Read a little of each part so nothing is optimised away.
            checksum &+= UInt64(frame.image.lumaValue(x: frame.index % frame.image.width, y: frame.image.height / 2))
            checksum &+= UInt64(frame.depth?.depth[frame.index].bitPattern ?? 0) &+ UInt64(frame.depth?.confidence?[frame.index] ?? 0)
            loaded += 1
        }
        precondition(loaded == source.frameCount && source.countMismatch == nil, "every frame must load")
        print("\(loaded) frames loaded (\(source.imageInfo.width)x\(source.imageInfo.height)), checksum \(checksum)")
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
