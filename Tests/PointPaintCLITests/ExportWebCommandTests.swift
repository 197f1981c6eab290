import Foundation
import PointPaint
import Testing

/// `pointpaint export-web` run as a person would (the page itself: Tests/python/test_export_web.py).
@Suite struct ExportWebCommandTests {
    @Test("export-web of a recording replays it and writes the site; again replaces it")
    func recordingToSite() throws {
        let dir = temporaryDirectory()
        let capture = dir + "/cap"
        try Tool.synth(["-o", capture, "--frames", "3", "--size", "80x60", "--points", "200"])
        let site = dir + "/site"
        let first = try Tool.run(["export-web", capture, "-o", site, "--voxel-size", "0.05"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("replayed 3 frames") && first.stdout.contains("wrote \(site): "), "\(first.stdout)")
        for file in ["index.html", "viewer.js", "viewer.css", "cloud/metadata.json", "cloud/hierarchy.bin", "cloud/nodes/0.bin"] {
            #expect(FileManager.default.fileExists(atPath: site + "/" + file), "\(file)")
        }
        let again = try Tool.run(["export-web", capture, "-o", site, "--title", "again"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: site + "/index.html", encoding: .utf8).contains("<title>again</title>"))
    }

    @Test("export-web into a folder that holds other files, or with no budget, is one line and no replay")
    func refusals() throws {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/photos", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/photos/a.jpg"))
        let foreign = try Tool.run(["export-web", dir + "/missing-capture", "-o", dir + "/photos"])
        #expect(foreign.status != 0)
        #expect(foreign.stderr.contains("photos: expected a new or empty folder (or a previous export) to write into, found one holding 1 entry"),
                "\(foreign.stderr)")
        #expect(foreign.stderr.split(separator: "\n").count == 1 && foreign.stdout.isEmpty, "\(foreign.stderr)")
        let budget = try Tool.run(["export-web", "-o", dir + "/site", "--budget", "0"])
        #expect(budget.status != 0 && budget.stderr.contains("--budget must be at least 1"), "\(budget.stderr)")
    }
}
