import CFFmpeg
import Foundation

extension VideoDecoder {
    /// Moves decoding to `keyframe` (of `keyframes`, read from the same file): the next frames
    /// delivered are the keyframe's and those after it, the same pictures that decoding from the
    /// start gives them, numbered by their presentation timestamps. `--frames` and the shards of
    /// a video recording start here instead of decoding every frame before them.
    /// - Throws: libav's error when the container cannot seek; later, `.malformed` at the frame
    ///   when the first picture after the seek is not the keyframe's (a container whose index
    ///   and sync samples disagree).
    public func seek(to keyframe: VideoKeyframes.Keyframe, in keyframes: VideoKeyframes) throws {
        lock.lock()
        defer { lock.unlock() }
        // Containers index by their own timestamps (MP4: decode times, shifted): seek by the
        // keyframe's presentation time, then read where it landed. An earlier keyframe is exact
        // too, only slower; a later one, or none, means seeking to the first keyframe instead.
        var landed = try seekAndPeek(keyframe.timestamp, keyframes)
        if landed.map({ $0.frame > keyframe.frame }) ?? true {
            landed = try seekAndPeek(keyframes.keyframes[0].timestamp, keyframes)
        }
        guard let landed, landed.frame <= keyframe.frame else {
            finished = true
            throw PointPaintError(.malformed, file: path, place: .frame(keyframe.frame),
                                  "seeking to keyframe \(keyframe.frame) reached no keyframe at or before it: the container's index and its sync samples disagree")
        }
        delivered = landed.frame
        packetsRead = landed.packetsBefore
        lastTimestamp = nil
        endedEarly = nil
        draining = false
        finished = false
        numbering = keyframes.frameOfTimestamp
        expectedAfterSeek = landed.frame
    }

    /// Seeks to the keyframe at or before `timestamp` as the container finds it, and reads the
    /// stream's next packet, which it holds for `feed`; the keyframe that packet is, or nil when
    /// it is no keyframe of `keyframes` (or the container cannot seek).
    private func seekAndPeek(_ timestamp: Int64, _ keyframes: VideoKeyframes) throws -> VideoKeyframes.Keyframe? {
        holdingPacket = false
        guard av_seek_frame(handles.format, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD) >= 0 else { return nil }
        avcodec_flush_buffers(handles.codec)
        let packet = handles.packet!
        while true {
            let read = av_read_frame(handles.format, packet)
            guard read == 0 else {
                if read == cffmpeg_error_eof() { return nil }
                throw Self.libavError(read, "cannot read the video", file: path, log: handles.log)
            }
            guard packet.pointee.stream_index == streamIndex else {
                av_packet_unref(packet)
                continue
            }
            holdingPacket = true
            guard packet.pointee.flags & AV_PKT_FLAG_KEY != 0 else { return nil }
            return keyframes.keyframes.first { $0.timestamp == packet.pointee.pts }
        }
    }

    /// The frame index of a decoded picture: the count of pictures before it, or after a seek
    /// the index its presentation timestamp has in the stream.
    func pictureIndex(_ picture: AVFrame) throws -> Int {
        guard let numbering else { return delivered }
        let timestamp = picture.best_effort_timestamp
        guard let index = numbering[timestamp] else {
            throw PointPaintError(.malformed, file: path, place: .frame(delivered),
                                  "a picture after seeking has presentation time \(timestamp), which no packet of the stream has")
        }
        if let expected = expectedAfterSeek {
            expectedAfterSeek = nil
            guard index == expected else {
                throw PointPaintError(.malformed, file: path, place: .frame(expected),
                                      "seeking to keyframe \(expected) gave frame \(index) first: the container's index and its sync samples disagree")
            }
        }
        return index
    }
}
