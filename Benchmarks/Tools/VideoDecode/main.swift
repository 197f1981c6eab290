// Decodes every frame of a video to its Y′CbCr planes with PointPaint's VideoDecoder, as a
// capture replay does, so `peers/video_decode_bench.sh` can time it beside `ffmpeg -f null`.
//   VideoDecode FILE [THREADS] [--no-copy]
// --no-copy decodes every frame but copies no planes (`next(where:)` wanting none), to show
// what the copy costs. Prints the frame count and a checksum of the planes it copied.
import Foundation
import PointPaint

var arguments = Array(CommandLine.arguments.dropFirst())
let copyPlanes = !arguments.contains("--no-copy")
arguments.removeAll { $0 == "--no-copy" }
guard let path = arguments.first, arguments.count <= 2, let threads = Int(arguments.count == 2 ? arguments[1] : "2") else {
    FileHandle.standardError.write(Data("usage: VideoDecode FILE [THREADS] [--no-copy]\n".utf8))
    exit(2)
}

do {
    let decoder = try VideoDecoder(path: path, threads: threads)
    var copied = 0
    var checksum: UInt64 = 0
    while let frame = try decoder.next(where: { _ in copyPlanes }) {
        // Read a sample of each plane so the copies are used.
        let planes = frame.planes
        checksum &+= UInt64(planes.luma[planes.luma.count / 2]) &+ UInt64(planes.cb.last!) &+ UInt64(planes.cr.first!)
        copied += 1
    }
    precondition(!copyPlanes || copied == decoder.info.frameCount ?? copied, "every listed frame must be decoded")
    print("\(copied) frames copied (\(decoder.info.codec) \(decoder.info.width)x\(decoder.info.height)), checksum \(checksum)")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
