import Foundation
import Testing
@testable import PointPaint

/// `CaptureNote`: every app reader says, by kind, how it read the poses, the camera, the times and
/// the depth, so `info` and tests can find a note without matching its wording.
@Suite struct CaptureNoteTests {
    @Test("each app's recording notes its poses, camera, timestamps and depth, each poses note once")
    func kindsPerApp() throws {
        let layouts: [(String, CaptureSourceTruth.Layout)] = [
            ("stray", StrayCaptureTests.jpegFrames), ("record3d", Record3DCaptureTests.export),
            ("polycam", PolycamCaptureTests.corrected), ("scanner-app", ScannerAppCaptureTests.everyImage),
            ("nerfstudio", NerfstudioCaptureTests.jpegFrames),
        ]
        for (name, layout) in layouts {
            let dir = try layout.copy()
            let notes = try CaptureFormat.open(dir.path).notes
            let kinds = notes.map(\.kind)
            #expect(kinds.count { $0 == .poses } == 1, "\(name): \(notes)")
            for kind in [CaptureNote.Kind.camera, .timestamps, .depth] {
                #expect(kinds.contains(kind), "\(name) has no \(kind) note: \(notes)")
            }
            #expect(notes.allSatisfy { !$0.text.isEmpty && !$0.text.contains("\n") }, "\(name): one line each")
        }
    }

    @Test("info prints every note's text, in order, under notes:")
    func infoPrintsTheTexts() throws {
        let dir = try StrayCaptureTests.jpegFrames.copy()
        let source = try CaptureFormat.open(dir.path)
        let report = try source.summary().report
        let printed = report.components(separatedBy: "\n").drop { $0 != "notes:" }.dropFirst()
        #expect(Array(printed) == source.notes.map { "  - \($0.text)" })
    }
}
