import Testing
import PointPaintViewer

/// The level of detail's budget: the point budget, at most `pointsPerPixel` a viewport pixel;
/// a moving frame a quarter of what the still frame after it draws.
@Suite struct ViewerOptionsTests {
    @Test func theBudgetIsCappedByTheViewportsPixels() {
        var options = ViewerOptions()
        #expect(options.pointBudget == 2_000_000 && options.pointsPerPixel == 0.75)
        // 1280 × 720: 691,200 still; moving keeps the quarter of the budget, below that.
        #expect(options.levelOfDetailBudget(.full, width: 1280, height: 720) == 691_200)
        #expect(options.levelOfDetailBudget(.interactive, width: 1280, height: 720) == 500_000)
        // A small viewport: both from its pixels.
        #expect(options.levelOfDetailBudget(.full, width: 320, height: 240) == 57_600)
        #expect(options.levelOfDetailBudget(.interactive, width: 320, height: 240) == 14_400)
        // 4K: the budget.
        #expect(options.levelOfDetailBudget(.full, width: 3840, height: 2160) == 2_000_000)
        // The user's smaller budget stays the ceiling; no cap at all when asked.
        options.pointBudget = 100_000
        #expect(options.levelOfDetailBudget(.full, width: 1280, height: 720) == 100_000)
        #expect(options.levelOfDetailBudget(.interactive, width: 1280, height: 720) == 25_000)
        options.pointBudget = 2_000_000
        options.pointsPerPixel = .infinity
        #expect(options.levelOfDetailBudget(.full, width: 1280, height: 720) == 2_000_000)
        #expect(options.levelOfDetailBudget(.full, width: 0, height: 0) == 2_000_000)
    }
}
