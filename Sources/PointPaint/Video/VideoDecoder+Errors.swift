import CFFmpeg
import CFFmpegSupport
import Foundation

extension VideoDecoder {
    /// FFmpeg's text for an error code (`av_strerror`), lower-cased at the start to sit inside
    /// a sentence: "invalid data found when processing input".
    static func libavText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let found = av_strerror(code, &buffer, buffer.count) == 0
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return found ? text.lowercasedFirst : "libav error \(code)"
    }

    /// An error for a failed libav call: `action`, FFmpeg's text for `code`, and the last error
    /// libav logged for this file, if any. A system error (`AVERROR(errno)`) keeps its errno
    /// (`.missing` for a file that is not there); damaged data is `.malformed`; a codec feature
    /// this FFmpeg lacks is `.unsupported`.
    static func libavError(_ code: Int32, _ action: String, file: String, place: PointPaintError.Place? = nil,
                           log: OpaquePointer?) -> PointPaintError {
        var error: PointPaintError
        if code < 0 && code > -4096 {
            error = .system(action, file: file, place: place, errno: -code)
        } else {
            let kind: PointPaintError.Kind =
                code == cffmpeg_error_decoder_not_found() || code == cffmpeg_error_patch_welcome() ? .unsupported : .malformed
            error = PointPaintError(kind, file: file, place: place, "\(action): \(libavText(code))")
        }
        if let logged = takeLogged(log) { error.message += " (libav: \(PointPaintError.quote(logged, limit: 100)))" }
        return error
    }

    /// The last error libav logged into `log` since the last call, if any.
    static func takeLogged(_ log: OpaquePointer?) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard let log, ppav_log_sink_take(log, &buffer, buffer.count) > 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
