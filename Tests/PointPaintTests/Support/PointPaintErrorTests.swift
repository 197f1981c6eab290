import Foundation
import Testing
@testable import PointPaint

/// The error `body` throws: a `PointPaintError` on one line, or nil (an issue recorded) when it
/// throws nothing or something else.
func pointPaintError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> PointPaintError? {
    do {
        try body()
        Issue.record("expected a PointPaintError, none was thrown", sourceLocation: sourceLocation)
    } catch let error as PointPaintError {
        #expect(!error.description.contains("\n") && !error.description.contains("\r"), "one line: \(error)",
                sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a PointPaintError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

@Suite struct PointPaintErrorTests {
    @Test func linesLeaveOutWhatIsAbsent() {
        #expect(PointPaintError(.malformed, file: "a.ply", place: .line(3), "bad").description == "a.ply: line 3: bad")
        #expect(PointPaintError(.missing, "no display").description == "no display")
        #expect(PointPaintError(.outOfRange, file: "c.json", place: .jsonPath(""), "x").description == "c.json: top level: x")
        #expect(PointPaintError.Place.element("vertex", 7).description == "vertex 7")
    }

    /// The one wording test of the system-error family.
    @Test func systemErrorsCarryTheirErrno() {
        let denied = PointPaintError.system("cannot open", file: "x.ply", errno: EACCES)
        #expect(denied.kind == .io(errno: EACCES))
        #expect(denied.description == "x.ply: cannot open: permission denied")
        #expect(PointPaintError.system("cannot open", file: "x.ply", errno: ENOENT).kind == .missing)
        #expect(PointPaintError.system("cannot open", file: "x.ply", errno: ENOTDIR).kind == .missing)
    }

    // MARK: quoting file text

    @Test func controlBytesAndEscapesAreSpelledOut() {
        #expect(PointPaintError.quote("ab") == "'ab'")
        #expect(PointPaintError.quote(bytes: [0x00, 0x07, 0x7F, 0x41]) == "'\\u{0}\\u{7}\\u{7F}A'")
        #expect(PointPaintError.quote("\u{1B}[2Jcleared") == "'\\u{1B}[2Jcleared'")
        #expect(PointPaintError.quote("tab\there, quote ' and \\") == "'tab\\there, quote \\' and \\\\'")
    }

    @Test func aLoneCarriageReturnCannotSplitTheLine() {
        let quoted = PointPaintError.quote("1 2\r3")
        #expect(quoted == "'1 2\\r3'")
        #expect(!quoted.contains("\r") && !quoted.contains("\n"))
        #expect(PointPaintError.quote("a\nb\u{2028}c") == "'a\\nb\\u{2028}c'")
    }

    @Test func invisibleCharactersAreShown() {
        #expect(PointPaintError.quote("\u{FEFF}1") == "'\\u{FEFF}1'")
        #expect(PointPaintError.quote("1\u{200B}2") == "'1\\u{200B}2'")
        #expect(PointPaintError.quote("1\u{00A0}2") == "'1\\u{A0}2'")
        #expect(PointPaintError.quote(bytes: Array("\u{FEFF}\u{200B}\u{00A0} é".utf8)) == "'\\u{FEFF}\\u{200B}\\u{A0} é'")
    }

    @Test func longTextIsCutToFortyCharacters() {
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20)
        let quoted = PointPaintError.quote(bytes: line)
        #expect(quoted == "'" + String(repeating: "x", count: 40) + "'… (\((10 << 20) - 40) more bytes)")
        #expect(PointPaintError.quote(String(repeating: "é", count: 41)) == "'" + String(repeating: "é", count: 40) + "'… (1 more character)")
    }

    @Test func invalidUTF8ShowsAsReplacementCharacters() {
        #expect(PointPaintError.quote(bytes: [0x61, 0xFF, 0x62]) == "'a\\u{FFFD}b'")
        #expect(PointPaintError.quote(bytes: [0xC3]) == "'\\u{FFFD}'")
    }

    /// Found by fuzzing: forty invalid bytes, each shown as `\u{FFFD}`, made an 824-character
    /// error line. An escape counts as the characters it takes.
    @Test func escapesCountAsTheCharactersTheyTake() {
        #expect(PointPaintError.quote(bytes: [UInt8](repeating: 0xFF, count: 100)) == "'" + String(repeating: "\\u{FFFD}", count: 5) + "'… (95 more bytes)")
        #expect(PointPaintError.quote(String(repeating: "\u{1B}", count: 10)) == "'" + String(repeating: "\\u{1B}", count: 6) + "'… (4 more characters)")
    }

    @Test func namesAreBareUnlessTheyHoldSomethingInvisibleOrRunLong() {
        #expect(PointPaintError.name("vertex") == "vertex")
        #expect(PointPaintError.name("it's") == "it's")
        #expect(PointPaintError.name("a\u{1B}[2Jb") == "'a\\u{1B}[2Jb'")
        #expect(PointPaintError.name(String(repeating: "v", count: 41)) == "'" + String(repeating: "v", count: 40) + "'… (1 more character)")
    }

    /// Whatever reaches a file name or a message, the line stays one line without escapes:
    /// a path in a manifest, a name in a PLY header.
    @Test func theWholeLineIsVisibleWhateverItsPartsHold() {
        let error = PointPaintError(.missing, file: "frames/\u{1B}[2J\r.nv12", place: .element("v\u{7}x", 2), "expected a\nframe\u{200B}")
        #expect(error.description == "'frames/\\u{1B}[2J\\r.nv12': 'v\\u{7}x' 2: expected a\\nframe\\u{200B}")
        let long = PointPaintError(.missing, file: String(repeating: "d/", count: 1000), "expected a file")
        #expect(long.description.count < PointPaintError.longestFileShown + 60)
        #expect(PointPaintError(.missing, file: "café's.ply", "found none").description == "café's.ply: found none")
        let parts = PointPaintError(.malformed, file: "a.r3d", place: .part("rgbd/\u{1B}[2J.jpg"), "bad")
        #expect(parts.description == "a.r3d: rgbd/\\u{1B}[2J.jpg: bad")
        #expect(PointPaintError.Place.jsonPath("frames[0].\u{7}").description == "frames[0].\\u{7}")
    }

    /// What `info` prints for LAS, PLY, store and capture files: one line for each of `lines`.
    @Test func reportsSpellOutWhatTheirLinesHold() {
        let report = PointPaintError.escapingInvisible(lines: ["a: b\u{1B}[2J\u{7}", "  comment x\ny\rz", "café"])
        #expect(report == "a: b\\u{1B}[2J\\u{7}\n  comment x\\ny\\rz\ncafé")
        #expect(PointPaintError.escapingInvisible(lines: []) == "")
    }

    @Test func vectorsReadAsNumbersNotAsCode() {
        #expect(PointPaintError.tuple(SIMD3<Int32>(1, -2, 3)) == "(1, -2, 3)")
        #expect(PointPaintError.tuple(SIMD3<Double>(0.001, .nan, -.infinity)) == "(0.001, nan, -inf)")
        #expect(PointPaintError.tuple(SIMD2<Float>(0.5, 2)) == "(0.5, 2.0)")
    }
}
