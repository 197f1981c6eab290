import Foundation

/// A JSON file of a recording (a camera file, a frame file, `transforms.json`), parsed whole, with
/// typed reads that name the file and the JSON path in every error and say what was expected.
///
/// Numbers are parsed by `JSONDecoder`, exactly; JSON5's `NaN` and `Infinity` (which Python's
/// `json` module writes for non-finite floats) are parsed too, so that a non-finite number is
/// refused at its JSON path rather than as unreadable text.
struct SourceJSON {
    /// The file, as named in errors.
    let file: String
    /// The document's top level.
    let root: JSONNode

    /// The largest JSON file read unless a caller says otherwise: a `transforms.json` of 100 000
    /// frames is about 40 MiB.
    static let defaultLimit = 64 << 20

    /// Reads and parses the file at `path`, refusing one larger than `limit` bytes.
    init(contentsOf path: String, limit: Int = SourceJSON.defaultLimit) throws {
        guard FileBytes.size(of: path) != nil else {
            throw PointPaintError(.missing, file: path, "expected a JSON file, found none")
        }
        let bytes = try FileBytes.read(path, limit: limit)
        try self.init(bytes: bytes, file: path)
    }

    /// Parses `bytes`; `file` names them in errors.
    /// - Throws: `.malformed` at the byte offset of the first byte that is not UTF-8, or of the
    ///   first number that is not one (Foundation's JSON5 reader traps on both, an invalid byte in
    ///   an unquoted key and a number such as `8e-`, ending the process: checked first, as fuzzing
    ///   found; and it is given the text with a newline after it, `scannable`), and for text that
    ///   does not parse.
    init(bytes: [UInt8], file: String) throws {
        if let offset = Self.firstInvalidUTF8(bytes) {
            throw PointPaintError(.malformed, file: file, place: .byteOffset(offset), "expected UTF-8 JSON text, found a byte that is not UTF-8")
        }
        if let number = Self.firstInvalidNumber(bytes) {
            throw PointPaintError(.malformed, file: file, place: .byteOffset(number.lowerBound),
                                  "expected a number, found \(PointPaintError.quote(bytes: bytes[number]))")
        }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        do {
            root = JSONNode(value: try decoder.decode(JSONValue.self, from: Self.scannable(bytes)), path: "", file: file)
        } catch {
            throw Self.syntaxError(Data(bytes), file: file)
        }
        self.file = file
    }

    /// `bytes` followed by a newline, for Foundation's JSON5 scanner: a number that ends the text
    /// (one of 19 digits or more, or any after a comment) makes it read the byte after its
    /// buffer, and trap when that byte happens to be a digit or a point (found by fuzzing:
    /// polycam-camera and record3d-metadata, Tests/Fuzz/Regressions). A newline after the
    /// document means nothing in JSON5.
    static func scannable(_ bytes: [UInt8]) -> Data {
        var data = Data(capacity: bytes.count + 1)
        data.append(contentsOf: bytes)
        data.append(0x0A)
        return data
    }

    /// The offset of the first byte of `bytes` that is not part of valid UTF-8, or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var source = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &source) {
            case .valid(let encoded): offset += encoded.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }

    /// The bytes of the first number token of JSON5 text `bytes` (outside strings and comments)
    /// that is not a JSON5 number, or nil. A token starts with a digit, `.`, `+` or `-` and runs
    /// over letters, digits, `.`, `+` and `-`; a number is `[+-]` then `Infinity`, `NaN`,
    /// `0x` and hex digits, or digits with an optional fraction (either side of the point may
    /// be empty, not both) and an optional exponent with at least one digit.
    static func firstInvalidNumber(_ bytes: [UInt8]) -> Range<Int>? {
        func isWord(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x5F || b == 0x24 || b >= 0x80
        }
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                i += 1
                while i < bytes.count, bytes[i] != b { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
                i += 1
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
                while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                i += 2
                while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i += 2
            case UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"):
                let start = i
                while i < bytes.count, isWord(bytes[i]) || bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                    i += 1
                }
                if !isNumber(bytes[start ..< i]) { return start ..< i }
            default:
                if isWord(b) {
                    while i < bytes.count, isWord(bytes[i]) { i += 1 }  // a key, true, false, null, NaN, Infinity
                } else {
                    i += 1
                }
            }
        }
        return nil
    }

    /// Whether `token` is a JSON5 number (see `firstInvalidNumber`).
    private static func isNumber(_ token: ArraySlice<UInt8>) -> Bool {
        var rest = token[...]
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
        if rest.elementsEqual("Infinity".utf8) || rest.elementsEqual("NaN".utf8) { return true }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        if rest.count > 2, rest.first == UInt8(ascii: "0"), rest.dropFirst().first.map({ $0 | 0x20 == UInt8(ascii: "x") }) == true {
            return rest.dropFirst(2).allSatisfy { isDigit($0) || ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "f")) }
        }
        let whole = rest.prefix(while: isDigit)
        rest = rest.dropFirst(whole.count)
        var fraction = 0
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            fraction = rest.prefix(while: isDigit).count
            rest = rest.dropFirst(fraction)
        }
        guard whole.count + fraction > 0 else { return false }
        if let e = rest.first, e | 0x20 == UInt8(ascii: "e") {
            rest = rest.dropFirst()
            if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
            let digits = rest.prefix(while: isDigit).count
            guard digits > 0 else { return false }
            rest = rest.dropFirst(digits)
        }
        return rest.isEmpty
    }

    /// The most characters of Foundation's reason a syntax error shows.
    static let longestReason = 120

    /// Where and why the text does not parse. `JSONDecoder` does not say, so the text is parsed
    /// once more with `JSONSerialization`, whose message names a byte offset.
    private static func syntaxError(_ data: Data, file: String) -> PointPaintError {
        var reason = "not a JSON document"
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? reason
        }
        var place: PointPaintError.Place?
        if let range = reason.range(of: #"\s*(around|at) character \d+\.?"#, options: .regularExpression) {
            let digits = reason[range].filter(\.isNumber)
            place = Int(digits).map { .byteOffset($0) }
            reason.removeSubrange(range)
        }
        reason = reason.trimmingCharacters(in: CharacterSet(charactersIn: ". ")).lowercasedFirst
        // Foundation's reason can quote the file's text whole (a number of a thousand digits):
        // cut it as quoted text is cut, so the error stays one short line.
        if reason.count > Self.longestReason { reason = reason.prefix(Self.longestReason) + "… (\(reason.count - Self.longestReason) more characters)" }
        return PointPaintError(.malformed, file: file, place: place, "expected JSON, found text that does not parse (\(reason))")
    }
}
