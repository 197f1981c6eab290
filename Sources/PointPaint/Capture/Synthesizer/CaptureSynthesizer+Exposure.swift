import Foundation

extension CaptureSynthesizer {
    /// The gain frame `index` applies to the scene's colours in linear light
    /// (`Options.exposureDrift`): an exposure factor e^(−a·(1 + sin(1.7 f + 0.3))/2) times a
    /// white-balance factor per channel e^(−0.15 a·(1 + sin(2.3 f + 2.1 k))), so every gain lies
    /// in [e^(−1.3 a), 1] and no colour is pushed past white. (1, 1, 1) when the drift is 0.
    public func exposureGain(frame index: Int) -> SIMD3<Double> {
        let a = options.exposureDrift
        guard a > 0 else { return SIMD3(1, 1, 1) }
        let f = Double(index)
        let exposure = -a * 0.5 * (1 + sin(1.7 * f + 0.3))
        func channel(_ k: Double) -> Double { exp(exposure - 0.15 * a * (1 + sin(2.3 * f + 2.1 * k))) }
        return SIMD3(channel(0), channel(1), channel(2))
    }

    /// `pixels` (R′G′B′, capture primaries) with frame `index`'s gain applied in linear light.
    func applyingExposure(_ pixels: [SIMD3<Double>], frame index: Int) -> [SIMD3<Double>] {
        let gain = exposureGain(frame: index)
        guard gain != SIMD3(1, 1, 1) else { return pixels }
        return pixels.map { SRGBTransfer.encode(SRGBTransfer.decode($0) * gain) }
    }
}
