extension YUVBlocks {
  /// One row of blocks into a 4:2:0 picture: two output rows at a time, luma per pixel,
  /// chroma per 2 × 2 pixels at the pair's left column, halfway down (left-sited), where
  /// the mapping is the mean of the two rows'.
  func renderBand(_ band: Int, yuv out: Target) {
    let masks = mapping.camera.lens.visibleRadius != nil
    let black = blackY
    for column in 0..<(nodes.columns.count - 1) {
      let x0 = nodes.columns[column], x1 = nodes.columns[column + 1]
      let y0 = nodes.rows[band], y1 = nodes.rows[band + 1]
      let patch = self.patch(band: band, column: column)
      var r = 0
      while r + 1 < y1 - y0 {
        let y = y0 + r
        let rowA = out.y + y * out.width, rowB = rowA + out.width
        let chromaRow = (y >> 1) * (out.width >> 1)
        var steppers = patch?.row(r), next = patch?.row(r + 1)
        for x in x0..<x1 {
          let (ua, va) = steppers.map { ($0.u.value, $0.v.value) } ?? exact(Double(x), Double(y))
          let (ub, vb) = next.map { ($0.u.value, $0.v.value) } ?? exact(Double(x), Double(y + 1))
          let hidden = masks && outsideLens(x, y)
          rowA[x] = hidden ? black : luma(ua, va).map { UInt8(truncatingIfNeeded: $0) } ?? black
          rowB[x] = masks && outsideLens(x, y + 1) ? black : luma(ub, vb).map { UInt8(truncatingIfNeeded: $0) } ?? black
          if x & 1 == 0 {
            let c = hidden ? nil : chroma((ua >> 1) &+ (ub >> 1), (va >> 1) &+ (vb >> 1))
            out.u[chromaRow + x >> 1] = UInt8(truncatingIfNeeded: c?.0 ?? 128)
            out.v[chromaRow + x >> 1] = UInt8(truncatingIfNeeded: c?.1 ?? 128)
          }
          steppers?.u.step()
          steppers?.v.step()
          next?.u.step()
          next?.v.step()
        }
        r += 2
      }
    }
  }

  /// One row of blocks into RGBA: each pixel's luma and chroma tapped at its own position
  /// and converted.
  func renderBand(_ band: Int, rgba out: RGBATarget) {
    let masks = mapping.camera.lens.visibleRadius != nil
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
          guard !(masks && outsideLens(x, y)), let l = luma(u, v), let c = chroma(u, v) else {
            row[x] = black
            continue
          }
          row[x] = fixed.pixel(l, c.0, c.1)
        }
      }
    }
  }
}
