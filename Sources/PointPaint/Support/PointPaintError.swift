import Foundation

/// An error that names the file, the place in it and what was expected, so a person sees one
/// clear line: `frames/000003.nv12: frame 3: expected 460800 bytes, found 1024`.
///
/// Code and tests branch on `kind` and `place`; the wording of `message` is for people and free
/// to improve.
public struct PointPaintError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, in a form code can branch on.
    public enum Kind: Sendable, Hashable {
        /// Something that must exist does not: a file, a JSON key, a column, a frame, or a
        /// regular file where a directory or device stands instead.
        case missing
        /// Present but not what the format says: bad syntax, a wrong type, counts that disagree.
        case malformed
        /// Larger than allowed, or larger than the file could hold (a lying header).
        case tooLarge
        /// Well formed, but a variant this reader does not handle (a version, an encoding, a
        /// bit depth).
        case unsupported
        /// A number outside its allowed range (a negative focal length, a frame index).
        case outOfRange
        /// The system refused an operation; `errno` is its code.
        case io(errno: Int32)
    }

    /// Where in the file.
    public enum Place: Sendable, Hashable, CustomStringConvertible {
        /// A JSON path such as `frames[3].camera.transform`; empty for the top level.
        case jsonPath(String)
        /// A line of a text file, from 1.
        case line(Int)
        /// A byte offset in a binary file, from 0.
        case byteOffset(Int)
        /// A frame of a capture, from 0.
        case frame(Int)
        /// Entry `index` (from 0) of a named element or record kind: `vertex 12`.
        case element(String, Int)
        /// A named part of a file: `header`, a column name, an archive member.
        case part(String)

        /// How the place reads inside the error line; a name a file gave it (a JSON key, an
        /// archive member) with its invisible characters spelled out.
        public var description: String {
            switch self {
            case .jsonPath(let path): path.isEmpty ? "top level" : PointPaintError.escapingInvisible(path)
            case .line(let line): "line \(line)"
            case .byteOffset(let offset): "byte offset \(offset)"
            case .frame(let frame): "frame \(frame)"
            case .element(let name, let index): "\(PointPaintError.name(name)) \(index)"
            case .part(let name): PointPaintError.escapingInvisible(name)
            }
        }
    }

    /// What went wrong.
    public var kind: Kind
    /// The file concerned (as the user named it, or relative to a capture), if any.
    public var file: String?
    /// Where in the file, if the error has a place.
    public var place: Place?
    /// What was wrong and what was expected, for people.
    public var message: String

    /// Creates an error of `kind` for `file` at `place`.
    public init(_ kind: Kind, file: String? = nil, place: Place? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.place = place
        self.message = message
    }

    /// The longest file name an error line shows whole (longer ones are cut, as `quote` cuts).
    static let longestFileShown = 300

    /// One line: `file: place: message`, leaving out the parts that are absent. Whatever a file
    /// put into them, the line shows no control or invisible character (they are spelled out as
    /// `quote` spells them) and no file name longer than `longestFileShown`.
    public var description: String {
        [file.map { Self.name($0, limit: Self.longestFileShown) }, place?.description, Self.escapingInvisible(message)]
            .compactMap { $0 }.joined(separator: ": ")
    }
}

extension PointPaintError {
    /// An error for a failed system call, from the `errno` it left: `.missing` for a path that
    /// does not exist (`ENOENT`, `ENOTDIR`), `.io(errno:)` otherwise. The message is `action`
    /// followed by the system's text: `cannot open: no such file or directory`.
    public static func system(_ action: String, file: String?, place: Place? = nil, errno code: Int32 = errno) -> PointPaintError {
        let kind: Kind = code == ENOENT || code == ENOTDIR ? .missing : .io(errno: code)
        return PointPaintError(kind, file: file, place: place, "\(action): \(errnoText(code))")
    }

    /// The system's message for `code`, lower-cased at the start to sit inside a sentence
    /// ("No such file or directory" → "no such file or directory").
    package static func errnoText(_ code: Int32 = errno) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text).lowercasedFirst
    }

    /// `text` as it may appear inside an error line: in single quotes, at most `limit`
    /// characters shown, with control characters, escapes, line breaks and invisible characters
    /// (zero-width spaces, no-break spaces, byte-order marks) spelled out as `\n`, `\u{1B}`,
    /// `\u{FEFF}` (each counting as the characters it takes), so nothing a file holds can clear
    /// a terminal, split the line or pass unseen. Longer text is cut, followed by `…` and the
    /// count of what was left out.
    public static func quote(_ text: some StringProtocol, limit: Int = 40) -> String {
        var out = "'"
        var shown = 0
        var rest = 0
        for scalar in text.unicodeScalars {
            if rest == 0 {
                let piece = visible(scalar)
                if shown + piece.unicodeScalars.count <= limit {
                    out += piece
                    shown += piece.unicodeScalars.count
                    continue
                }
            }
            rest += 1
        }
        return out + (rest == 0 ? "'" : "'… (\(rest) more character\(rest == 1 ? "" : "s"))")
    }

    /// `text` bare when it is at most `limit` characters, all of them visible (a PLY element or
    /// property name, a path: they read best without quotes), else as `quote(_:limit:)` shows it.
    public static func name(_ text: some StringProtocol, limit: Int = 40) -> String {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            guard count <= limit, !isInvisible(scalar) else { return quote(text, limit: limit) }
        }
        return String(text)
    }

    /// `text` with each invisible character (see `quote(_:limit:)`) spelled out, and nothing else
    /// changed.
    public static func escapingInvisible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            out += isInvisible(scalar) ? escaped(scalar) : String(scalar)
        }
        return out
    }

    /// `lines` joined by line breaks, each with its invisible characters spelled out as
    /// `escapingInvisible(_:)` spells them: a report whose lines hold what a file says (names,
    /// comments, paths), so that nothing in them can clear a terminal, split a line or pass
    /// unseen. A line break inside one of `lines` shows as `\n`.
    public static func escapingInvisible(lines: [String]) -> String {
        lines.map { escapingInvisible($0) }.joined(separator: "\n")
    }

    /// `vector` as a message shows it: its components in parentheses, `(1, 2, 3)`, not
    /// `SIMD3<Int32>(1, 2, 3)`.
    public static func tuple<Vector: SIMD>(_ vector: Vector) -> String where Vector.Scalar: CustomStringConvertible {
        "(" + vector.indices.map { vector[$0].description }.joined(separator: ", ") + ")"
    }

    /// `bytes` as text for an error line, quoted as `quote(_:limit:)` does: decoded as UTF-8
    /// (an invalid byte shows as `\u{FFFD}`), and only as far as is shown, so a megabyte-long
    /// header line costs nothing.
    public static func quote(bytes: some Collection<UInt8>, limit: Int = 40) -> String {
        var source = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var out = "'"
        var shown = 0
        var consumed = 0
        var rest = 0
        decoding: while true {
            let piece: String
            let length: Int
            switch parser.parseScalar(from: &source) {
            case .valid(let encoded):
                piece = visible(Unicode.UTF8.decode(encoded))
                length = encoded.count
            case .error(let bad):
                piece = visible("\u{FFFD}")
                length = bad
            case .emptyInput:
                break decoding
            }
            guard shown + piece.unicodeScalars.count <= limit else {
                rest = bytes.count - consumed
                break
            }
            out += piece
            shown += piece.unicodeScalars.count
            consumed += length
        }
        return out + (rest <= 0 ? "'" : "'… (\(rest) more byte\(rest == 1 ? "" : "s"))")
    }

    /// `scalar` as `quote` shows it: quotes and backslashes escaped, invisible characters
    /// spelled out.
    private static func visible(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\\": return "\\\\"
        case "'": return "\\'"
        default: return isInvisible(scalar) ? escaped(scalar) : String(scalar)
        }
    }

    /// Whether `scalar` would not show as itself on a terminal: a control character (line
    /// breaks and escapes among them), a format or separator character other than the space,
    /// a private-use, surrogate or unassigned code, or U+FFFD (which would hide a bad byte).
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: true
        case .spaceSeparator: scalar.value != 0x20
        default: scalar.value == 0xFFFD
        }
    }

    /// An invisible `scalar` spelled out: `\n`, `\r`, `\t`, else `\u{1B}`.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}
