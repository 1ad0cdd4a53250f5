import CoreMath

extension PanoramaRenderer {
  /// What a band needs, copied out of the renderer so bands share nothing mutable.
  struct BlockContext: Sendable {
    let columns: [Int], rows: [Int], gridU: [Double], gridV: [Double]
    let shift: Double, period: Double, wraps: Bool
    let srcW: Int, srcH: Int, width: Int
    /// The source (offset 0) and its mip levels.
    let levels: [MipLevels.Level]
    let background: UInt32
    let renderer: PanoramaRenderer
    let camera: Camera
    let kernel: GroupKernel?
    /// The polar faces' levels and grid positions (empty without caps), and the yaw that
    /// turns them: a rotation about the face's centre.
    let capLevels: [MipLevels.Level]
    let capSide: [UInt8], capA: [Double], capB: [Double]
    let capCentre: Double
    let yawCos: Double, yawSin: Double

    init(renderer: PanoramaRenderer, shift: Double, yaw: Double = 0, camera: Camera, width: Int) {
      columns = renderer.columns
      rows = renderer.rows
      gridU = renderer.gridU
      gridV = renderer.gridV
      self.shift = shift
      period = renderer.period
      wraps = renderer.geometry.wraps
      srcW = renderer.source.width
      srcH = renderer.source.height
      levels = [MipLevels.Level(offset: 0, width: srcW, height: srcH)] + renderer.mipLevels.levels
      self.width = width
      background = renderer.background
      self.renderer = renderer
      self.camera = camera
      kernel = renderer.groupKernel
      capLevels = renderer.polarCaps?.levels ?? []
      capSide = renderer.gridCapSide
      capA = renderer.gridCapA
      capB = renderer.gridCapB
      capCentre = renderer.polarCaps?.centre ?? 0
      (yawSin, yawCos) = Elementary.sinCos(yaw)
    }

    /// One block of the grid: its pixels and their mapping to the source.
    struct Block {
      let xs: ClosedRange<Int>, ys: ClosedRange<Int>
      /// Where the block reads, or nil where a pole is in the block and the mapping bends too
      /// much to interpolate.
      let patch: Patch?
      /// The next mip level, faded in by `upperWeight` / 256 where the block's step nears it.
      var upper: Patch? = nil
      var upperWeight: UInt32 = 0

      /// Blends `upper` (the next level, if it could be stepped) in by `fade` (0 to 1).
      mutating func fadeIn(_ upper: Patch?, by fade: Double) {
        guard let upper else { return }
        self.upper = upper
        upperWeight = UInt32(min(max(fade * 256, 1), 255))
      }
    }

    /// Level-0 pixel coordinates at mip level `level` (pixel centres stay centres).
    static func atLevel(_ x: SIMD16<Double>, _ level: Int) -> SIMD16<Double> {
      let scale = Double(1 << level)
      return (x + 0.5) / scale - 0.5
    }

    /// Where a block reads at one mip level: source x and y across it.
    struct Patch {
      let u: BlockStepper, v: BlockStepper
      /// Every sample and its neighbours lie inside the level: no wrapping or clamping.
      let inside: Bool
      /// 0: the source.
      let level: Int
      /// 0: the source and its mip levels; 1 and 2: the north and south polar faces.
      var plane: UInt8 = 0
    }

    /// The output rows of band `band` (a row of blocks): its top grid line to the next,
    /// which belongs to the band below unless this is the last band.
    func bandRows(_ band: Int) -> ClosedRange<Int> {
      let y0 = rows[band]
      let y1 = band + 1 < rows.count ? rows[band + 1] : y0
      return y0...(band + 1 >= rows.count - 1 ? y1 : y1 - 1)
    }

    func block(band: Int, column blockX: Int) -> Block {
      let nc = columns.count
      let ys = bandRows(band)
      let y1 = band + 1 < rows.count ? rows[band + 1] : ys.lowerBound
      let x0 = columns[blockX]
      let x1 = blockX + 1 < nc ? columns[blockX + 1] : x0
      let xEnd = blockX + 1 >= nc - 1 ? x1 : x1 - 1
      // The block's 3×3 nodes, row by row, in lanes 0–8 (the rest repeat lane 0). Vectors,
      // not arrays: a heap allocation per block cost more than the block's pixels.
      let nodesPerRow = 2 * max(nc - 1, 1) + 1
      if !capSide.isEmpty,
        let block = capBlock(
          first: 2 * band * nodesPerRow + 2 * blockX, nodesPerRow: nodesPerRow, xs: x0...xEnd, ys: ys,
          span: (x1 - x0, y1 - ys.lowerBound))
      {
        return block
      }
      var u = SIMD16<Double>(), v = u
      for j in 0..<3 {
        for i in 0..<3 {
          let g = (2 * band + j) * nodesPerRow + 2 * blockX + i
          u[3 * j + i] = gridU[g] + shift
          v[3 * j + i] = gridV[g]
        }
      }
      return interpolated(u, v, xs: x0...xEnd, ys: ys, span: (x1 - x0, y1 - ys.lowerBound))
    }

    /// A block through nodes `u`, `v` (lanes 0–8, row by row, at 0, span/2 and span across
    /// and down): nil steppers when it cannot be interpolated.
    func interpolated(
      _ u: SIMD16<Double>, _ v: SIMD16<Double>, xs: ClosedRange<Int>, ys: ClosedRange<Int>, span: (Int, Int)
    ) -> Block {
      var u = u, v = v
      guard PanoramaRenderer.unwrapNodes(&u, &v, period: period) else { return Block(xs: xs, ys: ys, patch: nil) }
      // Stepping two or more source pixels per output pixel: read the mip level whose pixels
      // are about as large as the step (rounded down, so views stay sharp).
      let (level, fade) = levels.count > 1 ? Self.level(u, v, span: span, count: levels.count) : (0, 0)
      var block = Block(xs: xs, ys: ys, patch: patch(u, v, level: level, span: span))
      if block.patch != nil, fade > 0 { block.fadeIn(patch(u, v, level: level + 1, span: span), by: fade) }
      return block
    }

    /// Steppers through nodes `u`, `v` (source pixels, u unwrapped) at mip level `level`, or
    /// nil where a node is too far outside any source for fixed point.
    func patch(_ u: SIMD16<Double>, _ v: SIMD16<Double>, level: Int, span: (Int, Int)) -> Patch? {
      var u = u, v = v
      let size = levels[level]
      var levelPeriod = period
      if level > 0 {
        u = Self.atLevel(u, level)
        v = Self.atLevel(v, level)
        levelPeriod /= Double(1 << level)
      }
      var ulo = u.min(), uhi = u.max()
      // Bring the block into [0, period) at its left-most point, so one subtraction wraps.
      if wraps && levelPeriod > 0 {
        let k = (ulo / levelPeriod).rounded(.down) * levelPeriod
        u -= SIMD16(repeating: k)
        ulo -= k
        uhi -= k
      }
      // Far outside any source (metadata or a geometry that says so): per pixel, where such
      // positions become background instead of overflowing fixed point. Lane by lane: a
      // vector's min() passes over NaN.
      for k in 0..<9 where !Self.fixedPointSafe(u[k]) || !Self.fixedPointSafe(v[k]) { return nil }
      let vlo = v.min(), vhi = v.max()
      // Between nodes the patch can bulge past them, by less than its second differences.
      let margin = 1 + BlockStepper.bulge(u) + BlockStepper.bulge(v)
      // Four-pixel groups hold 16.16 coordinates and source indices in 32-bit lanes.
      let (w, h) = (size.width, size.height)
      let inside =
        ulo - margin >= 0 && uhi + margin < Double(w - 1) && vlo - margin >= 0 && vhi + margin < Double(h - 1)
        && w < 1 << 16 && Int64(w) &* Int64(h) < 1 << 32
      return Patch(
        u: BlockStepper(u, width: span.0, height: span.1), v: BlockStepper(v, width: span.0, height: span.1),
        inside: inside, level: level)
    }

    /// The mip level for a block through nodes `u`, `v` (source pixels, u unwrapped): the
    /// largest whose pixels are no larger than the block's smaller step per output pixel
    /// (across or down). The smaller: towards a pole an equirectangular view steps far more
    /// across than down, and a level chosen by the larger step blurred the latitude lines and
    /// showed the seams between blocks of different levels.
    ///
    /// `fade` (0 to 1) is how far the block is into the last quarter octave before the next
    /// level: the next level is blended in by that much, so while a view zooms a block's
    /// picture changes smoothly instead of jumping from one level to the next.
    static func level(
      _ u: SIMD16<Double>, _ v: SIMD16<Double>, span: (Int, Int), count: Int
    ) -> (level: Int, fade: Double) {
      var step = Self.step(u, v, span: span)
      var level = 0
      while step >= 2 && level + 1 < count {
        step /= 2
        level += 1
      }
      // log2(step) in the last quarter octave, [0.75, 1): fade towards the next level.
      guard level + 1 < count, step > fadeStart, step < 2 else { return (level, 0) }
      return (level, (Elementary.log(step) / Elementary.log(2) - 0.75) * 4)
    }

    /// 2^0.75: a block stepping more source pixels than this per output pixel starts to
    /// fade the next mip level in.
    static let fadeStart = 1.681_792_830_507_429

    /// The smaller of a block's steps per output pixel, across or down, in source pixels,
    /// through nodes `u`, `v` (lanes 0–8, u unwrapped) `span` pixels apart.
    static func step(_ u: SIMD16<Double>, _ v: SIMD16<Double>, span: (Int, Int)) -> Double {
      var across = 0.0, down = 0.0
      for k in 0..<3 {
        across = max(across, hypot(u[3 * k + 2] - u[3 * k], v[3 * k + 2] - v[3 * k]))
        down = max(down, hypot(u[k + 6] - u[k], v[k + 6] - v[k]))
      }
      return min(across / Double(max(span.0, 1)), down / Double(max(span.1, 1)))
    }

    static func hypot(_ a: Double, _ b: Double) -> Double { (a * a + b * b).squareRoot() }

    func renderBand(_ band: Int, _ px: SharedPixels) {
      for blockX in 0..<max(columns.count - 1, 1) {
        render(block(band: band, column: blockX), px)
      }
      if let radius = camera.lens.visibleRadius { maskOutside(radius: radius, band, px) }
    }
  }
}
