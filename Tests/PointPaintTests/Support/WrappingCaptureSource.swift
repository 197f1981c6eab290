@testable import PointPaint

/// A test's capture source that wraps another and changes only some of what it gives: every
/// requirement forwards to `inner` unless the wrapper implements it itself.
protocol WrappingCaptureSource: CaptureSource {
    /// The source wrapped.
    var inner: any CaptureSource { get }
}

extension WrappingCaptureSource {
    var format: CaptureFormat { inner.format }
    var path: String { inner.path }
    var imageInfo: CaptureImageInfo { inner.imageInfo }
    var frameCount: Int { inner.frameCount }
    var notes: [CaptureNote] { inner.notes }
    var cloudFile: String? { inner.cloudFile }
    func frameInfo(at index: Int) throws -> CaptureFrameInfo { try inner.frameInfo(at: index) }
    func frame(at index: Int) throws -> CaptureFrame { try inner.frame(at: index) }
}
