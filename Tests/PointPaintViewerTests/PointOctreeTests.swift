import Foundation
import PointPaint
import Testing
@testable import PointPaintViewer

/// A deterministic generator (SplitMix64), so the clouds are the same on every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum TestClouds {
    /// `count` points on a room-like surface: a floor, two walls and a sphere, in a 4 m box.
    static func room(_ count: Int, seed: UInt64 = 1) -> [SIMD3<Float>] {
        var random = SeededRandom(seed)
        return (0 ..< count).map { i in
            let u = Float.random(in: 0 ..< 1, using: &random), v = Float.random(in: 0 ..< 1, using: &random)
            switch i % 4 {
            case 0: return SIMD3(u * 4 - 2, 0, v * 4 - 2)
            case 1: return SIMD3(u * 4 - 2, v * 2.5, -2)
            case 2: return SIMD3(-2, v * 2.5, u * 4 - 2)
            default:
                let theta = u * 2 * .pi, z = v * 2 - 1, r = (1 - z * z).squareRoot()
                return SIMD3(0.5 + 0.6 * r * cos(theta), 0.6 + 0.6 * z, 0.3 + 0.6 * r * sin(theta))
            }
        }
    }

    /// A cloud of `positions`, coloured by position.
    static func cloud(_ positions: [SIMD3<Float>], voxelSize: Float? = 0.01) -> VoxelCloud {
        VoxelCloud(voxelSize: voxelSize, positions: positions, colors: positions.map { ($0 + 2) / 4 })
    }
}

/// Each node as its level, key prefix and points, for comparing trees built differently.
private func contents(_ octree: PointOctree, sorted: Bool) -> [String: [UInt32]] {
    var result: [String: [UInt32]] = [:]
    for node in octree.nodes { result["\(node.level)/\(node.prefix)"] = sorted ? node.points.sorted() : node.points }
    return result
}

@Suite("Level-of-detail octree")
struct PointOctreeTests {
    static let positions = TestClouds.room(60_000)

    @Test("Every finite point is in exactly one node; non-finite points in none")
    func everyPointOnce() {
        var positions = Self.positions
        positions[5] = SIMD3(.nan, 0, 0)
        positions[77] = SIMD3(0, .infinity, 0)
        let octree = PointOctree(positions: positions)
        var seen = [Int](repeating: 0, count: positions.count)
        for node in octree.nodes { for i in node.points { seen[Int(i)] += 1 } }
        #expect(seen[5] == 0 && seen[77] == 0)
        #expect(seen.enumerated().allSatisfy { $0.offset == 5 || $0.offset == 77 || $0.element == 1 })
        #expect(octree.pointCount == positions.count - 2)
        #expect(octree.nodes.count > 1 && !octree.nodes[0].isLeaf, "a cloud past the leaf capacity is split")
        // Inner nodes keep at most one point a grid cell; leaves at most the capacity (above the deepest level).
        for node in octree.nodes {
            if node.isLeaf {
                #expect(node.points.count <= PointOctree.leafCapacity)
                #expect(node.children == SIMD8(repeating: -1))
            } else {
                let cells = Set(node.points.map { octree.cube!.key(positions[Int($0)]) >> UInt64(3 * (21 - node.level - 6)) })
                #expect(cells.count == node.points.count)
            }
            // Every point lies in its node's cube.
            for i in node.points {
                let p = positions[Int(i)]
                #expect(all(p .>= node.origin - 1e-5) && all(p .<= node.origin + node.size + 1e-5))
            }
        }
    }

    @Test("An inner node's grid cell keeps the point nearest its centre, so a coarse level samples its cells evenly")
    func cellCentres() throws {
        let octree = PointOctree(positions: Self.positions)
        let cube = try #require(octree.cube)
        let root = octree.nodes[0]
        #expect(!root.isLeaf)
        // The root's cells and the points reaching each (every point reaches the root).
        let cellEdge = Double(root.spacing)
        func cell(_ p: SIMD3<Float>) -> SIMD3<Int> { SIMD3<Int>(((SIMD3<Double>(p) - cube.origin) / cellEdge).rounded(.down)) }
        func offCentre(_ p: SIMD3<Float>) -> Double {
            let centre = cube.origin + (SIMD3<Double>(cell(p)) + 0.5) * cellEdge
            return (SIMD3<Double>(p) - centre).replacing(with: centre - SIMD3<Double>(p), where: SIMD3<Double>(p) .< centre).max()
        }
        var nearest: [SIMD3<Int>: Double] = [:]
        for p in Self.positions { nearest[cell(p), default: .infinity] = min(nearest[cell(p), default: .infinity], offCentre(p)) }
        // The rank compares the offsets' bits, most significant first: the kept point is within
        // a factor of two (and a few lattice steps) of the nearest, on the axis it is farthest out.
        let step = cube.side / OctreeCube.resolution
        for i in root.points {
            let p = Self.positions[Int(i)]
            #expect(offCentre(p) <= 2 * (nearest[cell(p)] ?? 0) + 4 * step, "a cell kept a point \(offCentre(p)) off its centre against \(nearest[cell(p)] ?? 0)")
        }
        // A point added at the centre of a cell takes it, however the tree is made.
        let cells = root.points.prefix(50).map { cell(Self.positions[Int($0)]) }
        let centres = cells.map { SIMD3<Float>(cube.origin + (SIMD3<Double>($0) + 0.5) * cellEdge) }
        let withCentres = Self.positions + centres
        let built = PointOctree(positions: withCentres)
        var grown = PointOctree()
        grown.insert(0 ..< Self.positions.count, of: withCentres)
        grown.insert(Self.positions.count ..< withCentres.count, of: withCentres)
        for octree in [built, grown] {
            let kept = Set(octree.nodes[0].points.map(Int.init))
            #expect((Self.positions.count ..< withCentres.count).allSatisfy(kept.contains))
        }
    }

    @Test("The key sort is a stable sort, for clustered keys, repeated keys and every size up to a big run",
          arguments: [0, 1, 2, 31, 33, 100, 5_000, 300_000])
    func keySort(count: Int) {
        var random = SeededRandom(UInt64(count) + 5)
        // Points of a surface: a few clusters whose keys share long prefixes, some repeated.
        let clusters = (0 ..< 6).map { _ in UInt64.random(in: 0 ..< 1 << 63, using: &random) & ~((1 << 30) - 1) }
        var keys = (0 ..< count).map { i -> UInt64 in
            if i % 17 == 3 { return clusters[0] | 12_345 }
            return clusters[Int.random(in: 0 ..< 6, using: &random)] | UInt64.random(in: 0 ..< 1 << 30, using: &random) >> UInt64(i % 25)
        }
        var order = (0 ..< UInt32(count)).map { $0 }
        let expected = zip(keys, order).sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        PointOctree.radixSort(&keys, &order)
        #expect(keys == expected.map(\.0))
        #expect(order == expected.map(\.1), "equal keys keep their order")
    }

    @Test("A long run of one cell's keys finds its holder by bits as a scan of every rank does",
          arguments: [0, 3, PointOctree.maximumLevel - 1])
    func cellHolderSearch(level: Int) {
        var random = SeededRandom(UInt64(level + 1))
        let cellShift = UInt64(3 * (OctreeCube.bitsPerAxis - level - PointOctree.gridBits))
        for trial in 0 ..< 60 {
            // Keys in one cell, some repeated, clustered in a corner on some trials (long shared prefixes).
            let cell = UInt64.random(in: 0 ..< 1 << (3 * UInt64(level + PointOctree.gridBits)), using: &random) << cellShift
            let spread = trial % 3 == 0 ? cellShift / 2 : cellShift
            var keys = (0 ..< Int.random(in: 33 ... 3_000, using: &random)).map { _ in
                cell | UInt64.random(in: 0 ..< 1 << spread, using: &random)
            }
            keys += keys.prefix(10)
            keys.sort()
            let expected = keys.indices.min { (PointOctree.cellRank(keys[$0], level: level), $0) < (PointOctree.cellRank(keys[$1], level: level), $1) }
            let found = keys.withUnsafeBufferPointer { PointOctree.cellHolder($0.baseAddress!, run: 0 ..< keys.count, level: level) }
            #expect(found == expected, "level \(level), trial \(trial)")
        }
    }

    @Test("Any insertion order, in one go or point by point, gives the same nodes")
    func orderIndependent() throws {
        var random = SeededRandom(7)
        let permutation = Array(Self.positions.indices).shuffled(using: &random)
        let shuffled = permutation.map { Self.positions[$0] }
        let a = PointOctree(positions: Self.positions), b = PointOctree(positions: shuffled)
        // The same points (by position) in the same order in every node.
        func positionsByNode(_ octree: PointOctree, _ positions: [SIMD3<Float>]) -> [String: [SIMD3<Float>]] {
            Dictionary(uniqueKeysWithValues: octree.nodes.map { ("\($0.level)/\($0.prefix)", $0.points.map { positions[Int($0)] }) })
        }
        #expect(positionsByNode(a, Self.positions) == positionsByNode(b, shuffled))
        // Grown in chunks of random size, in the shuffled order: the same nodes with the same points.
        var grown = PointOctree()
        grown.trackLocations(count: 0)
        var start = 0
        while start < shuffled.count {
            let end = min(shuffled.count, start + Int.random(in: 1 ... 9_000, using: &random))
            grown.insert(start ..< end, of: shuffled)
            start = end
        }
        #expect(contents(grown, sorted: true) == contents(b, sorted: true))
        #expect(grown.pointCount == shuffled.count)
        // The locations record where each point is.
        for (id, node) in grown.nodes.enumerated() {
            for (slot, i) in node.points.enumerated() { #expect(grown.locations[Int(i)] == UInt64(id) << 32 | UInt64(slot)) }
        }
    }

    @Test("A build hands over every node once, parents first, with the points the finished tree gives it")
    func finishedNodes() {
        var handed: [(id: Int, node: PointOctree.Node)] = []
        let octree = PointOctree(positions: Self.positions) { id, node in handed.append((id, node)) }
        #expect(octree.nodes.contains { !$0.isLeaf } && octree.nodes.count > 2, "the cloud makes inner nodes")
        #expect(handed.map(\.id).sorted() == Array(octree.nodes.indices))
        var seen = Set<Int>()
        for (id, node) in handed {
            let parent = Int(octree.nodes[id].parent)
            #expect(parent < 0 || seen.contains(parent), "node \(id) came before its parent \(parent)")
            seen.insert(id)
            #expect(node.points == octree.nodes[id].points && node.origin == octree.nodes[id].origin && node.size == octree.nodes[id].size)
        }
        #expect(octree.nodes.map(\.points) == PointOctree(positions: Self.positions).nodes.map(\.points))
    }

    @Test("Growing records the changed slots; a rebuild when the cube grows says so")
    func changes() throws {
        var octree = PointOctree()
        octree.trackLocations(count: 0)
        let positions = TestClouds.room(30_000)
        let built = octree.insert(0 ..< 100, of: positions)
        #expect(built, "the first points build the tree")
        let first = octree.takeChanges()
        #expect(first == nil)
        let generation = octree.generation
        // Points inside the cube: inserted in place.
        let inside = (0 ..< 100).map { (positions[$0] + positions[($0 + 1) % 100]) / 2 }
        let all = Array(positions[0 ..< 100]) + inside
        let rebuilt = octree.insert(100 ..< 200, of: all)
        #expect(!rebuilt)
        let taken = octree.takeChanges()
        let changed = try #require(taken)
        #expect(changed.values.map(\.count).reduce(0, +) >= 100)
        #expect(changed.values.allSatisfy { $0.count < 300 })
        #expect(octree.generation == generation)
        octree.markRecolored(3 ..< 4)
        let retaken = octree.takeChanges()
        let recolored = try #require(retaken)
        let location = octree.locations[3]
        #expect(recolored == [Int32(location >> 32): IndexSet(integer: Int(location & 0xFFFF_FFFF))])
        // A point far outside: a new cube, a rebuild.
        let outgrown = octree.insert(200 ..< 201, of: all + [SIMD3(40, 0, 0)])
        #expect(outgrown)
        #expect(octree.generation == generation + 1)
        #expect(octree.pointCount == 201)
    }

    static func view(eye: SIMD3<Float>, target: SIMD3<Float>) -> OctreeView {
        var camera = OrbitCamera(target: target, distance: length(eye - target), sceneRadius: 4)
        let back = normalize(eye - target)
        camera.orientation = OrbitCamera.orientation(yawDegrees: atan2(back.x, back.z) * 180 / .pi, pitchDegrees: asin(back.y) * 180 / .pi)
        return OctreeView(camera: camera, width: 1280, height: 720)
    }

    @Test("The selection keeps to the budget and draws nearer, larger nodes first, parents before children",
          arguments: [500, 20_000, 45_000, 1_000_000])
    func budget(budget: Int) throws {
        let octree = PointOctree(positions: Self.positions)
        let view = Self.view(eye: SIMD3(1.8, 1.5, 1.8), target: SIMD3(-1, 0.5, -1))
        let selection = octree.select(view, budget: budget, minimumSpacingPixels: 0)
        #expect(selection.pointCount <= budget)
        #expect(selection.entries.map(\.count).reduce(0, +) == selection.pointCount)
        if budget <= 20_000 { #expect(selection.isBudgetLimited) }
        if budget >= Self.positions.count { #expect(!selection.isBudgetLimited) }
        if budget < octree.nodes[0].points.count {
            #expect(selection.entries.count == 1 && selection.entries[0].step > 1, "a root past the budget is drawn thinned")
        }
        // Priorities never increase along the drawing order; each node's parent comes before it.
        var seen = Set<Int>()
        var previous = Float.infinity
        for entry in selection.entries {
            let node = octree.nodes[entry.node]
            let distance = PointOctree.distance(from: view.eye, to: node)
            let priority = distance > 0 ? node.size / distance : .infinity
            #expect(priority <= previous * (1 + 1e-6))
            previous = priority
            if node.level > 0 {
                let parent = try #require(octree.nodes.indices.first { octree.nodes[$0].children[Int(node.prefix & 7)] == entry.node })
                #expect(seen.contains(parent))
            }
            seen.insert(entry.node)
        }
        // Of two nodes of one level, the nearer one comes first.
        let levelOne = selection.entries.filter { octree.nodes[$0.node].level == 1 }.map {
            PointOctree.distance(from: view.eye, to: octree.nodes[$0.node])
        }
        #expect(levelOne == levelOne.sorted())
        // The tree texels: each drawn node's entry lists its drawn children.
        for entry in selection.entries {
            let texel = selection.tree[entry.treeIndex]
            let node = octree.nodes[entry.node]
            #expect(texel.x >> 8 == UInt32(node.childMask))
            var next = Int(texel.y)
            for octant in 0 ..< 8 where texel.x & (1 << UInt32(octant)) != 0 {
                let child = Int(node.children[octant])
                #expect(selection.entries.first { $0.node == child }?.treeIndex == next)
                next += 1
            }
        }
    }

    @Test("Nodes outside the view and nodes finer than the pixel limit are left out")
    func culling() {
        let octree = PointOctree(positions: Self.positions)
        let all = octree.select(Self.view(eye: SIMD3(0, 1, 8), target: SIMD3(0, 1, 0)), budget: .max, minimumSpacingPixels: 0)
        #expect(all.pointCount == Self.positions.count, "the whole room in view, no budget: every point")
        let away = octree.select(Self.view(eye: SIMD3(0, 1, 8), target: SIMD3(0, 1, 16)), budget: .max, minimumSpacingPixels: 0)
        #expect(away.entries.isEmpty, "looking away from the room: nothing")
        let coarse = octree.select(Self.view(eye: SIMD3(0, 1, 8), target: SIMD3(0, 1, 0)), budget: .max, minimumSpacingPixels: 40)
        #expect(coarse.pointCount < all.pointCount && !coarse.entries.isEmpty)
        #expect(!coarse.isBudgetLimited)
    }

    @Test("Picking through the octree finds the voxel a scan of every voxel finds")
    func picking() {
        let octree = PointOctree(positions: Self.positions)
        var random = SeededRandom(3)
        var hits = 0
        let cloud = TestClouds.cloud(Self.positions)
        for _ in 0 ..< 40 {
            let origin = SIMD3<Float>(Float.random(in: -3 ... 3, using: &random), Float.random(in: 0 ... 3, using: &random), 5)
            let target = SIMD3<Float>(Float.random(in: -2 ... 2, using: &random), Float.random(in: 0 ... 2, using: &random), -2)
            let direction = normalize(target - origin)
            let expected = Picking.pick(cloud, boxSize: 0.02, origin: origin, direction: direction)
            #expect(octree.pick(positions: Self.positions, boxSize: 0.02, origin: origin, direction: direction) == expected)
            if expected != nil { hits += 1 }
        }
        #expect(hits > 20)
    }

    @Test("The root cube holds the bounds, and stays while the bounds grow within a power-of-two step")
    func cube() {
        let a = OctreeCube(enclosing: (SIMD3(0.3, -1, 2), SIMD3(0.7, -0.9, 2.2)))
        #expect(a.side == 1 && a.origin == SIMD3(0, -1, 2))
        #expect(OctreeCube(enclosing: (SIMD3(0.26, -1, 2), SIMD3(0.74, -0.9, 2.4))) == a)
        #expect(OctreeCube(enclosing: (SIMD3(0.3, -1, 2), SIMD3(1.1, -0.9, 2.2))) != a)
        let single = OctreeCube(enclosing: (SIMD3(5, 5, 5), SIMD3(5, 5, 5)))
        #expect(single.side > 0 && single.side < 1e-3)
        #expect(all(single.origin .<= SIMD3(5, 5, 5)) && all(single.origin + single.side .> SIMD3(5, 5, 5)))
        // Keys: the top three bits are the octant.
        #expect(a.key(SIMD3(0.1, -0.9, 2.1)) >> 60 == 0)
        #expect(a.key(SIMD3(0.9, -0.1, 2.9)) >> 60 == 7)
        #expect(a.key(SIMD3(0.9, -0.9, 2.1)) >> 60 == 1)
    }
}
