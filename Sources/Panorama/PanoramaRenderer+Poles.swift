import CoreMath

extension PanoramaRenderer.BlockContext {
  /// Pixels farther than `radius` focal lengths from the centre have no direction (the
  /// fisheye's circle, `Lens.visibleRadius`) and show the background. (The mapping runs on
  /// smoothly past the circle, so blocks straddling it draw, and this paints over.)
  func maskOutside(radius: Double, _ band: Int, _ px: SharedPixels) {
    let limit = radius * camera.focal
    for y in bandRows(band) {
      let dy = camera.cy - Double(y) - 0.5
      let half = limit * limit - dy * dy > 0 ? (limit * limit - dy * dy).squareRoot() : -1
      // Pixel x is inside when |x + 0.5 − cx| ≤ half.
      let first = half < 0 ? width : max(0, Int((camera.cx - half - 0.5).rounded(.up)))
      let last = half < 0 ? -1 : min(width - 1, Int((camera.cx + half - 0.5).rounded(.down)))
      let row = px.base + y * width
      for x in 0..<min(first, width) { row[x] = background }
      for x in max(last + 1, 0)..<width { row[x] = background }
    }
  }

  /// A block whose nine nodes all lie on one polar face, read from that face (and its mip
  /// levels when the source has them); nil where they do not, or where the face would not
  /// hold every sample, so the block reads the equirectangular source as before.
  func capBlock(
    first: Int, nodesPerRow: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>, span: (Int, Int)
  ) -> Block? {
    let side = capSide[first]
    guard side != 0 else { return nil }
    var a = SIMD16<Double>(), b = a
    for j in 0..<3 {
      for i in 0..<3 {
        let g = first + j * nodesPerRow + i
        guard capSide[g] == side else { return nil }
        a[3 * j + i] = capA[g]
        b[3 * j + i] = capB[g]
      }
    }
    for k in 9..<16 {
      a[k] = a[0]
      b[k] = b[0]
    }
    // Yaw turns longitude, which turns a face about its centre (the other way round on the
    // south face, seen from below).
    let c = SIMD16(repeating: capCentre), cosine = SIMD16(repeating: yawCos)
    let sine = SIMD16(repeating: side == 1 ? yawSin : -yawSin)
    let (da, db) = (a - c, b - c)
    a = c + da * cosine + db * sine
    b = c + db * cosine - da * sine
    let (level, fade) = levels.count > 1 ? Self.level(a, b, span: span, count: capLevels.count) : (0, 0)
    guard let patch = capPatch(a, b, side: side, level: level, span: span) else { return nil }
    var block = Block(xs: xs, ys: ys, patch: patch)
    if fade > 0 { block.fadeIn(capPatch(a, b, side: side, level: level + 1, span: span), by: fade) }
    return block
  }

  /// Steppers through face coordinates `a`, `b` at the face's mip level `level`, or nil
  /// unless every sample and its neighbours lie inside it.
  func capPatch(_ a: SIMD16<Double>, _ b: SIMD16<Double>, side: UInt8, level: Int, span: (Int, Int)) -> Patch? {
    let (a, b) = level > 0 ? (Self.atLevel(a, level), Self.atLevel(b, level)) : (a, b)
    let margin = 1 + BlockStepper.bulge(a) + BlockStepper.bulge(b)
    let size = capLevels[level]
    guard a.min() - margin >= 0, a.max() + margin < Double(size.width - 1), b.min() - margin >= 0,
      b.max() + margin < Double(size.height - 1)
    else { return nil }
    return Patch(
      u: BlockStepper(a, width: span.0, height: span.1), v: BlockStepper(b, width: span.0, height: span.1),
      inside: true, level: level, plane: side)
  }

  /// Around a pole a grid block spans too many longitudes to interpolate: it is cut into
  /// 8 × 8 pieces with their own exact nodes, and only the pieces still too wide (the one
  /// holding the pole) are evaluated per pixel. (Per pixel for the whole block took an
  /// eighth of a frame looking 80° up.)
  func subdivide(_ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>, _ px: SharedPixels) {
    guard xs.count > 8 || ys.count > 8 else {
      exactBlock(xs, ys, px)
      return
    }
    for top in stride(from: ys.lowerBound, through: ys.upperBound, by: 8) {
      let bottom = min(top + 7, ys.upperBound)
      for left in stride(from: xs.lowerBound, through: xs.upperBound, by: 8) {
        let right = min(left + 7, xs.upperBound)
        var u = SIMD16<Double>(), v = u
        for j in 0..<3 {
          for i in 0..<3 {
            let x = Double(left) + Double(right - left) * Double(i) / 2
            let y = Double(top) + Double(bottom - top) * Double(j) / 2
            let p = renderer.sourcePosition(camera.direction(x, y))
            u[3 * j + i] = p.u + shift
            v[3 * j + i] = p.v
          }
        }
        let piece = interpolated(u, v, xs: left...right, ys: top...bottom, span: (right - left, bottom - top))
        if piece.patch == nil { exactBlock(piece.xs, piece.ys, px) } else { render(piece, px) }
      }
    }
  }

  func exactBlock(_ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>, _ px: SharedPixels) {
    for y in ys {
      for x in xs {
        var p = renderer.sourcePosition(camera.direction(Double(x), Double(y)))
        p.u += shift
        if wraps {
          p.u -= (p.u / period).rounded(.down) * period
        }
        px.base[y * width + x] =
          Self.fixedPointSafe(p.u) && Self.fixedPointSafe(p.v)
          ? sample(Int(p.u * 65536), Int(p.v * 65536), px.source, srcW, srcH) : background
      }
    }
  }

  /// Whether a source coordinate converts to 32.32 fixed point (and so to 16.16): finite
  /// and within ±2^30 pixels, far beyond any source.
  static func fixedPointSafe(_ x: Double) -> Bool { abs(x) < 1_073_741_824 }

  /// Bilinear fetch at 16.16 fixed-point coordinates in `src`, `srcW` × `srcH` pixels.
  @inline(__always) func sample(
    _ u: Int, _ v: Int, _ src: UnsafePointer<UInt32>, _ srcW: Int, _ srcH: Int
  ) -> UInt32 {
    var xi = u >> 16
    var yi = v >> 16
    var fx = UInt32(truncatingIfNeeded: (u >> 8) & 255)
    var fy = UInt32(truncatingIfNeeded: (v >> 8) & 255)
    var xn: Int
    if wraps {
      // Usually one period off at most, but a geometry whose period is not the source's
      // width (inconsistent metadata) can be further: reduce fully, never read outside.
      if xi >= srcW || xi < 0 { xi = (xi % srcW + srcW) % srcW }
      xn = xi + 1 == srcW ? 0 : xi + 1
    } else {
      if xi < -1 || xi >= srcW { return background }
      if xi < 0 {
        xi = 0
        fx = 0
      }
      xn = xi + 1 < srcW ? xi + 1 : xi
    }
    if yi < 0 {
      if yi < -1 && !clampsAbove { return background }
      yi = 0
      fy = 0
    }
    var yn = yi + 1
    if yn >= srcH {
      if yi >= srcH && !clampsBelow { return background }
      yi = srcH - 1
      yn = yi
      fy = 0
    }
    if xn < 0 { xn = 0 }
    let row0 = src + yi * srcW, row1 = src + yn * srcW
    let top = lerp(row0[xi], row0[xn], fx)
    let bottom = lerp(row1[xi], row1[xn], fx)
    return lerp(top, bottom, fy)
  }
}
