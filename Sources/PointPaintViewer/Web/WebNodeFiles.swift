import Foundation
import PointPaint

/// Writes a site's node files (`WebNodeFile`) while the octree is still being built: the
/// builder hands each node over as soon as its points are final (`PointOctree.init(positions:
/// finished:)`); workers, one fewer than the cores (at least one), encode and write them
/// meanwhile; `finish` puts the calling thread to work on what is left once the tree is built.
/// Each node is its own file, so the site is the same whatever the threads' timing.
final class WebNodeFiles: @unchecked Sendable {
    private let cloud: VoxelCloud
    private let layers: WebNodeFile.Layers
    private let folder: String
    /// Guards everything below it.
    private let condition = NSCondition()
    private var queue: [(id: Int, node: PointOctree.Node)] = []
    private var next = 0
    private var building = true
    private var failure: PointPaintError?
    private var sizes: [Int: Int] = [:]
    private let workers = DispatchGroup()

    /// Starts the workers; node N goes to `folder/N.bin`.
    init(cloud: VoxelCloud, layers: WebNodeFile.Layers, folder: String) {
        self.cloud = cloud
        self.layers = layers
        self.folder = folder
        for _ in 0 ..< max(1, ProcessInfo.processInfo.activeProcessorCount - 1) {
            workers.enter()
            Thread { [self] in
                work()
                workers.leave()
            }.start()
        }
    }

    /// Node `id`, whose points are final, to be written.
    func add(_ id: Int, _ node: PointOctree.Node) {
        condition.lock()
        queue.append((id, node))
        condition.signal()
        condition.unlock()
    }

    /// Writes what is left here and beside the workers, waits for them, and returns each file's
    /// size by node.
    /// - Throws: the first error a file met (the files after it are not written).
    func finish() throws -> [Int: Int] {
        condition.lock()
        building = false
        condition.broadcast()
        condition.unlock()
        work()
        workers.wait()
        if let failure { throw failure }
        return sizes
    }

    /// Takes nodes off the queue and writes them until it is empty and the tree built, or a file
    /// failed. One buffer, grown as needed, holds each node's bytes in turn.
    private func work() {
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            condition.lock()
            while next == queue.count && building { condition.wait() }
            guard next < queue.count, failure == nil else {
                condition.unlock()
                return
            }
            let (id, node) = queue[next]
            next += 1
            condition.unlock()
            let size = node.points.count * layers.stride
            if buffer.count < size {
                buffer.deallocate()
                buffer = .allocate(byteCount: size, alignment: 16)
            }
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0 ..< size])
            WebNodeFile.encode(node, of: cloud, layers: layers, into: bytes)
            let path = folder + "/\(id).bin"
            do {
                try WebExport.writeFile(UnsafeRawBufferPointer(bytes), to: path)
                condition.lock()
                sizes[id] = size
                condition.unlock()
            } catch {
                condition.lock()
                if failure == nil {
                    failure = error as? PointPaintError ?? PointPaintError(.malformed, file: path, "cannot write node \(id): \(error)")
                }
                condition.unlock()
            }
        }
    }
}
