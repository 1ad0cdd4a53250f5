import CoreMath

extension PanoramaRenderer {
  static func gridLines(_ size: Int, _ spacing: Int) -> [Int] {
    var lines = Array(stride(from: 0, to: max(size - 1, 1), by: spacing))
    if lines.last != size - 1 && size > 1 { lines.append(size - 1) }
    if lines.isEmpty { lines = [0] }
    return lines
  }

  /// Where a block's three node lines lie along one axis: each block's edges and its middle.
  static func nodes(_ lines: [Int]) -> [Double] {
    let blocks = max(lines.count - 1, 1)
    var nodes = [Double](repeating: 0, count: 2 * blocks + 1)
    for b in 0..<blocks {
      let lo = Double(lines[b]), hi = Double(lines[min(b + 1, lines.count - 1)])
      nodes[2 * b] = lo
      nodes[2 * b + 1] = (lo + hi) / 2
      nodes[2 * b + 2] = hi
    }
    return nodes
  }

  mutating func prepareGrid<E: RowExecutor>(
    width: Int, height: Int, view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, window: ViewWindow? = nil,
    executor: E
  ) {
    let key = GridKey(
      width: width, height: height, pitch: view.pitch, roll: view.roll, hfov: hfov, lens: lens, spacing: gridSpacing,
      caps: polarCaps != nil, window: window)
    guard key != gridKey else { return }
    gridKey = key
    columns = Self.gridLines(width, max(gridSpacing.columns, 2))
    rows = Self.gridLines(height, max(gridSpacing.rows, 2))
    let camera = Camera(
      width: width, height: height, pitch: view.pitch, roll: view.roll, hfov: hfov, lens: lens, window: window)
    let (xs, ys) = (Self.nodes(columns), Self.nodes(rows))
    let count = xs.count * ys.count
    var us = [Double](repeating: 0, count: count), vs = us
    let caps = polarCaps
    var capAs = [Double](repeating: 0, count: caps == nil ? 0 : count), capBs = capAs
    var capSides = [UInt8](repeating: 0, count: capAs.count)
    let renderer = self
    // Node rows are independent: the executor spreads them like the pixel bands.
    us.withUnsafeMutableBufferPointer { u in
      vs.withUnsafeMutableBufferPointer { v in
        capAs.withUnsafeMutableBufferPointer { capA in
          capBs.withUnsafeMutableBufferPointer { capB in
            capSides.withUnsafeMutableBufferPointer { capSide in
              let out = GridPointers(
                u: u.baseAddress!, v: v.baseAddress!, capA: capA.baseAddress, capB: capB.baseAddress,
                capSide: capSide.baseAddress)
              executor.run(ys.count) { r in
                for (c, x) in xs.enumerated() {
                  let d = camera.direction(x, ys[r])
                  let p = renderer.sourcePosition(d)
                  let i = r * xs.count + c
                  out.u[i] = p.u
                  out.v[i] = p.v
                  if let caps, let capA = out.capA, let capB = out.capB, let capSide = out.capSide {
                    (capSide[i], capA[i], capB[i]) = caps.position(d)
                  }
                }
              }
            }
          }
        }
      }
    }
    gridU = us
    gridV = vs
    gridCapA = capAs
    gridCapB = capBs
    gridCapSide = capSides
    gridMinifies = minifies()
  }

  /// Whether a block of the grid steps so many source pixels per output pixel that mip
  /// levels change what it draws (from 2^0.75, where the next level starts fading in).
  /// Blocks holding a pole are left out: their neighbours step as far.
  func minifies() -> Bool {
    let nc = columns.count, nr = rows.count
    let nodesPerRow = 2 * max(nc - 1, 1) + 1
    for band in 0..<max(nr - 1, 1) {
      let spanY = (band + 1 < nr ? rows[band + 1] : rows[band]) - rows[band]
      for blockX in 0..<max(nc - 1, 1) {
        let spanX = (blockX + 1 < nc ? columns[blockX + 1] : columns[blockX]) - columns[blockX]
        var u = SIMD16<Double>(), v = u
        for j in 0..<3 {
          for i in 0..<3 {
            let g = (2 * band + j) * nodesPerRow + 2 * blockX + i
            u[3 * j + i] = gridU[g]
            v[3 * j + i] = gridV[g]
          }
        }
        guard Self.unwrapNodes(&u, &v, period: period) else { continue }
        if BlockContext.step(u, v, span: (spanX, spanY)) > BlockContext.fadeStart { return true }
      }
    }
    return false
  }

  /// Unwraps a block's nodes 1–8 (lanes, row by row) next to node 0 across the seam, and
  /// repeats node 0 in lanes 9–15. False when they span more than an eighth of the period: a
  /// pole is in the block, which cannot be interpolated.
  static func unwrapNodes(_ u: inout SIMD16<Double>, _ v: inout SIMD16<Double>, period: Double) -> Bool {
    let half = period / 2
    for k in 1..<9 {
      if u[k] - u[0] > half { u[k] -= period } else if u[0] - u[k] > half { u[k] += period }
    }
    for k in 9..<16 {
      u[k] = u[0]
      v[k] = v[0]
    }
    return u.max() - u.min() <= period / 8
  }

  struct GridPointers: @unchecked Sendable {
    let u: UnsafeMutablePointer<Double>
    let v: UnsafeMutablePointer<Double>
    let capA: UnsafeMutablePointer<Double>?
    let capB: UnsafeMutablePointer<Double>?
    let capSide: UnsafeMutablePointer<UInt8>?
  }

  /// Renders a view into `output` (its size is the view's size).
  /// - Parameters:
  ///   - view: yaw, pitch, roll in radians.
  ///   - hfov: horizontal field of view in radians, in (0, `lens.maximumFieldOfView`].
  ///   - lens: any ``Lens``; rectilinear by default.
  ///   - output: the frame drawn into; its size is the view's, or the window's.
  ///   - window: draw only this part of a larger view (`nil`: all of it, `output`-sized);
  ///     `hfov` is then the larger view's.
  ///   - executor: runs the bands of rows (inline, or on threads the host owns).
  /// - Complexity: O(output pixels); the grid costs O(pixels / spacing²) when pitch, roll,
  ///   zoom or size changed since the last frame.
  public mutating func renderPerspective<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, window: ViewWindow? = nil, into output: inout RGBAImage,
    executor: E
  ) {
    let width = output.width, height = output.height
    guard width > 0, height > 0 else { return }
    let window = window.flatMap { $0.fullWidth > 0 && $0.fullHeight > 0 ? $0 : nil }
    // Any angles draw something: non-finite ones count as 0 (a 90° field of view), and
    // yaw is taken modulo a turn so its shift in source pixels stays small.
    let fov = hfov.isFinite ? min(max(hfov, 0.01), lens.maximumFieldOfView) : Elementary.halfPi
    let view = ViewAngles(
      yaw: Self.turn(view.yaw), pitch: view.pitch.isFinite ? view.pitch : 0, roll: view.roll.isFinite ? view.roll : 0)
    prepareGrid(width: width, height: height, view: view, hfov: fov, lens: lens, window: window, executor: executor)
    if buildsMipLevelsWhenMinified && mipLevels.levels.isEmpty && gridMinifies { buildMipLevels(executor: executor) }
    let shift = view.yaw / Elementary.twoPi * period
    let camera = Camera(
      width: width, height: height, pitch: view.pitch, roll: view.roll, hfov: fov, lens: lens, window: window)
    let context = BlockContext(renderer: self, shift: shift, yaw: view.yaw, camera: camera, width: width)
    let bandCount = rows.count - 1 == 0 ? 1 : rows.count - 1
    withPixels(into: &output) { shared in
      executor.run(bandCount) { band in context.renderBand(band, shared) }
    }
  }

  /// The source's, the mip levels' and `output`'s pixels, for bands that write disjoint rows.
  func withPixels(into output: inout RGBAImage, _ body: (SharedPixels) -> Void) {
    let none: [UInt32] = []
    source.pixels.withUnsafeBufferPointer { src in
      mipLevels.pixels.withUnsafeBufferPointer { mips in
        (polarCaps?.north ?? none).withUnsafeBufferPointer { north in
          (polarCaps?.south ?? none).withUnsafeBufferPointer { south in
            output.pixels.withUnsafeMutableBufferPointer { out in
              body(
                SharedPixels(
                  base: out.baseAddress!, source: src.baseAddress!, mips: mips.baseAddress, north: north.baseAddress,
                  south: south.baseAddress))
            }
          }
        }
      }
    }
  }

  /// `angle` within one turn (exactly: the remainder is exact), or 0 if it is not finite.
  static func turn(_ angle: Double) -> Double {
    angle.isFinite ? angle.truncatingRemainder(dividingBy: Elementary.twoPi) : 0
  }
}
