import Testing
@testable import PointPaint

/// The neighbour grid's nearest point against a plain search over every point.
@Suite struct NeighbourGridTests {
    @Test func theNearestIsTheOneAPlainSearchFinds() {
        var random = SplitMix64(seed: 29)
        // Six frames of 400 points in a 30 cm cube, on a 5 mm lattice so that ties happen.
        let points = (0 ..< 6).map { _ in
            (0 ..< 400).map { _ in SIMD3(Double(random.next() % 60), Double(random.next() % 60), Double(random.next() % 60)) * 0.005 }
        }
        let radius = 0.02
        for keyframes in [nil, 1, 2, 4] {
            for threads in [1, 3] {
                theNearestIsFound(points: points, radius: radius, keyframes: keyframes, threads: threads, random: &random)
            }
        }
    }

    /// Far from the origin (map coordinates), and with cells 2²¹ cells apart, whose keys are the
    /// same: the nearest is still the one a plain search finds.
    @Test func farAndCollidingCellsAreToldApartByDistance() {
        var random = SplitMix64(seed: 31)
        let radius = 0.02, far = SIMD3<Double>(500_000, 4_000_000, 100)
        // Each frame: points near `far`, and as many 2²¹ cells farther along x (same keys).
        let apart = SIMD3<Double>(Double(1 << 21) * radius, 0, 0)
        let points = (0 ..< 4).map { _ in
            (0 ..< 300).flatMap { _ -> [SIMD3<Double>] in
                let p = far + SIMD3(Double(random.next() % 60), Double(random.next() % 60), Double(random.next() % 60)) * 0.005
                return [p, p + apart + SIMD3(0.003, 0, 0)]
            }
        }
        theNearestIsFound(points: points, radius: radius, keyframes: 2, threads: 2, random: &random, around: far)
        theNearestIsFound(points: points, radius: radius, keyframes: 2, threads: 2, random: &random, around: far + apart)
    }

    /// 500 random queries in a 30 cm cube at `around` against a grid with `keyframes`, built on
    /// `threads` threads.
    private func theNearestIsFound(points: [[SIMD3<Double>]], radius: Double, keyframes: Int?, threads: Int, random: inout SplitMix64,
                                   around: SIMD3<Double> = .zero) {
        let grid = NeighbourGrid(points: points, cell: radius, keyframes: keyframes, threads: threads)
        let frames = points.count
        for _ in 0 ..< 500 {
            let p = around + SIMD3(Double(random.next() % 600), Double(random.next() % 600), Double(random.next() % 600)) * 0.0005
            let excluded = Int(random.next() % UInt64(frames)), lower = Int(random.next() % UInt64(frames))
            let window = lower ... lower + Int(random.next() % 3)
            var best: NeighbourGrid.Nearest?
            grid.nearest(to: p, window: window, excluding: excluded, within: radius, best: &best)
            // The plain search: every point of the window's frames and the keyframes, lower
            // frame then index first among equals.
            var expected: NeighbourGrid.Nearest?
            for f in points.indices where f != excluded && (window.contains(f) || keyframes.map { f % $0 == 0 } == true) {
                for (i, q) in points[f].enumerated() {
                    let d = ((q - p) * (q - p)).sum()
                    if d < (expected?.distance ?? radius * radius) { expected = (f, i, d) }
                }
            }
            #expect(best?.frame == expected?.frame && best?.index == expected?.index,
                    "\(p) in \(window) and keyframes \(keyframes.map(String.init) ?? "none") but \(excluded)")
        }
    }
}
