import CoreMath

/// Runs bands of rows, possibly in parallel. The core has no threads: the host injects one
/// (the CLI and app use Dispatch's `concurrentPerform`); `InlineRows` runs them in order.
public protocol RowExecutor: Sendable {
  /// Calls `body(i)` for every `i` in `0..<count` and returns when all calls have returned.
  /// Calls may run concurrently; each writes disjoint rows.
  func run(_ count: Int, _ body: @Sendable (Int) -> Void)
}

/// Runs every band on the calling thread, in order.
public struct InlineRows: RowExecutor {
  public init() {}
  public func run(_ count: Int, _ body: @Sendable (Int) -> Void) {
    for i in 0..<count { body(i) }
  }
}

/// A raw pointer handed to bands that write disjoint rows of one buffer.
@usableFromInline struct SharedPixels: @unchecked Sendable {
  @usableFromInline let base: UnsafeMutablePointer<UInt32>
  @usableFromInline let source: UnsafePointer<UInt32>
  /// The mip levels' pixels (the source's when there are none).
  @usableFromInline var mips: UnsafePointer<UInt32>

  init(base: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>, mips: UnsafePointer<UInt32>? = nil) {
    self.base = base
    self.source = source
    self.mips = mips ?? source
  }
}
