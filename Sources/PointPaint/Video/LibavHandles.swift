import CFFmpeg
import CFFmpegSupport

/// Owns the libav objects of one open video and frees whichever exist when released, so a
/// decoder that fails halfway through opening leaks nothing.
final class LibavHandles {
    /// Where libav's error messages about this file go (instead of stderr).
    let log: OpaquePointer
    /// The open container.
    var format: UnsafeMutablePointer<AVFormatContext>?
    /// The decoder.
    var codec: UnsafeMutablePointer<AVCodecContext>?
    /// The packet being read.
    var packet: UnsafeMutablePointer<AVPacket>?
    /// The picture being received.
    var frame: UnsafeMutablePointer<AVFrame>?

    /// Creates an empty set of handles with a fresh log sink, after routing libav's logging
    /// away from stderr.
    init(file: String) throws {
        ppav_install_log()
        guard let log = ppav_log_sink_create() else { throw PointPaintError.system("cannot open", file: file, errno: ENOMEM) }
        self.log = log
    }

    deinit {
        // The decoder first: it joins its threads, which may still log into the sink.
        avcodec_free_context(&codec)
        avformat_close_input(&format)
        av_packet_free(&packet)
        av_frame_free(&frame)
        ppav_log_sink_free(log)
    }

    /// Opens `path` as a container, local files only (no network or other protocols a crafted
    /// playlist could name), with libav's messages routed into `log`. `ignoreEditList`: read an
    /// MP4/MOV file's samples as stored, without its edit list (the mov demuxer's
    /// `ignore_editlist`), so samples the edit list leaves out are read too.
    func openInput(path: String, ignoreEditList: Bool = false) throws {
        guard let context = avformat_alloc_context() else { throw PointPaintError.system("cannot open", file: path, errno: ENOMEM) }
        context.pointee.opaque = UnsafeMutableRawPointer(log)
        format = context
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        if ignoreEditList { av_dict_set(&options, "ignore_editlist", "1", 0) }
        defer { av_dict_free(&options) }
        // "file:" so that a path with a colon is never read as another protocol's URL.
        let opened = avformat_open_input(&format, "file:" + path, nil, &options)
        guard opened == 0 else {
            throw VideoDecoder.libavError(opened, opened == cffmpeg_error_invalid_data() ? "not a video file FFmpeg can read" : "cannot open",
                                          file: path, log: log)
        }
    }

    /// The index of the file's main video stream (not a cover picture).
    func videoStream(path: String) throws -> Int32 {
        let context = format!.pointee
        let streams = (0 ..< Int(context.nb_streams)).map { context.streams[$0]!.pointee }
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        if index >= 0 && streams[Int(index)].disposition & AV_DISPOSITION_ATTACHED_PIC == 0 { return index }
        if index < 0 && index != cffmpeg_error_stream_not_found() {
            throw VideoDecoder.libavError(index, "cannot find a video stream", file: path, log: log)
        }
        let kinds = Set(streams.map { stream in
            stream.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
                ? "an attached picture" : VideoDecoder.name(av_get_media_type_string(stream.codecpar.pointee.codec_type))
        })
        let found = kinds.isEmpty ? "no streams at all" : "only " + kinds.sorted().joined(separator: ", ")
        throw PointPaintError(.missing, file: path, "holds no video stream (\(found))")
    }
}
