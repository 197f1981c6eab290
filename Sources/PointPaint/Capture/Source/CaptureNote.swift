/// One thing a capture's reader assumed, converted or left out, for `info` to print (as errors
/// are, a kind and the text): the pose convention it turned into ARKit's, where the depth maps
/// are and in what units, the files it skipped. Code and tests ask for a note by kind; the text
/// is for people.
public struct CaptureNote: Sendable, Hashable, CustomStringConvertible {
    /// What a note is about.
    public enum Kind: String, Sendable, CaseIterable {
        /// Where the colour frames are and how they are decoded.
        case colour
        /// The pose convention and how it was turned into ARKit's.
        case poses
        /// Intrinsics, the camera model and lens distortion.
        case camera
        /// Where frame times come from.
        case timestamps
        /// Depth maps and confidence: where, units, sizes, frames without.
        case depth
        /// Feature points and the recording's own cloud.
        case points
        /// Which of an app's layouts or export folders the recording was read as.
        case layout
        /// Files, frames or fields left out, and why.
        case ignored
    }

    /// What the note is about.
    public var kind: Kind
    /// The line `info` prints.
    public var text: String

    /// A note of `kind` saying `text`.
    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    public var description: String { text }

    static func colour(_ text: String) -> CaptureNote { CaptureNote(.colour, text) }
    static func poses(_ text: String) -> CaptureNote { CaptureNote(.poses, text) }
    static func camera(_ text: String) -> CaptureNote { CaptureNote(.camera, text) }
    static func timestamps(_ text: String) -> CaptureNote { CaptureNote(.timestamps, text) }
    static func depth(_ text: String) -> CaptureNote { CaptureNote(.depth, text) }
    static func points(_ text: String) -> CaptureNote { CaptureNote(.points, text) }
    static func layout(_ text: String) -> CaptureNote { CaptureNote(.layout, text) }
    static func ignored(_ text: String) -> CaptureNote { CaptureNote(.ignored, text) }
}
