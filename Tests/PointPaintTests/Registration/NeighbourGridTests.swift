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
            theNearestIsFound(points: points, radius: radius, keyframes: keyframes, random: &random)
        }
    }

    /// 500 random queries against a grid with `keyframes`.
    private func theNearestIsFound(points: [[SIMD3<Double>]], radius: Double, keyframes: Int?, random: inout SplitMix64) {
        let grid = NeighbourGrid(points: points, cell: radius, keyframes: keyframes)
        for _ in 0 ..< 500 {
            let p = SIMD3(Double(random.next() % 600), Double(random.next() % 600), Double(random.next() % 600)) * 0.0005
            let excluded = Int(random.next() % 6), lower = Int(random.next() % 6)
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
