extension YUVBlocks {
  /// One row of blocks into a 4:2:0 picture: two output rows at a time, luma per pixel,
  /// chroma per 2 × 2 pixels at the pair's left column, halfway down (left-sited), where
  /// the mapping is the mean of the two rows'. A pair whose taps all lie well inside the
  /// planes (most of them) takes `interiorPair`, or the injected kernel; the rest (the
  /// seam of a 360° source, the poles, a partial source's edges, a lens's circle, blocks
  /// evaluated per pixel) the general loop.
  func renderBand(_ band: Int, yuv out: Target) {
    if deep { renderBand(band, yuv: out, TenBit.self) } else { renderBand(band, yuv: out, EightBit.self) }
  }

  /// `renderBand(_:yuv:)` for samples of depth `D`; the C kernels read bytes, so only 8-bit
  /// planes take one.
  func renderBand<D: YUVSampleDepth>(_ band: Int, yuv out: Target, _ depth: D.Type) {
    let masks = mapping.camera.visibleRadius != nil
    for column in 0..<(nodes.columns.count - 1) {
      let x0 = nodes.columns[column], x1 = nodes.columns[column + 1]
      let y0 = nodes.rows[band], y1 = nodes.rows[band + 1]
      let patch = self.patch(band: band, column: column)
      var r = 0
      while r + 1 < y1 - y0 {
        let y = y0 + r
        let rowA = out.y + y * out.width
        let chromaRow = (y >> 1) * (out.width >> 1) + (x0 >> 1)
        if let patch, !masks {
          let a = patch.row(r), b = patch.row(r + 1)
          if inside(a, count: x1 - x0) && inside(b, count: x1 - x0) {
            let lumaA = rowA + x0, lumaB = lumaA + out.width
            if D.kernelsRead, let kernel {
              withUnsafeTemporaryAllocation(of: Int64.self, capacity: 12) { s in
                func put(_ k: Int, _ stepper: Stepper) {
                  s[3 * k] = stepper.value
                  s[3 * k + 1] = stepper.difference
                  s[3 * k + 2] = stepper.second
                }
                put(0, a.u)
                put(1, a.v)
                put(2, b.u)
                put(3, b.v)
                kernel.pair(
                  planes.y, Int64(planes.yStride), planes.u, Int64(planes.uStride), planes.v, Int64(planes.vStride),
                  UnsafePointer(s.baseAddress!), chromaShiftX, Int64(x1 - x0), lumaA, lumaB, out.u + chromaRow,
                  out.v + chromaRow)
              }
            } else {
              interiorPair(
                a, b, count: x1 - x0, lumaA: lumaA, lumaB: lumaB, u: out.u + chromaRow, v: out.v + chromaRow, D.self)
            }
            r += 2
            continue
          }
        }
        generalPair(
          x0: x0, x1: x1, y: y, a: patch?.row(r), b: patch?.row(r + 1), masks: masks, out: out, D.self)
        r += 2
      }
    }
  }

  /// Whether every position a row's stepper takes in `count` steps lies in the interior
  /// (`interior`): its quadratic's values at both ends and at its vertex, with room to spare
  /// for the fixed point's rounding.
  @inline(__always) func inside(_ row: (u: Stepper, v: Stepper), count: Int) -> Bool {
    func range(_ s: Stepper) -> (Double, Double) {
      // f(k) = value + k·(d − s/2) + k²·s/2, k in 0…count−1.
      let v = Double(s.value), d = Double(s.difference), s2 = Double(s.second)
      let n = Double(count - 1)
      let linear = d - s2 / 2, square = s2 / 2
      let end = v + n * linear + n * n * square
      var lo = min(v, end), hi = max(v, end)
      if square != 0 {
        let k = -linear / (2 * square)
        if k > 0 && k < n {
          let f = v + k * linear + k * k * square
          lo = min(lo, f)
          hi = max(hi, f)
        }
      }
      return (lo, hi)
    }
    let (ulo, uhi) = range(row.u), (vlo, vhi) = range(row.v)
    return ulo >= interior.u.lo && uhi <= interior.u.hi && vlo >= interior.v.lo && vhi <= interior.v.hi
  }

  /// A bilinear tap well inside a plane: no wrapping, clamping or background. The same
  /// arithmetic as `tap`, carried as `D` carries taps.
  @inline(__always) func interiorTap<D: YUVSampleDepth>(
    _ plane: UnsafePointer<UInt8>, _ stride: Int, _ u: Int64, _ v: Int64, _ depth: D.Type
  ) -> Int32 {
    let x0 = Int(truncatingIfNeeded: u >> 32), y0 = Int(truncatingIfNeeded: v >> 32)
    let fx = Int32(truncatingIfNeeded: (u >> 24) & 255), fy = Int32(truncatingIfNeeded: (v >> 24) & 255)
    let r0 = UnsafeRawPointer(plane + (y0 &* stride)), r1 = r0 + stride
    return D.carry(weigh(D.sample(r0, x0), D.sample(r0, x0 &+ 1), D.sample(r1, x0), D.sample(r1, x0 &+ 1), fx, fy))
  }

  /// Two rows of `count` pixels (from an even column) whose taps all lie inside: the
  /// portable loop, and the reference the C kernels are held to (`YUVKernel`).
  func interiorPair<D: YUVSampleDepth>(
    _ a: (u: Stepper, v: Stepper), _ b: (u: Stepper, v: Stepper), count: Int, lumaA: UnsafeMutablePointer<UInt8>,
    lumaB: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, _ depth: D.Type
  ) {
    var (ua, va, ub, vb) = (a.u, a.v, b.u, b.v)
    let (y, ys) = (planes.y, planes.yStride)
    for x in 0..<count {
      lumaA[x] = D.byte(interiorTap(y, ys, ua.value, va.value, D.self))
      lumaB[x] = D.byte(interiorTap(y, ys, ub.value, vb.value, D.self))
      if x & 1 == 0 {
        let cu = (((ua.value >> 1) &+ (ub.value >> 1)) >> 1) &- chromaShiftX
        let cv = (((va.value >> 1) &+ (vb.value >> 1)) >> 1) &- (1 << 30)
        u[x >> 1] = D.byte(interiorTap(planes.u, planes.uStride, cu, cv, D.self))
        v[x >> 1] = D.byte(interiorTap(planes.v, planes.vStride, cu, cv, D.self))
      }
      ua.step()
      va.step()
      ub.step()
      vb.step()
    }
  }

  /// Two rows `y`, `y + 1` of a block (columns `x0..<x1`), wrapping, clamping and masking
  /// as they need; steppers nil: each position evaluated exactly.
  func generalPair<D: YUVSampleDepth>(
    x0: Int, x1: Int, y: Int, a: (u: Stepper, v: Stepper)?, b: (u: Stepper, v: Stepper)?, masks: Bool, out: Target,
    _ depth: D.Type
  ) {
    let black = blackY
    let rowA = out.y + y * out.width, rowB = rowA + out.width
    let chromaRow = (y >> 1) * (out.width >> 1)
    var steppers = a, next = b
    for x in x0..<x1 {
      let (ua, va) = steppers.map { ($0.u.value, $0.v.value) } ?? exact(Double(x), Double(y))
      let (ub, vb) = next.map { ($0.u.value, $0.v.value) } ?? exact(Double(x), Double(y + 1))
      let hidden = masks && outsideLens(x, y)
      rowA[x] = hidden ? black : luma(ua, va, D.self).map(D.byte) ?? black
      rowB[x] = masks && outsideLens(x, y + 1) ? black : luma(ub, vb, D.self).map(D.byte) ?? black
      if x & 1 == 0 {
        let c = hidden ? nil : chroma((ua >> 1) &+ (ub >> 1), (va >> 1) &+ (vb >> 1), D.self)
        out.u[chromaRow + x >> 1] = c.map { D.byte($0.0) } ?? 128
        out.v[chromaRow + x >> 1] = c.map { D.byte($0.1) } ?? 128
      }
      steppers?.u.step()
      steppers?.v.step()
      next?.u.step()
      next?.v.step()
    }
  }

  /// One row of blocks into RGBA: each pixel's luma and chroma tapped at its own position
  /// and converted.
  func renderBand(_ band: Int, rgba out: RGBATarget) {
    if deep { renderBand(band, rgba: out, TenBit.self) } else { renderBand(band, rgba: out, EightBit.self) }
  }

  /// `renderBand(_:rgba:)` for samples of depth `D`.
  func renderBand<D: YUVSampleDepth>(_ band: Int, rgba out: RGBATarget, _ depth: D.Type) {
    let masks = mapping.camera.visibleRadius != nil
    let black: UInt32 = 0xFF00_0000
    for column in 0..<(nodes.columns.count - 1) {
      let x0 = nodes.columns[column], x1 = nodes.columns[column + 1]
      let y0 = nodes.rows[band], y1 = nodes.rows[band + 1]
      let patch = self.patch(band: band, column: column)
      for r in 0..<(y1 - y0) {
        let y = y0 + r
        let row = out.base + y * out.width
        var steppers = patch?.row(r)
        for x in x0..<x1 {
          let (u, v) = steppers.map { ($0.u.value, $0.v.value) } ?? exact(Double(x), Double(y))
          steppers?.u.step()
          steppers?.v.step()
          guard !(masks && outsideLens(x, y)), let l = luma(u, v, D.self), let c = chroma(u, v, D.self) else {
            row[x] = black
            continue
          }
          row[x] = D.pixel(fixed, l, c.0, c.1)
        }
      }
    }
  }
}
