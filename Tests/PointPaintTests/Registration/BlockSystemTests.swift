import Foundation
import Testing
@testable import PointPaint

/// The block-sparse normal equations against systems built from a known answer.
@Suite struct BlockSystemTests {
    /// A symmetric positive definite 6 × 6 block: diagonal `d` plus a small symmetric part.
    static func block(_ d: Double, _ seed: Double) -> Matrix6 {
        var m = Matrix6()
        for r in 0 ..< 6 {
            for c in 0 ..< 6 { m.rows[r][c] = r == c ? d : 0.1 * sin(seed + Double(r * 6 + c) + Double(c * 6 + r)) }
        }
        return m
    }

    @Test func theSolutionIsTheOneTheSystemWasBuiltFrom() throws {
        // Three poses: 0–1 and 1–2 coupled, 0–2 not (a chain, as a sliding window makes).
        let x: [SIMD8<Double>] = [SIMD8(1, -2, 0.5, 3, 0, -1, 0, 0), SIMD8(0.25, 0, -1, 2, 1, 1, 0, 0), SIMD8(-3, 1, 1, 0, 0.5, 2, 0, 0)]
        var system = BlockSystem(count: 3)
        let diagonal = [Self.block(4, 1), Self.block(5, 2), Self.block(3, 3)]
        var cross = Matrix6()
        for r in 0 ..< 6 { for c in 0 ..< 6 { cross.rows[r][c] = 0.2 * cos(Double(r + 2 * c)) } }
        for s in 0 ..< 3 { system.add(NormalBlock(hessian: diagonal[s], gradient: .zero), at: s) }
        system.addCross(cross, at: 0, 1)
        system.addCross(cross, at: 1, 2)
        // H x, by hand: the diagonal blocks, cross at (0, 1) and (1, 2), its transpose below.
        func transposeTimes(_ v: SIMD8<Double>) -> SIMD8<Double> {
            var y = SIMD8<Double>.zero
            for c in 0 ..< 6 { for r in 0 ..< 6 { y[c] += cross.rows[r][c] * v[r] } }
            return y
        }
        let hx = [diagonal[0].times(x[0]) + cross.times(x[1]),
                  transposeTimes(x[0]) + diagonal[1].times(x[1]) + cross.times(x[2]),
                  transposeTimes(x[1]) + diagonal[2].times(x[2])]
        // The system solves H δ = −g: with g = −H x, δ = x.
        for s in 0 ..< 3 { system.addDiagonal(0, right: -hx[s], at: s) }
        let solution = try #require(system.solve())
        for s in 0 ..< 3 {
            let error: SIMD8<Double> = solution[s] - x[s]
            #expect((error * error).max() < 1e-18, "block \(s): \(solution[s]) ≠ \(x[s])")
        }
    }

    @Test func aLongChainIsSolvedAlikeOnAnyThreadCount() throws {
        // 300 poses, each coupled with the next (a sliding window), the answer known.
        let n = 300
        let x = (0 ..< n).map { k in SIMD8<Double>((0 ..< 6).map { sin(Double(k * 6 + $0)) } + [0, 0]) }
        var cross = Matrix6()
        for r in 0 ..< 6 { for c in 0 ..< 6 { cross.rows[r][c] = 0.2 * cos(Double(r + 2 * c)) } }
        let diagonal = (0 ..< n).map { Self.block(4 + Double($0 % 3), Double($0)) }
        var hx = (0 ..< n).map { diagonal[$0].times(x[$0]) }
        for k in 0 ..< n - 1 {
            hx[k] += cross.times(x[k + 1])
            hx[k + 1] += cross.transposed.times(x[k])
        }
        var system = BlockSystem(count: n)
        for k in 0 ..< n {
            system.add(NormalBlock(hessian: diagonal[k], gradient: .zero), at: k)
            system.addDiagonal(0, right: -hx[k], at: k)
        }
        for k in 0 ..< n - 1 { system.addCross(cross, at: k, k + 1) }
        let one = try #require(system.solve(threads: 1)), three = try #require(system.solve(threads: 3))
        #expect(one == three)
        let worst = zip(one, x).map { (($0 - $1) * ($0 - $1)).max() }.max() ?? .infinity
        #expect(worst < 1e-18)
    }

    @Test func aBlockThatIsNotPositiveDefiniteIsNoSolution() {
        var system = BlockSystem(count: 2)
        system.add(NormalBlock(hessian: Self.block(1, 0), gradient: .zero), at: 0)
        #expect(system.solve() == nil)  // row 1 has no diagonal block
    }
}
