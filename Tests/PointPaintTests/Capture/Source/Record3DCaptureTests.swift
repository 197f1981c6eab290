import Foundation
import Testing
@_spi(Benchmarks) @testable import PointPaint

/// Record3D's `.r3d` file and its "EXR + JPG" export, written by the synthesizer as Record3D lays
/// them out (portrait frames, poses relative to the first frame, LZFSE depth), read back against
/// the truth; a `.r3d` whose maps Apple's reference encoder compressed; and every kind of damaged
/// recording refused with its file and place.
@Suite struct Record3DCaptureTests {
    typealias Truth = CaptureSourceTruth
    /// The landscape synthesizer the layouts are written from, and the portrait one whose
    /// frames they hold (120 × 160, depth 48 × 64).
    static let synth = Truth.synthesizer()
    static let portrait = synth.record3DPortrait

    static let archive = Truth.Layout { try synth.writeRecord3D(to: $0 + "/scan.r3d") }
    static let export = Truth.Layout { try synth.writeRecord3DExport(to: $0) }

    /// A fresh copy of the folder holding `scan.r3d` (and `truth.ply`).
    static func r3d() throws -> TemporaryDirectory { try archive.copy() }

    /// A Record3D source seen in the synthesizer's world: each pose moved out of the first
    /// camera's frame, so the shared checks, which hold cameras to the synthesizer's, apply.
    struct InSynthesizerWorld: WrappingCaptureSource {
        let base: Record3DCapture
        /// Record3D's world → the synthesizer's.
        let world = Record3DCaptureTests.synth.record3DWorld.inverse!

        var inner: any CaptureSource { base }

        func moved(_ camera: Camera) -> Camera { Camera(intrinsics: camera.intrinsics, transform: world * camera.transform)! }

        func frameInfo(at index: Int) throws -> CaptureFrameInfo {
            let info = try base.frameInfo(at: index)
            return CaptureFrameInfo(timestamp: info.timestamp, camera: moved(info.camera))
        }

        func frame(at index: Int) throws -> CaptureFrame {
            var frame = try base.frame(at: index)
            frame.camera = moved(frame.camera)
            return frame
        }
    }

    /// The depth map written for frame `index`: the portrait rendering, NaN where no surface is hit.
    static func writtenDepth(frame index: Int, confidence: Bool = true) -> DepthMap {
        let size = portrait.appDepthSize
        let map = portrait.renderDepth(frame: index, width: size.width, height: size.height)
        return DepthMap(width: map.width, height: map.height, depth: map.depth.map { $0 > 0 ? $0 : .nan }, confidence: confidence ? map.confidence : nil)
    }

    /// Whether two depth maps hold the same bits (NaN included) and confidence.
    static func same(_ a: DepthMap?, _ b: DepthMap) -> Bool {
        guard let a else { return false }
        return a.width == b.width && a.height == b.height && a.confidence == b.confidence
            && a.depth.map(\.bitPattern) == b.depth.map(\.bitPattern)
    }

    /// Checks `source` against the truth: cameras as Record3D stores them (portrait, relative to
    /// the first frame), images, depth maps as written, timestamps, the JPEG bytes, and the
    /// accuracy of points from depth and of their colours.
    static func expectTruth(_ source: Record3DCapture, confidence: Bool, jpeg: (Int) throws -> [UInt8],
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(source.frameCount == 4 && source.countMismatch == nil && source.cloudFile == nil, sourceLocation: sourceLocation)
        #expect(source.imageInfo == CaptureImageInfo(width: 120, height: 160), sourceLocation: sourceLocation)
        #expect(source.depthSize == (48, 64), sourceLocation: sourceLocation)
        let moved = InSynthesizerWorld(base: source)
        for index in 0 ..< 4 {
            let info = try source.frameInfo(at: index)
            let truth = synth.record3DCamera(frame: index)
            let poseError = zip(info.camera.transform.columnMajor, truth.transform.columnMajor).map { abs($0 - $1) }.max()!
            #expect(info.camera.intrinsics == truth.intrinsics && poseError <= 1e-9, "frame \(index): pose off by \(poseError)", sourceLocation: sourceLocation)
            #expect(info.timestamp == CaptureSynthesizer.record3DClockStart + Double(index) / 30, sourceLocation: sourceLocation)
            let frame = try moved.frame(at: index)
            #expect(frame.index == index && frame.timestamp == info.timestamp && frame.points == nil, sourceLocation: sourceLocation)
            Truth.expectFrame(frame, equals: index, of: portrait, sourceLocation: sourceLocation)
            #expect(same(frame.depth, writtenDepth(frame: index, confidence: confidence)), "frame \(index): depth differs", sourceLocation: sourceLocation)
            #expect(try source.jpegData(at: index) == jpeg(index), sourceLocation: sourceLocation)
        }
        // Record3D's world is the first camera's frame.
        let first = try source.frameInfo(at: 0).camera.transform
        #expect(zip(first.columnMajor, Matrix4x4.identity.columnMajor).allSatisfy { abs($0 - $1) <= 1e-12 }, sourceLocation: sourceLocation)
        // Float depth: points lie on the surfaces to within float rounding, far inside the
        // millimetre rounding the 16-bit layouts allow.
        let frames = (0 ..< 4).map { ($0, $0) }
        let accuracy = try Truth.accuracy(of: moved, frames: frames, synth: portrait)
        #expect(accuracy.positionMean < 0.01 && accuracy.positionP95 < 0.02, "\(accuracy)", sourceLocation: sourceLocation)
        try Truth.expectAccurate(moved, frames: frames, synth: portrait, sourceLocation: sourceLocation)
    }

    @Test func theR3DFileMatchesTheTruth() throws {
        let dir = try Self.r3d()
        let path = dir.file("scan.r3d")
        #expect(try CaptureFormat.detect(path) == .record3d)
        let source = try Record3DCapture(path: path)
        #expect(source.notes == [
            CaptureNote(.poses, "poses: [qx, qy, qz, qw, px, py, pz] camera-to-world with OpenGL camera axes (ARKit's), used as stored; world: the first camera's frame (not gravity-aligned)"),
            CaptureNote(.timestamps, "timestamps: frameTimestamps (seconds, Record3D's clock)"),
            CaptureNote(.camera, "intrinsics: K (column-major), the first frame's, for the stored 120x160 portrait image; used for every frame"),
            CaptureNote(.ignored, "initPose: ignored (its meaning is undocumented)"),
            CaptureNote(.depth, "depth: rgbd/N.depth, LZFSE float32 metres, 48x64 (dw × dh, portrait like the image); NaN: no depth"),
            CaptureNote(.depth, "confidence: rgbd/N.conf, LZFSE uint8 0, 1, 2"),
        ])
        let zip = try ZipArchive(path: path)
        try Self.expectTruth(source, confidence: true) { try zip.read("rgbd/\($0).jpg", maximumSize: 1 << 20) }
    }

    @Test func theExportMatchesTheTruth() throws {
        let dir = try Self.export.copy()
        #expect(try CaptureFormat.detect(dir.path) == .record3d)
        let source = try Record3DCapture(path: dir.path)
        #expect(source.notes.map(\.text).contains("depth: depth/N.exr, float metres, 48x64 (dw × dh, portrait like the image); NaN: no depth"))
        #expect(source.notes.map(\.text).contains("no confidence maps (conf/ absent): every depth counts as high"))
        #expect(try EXRImage(contentsOf: dir.file("depth/0.exr")).channel == "Z")
        try Self.expectTruth(source, confidence: false) { try FileBytes.read(dir.file("rgb/\($0).jpg")) }
    }

    @Test func theTruthIsInTheFirstCamerasFrame() throws {
        let dir = TemporaryDirectory()
        let truth = try Self.synth.writeRecord3D(to: dir.file("scan.r3d"))
        #expect(FileBytes.size(of: dir.file("truth.ply")) != nil)
        #expect(!truth.isEmpty)
        // Moved back into the synthesizer's world, each point lies on the surface its frame's
        // camera sees in its direction.
        let world = Self.synth.record3DWorld.inverse!
        for point in truth {
            let surface = world.transformPoint(SIMD3<Double>(point.surfacePoint))
            let camera = Self.portrait.camera(frame: point.frame)
            let toPoint = surface - camera.position
            let hit = try #require(Self.portrait.scene.intersect(origin: camera.position, direction: toPoint / (toPoint * toPoint).sum().squareRoot()))
            #expect(((hit.point - surface) * (hit.point - surface)).sum().squareRoot() < 1e-5)
        }
    }

    @Test func aPortraitSynthesizerKeepsTheLensOfTheLandscapeOne() {
        let landscape = Self.synth.camera(frame: 2), portrait = Self.portrait.camera(frame: 2)
        #expect(Self.portrait.options.width == 120 && Self.portrait.options.height == 160)
        #expect(portrait.intrinsics == CameraIntrinsics(fx: landscape.intrinsics.fx, fy: landscape.intrinsics.fy, cx: 60, cy: 80))
        #expect(portrait.transform == landscape.transform)
        #expect(Self.portrait.record3DPortrait.options.width == 120)
    }

    // MARK: - Apple's encoder

    @Test func depthCompressedByTheReferenceEncoderReadsTheSame() throws {
        let dir = try Self.r3d()
        // pyliblzfse decodes each map PointPaint wrote (raw blocks) and compresses it again:
        // LZFSE blocks for the 12 KiB depth maps, LZVN for the 3 KiB confidence maps.
        let script = """
        import sys, zipfile, liblzfse
        with zipfile.ZipFile(sys.argv[1]) as source, zipfile.ZipFile(sys.argv[2], "w") as out:
            for info in source.infolist():
                data = source.read(info)
                if info.filename.endswith((".depth", ".conf")):
                    data = liblzfse.compress(liblzfse.decompress(data))
                out.writestr(info.filename, data, compress_type=zipfile.ZIP_DEFLATED)
        """
        try ExternalTool.run("python3", ["-c", script, dir.file("scan.r3d"), dir.file("apple.r3d")])
        let zip = try ZipArchive(path: dir.file("apple.r3d"))
        #expect(try zip.read("rgbd/0.depth", maximumSize: 1 << 20).prefix(4).elementsEqual("bvx2".utf8))
        #expect(try zip.read("rgbd/0.conf", maximumSize: 1 << 20).prefix(4).elementsEqual("bvxn".utf8))
        let source = try Record3DCapture(path: dir.file("apple.r3d"))
        for index in 0 ..< 4 {
            #expect(Self.same(try source.frame(at: index).depth, Self.writtenDepth(frame: index)), "frame \(index)")
        }
        // A real compressed stream cut short.
        try Self.replace("rgbd/1.depth", in: dir.file("apple.r3d")) { Array($0.prefix($0.count / 2)) }
        Truth.expectError(.tooLarge, at: .frame(1), file: "apple.r3d/rgbd/1.depth") { _ = try Record3DCapture(path: dir.file("apple.r3d")).frame(at: 1) }
    }

    // MARK: - Damaged recordings

    /// Rewrites the `.r3d` at `path`, letting `edit` change its entries (in their order).
    static func rewrite(_ path: String, _ edit: (inout [(name: String, bytes: [UInt8])]) throws -> Void) throws {
        let zip = try ZipArchive(path: path)
        var entries = try zip.names.map { (name: $0, bytes: try zip.read($0, maximumSize: 1 << 26)) }
        try edit(&entries)
        var writer = ZipWriter()
        for entry in entries { try writer.add(entry.name, entry.bytes, method: entry.name == "metadata" ? .deflate : .store) }
        try writer.write(to: path)
    }

    /// Replaces the entry `name` of the `.r3d` at `path` with what `change` makes of it (nil: removes it).
    static func replace(_ name: String, in path: String, _ change: ([UInt8]) throws -> [UInt8]?) throws {
        try rewrite(path) { entries in
            let index = try #require(entries.firstIndex { $0.name == name })
            if let bytes = try change(entries[index].bytes) { entries[index].bytes = bytes } else { entries.remove(at: index) }
        }
    }

    /// Lets `edit` change the metadata of the `.r3d` at `path` as a JSON object; `NaN` strings
    /// become JSON5's NaN.
    static func editMetadata(_ path: String, _ edit: (inout [String: Any]) -> Void) throws {
        try replace("metadata", in: path) { bytes in
            var object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            edit(&object)
            let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            return Array(text.replacingOccurrences(of: "\"NaN\"", with: "NaN").utf8)
        }
    }

    /// An LZFSE stream of `count` float32 depths of 1 m.
    static func depthEntry(_ count: Int) -> [UInt8] {
        LZFSE.encodeRaw([Float](repeating: 1, count: count).map(\.bitPattern.littleEndian).withUnsafeBytes { Array($0) })
    }

    @Test(arguments: ["rgbd/../../escape", "/etc/passwd", "..\\escape"])
    func entriesThatEscapeTheFolderAreRefused(name: String) throws {
        let dir = try Self.r3d()
        let script = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'a') as z: z.writestr(zipfile.ZipInfo(sys.argv[2]), b'x')"
        try ExternalTool.run("python3", ["-c", script, dir.file("scan.r3d"), name])
        // metadata, 4 × (jpg, depth, conf), icon: the added entry is the 15th.
        Truth.expectError(.malformed, at: .element("entry", 14), file: "scan.r3d") { _ = try Record3DCapture(path: dir.file("scan.r3d")) }
    }

    @Test func zipEntriesThatLieOrAreDamaged() throws {
        var dir = try Self.r3d()
        // The deflated metadata claims 2 GB, in its local header and the central directory.
        var bytes = try FileBytes.read(dir.file("scan.r3d"))
        for (signature, sizeField, nameField) in [([0x50, 0x4B, 0x03, 0x04] as [UInt8], 22, 30), ([0x50, 0x4B, 0x01, 0x02], 24, 46)] {
            let header = try #require((0 ..< bytes.count - 60).first { at in
                bytes[at ..< at + 4].elementsEqual(signature) && bytes[at + nameField ..< at + nameField + 8].elementsEqual("metadata".utf8)
            })
            bytes.replaceSubrange(header + sizeField ..< header + sizeField + 4, with: [0, 0, 0, 0x7F])
        }
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("scan.r3d")))
        Truth.expectError(.tooLarge, at: .part("metadata"), file: "scan.r3d") { _ = try Record3DCapture(path: dir.file("scan.r3d")) }

        // A stored JPEG whose bytes changed: the CRC catches it when the frame loads.
        dir = try Self.r3d()
        try Self.rewrite(dir.file("scan.r3d")) { _ in }
        bytes = try FileBytes.read(dir.file("scan.r3d"))
        let jpeg = try #require((0 ..< bytes.count - 40).first { bytes[$0 ..< $0 + 4].elementsEqual([0x50, 0x4B, 0x03, 0x04]) && bytes[$0 + 30 ..< $0 + 40].elementsEqual("rgbd/1.jpg".utf8) })
        bytes[jpeg + 30 + 10 + 600] ^= 0x55
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("scan.r3d")))
        let source = try Record3DCapture(path: dir.file("scan.r3d"))
        Truth.expectError(.malformed, at: .part("rgbd/1.jpg"), file: "scan.r3d") { _ = try source.frame(at: 1) }

        // No metadata; not a ZIP; nothing there.
        dir = try Self.r3d()
        try Self.replace("metadata", in: dir.file("scan.r3d")) { _ in nil }
        Truth.expectError(.missing, at: .part("metadata"), file: "scan.r3d") { _ = try Record3DCapture(path: dir.file("scan.r3d")) }
        try dir.write("not a zip", to: "scan.r3d")
        Truth.expectError(.malformed, at: nil, file: "scan.r3d") { _ = try Record3DCapture(path: dir.file("scan.r3d")) }
        Truth.expectError(.missing, at: nil, file: "none.r3d") { _ = try Record3DCapture(path: dir.file("none.r3d")) }
    }

    @Test func depthAndConfidenceStreamsThatLieOrEndEarly() throws {
        let dir = try Self.r3d()
        let path = dir.file("scan.r3d")
        try Self.replace("rgbd/0.conf", in: path) { _ in LZFSE.encodeRaw([UInt8](repeating: 2, count: 48 * 64 + 1)) }
        try Self.replace("rgbd/1.depth", in: path) { Array($0.dropLast(4)) }  // no end-of-stream block
        try Self.replace("rgbd/2.depth", in: path) { Array($0.prefix($0.count / 2)) }  // the raw block cut short
        try Self.replace("rgbd/3.depth", in: path) { _ in Self.depthEntry(48 * 64 - 1) }  // one depth short
        let source = try Record3DCapture(path: path)
        // A stream that decodes to more than the map is refused before decoding; one that decodes to less, after its framing.
        Truth.expectError(.tooLarge, at: .frame(0), file: "scan.r3d/rgbd/0.conf") { _ = try source.frame(at: 0) }
        Truth.expectError(.malformed, at: .frame(1), file: "scan.r3d/rgbd/1.depth") { _ = try source.frame(at: 1) }
        Truth.expectError(.tooLarge, at: .frame(2), file: "scan.r3d/rgbd/2.depth") { _ = try source.frame(at: 2) }
        Truth.expectError(.malformed, at: .frame(3), file: "scan.r3d/rgbd/3.depth") { _ = try source.frame(at: 3) }
        // The one wording check of this family: the stream's own place stays in the line.
        let error = try #require(throws: PointPaintError.self) { try source.frame(at: 1) }
        #expect(error.description.hasSuffix("scan.r3d/rgbd/1.depth: frame 1: byte offset \(48 * 64 * 4 + 8): the LZFSE stream ends without its end-of-stream block 'bvx$'"),
                "\(error)")
    }

    @Test func confidenceOutsideZeroToTwo() throws {
        let dir = try Self.r3d()
        try Self.replace("rgbd/1.conf", in: dir.file("scan.r3d")) { _ in LZFSE.encodeRaw([UInt8](repeating: 2, count: 100) + [3] + [UInt8](repeating: 1, count: 48 * 64 - 101)) }
        let source = try Record3DCapture(path: dir.file("scan.r3d"))
        Truth.expectError(.malformed, at: .frame(1), file: "rgbd/1.conf") { _ = try source.frame(at: 1) }
        #expect(try source.frame(at: 0).depth != nil)
    }

    @Test func imagesThatDisagreeWithTheMetadata() throws {
        var dir = try Self.r3d()
        let small = YCbCrPlanes(width: 80, height: 60, subsampling: .yuv420, luma: [UInt8](repeating: 90, count: 80 * 60),
                                cb: [UInt8](repeating: 128, count: 40 * 30), cr: [UInt8](repeating: 128, count: 40 * 30))
        try Self.replace("rgbd/1.jpg", in: dir.file("scan.r3d")) { _ in try JPEGEncoder.encode(small) }
        try Self.replace("rgbd/2.jpg", in: dir.file("scan.r3d")) { Array($0.prefix($0.count / 2)) }
        let source = try Record3DCapture(path: dir.file("scan.r3d"))
        Truth.expectError(.malformed, at: .frame(1), file: "scan.r3d/rgbd/1.jpg") { _ = try source.frame(at: 1) }
        Truth.expectError(.malformed, at: .frame(2), file: "scan.r3d/rgbd/2.jpg") { _ = try source.frame(at: 2) }
        Truth.expectError(.outOfRange, at: .frame(4)) { _ = try source.frame(at: 4) }
        Truth.expectError(.outOfRange, at: .frame(-1)) { _ = try source.frameInfo(at: -1) }
        // The metadata's w × h is not the JPEGs' (a landscape reading of a portrait recording).
        dir = try Self.r3d()
        try Self.editMetadata(dir.file("scan.r3d")) { $0["w"] = 160; $0["h"] = 120 }
        Truth.expectError(.malformed, at: .frame(0), file: "scan.r3d/rgbd/0.jpg") { _ = try Record3DCapture(path: dir.file("scan.r3d")) }
    }

    @Test("metadata stating a depth map larger than the images is refused before a depth stream is read")
    func depthLargerThanTheImages() throws {
        // A 151 KB .r3d whose metadata states 6144×8192 depth (with constant LZFSE streams)
        // took 3 GB; the size is refused against the images' before any stream is decoded.
        let dir = try Self.r3d()
        try Self.editMetadata(dir.file("scan.r3d")) { $0["dw"] = 6144; $0["dh"] = 8192 }
        Truth.expectError(.outOfRange, at: .frame(0), file: "scan.r3d/rgbd/0.depth") { _ = try Record3DCapture(path: dir.file("scan.r3d")) }
    }

    /// Each way the metadata can be wrong: the change, and the error's kind and place.
    static let badMetadata: [(String, @Sendable (inout [String: Any]) -> Void, PointPaintError.Kind, PointPaintError.Place)] = [
        ("no K", { $0["K"] = nil }, .missing, .jsonPath("K")),
        ("no w", { $0["w"] = nil }, .missing, .jsonPath("w")),
        ("no poses", { $0["poses"] = nil }, .missing, .jsonPath("poses")),
        ("no timestamps, no fps", { $0["frameTimestamps"] = nil; $0["fps"] = nil }, .missing, .jsonPath("fps")),
        ("K of 8", { $0["K"] = Array(($0["K"] as! [Any]).prefix(8)) }, .malformed, .jsonPath("K")),
        ("K row-major", { $0["K"] = [128, 0, 60, 0, 128, 80, 0, 0, 1] }, .malformed, .jsonPath("K")),
        ("K negative", { $0["K"] = [-128, 0, 0, 0, 128, 0, 60, 80, 1] }, .outOfRange, .jsonPath("K")),
        ("pose of 6", { var p = $0["poses"] as! [[Any]]; p[1].removeLast(); $0["poses"] = p }, .malformed, .jsonPath("poses[1]")),
        ("pose not an array", { var p = $0["poses"] as! [Any]; p[1] = "pose"; $0["poses"] = p }, .malformed, .jsonPath("poses[1]")),
        ("NaN quaternion", { var p = $0["poses"] as! [[Any]]; p[1][3] = "NaN"; $0["poses"] = p }, .malformed, .jsonPath("poses[1][3]")),
        ("long quaternion", { var p = $0["poses"] as! [[Double]]; for i in 0 ..< 4 { p[2][i] *= 1.01 }; $0["poses"] = p }, .malformed, .jsonPath("poses[2]")),
        ("zero quaternion", { var p = $0["poses"] as! [[Double]]; for i in 0 ..< 4 { p[3][i] = 0 }; $0["poses"] = p }, .malformed, .jsonPath("poses[3]")),
        ("dw of 0", { $0["dw"] = 0 }, .outOfRange, .jsonPath("dw")),
        ("NaN time", { var t = $0["frameTimestamps"] as! [Any]; t[2] = "NaN"; $0["frameTimestamps"] = t }, .malformed, .jsonPath("frameTimestamps[2]")),
        ("time going back", { var t = $0["frameTimestamps"] as! [Double]; t[2] = t[1]; $0["frameTimestamps"] = t }, .malformed, .frame(2)),
    ]

    @Test func badMetadataIsRefusedAtItsPlace() throws {
        for (what, edit, kind, place) in Self.badMetadata {
            let dir = try Self.r3d()
            try Self.editMetadata(dir.file("scan.r3d"), edit)
            do {
                _ = try Record3DCapture(path: dir.file("scan.r3d"))
                Issue.record("\(what): expected an error")
            } catch let error as PointPaintError {
                #expect(error.kind == kind && error.place == place && error.file?.hasSuffix("scan.r3d/metadata") == true, "\(what): \(error)")
            }
        }
    }

    @Test func quaternionsSlightlyOffUnitLengthAreNormalised() throws {
        let dir = try Self.r3d()
        try Self.editMetadata(dir.file("scan.r3d")) { var p = $0["poses"] as! [[Double]]; for i in 0 ..< 4 { p[2][i] *= 1.0009 }; $0["poses"] = p }
        let camera = try Record3DCapture(path: dir.file("scan.r3d")).frameInfo(at: 2).camera
        let truth = Self.synth.record3DCamera(frame: 2)
        #expect(zip(camera.transform.columnMajor, truth.transform.columnMajor).allSatisfy { abs($0 - $1) <= 1e-9 })
    }

    // MARK: - Counts and older recordings

    @Test func missingAndExtraEntriesAreACountMismatch() throws {
        let dir = try Self.r3d()
        let path = dir.file("scan.r3d")
        try Self.replace("rgbd/2.depth", in: path) { _ in nil }
        try Self.rewrite(path) { $0.append((name: "rgbd/4.jpg", bytes: $0.first { $0.name == "rgbd/3.jpg" }!.bytes)) }
        let source = try Record3DCapture(path: path)
        #expect(source.frameCount == 3)
        #expect(source.countMismatch == "metadata lists 4 poses and 4 frameTimestamps; rgbd/ holds 5 images, 3 depth maps, 4 confidence maps; 3 frames have all of them")
        // Frames are matched by number: the third frame is number 3.
        let camera = try source.frameInfo(at: 2).camera, truth = Self.synth.record3DCamera(frame: 3)
        #expect(zip(camera.transform.columnMajor, truth.transform.columnMajor).allSatisfy { abs($0 - $1) <= 1e-9 })
        #expect(Self.same(try source.frame(at: 2).depth, Self.writtenDepth(frame: 3)))
    }

    @Test func aRecordingWithoutConfidenceMaps() throws {
        let dir = try Self.r3d()
        try Self.rewrite(dir.file("scan.r3d")) { $0.removeAll { $0.name.hasSuffix(".conf") } }
        let source = try Record3DCapture(path: dir.file("scan.r3d"))
        #expect(source.countMismatch == nil && source.frameCount == 4)
        #expect(source.notes.map(\.text).contains("no confidence maps (rgbd/N.conf absent): every depth counts as high"))
        #expect(Self.same(try source.frame(at: 1).depth, Self.writtenDepth(frame: 1, confidence: false)))
    }

    @Test func olderRecordingsWithoutTheDepthSizeOrTimestamps() throws {
        var dir = try Self.r3d()
        try Self.editMetadata(dir.file("scan.r3d")) { $0["dw"] = nil; $0["dh"] = nil; $0["frameTimestamps"] = nil }
        let source = try Record3DCapture(path: dir.file("scan.r3d"))
        #expect(source.depthSize == (48, 64))
        #expect(source.notes.map(\.text).contains("dw, dh absent: 48x64 inferred from the first depth map's 12288 bytes and the image's aspect ratio"))
        #expect(source.notes.map(\.text).contains("timestamps: frameTimestamps absent; frame N at N / fps (fps 30)"))
        #expect(try source.frameInfo(at: 3).timestamp == 3.0 / 30)
        #expect(Self.same(try source.frame(at: 3).depth, Self.writtenDepth(frame: 3)))

        // Depth maps that fill no grid of the image's shape: Record3D's LiDAR size (192×256) is
        // assumed, which is larger than these 120×160 test images, so the recording is refused
        // as a depth map larger than its image would be (a real recording's images are larger).
        dir = try Self.r3d()
        try Self.editMetadata(dir.file("scan.r3d")) { $0["dw"] = nil; $0["dh"] = nil }
        try Self.replace("rgbd/0.depth", in: dir.file("scan.r3d")) { _ in Self.depthEntry(100) }
        Truth.expectError(.outOfRange, at: .frame(0), file: "rgbd/0.depth") { _ = try Record3DCapture(path: dir.file("scan.r3d")) }
    }

    @Test func perFrameIntrinsicsAreReadOnlyWhenTheyClearlyAreSo() throws {
        var dir = try Self.r3d()
        let k = Self.portrait.camera(frame: 0).intrinsics
        try Self.editMetadata(dir.file("scan.r3d")) { metadata in
            metadata["perFrameIntrinsicCoeffs"] = (0 ..< 4).map { [k.fx + Double($0), k.fy + Double($0), k.cx + 0.5, k.cy - 0.5] }
        }
        var source = try Record3DCapture(path: dir.file("scan.r3d"))
        #expect(try source.frameInfo(at: 3).camera.intrinsics == CameraIntrinsics(fx: k.fx + 3, fy: k.fy + 3, cx: k.cx + 0.5, cy: k.cy - 0.5))
        #expect(source.notes.contains { $0.text.hasPrefix("intrinsics: perFrameIntrinsicCoeffs, read as fx, fy, cx, cy") })
        // Another layout (here flat): noted and ignored.
        dir = try Self.r3d()
        try Self.editMetadata(dir.file("scan.r3d")) { $0["perFrameIntrinsicCoeffs"] = [Double](repeating: 1, count: 16) }
        source = try Record3DCapture(path: dir.file("scan.r3d"))
        #expect(try source.frameInfo(at: 3).camera.intrinsics == k)
        #expect(source.notes.contains { $0.text.hasPrefix("intrinsics: perFrameIntrinsicCoeffs ignored") })
    }

    @Test func framesLoadOnSeveralThreadsInOrder() throws {
        let dir = try Self.r3d()
        let source = try Record3DCapture(path: dir.file("scan.r3d"))
        let frames = source.frames([0, 1, 2, 3, 1, 0], threads: 4)
        var loaded: [Int] = []
        while let frame = try frames.next() {
            loaded.append(frame.index)
            #expect(Self.same(frame.depth, Self.writtenDepth(frame: frame.index)))
        }
        #expect(loaded == [0, 1, 2, 3, 1, 0])
    }

    // MARK: - The export

    @Test func theExportsConfidenceFolderIsReadWhenPresent() throws {
        let dir = try Self.export.copy()
        try FileManager.default.createDirectory(atPath: dir.file("conf"), withIntermediateDirectories: true)
        for index in 0 ..< 4 {
            try CaptureSynthesizer.writeConfidencePNG(of: Self.writtenDepth(frame: index), codes: [0, 1, 2], to: dir.file("conf/\(index).png"))
        }
        let source = try Record3DCapture(path: dir.path)
        #expect(source.notes.map(\.text).contains("confidence: conf/N.png, 0, 1, 2"))
        #expect(Self.same(try source.frame(at: 2).depth, Self.writtenDepth(frame: 2)))
        try PNGImage(width: 48, height: 64, channels: 1, samples: [UInt8](repeating: 3, count: 48 * 64)).write(to: dir.file("conf/1.png"))
        Truth.expectError(.malformed, at: .frame(1), file: "conf/1.png") { _ = try source.frame(at: 1) }
    }

    @Test func damagedExports() throws {
        var dir = try Self.export.copy()
        try FileManager.default.removeItem(atPath: dir.file("depth/1.exr"))
        try EXRImage(width: 32, height: 64, channel: "Z", values: [Float](repeating: 1, count: 32 * 64)).write(to: dir.file("depth/2.exr"))
        let jpeg = try FileBytes.read(dir.file("rgb/3.jpg"))
        try Data(jpeg.prefix(jpeg.count / 2)).write(to: URL(fileURLWithPath: dir.file("rgb/3.jpg")))
        let source = try Record3DCapture(path: dir.path)
        #expect(source.frameCount == 3)
        #expect(source.countMismatch == "metadata lists 4 poses and 4 frameTimestamps; rgb/ and depth/ hold 4 images, 3 depth maps; 3 frames have all of them")
        Truth.expectError(.malformed, at: .frame(1), file: "depth/2.exr") { _ = try source.frame(at: 1) }
        Truth.expectError(.malformed, at: .frame(2), file: "rgb/3.jpg") { _ = try source.frame(at: 2) }

        // The metadata's dw × dh is not the EXRs'; no metadata at all.
        dir = try Self.export.copy()
        try Truth.editJSON(dir.file("metadata.json")) { $0["dw"] = 50 }
        Truth.expectError(.malformed, at: .frame(0), file: "depth/0.exr") { _ = try Record3DCapture(path: dir.path) }
        try FileManager.default.removeItem(atPath: dir.file("metadata.json"))
        Truth.expectError(.missing, at: nil, file: "metadata.json") { _ = try Record3DCapture(path: dir.path) }
    }
}
