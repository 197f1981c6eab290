import CGLFW
import PointPaint

/// The GPU copy of one octree node: its points' centres and colours interleaved in one buffer
/// (24 bytes a point), read as vertices by the points and as instances by the boxes. Made the
/// first time the node is drawn; a live cloud's changed slots are uploaded in place.
@MainActor
final class NodeBuffer {
    /// Bytes a point takes: centre then colour, three floats each.
    static let stride = 24

    private let buffer = GLBuffer()
    private let points = GLVertexArray()
    private var boxes: GLVertexArray?
    /// Points the buffer holds now.
    private(set) var count = 0
    /// Points it has room for.
    private(set) var capacity = 0
    /// Points between consecutive vertices the points array reads.
    private var pointStep = 0

    /// Uploads slots `range` of `points` (indices into `cloud`) with their colours from `source`:
    /// all of them when the buffer must grow, to half as much again as needed when `growing` (a
    /// live cloud's nodes fill up). `scratch` is reused between calls.
    /// - Returns: the bytes uploaded.
    @discardableResult
    func upload(_ indices: [UInt32], slots range: Range<Int>, of cloud: VoxelCloud, colors source: VoxelColorSource = .color,
                growing: Bool, scratch: inout [Float]) -> Int {
        var range = range.clamped(to: 0 ..< indices.count)
        if indices.count > capacity {
            capacity = growing ? max(indices.count + indices.count / 2, 256) : indices.count
            // New storage for the same buffer object: the arrays reading it stay valid.
            buffer.allocate(bytes: capacity * Self.stride)
            range = 0 ..< indices.count
        }
        count = indices.count
        guard !range.isEmpty else { return 0 }
        let floats = range.count * 6
        if scratch.count < floats { scratch = [Float](repeating: 0, count: floats) }
        cloud.positions.withUnsafeBufferPointer { positions in
            cloud.colors.withUnsafeBufferPointer { colors in
                scratch.withUnsafeMutableBufferPointer { out in
                    var o = 0
                    let own = source == .color  // compared once, not per point
                    for slot in range {
                        let i = Int(indices[slot])
                        let p = positions[i]
                        let c = own ? colors[i] : QualityHeatMap.color(of: i, in: cloud, source: source)
                        out[o] = p.x; out[o + 1] = p.y; out[o + 2] = p.z
                        out[o + 3] = c.x; out[o + 4] = c.y; out[o + 5] = c.z
                        o += 6
                    }
                }
            }
        }
        let bytes = range.count * Self.stride
        scratch.withUnsafeBytes { buffer.update(offset: range.lowerBound * Self.stride, bytes: UnsafeRawBufferPointer(rebasing: $0[0 ..< bytes])) }
        return bytes
    }

    /// Binds the points array reading every `step`-th point.
    func bindPoints(step: Int) {
        points.bind()
        guard step != pointStep else { return }
        pointStep = step
        buffer.bind()
        points.floatAttribute(2, components: 3, stride: step * Self.stride, offset: 0)
        points.floatAttribute(3, components: 3, stride: step * Self.stride, offset: 12)
    }

    /// Binds the boxes array: the unit cube's corners and indices, and the points as instances.
    func bindBoxes(cubeVertices: GLBuffer, cubeIndices: GLBuffer) {
        if let boxes { return boxes.bind() }
        let array = GLVertexArray()
        array.bind()
        cubeVertices.bind()
        array.floatAttribute(0, components: 3, stride: 24, offset: 0)
        array.floatAttribute(1, components: 3, stride: 24, offset: 12)
        cubeIndices.bind(GL_ELEMENT_ARRAY_BUFFER)
        buffer.bind()
        array.floatAttribute(2, components: 3, stride: Self.stride, offset: 0, divisor: 1)
        array.floatAttribute(3, components: 3, stride: Self.stride, offset: 12, divisor: 1)
        boxes = array
    }
}
