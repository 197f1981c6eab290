import Foundation
import PointPaint
import Testing

private func cloud(_ n: Int, shade: Float = 0.5) -> VoxelCloud {
    VoxelCloud(voxelSize: 0.1, positions: (0 ..< n).map { SIMD3(Float($0), 0, 0) },
               colors: Array(repeating: SIMD3(repeating: shade), count: n))
}

@Suite("LiveCloud hand-off")
struct LiveCloudTests {
    @Test("Updates name the appended tail and the recoloured range since the previous take")
    func incremental() throws {
        let live = LiveCloud(frameCount: 10)
        #expect(live.takeUpdate() == nil)
        live.publish(cloud: cloud(5), framesDone: 1)
        let first = try #require(live.takeUpdate())
        #expect(first.appended == 0 ..< 5 && first.recolored.isEmpty && !first.reset)
        #expect(first.framesDone == 1 && first.frameCount == 10 && !first.finished)
        #expect(live.takeUpdate() == nil)

        live.publish(cloud: cloud(8), framesDone: 2, recolored: 1 ..< 3)
        live.publish(cloud: cloud(9), framesDone: 3, recolored: 4 ..< 7)   // 5, 6 are new: not "recoloured"
        let second = try #require(live.takeUpdate())
        #expect(second.appended == 5 ..< 9)
        #expect(second.recolored == 1 ..< 5)
        #expect(second.cloud.count == 9 && second.framesDone == 3)

        live.publish(cloud: cloud(9), framesDone: 4)   // unknown: every seen voxel may have changed
        #expect(try #require(live.takeUpdate()).recolored == 0 ..< 9)

        live.publish(cloud: cloud(3), framesDone: 5)   // shrank: start again
        let reset = try #require(live.takeUpdate())
        #expect(reset.reset && reset.appended == 0 ..< 3)

        live.finish()
        #expect(try #require(live.takeUpdate()).finished)
    }

    @Test("Pause, step and resume gate the replay thread; cancel releases it")
    func pauseStep() async {
        let live = LiveCloud(startPaused: true)
        #expect(live.isPaused)
        live.step()
        #expect(live.waitIfPaused())        // consumes the one step without blocking
        live.setPaused(false)
        #expect(!live.isPaused)
        #expect(live.waitIfPaused())
        live.setPaused(true)
        // A paused replay thread blocks until the viewer cancels.
        let released = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            Thread.detachNewThread { done.resume(returning: live.waitIfPaused()) }
            live.cancel()
        }
        #expect(released == false)
        #expect(live.isCancelled)
    }
}
