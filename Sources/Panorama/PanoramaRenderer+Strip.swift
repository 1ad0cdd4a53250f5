import CoreMath

/// How the strip camera treats a panorama narrower than 360°.
public enum StripEdges: String, Hashable, Sendable {
  /// Stop at the image's edges (default).
  case clamp
  /// Repeat the image side by side, as the seed's three image views do.
  case `repeat`
}

extension PanoramaRenderer {
  // MARK: - Strip

  /// Renders the seed's strip camera: the image fitted to the view's height, moved sideways
  /// by `yaw / fieldOfView × strip width`, wrapping for 360° images and clamped or repeated
  /// for partial ones.
  public func renderStrip<E: RowExecutor>(
    yaw: Double, edges: StripEdges = .clamp, into output: inout RGBAImage, executor: E
  ) {
    let width = output.width, height = output.height
    guard width > 0, height > 0 else { return }
    let strip = StripCamera(
      imageWidth: source.width, imageHeight: source.height, viewWidth: width, viewHeight: height,
      fieldOfView: geometry.horizontalFOV)
    let repeats = geometry.wraps || edges == .repeat
    // A repeating strip is the same after a turn of one image width: reduce yaw by that, so a
    // huge yaw cannot make huge coordinates; a non-finite one counts as 0.
    let fieldOfView = geometry.horizontalFOV
    let yaw = !yaw.isFinite ? 0 : (repeats && fieldOfView > 0 ? yaw.truncatingRemainder(dividingBy: fieldOfView) : yaw)
    var offset = strip.offset(yaw: yaw, edges: repeats ? .repeat : .clamp)
    if !offset.isFinite { offset = 0 }  // a field of view of 0 from absurd metadata
    // A strip fitted to a view much lower than the image steps several pixels per output
    // pixel: read the mip level that averages them, as the perspective view does.
    var scale = Double(source.height) / Double(height)
    var level = 0
    while scale >= 2 && level < mipLevels.levels.count {
      scale /= 2
      level += 1
    }
    let size = level == 0 ? nil : mipLevels.levels[level - 1]
    let srcW = size?.width ?? source.width, srcH = size?.height ?? source.height
    // Per-column and per-row source coordinates (16.16): the strip is separable.
    var us = [Int](repeating: 0, count: width)
    for x in 0..<width {
      var u = (Double(x) + 0.5 - Double(width) / 2 + strip.stripWidth / 2 + offset) * scale - 0.5
      if repeats { u -= (u / Double(srcW)).rounded(.down) * Double(srcW) }
      us[x] = BlockContext.fixedPointSafe(u) ? Int(u * 65536) : -1 << 40  // far left: background
    }
    var vs = [Int](repeating: 0, count: height)
    for y in 0..<height { vs[y] = Int(((Double(y) + 0.5) * scale - 0.5) * 65536) }
    let stripContext = StripContext(
      us: us, vs: vs, repeats: repeats, srcW: srcW, srcH: srcH, background: background, mipOffset: size?.offset)
    let bands = (height + 15) / 16
    withPixels(into: &output) { shared in
      executor.run(bands) { band in stripContext.render(band, shared) }
    }
  }

  /// What a strip band needs: the separable coordinate tables and the source's size.
  struct StripContext: Sendable {
    let us: [Int], vs: [Int]
    let repeats: Bool
    let srcW: Int, srcH: Int
    let background: UInt32
    /// Where the mip level read lies among the levels; nil: the source itself.
    let mipOffset: Int?

    func render(_ band: Int, _ px: SharedPixels) {
      let width = us.count
      let source = mipOffset.map { px.mips + $0 } ?? px.source
      for y in (band * 16)..<min(band * 16 + 16, vs.count) {
        let v = vs[y]
        for x in 0..<width {
          let u = us[x]
          if !repeats && (u < -65536 || (u >> 16) >= srcW) {
            px.base[y * width + x] = background
          } else {
            px.base[y * width + x] = sample(u, v, source)
          }
        }
      }
    }
  }
}

extension PanoramaRenderer.StripContext {
  /// Bilinear fetch at 16.16 coordinates; x repeats or clamps, y clamps.
  @inline(__always) func sample(_ u: Int, _ v: Int, _ src: UnsafePointer<UInt32>) -> UInt32 {
    var xi = u >> 16
    var fx = UInt32(truncatingIfNeeded: (u >> 8) & 255)
    if xi < 0 {
      xi = repeats ? srcW - 1 : 0
      if !repeats { fx = 0 }
    } else if xi >= srcW {
      // Rounding in the column table can land a repeated position on the width itself.
      xi = repeats ? xi % srcW : srcW - 1
    }
    let xn = xi + 1 < srcW ? xi + 1 : (repeats ? 0 : xi)
    var yi = v >> 16
    var fy = UInt32(truncatingIfNeeded: (v >> 8) & 255)
    if yi < 0 {
      yi = 0
      fy = 0
    }
    var yn = yi + 1
    if yn >= srcH {
      yi = min(yi, srcH - 1)
      yn = yi
      fy = 0
    }
    let row0 = src + yi * srcW, row1 = src + yn * srcW
    return lerp(lerp(row0[xi], row0[xn], fx), lerp(row1[xi], row1[xn], fx), fy)
  }
}

/// The seed's strip arithmetic (PanViewer): the image fitted to the view height; the strip
/// moves by `yaw / fieldOfView` of its width.
public struct StripCamera: Hashable, Sendable {
  /// Width of the fitted image, in view pixels (`image.width × view.height / image.height`).
  public var stripWidth: Double
  /// Width of the view, in pixels.
  public var viewWidth: Double
  /// The angle the whole image spans, in radians (`PanoramaGeometry.horizontalFOV`).
  public var fieldOfView: Double

  /// The strip of an `imageWidth`×`imageHeight` pixel image fitted to a `viewWidth`×`viewHeight` pixel view; `fieldOfView` is the image's span in radians.
  public init(imageWidth: Int, imageHeight: Int, viewWidth: Int, viewHeight: Int, fieldOfView: Double) {
    stripWidth = Double(imageWidth) * Double(viewHeight) / Double(imageHeight)
    self.viewWidth = Double(viewWidth)
    self.fieldOfView = fieldOfView
  }

  /// How far the strip has moved, in view pixels, for `yaw` radians: `yaw / fov × width`,
  /// clamped so a partial image never leaves a blank edge when `edges` is `.clamp`.
  public func offset(yaw: Double, edges: StripEdges) -> Double {
    let raw = yaw / fieldOfView * stripWidth
    guard edges == .clamp else { return raw }
    let limit = max(0, (stripWidth - viewWidth) / 2)
    return min(max(raw, -limit), limit)
  }
}
