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
  /// An executor that uses no threads.
  public init() {}
  /// Calls `body(0)` through `body(count − 1)` in order, on the calling thread.
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
  /// The polar faces and their mip levels (the source's pixels when there are none).
  @usableFromInline var north: UnsafePointer<UInt32>
  @usableFromInline var south: UnsafePointer<UInt32>

  init(
    base: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>, mips: UnsafePointer<UInt32>? = nil,
    north: UnsafePointer<UInt32>? = nil, south: UnsafePointer<UInt32>? = nil
  ) {
    self.base = base
    self.source = source
    self.mips = mips ?? source
    self.north = north ?? source
    self.south = south ?? source
  }
}

/// An ISA-specific version of the renderer's inner loop, injected by the host as `RowExecutor`
/// is (the core stays portable and Embedded-clean; `Raster.BlendKernels` holds the C ones).
/// It must give exactly the pixels of the Swift loop it replaces (`draw` in
/// PanoramaRenderer+Blend.swift): tests compare them.
public struct GroupKernel: Sendable {
  /// Draws `groups` groups of four pixels of a row: source, its width, output, group count,
  /// the 16.16 lane coordinates u and v, their steps and the steps' bends (four lanes each),
  /// and the mixing weight (0: store).
  public typealias Function =
    @convention(c) (
      UnsafePointer<UInt32>?, Int64, UnsafeMutablePointer<UInt32>?, Int64, UnsafePointer<UInt32>?,
      UnsafePointer<UInt32>?, UnsafePointer<UInt32>?, UnsafePointer<UInt32>?, UnsafePointer<UInt32>?,
      UnsafePointer<UInt32>?, UInt32
    ) -> Void

  /// Draws a whole block: source, its width, the block's first output pixel, the output's
  /// row stride, rows, groups a row, the steppers (u's quadratics a, b, c as 32.32 value,
  /// difference and second difference, then v's: 18 values) and the mixing weight. It steps
  /// the rows itself, as `BlockStepper` does: the Swift walk's per-row lane set-up and call
  /// were about a quarter of a level view's time.
  public typealias BlockFunction =
    @convention(c) (
      UnsafePointer<UInt32>?, Int64, UnsafeMutablePointer<UInt32>?, Int64, Int64, Int64, UnsafePointer<Int64>?, UInt32
    ) -> Void

  /// A name for logs and benchmarks (`avx2`).
  public let name: String
  /// The kernel itself.
  public let groups: Function
  /// The whole-block form, used for blocks whose rows are whole groups (no per-pixel tail)
  /// and read the source in order (not `scatters`); other blocks go row by row to `groups`.
  public let blocks: BlockFunction?
  /// Whether the kernel pays only on rows that read the source out of order (crossing its
  /// rows, or skipping texels: `scatters`); other rows then take the Swift loop.
  public let scatteredRowsOnly: Bool

  /// A kernel called `name`; `scatteredRowsOnly` limits it to rows that read the source out
  /// of order; `blocks`, when given, draws whole blocks.
  public init(name: String, groups: Function, blocks: BlockFunction? = nil, scatteredRowsOnly: Bool = false) {
    self.name = name
    self.groups = groups
    self.blocks = blocks
    self.scatteredRowsOnly = scatteredRowsOnly
  }

  /// Whether four-pixel groups stepping `across` and `down` (16.16 source pixels a group)
  /// read the source out of order: more than 1.5 texels a pixel along a row, or more than a
  /// quarter of a row down per pixel. Rows read in order are what hardware prefetchers
  /// follow.
  @inlinable public static func scatters(across: Int32, down: Int32) -> Bool {
    across > 6 << 16 || across < -(6 << 16) || down > 1 << 16 || down < -(1 << 16)
  }
}
