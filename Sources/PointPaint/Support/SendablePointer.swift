/// A mutable pointer handed to concurrently running closures that write disjoint parts of one
/// buffer (for example one row each in `DispatchQueue.concurrentPerform`). The caller guarantees
/// the buffer outlives the work and that no two closures touch the same elements.
package struct SendablePointer<Element>: @unchecked Sendable {
    /// The first element.
    package let base: UnsafeMutablePointer<Element>

    /// Wraps `base`.
    package init(_ base: UnsafeMutablePointer<Element>) { self.base = base }
}
