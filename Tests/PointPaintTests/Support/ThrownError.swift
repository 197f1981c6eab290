import Testing
import PointPaint

/// The `PointPaintError` that `body` throws, or nil when it returns. An error of another type is
/// recorded as an issue (and nil returned); a `PointPaintError` must read as one line.
func thrownError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> PointPaintError? {
    do {
        try body()
        return nil
    } catch let error as PointPaintError {
        #expect(!error.description.contains("\n"), "error messages are one line", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a PointPaintError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
