/// The transfer curve a video stream declares. Only SDR curves are accepted, and PointPaint
/// treats every one of them with the sRGB curve, as it does for its own captures; HDR curves
/// (HLG, PQ) are refused when the video is opened.
public enum VideoTransfer: String, Sendable, CaseIterable, Hashable {
    /// ITU-R BT.709 (FFmpeg `bt709`).
    case bt709
    /// ITU-R BT.601 / SMPTE 170M (FFmpeg `smpte170m`).
    case bt601
    /// IEC 61966-2-1, the sRGB curve (FFmpeg `iec61966-2-1`).
    case srgb
    /// A pure 2.2 power law, BT.470 System M (FFmpeg `bt470m`).
    case gamma22
    /// ITU-R BT.2020 for 10- or 12-bit systems: the BT.709 curve (FFmpeg `bt2020-10`, `bt2020-12`).
    case bt2020
}

/// How a video's Y′CbCr codes are to be read, taken from the stream's own colour description,
/// with the players' defaults where the stream says nothing.
public struct VideoColorDescription: Sendable, Hashable {
    /// The fields for which the stream said nothing, so a default applied. FFmpeg's H.264 and
    /// HEVC decoders themselves report left-sited chroma for a stream that says nothing (and the
    /// HEVC decoder video range), so those two show up here only for streams where they do not.
    public struct Defaults: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt8
        /// Creates a set from raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Matrix unspecified: BT.709 for HD (width ≥ 1280 or height > 576), BT.601 for SD.
        public static let matrix = Defaults(rawValue: 1 << 0)
        /// Range unspecified: video range.
        public static let range = Defaults(rawValue: 1 << 1)
        /// Primaries unspecified: BT.709 (sRGB).
        public static let primaries = Defaults(rawValue: 1 << 2)
        /// Transfer unspecified: BT.709.
        public static let transfer = Defaults(rawValue: 1 << 3)
        /// Chroma location unspecified: left, as H.264 and HEVC define.
        public static let chromaSiting = Defaults(rawValue: 1 << 4)
    }

    /// The matrix from Y′CbCr to R′G′B′.
    public var matrix: YCbCrMatrix
    /// Full or video range.
    public var range: YCbCrRange
    /// The RGB primaries.
    public var primaries: ColorPrimaries
    /// The transfer curve the stream declares (treated as sRGB).
    public var transfer: VideoTransfer
    /// Where chroma samples sit horizontally relative to luma.
    public var chromaSiting: ChromaSiting
    /// Which of the fields above are defaults rather than the stream's word.
    public var defaults: Defaults

    /// Creates a description.
    public init(matrix: YCbCrMatrix, range: YCbCrRange, primaries: ColorPrimaries, transfer: VideoTransfer,
                chromaSiting: ChromaSiting, defaults: Defaults = []) {
        self.matrix = matrix
        self.range = range
        self.primaries = primaries
        self.transfer = transfer
        self.chromaSiting = chromaSiting
        self.defaults = defaults
    }

    /// Matrix and range together.
    public var encoding: YCbCrEncoding { YCbCrEncoding(matrix: matrix, range: range) }
}

extension VideoColorDescription: CustomStringConvertible {
    /// `bt709, video range, srgb primaries, bt709 transfer, left-sited chroma`, each default
    /// marked `(default)`.
    public var description: String {
        func mark(_ text: String, _ field: Defaults) -> String { defaults.contains(field) ? text + " (default)" : text }
        return [
            mark(matrix.rawValue, .matrix), mark("\(range.rawValue) range", .range),
            mark("\(primaries.rawValue) primaries", .primaries), mark("\(transfer.rawValue) transfer", .transfer),
            mark("\(chromaSiting.rawValue)-sited chroma", .chromaSiting),
        ].joined(separator: ", ")
    }
}
