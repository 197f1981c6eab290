import Testing
@testable import PointPaint

/// What the capture sources share for depth maps: when a depth grid is registered to an image.
@Suite struct SourceFilesTests {
    @Test(arguments: [
        (256, 192, 1920, 1440), (192, 256, 1440, 1920),  // the LiDAR grid, landscape and portrait
        (26, 19, 64, 48), (19, 26, 48, 64),                // small grids rounded to whole pixels
        (256, 144, 1280, 720),
    ])
    func registeredGrids(depthWidth: Int, depthHeight: Int, width: Int, height: Int) throws {
        try SourceFiles.checkRegistered(depth: (depthWidth, depthHeight), image: (width, height), file: "d.png", frame: 3)
    }

    @Test(arguments: [(19, 26, 64, 48), (192, 256, 1920, 1440), (256, 160, 1920, 1440), (30, 19, 64, 48)])
    func otherFieldsOfViewAreRefused(depthWidth: Int, depthHeight: Int, width: Int, height: Int) {
        let error = #expect(throws: PointPaintError.self) {
            try SourceFiles.checkRegistered(depth: (depthWidth, depthHeight), image: (width, height), file: "d.png", frame: 3)
        }
        #expect(error?.kind == .malformed)
        #expect(error?.place == .frame(3))
    }
}
