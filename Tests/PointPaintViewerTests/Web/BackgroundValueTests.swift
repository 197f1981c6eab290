import Foundation
import Testing
@testable import PointPaintViewer

@Suite struct BackgroundValueTests {
    @Test func theValueIsWorkedOutOnceOnAnotherThreadAndEveryReaderGetsIt() {
        let caller = pthread_self()
        let value = BackgroundValue { (sum: (1 ... 1_000).reduce(0, +), elsewhere: pthread_equal(pthread_self(), caller) == 0) }
        // Read from several threads at once, then here again.
        let reads = (0 ..< 8).map { _ in BackgroundValue { value.value.sum } }
        #expect(reads.allSatisfy { $0.value == 500_500 })
        #expect(value.value.sum == 500_500 && value.value.elsewhere)
    }
}
