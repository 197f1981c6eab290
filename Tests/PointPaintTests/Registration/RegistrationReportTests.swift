import Testing
@testable import PointPaint

/// Which refined poses a registration applies: the anchor keeps its pose, a correction past the
/// limits or one that raises the residual is refused and named, one that gains too little is
/// held, and the summary's residual counts a frame with the pose it keeps.
@Suite struct RegistrationReportTests {
    static func pose(x: Double) -> Matrix4x4 {
        Matrix4x4(columns: SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(x, 0, 0, 1))
    }

    @Test func theRulesDecideEachFrame() {
        let start = Self.pose(x: 0)
        func candidate(_ index: Int, moved: Double, before: Double, after: Double, anchor: Bool = false) -> RegistrationReport.Candidate {
            RegistrationReport.Candidate(index: index, start: start, refined: Self.pose(x: moved), recorded: start,
                                         before: (before * before * 10, 10), after: (after * after * 10, 10), isAnchor: anchor)
        }
        let candidates = [
            candidate(0, moved: 0.01, before: 2, after: 1, anchor: true),  // the anchor: held whatever it found
            candidate(1, moved: 0.02, before: 4, after: 2),  // applied
            candidate(2, moved: 0.30, before: 4, after: 2),  // past 0.25 m: refused
            candidate(3, moved: 0.02, before: 2, after: 3),  // raises its residual: refused
            candidate(4, moved: 0.02, before: 4, after: 3.8),  // gains 5 %, under 10 %: held
        ]
        let (poses, report) = RegistrationReport.assemble(candidates, method: "test", unit: "levels", anchor: 0, recordingFrames: 9,
                                                          limits: (0.25, 10), minimumGain: 0.1)
        #expect(poses.frames.map { $0.refined.translation.x } == [0, 0.02, 0, 0, 0])
        #expect(report.corrected == 1 && report.held == 1 && report.refused.map(\.frame) == [2, 3], "\(report.refused)")
        #expect(report.refused[0].reason.contains("passes the limits") && report.refused[1].reason.contains("raises its residual"))
        #expect(abs(report.medianCorrection.metres - 0.02) < 1e-12 && abs(report.largestCorrection.metres - 0.02) < 1e-12)
        // Before: the mean of 4, 16, 16, 4, 16 over 50 values (10 each) → √11.2; after, with the
        // poses kept: 1 (the anchor's own after), 2, 4, 2, 4 → √((1 + 4 + 16 + 4 + 16) / 5).
        #expect(abs(report.residual.before - (56.0 / 5).squareRoot()) < 1e-12 && abs(report.residual.after - (41.0 / 5).squareRoot()) < 1e-12)
        #expect(poses.recordingFrames == 9 && poses.anchor == 0 && poses.method == "test")
    }

    @Test func anAnchorNotAmongTheFramesIsOneError() throws {
        #expect(try RegistrationReport.anchor(nil, among: [3, 5], file: "f", what: "x") == 0)
        #expect(try RegistrationReport.anchor(5, among: [3, 5], file: "f", what: "x") == 1)
        let error = try #require(throws: PointPaintError.self) { try RegistrationReport.anchor(4, among: [3, 5], file: "f", what: "depth points") }
        #expect(error.kind == .missing && error.description.contains("frame 4") && error.description.contains("has no depth points"), "\(error)")
    }
}
