/// Successively halved copies of a panorama (mip levels), for views that step two or more
/// source pixels per output pixel: towards the poles, and at wide fields of view. Sampling
/// the full-size source there reads scattered texels (slow: memory traffic) and skips most of
/// them (aliasing: shimmer while the view moves); a level whose pixels are about as large as
/// the output's reads fewer lines and has every texel averaged in.
///
/// Level `k` (from 1) is `source.width >> k` × `source.height >> k`, each pixel the rounded
/// mean of a 2×2 block of level `k − 1`. Levels stop before a side would be odd or below
/// `minimumSide`, so every level covers the source exactly and a 360° level still wraps by
/// its own width. They cost a third of the source's memory at most, which is why the renderer
/// does not build them unless asked.
public struct MipLevels: Sendable {
  /// Where a level lies in `pixels`, and its size.
  public struct Level: Sendable, Hashable {
    /// Index in ``MipLevels/pixels`` of the level's first pixel.
    public let offset: Int
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
  }

  /// Levels 1, 2, … one after another.
  public private(set) var pixels: [UInt32] = []
  /// Levels 1, 2, … in order, each half its predecessor's size.
  public private(set) var levels: [Level] = []

  /// No levels: a renderer without mip levels samples the source only.
  public init() {}

  /// Builds the levels of `source`; rows of each level are spread over `executor`.
  public init<E: RowExecutor>(source: RGBAImage, minimumSide: Int = 16, executor: E) {
    var width = source.width, height = source.height, total = 0
    while width % 2 == 0 && height % 2 == 0 && width / 2 >= max(minimumSide, 1) && height / 2 >= max(minimumSide, 1) {
      width /= 2
      height /= 2
      levels.append(Level(offset: total, width: width, height: height))
      total += width * height
    }
    guard !levels.isEmpty else { return }
    pixels = [UInt32](repeating: 0, count: total)
    let levels = self.levels
    source.pixels.withUnsafeBufferPointer { src in
      pixels.withUnsafeMutableBufferPointer { out in
        let base = out.baseAddress!
        for (k, level) in levels.enumerated() {
          let from =
            k == 0
            ? Plane(pixels: src.baseAddress!, width: source.width)
            : Plane(pixels: base + levels[k - 1].offset, width: levels[k - 1].width)
          let to = MutablePlane(pixels: base + level.offset, width: level.width)
          let bands = (level.height + 15) / 16
          executor.run(bands) { band in
            for y in (band * 16)..<min(band * 16 + 16, level.height) {
              Self.halveRow(from, to, y)
            }
          }
        }
      }
    }
  }

  struct Plane: @unchecked Sendable {
    let pixels: UnsafePointer<UInt32>
    let width: Int
  }

  struct MutablePlane: @unchecked Sendable {
    let pixels: UnsafeMutablePointer<UInt32>
    let width: Int
  }

  /// Row `y` of the halved plane: each pixel the rounded mean of its 2×2 block, two channels
  /// per 32-bit add (four bytes sum to at most 1 020, so the halves never carry).
  static func halveRow(_ from: Plane, _ to: MutablePlane, _ y: Int) {
    let top = from.pixels + 2 * y * from.width, bottom = top + from.width
    let out = to.pixels + y * to.width
    let mask: UInt32 = 0x00FF_00FF
    for x in 0..<to.width {
      let a = top[2 * x], b = top[2 * x + 1], c = bottom[2 * x], d = bottom[2 * x + 1]
      let rb = ((a & mask) &+ (b & mask) &+ (c & mask) &+ (d & mask) &+ 0x0002_0002) >> 2 & mask
      let ga =
        (((a >> 8) & mask) &+ ((b >> 8) & mask) &+ ((c >> 8) & mask) &+ ((d >> 8) & mask) &+ 0x0002_0002) >> 2 & mask
      out[x] = rb | ga << 8
    }
  }

  /// Level `k` (from 1) as an image, for inspection and tests.
  public func image(_ k: Int) -> RGBAImage {
    let level = levels[k - 1]
    return RGBAImage(
      width: level.width, height: level.height,
      validPixels: Array(pixels[level.offset..<level.offset + level.width * level.height]))
  }

  /// Bytes the levels hold.
  public var byteCount: Int { pixels.count * 4 }
}
