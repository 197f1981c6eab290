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
        let finished = try #require(live.takeUpdate())
        #expect(finished.finished && finished.failure == nil && live.failure == nil)
    }

    @Test("A replay that failed carries its error to the viewer and to whoever reports it, once")
    func failure() throws {
        let live = LiveCloud(frameCount: 3)
        live.publish(cloud: cloud(2), framesDone: 1)
        _ = live.takeUpdate()
        live.finish(failure: PointPaintError(.malformed, file: "frames/000001.nv12", place: .frame(1), "expected 12 bytes, found 3"))
        live.finish()   // a later plain finish (the replay's own) keeps the failure
        let update = try #require(live.takeUpdate())
        #expect(update.finished && update.framesDone == 1)
        #expect((update.failure as? PointPaintError)?.place == .frame(1))
        #expect((live.failure as? PointPaintError)?.kind == .malformed)
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

    @Test("Pacing returns at once when paused (true) or cancelled (false)")
    func pacing() {
        let live = LiveCloud(startPaused: true)
        #expect(live.pace(seconds: 1000))
        #expect(live.pace(seconds: -1))
        live.cancel()
        #expect(!live.pace(seconds: 1000))
    }
}

/// Collects what a publish handler sees (it runs on the replay's thread).
private final class Publications: @unchecked Sendable {
    private let lock = NSLock()
    private var updates: [LiveCloud.Update] = []

    func append(_ update: LiveCloud.Update) {
        lock.lock()
        defer { lock.unlock() }
        updates.append(update)
    }

    var all: [LiveCloud.Update] {
        lock.lock()
        defer { lock.unlock() }
        return updates
    }
}

/// A small synthesized capture in a fresh temporary directory.
private func synthesizedCapture(frames: Int = 5) throws -> String {
    let path = NSTemporaryDirectory() + "pointpaint-live-\(UUID().uuidString)"
    var o = CaptureSynthesizer.Options(frames: frames, width: 160, height: 120, pointsPerFrame: 120)
    o.seed = 5
    _ = try CaptureSynthesizer(options: o).write(to: path, encoding: .nv12)
    return path
}

@Suite("Capture replay into a LiveCloud")
struct CaptureReplayLiveTests {
    @Test("Replaying live publishes after every frame, voxel counts growing to the full store's, then finishes")
    func publishesEachFrame() throws {
        let path = try synthesizedCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replay = try CaptureReplay(source: CaptureReader(path: path))
        var reference = SceneStore(voxelSize: 0.02)
        let statistics = try replay.run(into: &reference)

        let live = LiveCloud()
        let seen = Publications()
        live.setPublishHandler { if let update = live.takeUpdate() { seen.append(update) } }
        var store = SceneStore(voxelSize: 0.02)
        let liveStatistics = try replay.run(into: &store, publishingTo: live)
        live.setPublishHandler(nil)

        #expect(liveStatistics == statistics)
        #expect(store.cloud() == reference.cloud(), "publishing changes nothing in the result")
        let updates = seen.all
        // The empty start, one publication per frame, then the finish.
        #expect(updates.count == 5 + 2)
        #expect(updates.map(\.framesDone) == [0, 1, 2, 3, 4, 5, 5])
        #expect(updates.allSatisfy { $0.frameCount == 5 })
        let counts = updates.map(\.cloud.count)
        #expect(counts.first == 0)
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 }, "counts shrank: \(counts)")
        #expect(Set(counts).count >= 4, "counts did not grow frame by frame: \(counts)")
        #expect(counts.last == reference.count && reference.count > 0)
        #expect(updates.last?.finished == true && updates.dropLast().allSatisfy { !$0.finished })
        #expect(updates.allSatisfy { !$0.reset }, "indices stayed stable")

        // Paced to the capture's clock (here 1000× real time) the result is the same.
        var paced = SceneStore(voxelSize: 0.02)
        let pacedLive = LiveCloud()
        #expect(try replay.run(into: &paced, publishingTo: pacedLive, speed: 1000) == statistics)
        #expect(paced.cloud() == reference.cloud())
        #expect(try #require(pacedLive.takeUpdate()).finished)
    }

    @Test("A paused live replay runs one frame per step and stops when cancelled")
    func pauseStepCancel() async throws {
        let path = try synthesizedCapture(frames: 4)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replay = try CaptureReplay(source: CaptureReader(path: path))
        let live = LiveCloud(startPaused: true)
        let seen = Publications()
        live.setPublishHandler {
            guard let update = live.takeUpdate() else { return }
            seen.append(update)
            // Step through two frames, then close the "window".
            if update.framesDone < 2 { live.step() } else if !update.finished { live.cancel() }
        }
        let frames = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            Thread.detachNewThread {
                var store = SceneStore(voxelSize: 0.02)
                let statistics = try? replay.run(into: &store, publishingTo: live)
                done.resume(returning: statistics?.frames ?? -1)
            }
        }
        live.setPublishHandler(nil)
        #expect(frames == 2)
        #expect(seen.all.map(\.framesDone) == [0, 1, 2, 2])
        #expect(seen.all.last?.finished == true)
    }
}
