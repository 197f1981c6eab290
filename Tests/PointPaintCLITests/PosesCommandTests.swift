import Foundation
import Testing
import PointPaint

/// `--poses` as a person uses it: a drifted recording (`synth --pose-drift`) replayed with the
/// true poses it wrote gives the undrifted recording's cloud; a poses file of another recording,
/// or a damaged one, is one line and no output.
@Suite struct PosesCommandTests {
    /// The voxel centres of a PLY written by replay, as a set of cells of `size`.
    static func cells(_ path: String, size: Double) throws -> Set<SIMD3<Int>> {
        let cloud = try PLYReader.readCloud(path: path)
        return Set(cloud.positions.map { SIMD3<Int>((SIMD3<Double>($0) / size).rounded(.down)) })
    }

    @Test func aDriftedRecordingReplayedWithItsTruePosesIsTheUndriftedOne() throws {
        let dir = temporaryDirectory()
        let common = ["--layout", "stray", "--frames", "8", "--size", "160x120"]
        try Tool.synth(["-o", dir + "/drift", "--pose-drift", "0.025,0.75"] + common)
        try Tool.synth(["-o", dir + "/clean"] + common)
        #expect(FileManager.default.fileExists(atPath: dir + "/drift/truth-poses.json"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/clean/truth-poses.json"))
        var cells: [String: Set<SIMD3<Int>>] = [:]
        for (name, arguments) in [("drifted", [dir + "/drift"]), ("true", [dir + "/drift", "--poses", dir + "/drift/truth-poses.json"]),
                                  ("clean", [dir + "/clean"])] {
            let out = dir + "/\(name).ply"
            let result = try Tool.run(["replay"] + arguments + ["--points", "depth", "-o", out, "--voxel-size", "0.005", "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
            cells[name] = try Self.cells(out, size: 0.005)
        }
        let clean = try #require(cells["clean"]), truth = try #require(cells["true"]), drifted = try #require(cells["drifted"])
        // The true poses give the clean cells but for rounding at a few cell borders (the Stray
        // layout stores poses as quaternions); the drifted poses double surfaces.
        #expect(Double(clean.symmetricDifference(truth).count) < 0.002 * Double(clean.count), "\(clean.count) \(truth.count)")
        #expect(Double(clean.symmetricDifference(drifted).count) > 0.05 * Double(clean.count), "\(clean.count) \(drifted.count)")
    }

    /// The RMS distance of a replayed cloud's points from the synthetic scene's surfaces.
    static func thickness(_ path: String) throws -> Double {
        let cloud = try PLYReader.readCloud(path: path)
        let squares = cloud.positions.map { p in pow(SyntheticScene.standard.distance(to: SIMD3<Double>(p)), 2) }
        return (squares.reduce(0, +) / Double(max(squares.count, 1))).squareRoot()
    }

    /// `register` then `replay --poses`: the surfaces are as thin as with the true poses (within
    /// 1.5×), where the recorded poses thicken them.
    @Test func registeredPosesReplayAsThinAsTheTrueOnes() throws {
        let dir = temporaryDirectory()
        try Tool.synth(["-o", dir + "/drift", "--layout", "stray", "--frames", "8", "--size", "320x240", "--points", "10", "--pose-drift", "0.025,0.75"])
        let registered = try Tool.run(["register", dir + "/drift", "-o", dir + "/poses.json"])
        #expect(registered.status == 0 && registered.stdout.hasPrefix("registered 8 frames in "), "\(registered.stderr)")
        #expect(registered.stdout.contains("7 corrected"), "\(registered.stdout)")
        // The frames all see several surfaces: depth holds them, and colour is not run.
        #expect(registered.stdout.contains("colour: not run, depth holds every frame (to 0."), "\(registered.stdout)")
        var thickness: [String: Double] = [:]
        for (name, poses) in [("recorded", []), ("registered", ["--poses", dir + "/poses.json"]), ("true", ["--poses", dir + "/drift/truth-poses.json"])] {
            let out = dir + "/\(name).ply"
            let result = try Tool.run(["replay", dir + "/drift", "--points", "depth", "-o", out, "--voxel-size", "0.005", "--quiet"] + poses)
            #expect(result.status == 0, "\(result.stderr)")
            thickness[name] = try Self.thickness(out)
        }
        let recorded = try #require(thickness["recorded"]), refined = try #require(thickness["registered"]), truth = try #require(thickness["true"])
        #expect(refined <= 1.5 * truth && recorded > 1.5 * truth, "\(thickness)")
    }

    /// The p95 over the scene cloud's flat-textured points of the largest channel difference
    /// (8-bit levels) between a painting of it and its true colours.
    static func colourError(painted: String, scene: String) throws -> Double {
        let truth = try #require(try PLYReader.read(path: scene)[element: "vertex"]), paint = try PLYReader.readCloud(path: painted)
        let isFlat = try #require(truth[property: "flat"]).values.doubles()
        let channels = try ["red", "green", "blue"].map { try #require(truth[property: $0]).values.doubles() }
        #expect(paint.count == isFlat.count)
        let errors = (0 ..< min(paint.count, isFlat.count)).filter { isFlat[$0] == 1 }.map { i in
            let c = paint.colors[i] * 255
            return max(abs(Double(c.x) - channels[0][i]), abs(Double(c.y) - channels[1][i]), abs(Double(c.z) - channels[2][i]))
        }.sorted()
        return errors[Int(0.95 * Double(errors.count - 1))]
    }

    /// `register --cloud` then `paint --poses`: colour p95 within 1.5 levels of the true poses',
    /// where the recorded poses are far off; with no drift nothing moves.
    @Test func colourRegistrationPaintsAsTheTruePosesDo() throws {
        let dir = temporaryDirectory()
        try Tool.synth(["-o", dir + "/drift", "--layout", "stray", "--frames", "8", "--size", "320x240", "--points", "10",
                        "--pose-drift", "0.025,0.75", "--scene-cloud", "0.02"])
        let scene = dir + "/drift/scene.ply"
        let registered = try Tool.run(["register", dir + "/drift", "--cloud", scene, "-o", dir + "/poses.json"])
        #expect(registered.status == 0 && registered.stdout.hasPrefix("registered 8 frames in ") && registered.stdout.contains("colour: "),
                "\(registered.stderr)")
        var error: [String: Double] = [:]
        for (name, poses) in [("recorded", []), ("registered", ["--poses", dir + "/poses.json"]), ("true", ["--poses", dir + "/drift/truth-poses.json"])] {
            let out = dir + "/\(name).ply"
            let result = try Tool.run(["paint", scene, dir + "/drift", "-o", out, "--quiet"] + poses)
            #expect(result.status == 0, "\(result.stderr)")
            error[name] = try Self.colourError(painted: out, scene: scene)
        }
        let recorded = try #require(error["recorded"]), refined = try #require(error["registered"]), truth = try #require(error["true"])
        #expect(refined <= truth + 1.5 && recorded > truth + 5, "\(error)")
        // No drift: every frame holds its pose, and the poses file paints as the recording does.
        try Tool.synth(["-o", dir + "/still", "--layout", "stray", "--frames", "4", "--size", "160x120", "--points", "10", "--scene-cloud", "0.02"])
        let still = try Tool.run(["register", dir + "/still", "--cloud", dir + "/still/scene.ply", "-o", dir + "/still.json"])
        #expect(still.status == 0 && still.stdout.contains("colour: 0 corrected, 3 held"), "\(still.stdout)")
        let poses = try CameraPoses(contentsOf: dir + "/still.json", for: try CaptureFormat.open(dir + "/still", format: nil))
        #expect(poses.frames.allSatisfy { $0.refined == $0.recorded })
    }

    @Test func posesOfAnotherRecordingOrDamagedOnesAreOneLine() throws {
        let dir = temporaryDirectory()
        try Tool.synth(["-o", dir + "/a", "--frames", "3", "--size", "160x120", "--points", "20", "--pose-drift", "0.01,0.2"])
        try Tool.synth(["-o", dir + "/b", "--frames", "4", "--size", "160x120", "--points", "20", "--pose-drift", "0.01,0.2"])
        try "{\"format\": \"pointpaint-poses\"".write(toFile: dir + "/cut.json", atomically: true, encoding: .utf8)
        for (poses, says) in [(dir + "/b/truth-poses.json", "expected the 3 frames of"), (dir + "/cut.json", "cut.json")] {
            for command in [["replay", dir + "/a", "-o", dir + "/x.ply"], ["paint", dir + "/a/truth.ply", dir + "/a", "-o", dir + "/x.ply"]] {
                let result = try Tool.run(command + ["--poses", poses])
                let lines = result.stderr.split(separator: "\n")
                #expect(result.status != 0 && lines.count == 1 && lines[0].contains(says), "\(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: dir + "/x.ply"))
            }
        }
        // import --poses writes the refined poses: its capture replays as --poses does.
        let imported = try Tool.run(["import", dir + "/a", "-o", dir + "/imported", "--poses", dir + "/a/truth-poses.json", "--quiet"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let viaImport = try Tool.run(["replay", dir + "/imported", "-o", dir + "/i.ply", "--quiet"])
        let viaPoses = try Tool.run(["replay", dir + "/a", "-o", dir + "/r.ply", "--poses", dir + "/a/truth-poses.json", "--quiet"])
        #expect(viaImport.status == 0 && viaPoses.status == 0)
        let a = try PLYReader.readCloud(path: dir + "/i.ply"), b = try PLYReader.readCloud(path: dir + "/r.ply")
        #expect(a.count > 0 && a.positions == b.positions && a.colors == b.colors, "\(a.count) \(b.count)")
        let painted = try Tool.run(["paint", dir + "/a/truth.ply", dir + "/a", "-o", dir + "/p.ply", "--poses", dir + "/a/truth-poses.json", "--quiet"])
        #expect(painted.status == 0, "\(painted.stderr)")
        // register needs depth: a capture of feature points only is one line, and -o a .json.
        let depthless = try Tool.run(["register", dir + "/a", "-o", dir + "/r.json"])
        #expect(depthless.status != 0 && depthless.stderr.split(separator: "\n").count == 1 && depthless.stderr.contains("expected depth maps"),
                "\(depthless.stderr)")
        for (arguments, says) in [(["--cloud", dir + "/a/truth.ply", "--method", "geometric"], "leave out --method geometric"),
                                  (["--cloud", dir + "/a/truth.ply", "--method", "combined"], "leave out --method combined"),
                                  (["--method", "photometric"], "give --cloud"), (["--visibility", "depth"], "--visibility applies to --cloud"),
                                  (["--cloud", dir + "/a/truth.ply", "--anchor", "7"], "no frame 7")] {
            let result = try Tool.run(["register", dir + "/a", "-o", dir + "/r.json"] + arguments)
            #expect(result.status != 0 && result.stderr.contains(says) && !FileManager.default.fileExists(atPath: dir + "/r.json"),
                    "\(arguments): \(result.stderr)")
        }
        let notJSON = try Tool.run(["register", dir + "/a", "-o", dir + "/r.ply"])
        #expect(notJSON.status != 0 && notJSON.stderr.contains("a .json file"), "\(notJSON.stderr)")
        // A one-letter relative output (Foundation's deletingLastPathComponent traps on it).
        let short = try Tool.run(["synth", "-o", "c", "--frames", "2", "--size", "64x48", "--points", "5", "--pose-drift", "0.01,0.1"], in: dir)
        #expect(short.status == 0 && FileManager.default.fileExists(atPath: dir + "/c/truth-poses.json"), "\(short.stderr)")
        let bad = try Tool.run(["synth", "-o", dir + "/c", "--pose-drift", "0.1"])
        #expect(bad.status != 0 && bad.stderr.contains("--pose-drift must be T,R"), "\(bad.stderr)")
    }
}
