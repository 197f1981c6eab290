import CFFmpeg
import Foundation

/// Decodes an H.264 or HEVC video file (such as Stray Scanner's `rgb.mp4`) frame by frame,
/// in presentation order, to each frame's exact Y′CbCr planes: the codes the decoder produced,
/// never through RGB and never rescaled.
///
/// Opening reads the container and the stream's colour description (`info`) and refuses, in one
/// line naming the file, anything PointPaint cannot reproduce exactly: codecs other than H.264
/// and HEVC, pixel formats other than 8-bit Y′CbCr (10-bit video names its format), HDR transfers,
/// unknown matrices or primaries, pictures larger than `maximumDimension` on a side. Decoding runs
/// on libavcodec's own frame threads; the calling thread reads the file and copies the planes
/// (or, for `nextImage(where:)`, keeps the decoder's own).
///
/// Calls may come from any thread; they take turns. libav logs nothing to stderr: its last error
/// message about this file is appended to the error thrown.
public final class VideoDecoder: @unchecked Sendable {
    /// The default largest width or height accepted: 8192.
    public static let defaultMaximumDimension = 8192

    /// The file, as given.
    public let path: String
    /// The chosen video stream: codec, size, frame count and rate, colour description.
    public let info: VideoStreamInfo

    let handles: LibavHandles
    let lock = NSLock()
    let streamIndex: Int32
    private let pixelFormat: AVPixelFormat
    let layout: VideoPixelLayout
    private let timeBase: Double
    private let startTimestamp: Int64
    /// Frames the decoder has delivered, wanted or not: the index of the next one.
    var delivered = 0
    /// Packets of the stream read so far.
    var packetsRead = 0
    /// Set when the file ended before every packet the container lists: the count of packets read.
    var endedEarly: Int?
    /// The last picture's presentation timestamp, to check that pictures come out in order.
    var lastTimestamp: Int64?
    var draining = false
    var finished = false
    /// After a seek: the frame index of each presentation timestamp, which numbers the pictures
    /// from then on, and the frame the first picture must be (the keyframe sought).
    var numbering: [Int64: Int]?
    var expectedAfterSeek: Int?
    /// Whether `handles.packet` holds the first packet after a seek, not yet sent.
    var holdingPacket = false

    /// Opens `path` and prepares its best video stream for decoding on `threads` libavcodec
    /// frame threads (0: one per core, as libavcodec chooses).
    ///
    /// `ignoreEditList`: read an MP4/MOV file's samples as stored, ignoring its edit list (FFmpeg's
    /// `ignore_editlist`), so that every recorded frame comes out, those the edit list hides
    /// included: Stray Scanner's writer gives its first frame a presentation time before the
    /// edit list's start, which players (and this decoder by default) then drop. Times are then
    /// the samples' own, from the first sample's. Other containers ignore the option.
    ///
    /// - Throws: `PointPaintError`: `.missing` for a file or video stream that is not there (an
    ///   audio-only file) or a stream without frames; `.malformed` for a file FFmpeg cannot read
    ///   or a damaged stream; `.unsupported` for another codec, a 10-bit or HDR stream, an
    ///   unknown matrix, primaries or chroma location; `.tooLarge` for a picture wider or taller
    ///   than `maximumDimension`, before any picture is allocated; `.io(errno:)` for a failed read.
    public init(path: String, threads: Int = 2, maximumDimension: Int = VideoDecoder.defaultMaximumDimension,
                ignoreEditList: Bool = false) throws {
        precondition(threads >= 0 && maximumDimension > 0, "threads must be 0 or more and the size limit positive")
        let handles = try LibavHandles(file: path)
        try handles.openInput(path: path, ignoreEditList: ignoreEditList)
        let format = handles.format!
        let maximumPixels = Int64(maximumDimension) * Int64(maximumDimension)
        try Self.readStreamInfo(format, maximumPixels: maximumPixels, path: path, log: handles.log)
        let streamIndex = try handles.videoStream(path: path)
        let stream = format.pointee.streams[Int(streamIndex)]!.pointee
        let parameters = stream.codecpar!

        let codecID = parameters.pointee.codec_id
        let codecName = Self.name(avcodec_get_name(codecID))
        guard codecID == AV_CODEC_ID_H264 || codecID == AV_CODEC_ID_HEVC else {
            let container = Self.name(format.pointee.iformat.pointee.name)
            let image = container.hasSuffix("_pipe") || container == "image2"
            let what: String
            if codecID == AV_CODEC_ID_NONE {
                // libav names no codec "none": say so in words, with the tag the file gave.
                let tag = parameters.pointee.codec_tag
                let bytes = (0 ..< 4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
                what = (image ? "an image" : "video") + " of a codec FFmpeg does not know"
                    + (tag == 0 ? "" : " (tag \(PointPaintError.quote(bytes: bytes)))")
            } else {
                what = image ? "a \(codecName) image" : "\(codecName) video"
            }
            throw PointPaintError(.unsupported, file: path, "holds \(what), not H.264 or HEVC video")
        }
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        guard width <= maximumDimension && height <= maximumDimension else {
            throw PointPaintError(.tooLarge, file: path,
                                  "the video claims \(width)×\(height) pictures; at most \(maximumDimension) on a side is allowed")
        }
        let pixelFormat = AVPixelFormat(rawValue: parameters.pointee.format)
        guard width > 0 && height > 0 && pixelFormat != AV_PIX_FMT_NONE else {
            if stream.nb_frames == 0 && width > 0 {
                throw PointPaintError(.missing, file: path, "the video stream holds no frames")
            }
            let detail = Self.takeLogged(handles.log).map { " (libav: \(PointPaintError.quote($0, limit: 100)))" } ?? ""
            throw PointPaintError(.malformed, file: path, "no picture of the \(codecName) stream could be decoded\(detail)")
        }
        let (layout, fullRange) = try Self.layout(of: pixelFormat, file: path)
        let color = try Self.colorDescription(of: parameters.pointee, subsampling: layout.subsampling,
                                              fullRangeFormat: fullRange, file: path)

        try Self.openDecoder(handles, parameters: parameters, timeBase: stream.time_base, threads: threads,
                             maximumPixels: maximumPixels, path: path)
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else {
            throw PointPaintError.system("cannot decode", file: path, errno: ENOMEM)
        }
        handles.packet = packet
        handles.frame = frame

        self.path = path
        self.handles = handles
        self.streamIndex = streamIndex
        self.pixelFormat = pixelFormat
        self.layout = layout
        timeBase = av_q2d(stream.time_base)
        startTimestamp = stream.start_time == cffmpeg_no_pts() ? 0 : stream.start_time
        info = VideoStreamInfo(
            codec: codecName, pixelFormat: Self.name(av_get_pix_fmt_name(pixelFormat)), width: width, height: height,
            subsampling: layout.subsampling, frameCount: stream.nb_frames > 0 ? Int(stream.nb_frames) : nil,
            frameRate: Self.rate(stream), duration: Self.duration(stream, format.pointee), color: color,
            displayRotation: Self.displayRotation(format.pointee.streams[Int(streamIndex)]!))
    }

    /// The next frame in presentation order, with its planes; `nil` after the last.
    ///
    /// - Throws: `PointPaintError` at `.frame(n)` for a frame that cannot be decoded exactly
    ///   (damaged data, a picture that changes size or format mid-stream), `.missing` for a
    ///   stream that yields no frame at all, `.malformed` when the file ends before every frame
    ///   its container lists (a truncated file; the frames before are delivered first). After
    ///   an error, `next` returns `nil`.
    /// - Complexity: decoding one frame, plus one copy of its planes.
    public func next() throws -> VideoFrame? {
        try next(where: { _ in true })
    }

    /// The next frame in presentation order whose index `wanted` accepts; `nil` after the last.
    /// Every frame is still decoded (later frames depend on earlier ones), but the planes of
    /// frames not wanted are never copied: `next(where: indices.contains)` for `--frames` or
    /// `--every`.
    ///
    /// - Throws: as `next()`.
    public func next(where wanted: (Int) -> Bool) throws -> VideoFrame? {
        try next(where: wanted) { frame, index, time in
            VideoFrame(index: index, time: time, planes: Self.planes(of: frame, layout: layout, width: info.width, height: info.height))
        }
    }

    /// The next wanted frame as `take` makes it of the decoded picture (which `take` may take
    /// over), its index and its time; `nil` after the last.
    func next<Frame>(where wanted: (Int) -> Bool,
                     _ take: (UnsafeMutablePointer<AVFrame>, Int, Double) -> Frame) throws -> Frame? {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try decodeNext(where: wanted, take)
        } catch {
            finished = true
            throw error
        }
    }

    /// How many frames the container of `path` says its video stream holds, read from the
    /// container's index without decoding anything; `nil` when the container does not say
    /// (a raw H.264 or HEVC stream, some Matroska files).
    ///
    /// - Throws: `PointPaintError` as `init(path:threads:maximumDimension:ignoreEditList:)` does for a file
    ///   that cannot be opened or holds no video stream.
    public static func frameCount(path: String) throws -> Int? {
        let handles = try LibavHandles(file: path)
        try handles.openInput(path: path)
        let index = try handles.videoStream(path: path)
        let count = handles.format!.pointee.streams[Int(index)]!.pointee.nb_frames
        return count > 0 ? Int(count) : nil
    }
}

extension VideoDecoder {
    /// Receives pictures, feeding packets whenever the decoder asks for more, until one is wanted.
    private func decodeNext<Frame>(where wanted: (Int) -> Bool,
                                   _ take: (UnsafeMutablePointer<AVFrame>, Int, Double) -> Frame) throws -> Frame? {
        let codec = handles.codec!, frame = handles.frame!
        while !finished {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                let index = try pictureIndex(frame.pointee)
                delivered = index + 1
                try checkPicture(frame.pointee, index: index)
                guard wanted(index) else { continue }
                return take(frame, index, time(of: frame.pointee, index: index))
            }
            if received == cffmpeg_error_eof() {
                finished = true
                try checkEnd()
                return nil
            }
            guard received == cffmpeg_error_again() && !draining else {
                throw Self.libavError(received, "cannot decode", file: path, place: .frame(delivered), log: handles.log)
            }
            try feed()
        }
        return nil
    }

    /// Reads the stream's next packet into the decoder, or starts draining it at the end of the file.
    private func feed() throws {
        let format = handles.format!, codec = handles.codec!, packet = handles.packet!
        while true {
            // A seek's first packet, read to see where it landed, is sent first.
            let read = holdingPacket ? 0 : av_read_frame(format, packet)
            holdingPacket = false
            if read == cffmpeg_error_eof() {
                if let listed = info.frameCount, packetsRead < listed { endedEarly = packetsRead }
                draining = true
                _ = avcodec_send_packet(codec, nil)
                return
            }
            guard read == 0 else {
                throw Self.libavError(read, "cannot read the video", file: path, place: .frame(packetsRead), log: handles.log)
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            guard packet.pointee.flags & AV_PKT_FLAG_CORRUPT == 0 else {
                throw PointPaintError(.malformed, file: path, place: .frame(packetsRead),
                                      "the frame's data is cut short or damaged (a truncated file?)")
            }
            packetsRead += 1
            let sent = avcodec_send_packet(codec, packet)
            guard sent == 0 else {
                throw Self.libavError(sent, "cannot decode", file: path, place: .frame(delivered), log: handles.log)
            }
            return
        }
    }

    /// Refuses a picture that is damaged, differs in size or format from the stream's first, or
    /// comes out of presentation order (the container's timestamps disagree with the codec's
    /// picture order, so frames would pair with the wrong poses).
    private func checkPicture(_ picture: AVFrame, index: Int) throws {
        let timestamp = picture.best_effort_timestamp
        if timestamp != cffmpeg_no_pts() {
            if let last = lastTimestamp, timestamp <= last {
                throw PointPaintError(.malformed, file: path, place: .frame(index),
                                      "presentation time \(seconds(timestamp)) s comes after "
                                          + "\(seconds(last)) s: the container's timestamps disagree with the stream's picture order")
            }
            lastTimestamp = timestamp
        }
        guard picture.flags & AV_FRAME_FLAG_CORRUPT == 0 && picture.decode_error_flags == 0 else {
            throw PointPaintError(.malformed, file: path, place: .frame(index),
                                  "the picture is damaged (the decoder concealed errors)")
        }
        guard AVPixelFormat(rawValue: picture.format) == pixelFormat && Int(picture.width) == info.width
            && Int(picture.height) == info.height
        else {
            let format = Self.name(av_get_pix_fmt_name(AVPixelFormat(rawValue: picture.format)))
            throw PointPaintError(.unsupported, file: path, place: .frame(index),
                                  "the picture changes to \(picture.width)×\(picture.height) \(format) from "
                                      + "\(info.width)×\(info.height) \(info.pixelFormat); PointPaint reads videos of one size and format")
        }
    }

    /// Refuses a file that ended before its listed frames, or a stream that gave no frame.
    private func checkEnd() throws {
        if let read = endedEarly, let listed = info.frameCount {
            throw PointPaintError(.malformed, file: path, place: .frame(read),
                                  "the file ends after \(read) of the \(listed) frames its container lists (a truncated file?)")
        }
        guard delivered > 0 else {
            throw PointPaintError(.missing, file: path, "the video stream holds no frames")
        }
    }

    /// Seconds from the stream's start to the picture, from its presentation timestamp (or the
    /// decoder's best guess); `index` ÷ frame rate when there is none.
    private func time(of picture: AVFrame, index: Int) -> Double {
        let timestamp = picture.best_effort_timestamp
        guard timestamp != cffmpeg_no_pts() else { return Double(index) / (info.frameRate ?? 30) }
        return seconds(timestamp)
    }

    /// Seconds from the stream's start to `timestamp`. The two are whatever 64-bit numbers the
    /// container holds (a damaged fragmented MP4 can put them 2⁶³ apart), so a difference past
    /// `Int64` is taken in `Double` instead of trapping.
    private func seconds(_ timestamp: Int64) -> Double {
        let (ticks, overflow) = timestamp.subtractingReportingOverflow(startTimestamp)
        return (overflow ? Double(timestamp) - Double(startTimestamp) : Double(ticks)) * timeBase
    }
}

extension VideoDecoder {
    /// Reads a little of every stream to learn what the container does not say (pixel format,
    /// colour description), with each probing decoder limited to `maximumPixels` a picture.
    private static func readStreamInfo(_ format: UnsafeMutablePointer<AVFormatContext>, maximumPixels: Int64,
                                       path: String, log: OpaquePointer) throws {
        var options = [OpaquePointer?](repeating: nil, count: Int(format.pointee.nb_streams))
        for i in options.indices { av_dict_set(&options[i], "max_pixels", String(maximumPixels), 0) }
        defer { for i in options.indices { av_dict_free(&options[i]) } }
        let found = options.withUnsafeMutableBufferPointer { avformat_find_stream_info(format, $0.baseAddress) }
        guard found >= 0 else { throw libavError(found, "cannot read the streams", file: path, log: log) }
    }

    /// Opens the stream's decoder with frame threads, refusing damaged data instead of
    /// concealing it, and pictures over `maximumPixels`.
    private static func openDecoder(_ handles: LibavHandles, parameters: UnsafeMutablePointer<AVCodecParameters>,
                                    timeBase: AVRational, threads: Int, maximumPixels: Int64, path: String) throws {
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw PointPaintError(.unsupported, file: path,
                                  "this FFmpeg has no \(name(avcodec_get_name(parameters.pointee.codec_id))) decoder")
        }
        guard let codec = avcodec_alloc_context3(decoder) else { throw PointPaintError.system("cannot decode", file: path, errno: ENOMEM) }
        handles.codec = codec
        let copied = avcodec_parameters_to_context(codec, parameters)
        guard copied >= 0 else { throw libavError(copied, "cannot set up the decoder", file: path, log: handles.log) }
        codec.pointee.opaque = UnsafeMutableRawPointer(handles.log)
        codec.pointee.pkt_timebase = timeBase
        codec.pointee.thread_count = Int32(clamping: threads)
        codec.pointee.thread_type = FF_THREAD_FRAME
        codec.pointee.err_recognition |= AV_EF_EXPLODE
        codec.pointee.max_pixels = maximumPixels
        let opened = avcodec_open2(codec, decoder, nil)
        guard opened >= 0 else { throw libavError(opened, "cannot open the decoder", file: path, log: handles.log) }
    }

    /// The rotation the stream's display matrix asks for (`VideoStreamInfo.displayRotation`).
    private static func displayRotation(_ stream: UnsafePointer<AVStream>) -> Double? {
        var degrees = 0.0
        return cffmpeg_display_rotation(stream, &degrees) != 0 ? degrees : nil
    }

    /// Frames per second: the stream's average rate, else its base rate.
    private static func rate(_ stream: AVStream) -> Double? {
        for rate in [stream.avg_frame_rate, stream.r_frame_rate] where rate.num > 0 && rate.den > 0 {
            return av_q2d(rate)
        }
        return nil
    }

    /// The stream's duration in seconds, else the file's.
    private static func duration(_ stream: AVStream, _ format: AVFormatContext) -> Double? {
        if stream.duration != cffmpeg_no_pts() && stream.duration > 0 { return Double(stream.duration) * av_q2d(stream.time_base) }
        if format.duration != cffmpeg_no_pts() && format.duration > 0 { return Double(format.duration) / Double(AV_TIME_BASE) }
        return nil
    }
}
