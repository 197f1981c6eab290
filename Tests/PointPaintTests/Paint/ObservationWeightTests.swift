import Foundation
import Testing
@testable import PointPaint

/// Each factor of an observation's weight at the values its definition fixes, and the whole
/// number it is quantised to.
@Suite struct ObservationWeightTests {
    @Test func incidenceIsTheCosineOfTheViewAngleWithAFloor() {
        let n = SIMD3<Float>(0, 0, 1)
        #expect(abs(ObservationWeight.incidence(normal: n, toCamera: SIMD3(0, 0, 3)) - 1) < 1e-6)
        #expect(abs(ObservationWeight.incidence(normal: -n, toCamera: SIMD3(0, 0, 3)) - 1) < 1e-6, "either orientation")
        let sixty = SIMD3<Float>(sin(.pi / 3), 0, cos(.pi / 3)) * 2
        #expect(abs(ObservationWeight.incidence(normal: n, toCamera: sixty) - 0.5) < 1e-6)
        #expect(ObservationWeight.incidence(normal: n, toCamera: SIMD3(1, 0, 0)) == 0.05, "grazing: the floor")
        #expect(ObservationWeight.incidence(normal: .zero, toCamera: SIMD3(1, 0, 0)) == 1, "no normal: no opinion")
    }

    @Test func footprintFallsWithTheSquareOfThePixelsAPointCovers() {
        // r = f · spacing / depth: 4 px or more counts fully; 2 px a quarter.
        #expect(ObservationWeight.footprint(spacing: 0.01, depth: 1, focal: 400) == 1)
        #expect(ObservationWeight.footprint(spacing: 0.01, depth: 1, focal: 1000) == 1)
        #expect(abs(ObservationWeight.footprint(spacing: 0.01, depth: 2, focal: 400) - 0.25) < 1e-6)
        #expect(abs(ObservationWeight.footprint(spacing: 0.01, depth: 4, focal: 400) - 0.0625) < 1e-6)
    }

    @Test func borderRisesFromTheEdgeToFivePercentIn() {
        // 640 × 480: the margin is 24 px.
        #expect(ObservationWeight.border(u: 0, v: 240, width: 640, height: 480) == 0)
        #expect(ObservationWeight.border(u: 12, v: 240, width: 640, height: 480) == 0.5)
        #expect(ObservationWeight.border(u: 320, v: 24, width: 640, height: 480) == 1)
        let x: Float = 10.0 / 24, smooth = x * x * (3 - 2 * x)
        #expect(abs(ObservationWeight.border(u: 320, v: 470, width: 640, height: 480) - smooth) < 1e-6, "smooth between")
    }

    @Test func clippedHighlightsAndCrushedShadowsCountLittle() {
        #expect(ObservationWeight.clipping(encoded: SIMD3(0.5, 0.4, 0.3)) == 1)
        #expect(ObservationWeight.clipping(encoded: SIMD3(1, 0.4, 0.3)) == 0, "a channel at full code")
        #expect(ObservationWeight.clipping(encoded: SIMD3(0.002, 0.002, 0.002)) == 0, "black")
        let near = ObservationWeight.clipping(encoded: SIMD3(0.97, 0.4, 0.3))
        #expect(near > 0 && near < 1)
        #expect(ObservationWeight.clipping(encoded: SIMD3(.nan, 0.4, 0.3)) == 0)
    }

    @Test func weightsAreWholeNumbersFromOneTo255() {
        #expect(ObservationWeight.quantised(1) == 255)
        #expect(ObservationWeight.quantised(0.5) == 128)
        #expect(ObservationWeight.quantised(0) == 1, "a point seen only badly is still seen")
        #expect(ObservationWeight.quantised(.nan) == 1)
        #expect(ObservationWeight.quantised(7) == 255)
    }
}
