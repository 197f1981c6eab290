import Testing
@testable import PointPaintCLI

@Suite struct ProgressReporterTests {
    @Test("frames a second: three significant digits below 100, whole numbers from 100 up", arguments: [
        (12, 29.0, "0.414"), (3, 1.0, "3"), (36, 0.16, "225"), (1200, 1.0, "1200"), (0, 5.0, "0"), (5, 0.0, "5000000000"),
    ])
    func rate(frames: Int, seconds: Double, expected: String) {
        #expect(ProgressReporter.rate(frames: frames, seconds: seconds) == expected)
    }
}
