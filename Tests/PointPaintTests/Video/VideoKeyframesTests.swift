import Foundation
import Testing
@testable import PointPaint

/// Seeking to a keyframe: the keyframes read from the packets alone, and the frames decoded
/// after a seek the same, index and planes, as decoding from the start gives them, for lossy
/// H.264 and HEVC with B-frames (pictures out of decode order) and a keyframe every few frames.
@Suite struct VideoKeyframesTests {
    static let encoders: [(String, [String])] = [
        ("h264", ["-c:v", "libx264", "-g", "5", "-keyint_min", "5", "-bf", "2", "-sc_threshold", "0", "-crf", "30"]),
        ("hevc", ["-c:v", "libx265", "-x265-params", "keyint=5:min-keyint=5:bframes=2:scenecut=0:log-level=error", "-crf", "30"]),
    ]

    @Test("frames after a seek are the frames of a decode from the start", arguments: encoders.map(\.0))
    func seekingIsExact(codec: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("video.mp4")
        let encoder = Self.encoders.first { $0.0 == codec }!.1
        try VideoFixture.encode(VideoFixture.pattern(width: 64, height: 48, count: 17), to: path, encoder + ["-pix_fmt", "yuv420p"])
        let keyframes = try #require(try VideoKeyframes.read(path: path))
        #expect(keyframes.frames == [0, 5, 10, 15], "\(keyframes.frames)")
        #expect(keyframes.keyframe(before: 9).frame == 5 && keyframes.keyframe(before: 10).frame == 10 && keyframes.keyframe(before: 0).frame == 0)

        let whole = try VideoDecoder(path: path, threads: 2)
        var reference: [VideoFrame] = []
        while let frame = try whole.next() { reference.append(frame) }
        #expect(reference.count == 17)
        for key in keyframes.keyframes {
            let decoder = try VideoDecoder(path: path, threads: 2)
            try decoder.seek(to: key, in: keyframes)
            var after: [VideoFrame] = []
            while let frame = try decoder.next() { after.append(frame) }
            #expect(after.map(\.index) == Array(key.frame ..< 17))
            #expect(zip(after, reference[key.frame...]).allSatisfy { $0.planes == $1.planes && $0.time == $1.time }, "from \(key.frame)")
        }
        // Seeking back, then forward again on one decoder.
        let decoder = try VideoDecoder(path: path, threads: 1)
        try decoder.seek(to: keyframes.keyframes[3], in: keyframes)
        #expect(try decoder.next()?.index == 15)
        try decoder.seek(to: keyframes.keyframes[1], in: keyframes)
        #expect(try decoder.next(where: { $0 == 7 })?.planes == reference[7].planes)
    }

    @Test("contiguous shards cut only where a group of frames starts, and cover the selection once")
    func contiguousShards() {
        let selected = Array(0 ..< 100)
        let starts = Array(stride(from: 0, to: 100, by: 30))  // 0, 30, 60, 90
        let parts = (0 ..< 3).map { FramePass.contiguousShard(selected, starts: starts, shard: Shard(index: $0, count: 3)!) }
        #expect(parts.map(\.first) == [0, 30, 60] && parts.flatMap { $0 } == selected)
        // More shards than groups: some stay empty, none shares a group.
        let eight = (0 ..< 8).map { FramePass.contiguousShard(selected, starts: starts, shard: Shard(index: $0, count: 8)!) }
        #expect(eight.flatMap { $0 } == selected && eight.filter { !$0.isEmpty }.count == 4)
        #expect(eight.allSatisfy { part in part.first.map { starts.contains($0) } ?? true })
        // Every other frame selected: a cut falls before the first selected frame of a group.
        let odd = Array(stride(from: 1, to: 100, by: 2))
        let halves = (0 ..< 2).map { FramePass.contiguousShard(odd, starts: starts, shard: Shard(index: $0, count: 2)!) }
        #expect(halves[1].first == 61 && halves.flatMap { $0 } == odd)
        // One group: everything in the first shard.
        #expect(FramePass.contiguousShard(selected, starts: [0], shard: Shard(index: 0, count: 4)!) == selected)
        #expect(FramePass.contiguousShard(selected, starts: [0], shard: Shard(index: 2, count: 4)!).isEmpty)
    }
}
