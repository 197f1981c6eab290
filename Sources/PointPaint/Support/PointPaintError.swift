/// An error that names the file, the place in it and what was expected, so a person sees one
/// clear line: `frames/000003.nv12: size: expected 460800 bytes, found 1024`.
public struct PointPaintError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file concerned (as the user named it, or relative to a capture), if any.
    public var file: String?
    /// Where in the file: a JSON path, a line, a byte offset, a frame index.
    public var place: String?
    /// What was wrong and what was expected.
    public var message: String

    /// Creates an error for `file` at `place`.
    public init(file: String? = nil, place: String? = nil, _ message: String) {
        self.file = file
        self.place = place
        self.message = message
    }

    /// One line: `file: place: message`, leaving out the parts that are absent.
    public var description: String {
        [file, place, message].compactMap { $0 }.joined(separator: ": ")
    }
}
