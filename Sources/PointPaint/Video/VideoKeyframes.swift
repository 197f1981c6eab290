import CFFmpeg
import Foundation

/// Where a video's decoding can start: its keyframes (the packets the container marks as sync
/// samples), each with its frame index in presentation order, read from the packets alone,
/// without decoding anything. A decoder that seeks to a keyframe (`VideoDecoder.seek(to:)`)
/// delivers that frame and every later one exactly as decoding from the start would: nothing
/// after a sync sample, in presentation order, refers to a picture before it.
public struct VideoKeyframes: Sendable, Equatable {
    /// One keyframe.
    public struct Keyframe: Sendable, Equatable {
        /// Its frame index in presentation order (what `VideoDecoder` numbers frames by).
        public var frame: Int
        /// Its presentation timestamp, in the stream's time base.
        public var timestamp: Int64
        /// Its decode timestamp (what a container's index seeks by), or its presentation
        /// timestamp when the packet has none.
        public var decodeTimestamp: Int64
        /// The packets of the stream before it in the file (decode order).
        public var packetsBefore: Int
    }

    /// The keyframes, by frame index (the first is frame 0).
    public let keyframes: [Keyframe]
    /// Presentation timestamp → frame index of every frame, for numbering pictures after a seek.
    let frameOfTimestamp: [Int64: Int]

    /// The frame indices of the keyframes, in order.
    public var frames: [Int] { keyframes.map(\.frame) }

    /// The last keyframe at or before frame `frame`.
    public func keyframe(before frame: Int) -> Keyframe {
        var low = 0, high = keyframes.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if keyframes[middle].frame <= frame { low = middle } else { high = middle - 1 }
        }
        return keyframes[low]
    }

    /// Reads the packets of the video stream of `path` (opened as `VideoDecoder` opens it, with
    /// `ignoreEditList`), or nil when seeking could not be exact: a packet without a presentation
    /// timestamp, two packets with one timestamp, or a first frame that is no keyframe.
    /// - Throws: the errors of opening the file and of reading a packet.
    /// - Complexity: one pass over the file's packets, no decoding.
    public static func read(path: String, ignoreEditList: Bool = false) throws -> VideoKeyframes? {
        let handles = try LibavHandles(file: path)
        try handles.openInput(path: path, ignoreEditList: ignoreEditList)
        let stream = try handles.videoStream(path: path)
        guard let packet = av_packet_alloc() else { throw PointPaintError.system("cannot read the video", file: path, errno: ENOMEM) }
        handles.packet = packet
        var timestamps: [Int64] = []
        var keys: [(timestamp: Int64, decodeTimestamp: Int64, packetsBefore: Int)] = []
        while true {
            let read = av_read_frame(handles.format, packet)
            if read == cffmpeg_error_eof() { break }
            guard read == 0 else {
                throw VideoDecoder.libavError(read, "cannot read the video", file: path, place: .frame(timestamps.count), log: handles.log)
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            let pts = packet.pointee.pts
            guard pts != cffmpeg_no_pts() else { return nil }
            let dts = packet.pointee.dts == cffmpeg_no_pts() ? pts : packet.pointee.dts
            if packet.pointee.flags & AV_PKT_FLAG_KEY != 0 { keys.append((pts, dts, timestamps.count)) }
            timestamps.append(pts)
        }
        let order = timestamps.sorted()
        var frameOf: [Int64: Int] = [:]
        for (frame, pts) in order.enumerated() {
            guard frameOf.updateValue(frame, forKey: pts) == nil else { return nil }
        }
        let keyframes = keys.map {
            Keyframe(frame: frameOf[$0.timestamp]!, timestamp: $0.timestamp, decodeTimestamp: $0.decodeTimestamp, packetsBefore: $0.packetsBefore)
        }
            .sorted { $0.frame < $1.frame }
        guard keyframes.first?.frame == 0 else { return nil }
        return VideoKeyframes(keyframes: keyframes, frameOfTimestamp: frameOf)
    }
}
