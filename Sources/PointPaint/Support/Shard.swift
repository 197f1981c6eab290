/// Part `index` of `count` equal shares of some work, written `K/N` on the command line: the
/// frames `K, K+N, K+2N, …` of a replay, or a contiguous run of a video's frames
/// (`CaptureReplay.Options.shard`, `CaptureReplay.frameIndices`), or spatial region K of N
/// of a merge (`StoreMerge`).
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// Which part, from 0.
    public let index: Int
    /// How many parts, at least 1.
    public let count: Int

    /// Part `index` of `count`; nil unless `0 ≤ index < count`.
    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, with whole numbers `0 ≤ K < N`.
    /// - Throws: `.malformed` for another form, `.outOfRange` for numbers outside those bounds,
    ///   at `place` (the option's name).
    public init(parsing text: String, place: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw PointPaintError(.malformed, place: .part(place), "expected K/N with whole numbers 0 ≤ K < N (part K of N), found \(PointPaintError.quote(text))")
        }
        guard n >= 1 else { throw PointPaintError(.outOfRange, place: .part(place), "\(text): N must be at least 1") }
        guard let shard = Shard(index: k, count: n) else {
            throw PointPaintError(.outOfRange, place: .part(place), "\(text): K must be from 0 to N − 1 = \(n - 1)")
        }
        self = shard
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// Whether item `i` (from 0) of a sequence dealt round-robin belongs to this part.
    @inline(__always)
    public func contains(_ i: Int) -> Bool { i % count == index }
}
