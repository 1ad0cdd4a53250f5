/// An ISA-specific version of the video renderer's inner loop (`interiorPair` in
/// YUVRenderer+Bands.swift), injected by the host as `RowExecutor` is: the core stays
/// portable and Embedded-clean, and `Raster.YUVKernels` holds the C ones. It must give
/// exactly the bytes of the Swift loop it replaces: tests compare them.
public struct YUVKernel: Sendable {
  /// Two output rows of a block: the Y, U and V planes with their strides, the 12 steppers
  /// (32.32 value, difference, second difference of u then v, row A then row B), the chroma
  /// siting's shift (32.32 chroma pixels), the pixel count (even), then where luma rows A and
  /// B and the pair's chroma go. Every tap lies at least 8 luma pixels inside the planes (4
  /// from the top and bottom).
  public typealias Function =
    @convention(c) (
      UnsafePointer<UInt8>?, Int64, UnsafePointer<UInt8>?, Int64, UnsafePointer<UInt8>?, Int64,
      UnsafePointer<Int64>?, Int64, Int64, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?,
      UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?
    ) -> Void

  /// A name for logs and benchmarks.
  public let name: String
  /// The kernel itself.
  public let pair: Function

  /// A kernel called `name`.
  public init(name: String, pair: Function) {
    self.name = name
    self.pair = pair
  }
}
