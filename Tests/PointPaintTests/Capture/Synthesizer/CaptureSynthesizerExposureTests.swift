import Foundation
import Testing
@testable import PointPaint

/// Synthesized exposure drift and the occluded scene: gains within their range, applied in
/// linear light to what a frame shows; the posts hide something from some frames only.
@Suite struct CaptureSynthesizerExposureTests {
    @Test func driftDarkensFramesDifferentlyAndNeverBrightens() {
        var options = CaptureSynthesizer.Options()
        options.exposureDrift = 0.5
        let synth = CaptureSynthesizer(options: options)
        let gains = (0 ..< 20).map { synth.exposureGain(frame: $0) }
        #expect(gains.allSatisfy { $0.max() <= 1 && $0.min() >= exp(-1.3 * 0.5) - 1e-12 })
        #expect(Set(gains.map(\.x)).count == 20, "every frame its own exposure")
        #expect(gains.contains { abs($0.x - $0.z) > 0.02 }, "white balance drifts too")
        #expect(CaptureSynthesizer().exposureGain(frame: 3) == SIMD3(1, 1, 1))
        let pixel = [SIMD3<Double>(0.5, 0.5, 0.5)]
        let shown = synth.applyingExposure(pixel, frame: 4)[0]
        let expected = SRGBTransfer.encode(SRGBTransfer.decode(pixel[0]) * gains[4])
        #expect(abs(shown.x - expected.x) < 1e-12 && shown.x < 0.5)
    }

    @Test func postsHideDifferentSurfacesFromDifferentFrames() {
        var options = CaptureSynthesizer.Options()
        options.width = 64
        options.height = 48
        let synth = CaptureSynthesizer(options: options, scene: .occluded)
        let posts = SyntheticScene.standard.boxes.count ..< SyntheticScene.occluded.boxes.count
        var hitsPerFrame: [Int] = []
        for frame in [0, 20, 39] {
            let camera = synth.camera(frame: frame)
            var hits = 0
            for row in stride(from: 0, to: 48, by: 2) {
                for col in stride(from: 0, to: 64, by: 2) {
                    let ray = camera.ray(u: Double(col) + 0.5, v: Double(row) + 0.5)
                    if let hit = synth.scene.intersect(origin: ray.origin, direction: ray.direction), posts.contains(hit.box) { hits += 1 }
                }
            }
            hitsPerFrame.append(hits)
        }
        #expect(hitsPerFrame.allSatisfy { $0 > 0 && $0 < 24 * 32 / 3 }, "the posts stand in view without filling it: \(hitsPerFrame)")
        let samples = SyntheticScene.occluded.surfaceSamples(spacing: 0.1)
        #expect(samples.contains { posts.contains($0.box) } && samples.contains(where: \.isFlat) && samples.contains { !$0.isFlat })
    }
}
