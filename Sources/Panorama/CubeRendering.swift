import CoreMath

/// A cube's texels at one or more sizes: level 0 the finest, each next level its faces halved
/// (sizes rounded up, so texel `x` of a level lies in texel `x / 2` of the next). What the
/// cube renderer reads: a ``CubeMap`` and its mip levels, or a ``TiledCube``'s tiles.
public protocol CubeTexels: Sendable {
  /// Levels held (at least 1).
  var levelCount: Int { get }
  /// Face size in texels at `level`.
  func faceSize(level: Int) -> Int
  /// Texel (`x`, `y`) of `face` at `level`, both in `0..<faceSize(level:)`.
  func texel(level: Int, face: Int, x: Int, y: Int) -> UInt32
  /// The finest level whose data texel (`x`, `y`) of `face` at `level` shows: `level` itself
  /// for a source that holds every level, coarser where a tile pyramid has only a coarser
  /// cover loaded (`Int.max` where nothing covers it).
  func detail(level: Int, face: Int, x: Int, y: Int) -> Int
  /// Calls `body` with the rows in memory that hold texel (`x`, `y`) of `face` at `level`
  /// (a face, or a tile of one), for the stepped path; returns false without calling it where
  /// there are none (a tile pyramid's texel shown by a coarser tile). The default: none, so
  /// every block takes the per-pixel path.
  func withRows(level: Int, face: Int, x: Int, y: Int, _ body: (TexelRows) -> Void) -> Bool
}

extension CubeTexels {
  /// Every texel shows its own level: right for a source that holds every level whole.
  public func detail(level: Int, face: Int, x: Int, y: Int) -> Int { level }
  /// No rows in memory: every block takes the per-pixel path.
  public func withRows(level: Int, face: Int, x: Int, y: Int, _ body: (TexelRows) -> Void) -> Bool { false }
}

/// A rectangle of a cube face's texels as rows in memory: texel (`x0` + i, `y0` + j) is
/// `base[j · stride + i]`, for i in `0..<width`, j in `0..<height`.
public struct TexelRows {
  /// The texel at (`x0`, `y0`); the rectangle's other texels follow at `stride` per row.
  public let base: UnsafePointer<UInt32>
  /// Distance between the starts of two rows, in texels (not bytes).
  public let stride: Int
  /// The rectangle's first texel column and row on the face, and its size, in texels.
  public let x0: Int, y0: Int, width: Int, height: Int

  /// Rows starting at `base`, `stride` texels apart, holding the face's texels `x0..<x0 + width` × `y0..<y0 + height`.
  public init(base: UnsafePointer<UInt32>, stride: Int, x0: Int, y0: Int, width: Int, height: Int) {
    self.base = base
    self.stride = stride
    self.x0 = x0
    self.y0 = y0
    self.width = width
    self.height = height
  }
}

/// The grid renderer for cube sources: every lens, with mip levels and no seam at face edges.
///
/// The frame is cut into blocks of 16×16 pixels, 16×32 for the rectilinear lens (smaller where a block would span over 3°). Rays are cast exactly at the blocks' corners
/// and interpolated between them, then each pixel's ray meets its face with one division.
/// A rectilinear lens's rays are linear in the screen, so for it the interpolation is exact;
/// other lenses' rays bend by well under a hundredth of a pixel across a block. Each block
/// reads the level whose texels are about as large as its pixels along its shorter step
/// (measured from its corners on the face its centre looks at), so a wide view reads few
/// texels and does not shimmer; the longer step would blur the lines along a face edge,
/// where texels are half as large across the edge as along it. Where that level holds only
/// a coarser cover (a pyramid fetches the view's level, not the ones above), it reads the
/// level with the finest data instead.
/// A bilinear tap past a face's edge reads the neighbouring face there, as cube-map hardware
/// does, at every level.
enum CubeRendering {
  static let block = 16

  /// The texel (`x`, `y`) of `face` at `level`, or of the face it falls on when it is past an
  /// edge (the neighbour's texel in that direction).
  @inline(__always) static func tap<T: CubeTexels>(_ cube: T, _ level: Int, _ face: Int, _ x: Int, _ y: Int, _ size: Int)
    -> UInt32
  {
    if x >= 0, y >= 0, x < size, y < size { return cube.texel(level: level, face: face, x: x, y: y) }
    let s = Double(size)
    let d = CubeFace.direction(face: face, u: (Double(x) + 0.5) / s, v: (Double(y) + 0.5) / s)
    let p = CubeFace.locate(x: d.x, y: d.y, z: d.z)
    let tx = min(max(Int(p.u * s), 0), size - 1), ty = min(max(Int(p.v * s), 0), size - 1)
    return cube.texel(level: level, face: p.face, x: tx, y: ty)
  }

  /// Bilinear at (`px`, `py`) (texel units, texel centres at +0.5) of `face`: weights in
  /// 1/256ths, two channels per 32-bit multiply, as the equirectangular blend does.
  @inline(__always) static func bilinear<T: CubeTexels>(
    _ cube: T, _ level: Int, _ face: Int, _ px: Double, _ py: Double, _ size: Int
  ) -> UInt32 {
    let fx0 = px - 0.5, fy0 = py - 0.5
    let xf = fx0.rounded(.down), yf = fy0.rounded(.down)
    let x0 = Int(xf), y0 = Int(yf)
    let wx = UInt32((fx0 - xf) * 256), wy = UInt32((fy0 - yf) * 256)
    let a: UInt32, b: UInt32, c: UInt32, d: UInt32
    if x0 >= 0, y0 >= 0, x0 + 1 < size, y0 + 1 < size {
      a = cube.texel(level: level, face: face, x: x0, y: y0)
      b = cube.texel(level: level, face: face, x: x0 + 1, y: y0)
      c = cube.texel(level: level, face: face, x: x0, y: y0 + 1)
      d = cube.texel(level: level, face: face, x: x0 + 1, y: y0 + 1)
    } else {
      a = tap(cube, level, face, x0, y0, size)
      b = tap(cube, level, face, x0 + 1, y0, size)
      c = tap(cube, level, face, x0, y0 + 1, size)
      d = tap(cube, level, face, x0 + 1, y0 + 1, size)
    }
    return mix(mix(a, b, wx), mix(c, d, wx), wy)
  }

  /// `a` + (`b` − `a`)·`w`/256 per channel, rounded.
  @inline(__always) static func mix(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
    let mask: UInt32 = 0x00FF_00FF, iw = 256 - w
    let rb = ((a & mask) &* iw &+ (b & mask) &* w &+ 0x0080_0080) >> 8 & mask
    let ga = (((a >> 8) & mask) &* iw &+ ((b >> 8) & mask) &* w &+ 0x0080_0080) >> 8 & mask
    return rb | ga << 8
  }

  typealias Ray = (x: Double, y: Double, z: Double)

  /// ``CubeFace/locate(x:y:z:)`` written out per face (one division, no table): the hot
  /// loop's version.
  @inline(__always) static func locate(_ d: Ray) -> (face: Int, u: Double, v: Double) {
    let ax = abs(d.x), ay = abs(d.y), az = abs(d.z)
    let face: Int, s: Double, t: Double
    if ax >= ay && ax >= az {
      guard ax > 0 else { return (0, 0.5, 0.5) }  // the zero vector
      let k = 1 / ax
      (face, s, t) = d.x >= 0 ? (1, -d.z * k, -d.y * k) : (3, d.z * k, -d.y * k)
    } else if ay >= az {
      let k = 1 / ay
      (face, s, t) = d.y >= 0 ? (4, d.x * k, d.z * k) : (5, d.x * k, -d.z * k)
    } else {
      let k = 1 / az
      (face, s, t) = d.z >= 0 ? (0, d.x * k, -d.y * k) : (2, -d.x * k, -d.y * k)
    }
    return (face, min(max((s + 1) * 0.5, 0), 1), min(max((t + 1) * 0.5, 0), 1))
  }

  /// The face `locate` puts `d` on, without the division.
  @inline(__always) static func faceOf(_ d: Ray) -> Int {
    let ax = abs(d.x), ay = abs(d.y), az = abs(d.z)
    if ax >= ay && ax >= az { return ax > 0 ? (d.x >= 0 ? 1 : 3) : 0 }
    if ay >= az { return d.y >= 0 ? 4 : 5 }
    return d.z >= 0 ? 0 : 2
  }

  /// Where `d` meets `face`'s plane, in texels of a `size`-texel face; `nil` when it points
  /// away from the face.
  @inline(__always) static func onFace(_ d: Ray, _ face: Int, _ size: Double) -> (Double, Double)? {
    let (c, r, down) = CubeFace.frames[face]
    let along = d.x * c.x + d.y * c.y + d.z * c.z
    guard along > 1e-9 else { return nil }
    let s = (d.x * r.x + d.y * r.y + d.z * r.z) / along, t = (d.x * down.x + d.y * down.y + d.z * down.z) / along
    return ((s + 1) * 0.5 * size, (t + 1) * 0.5 * size)
  }

  /// The level a block whose corner rays are `r00`, `r10`, `r01`, `r11` (top-left, top-right,
  /// bottom-left, bottom-right, `span` pixels apart) should read: ⌊log2⌋ of the finest level's texels per
  /// pixel there, along the shorter of its two steps (across and down).
  static func level<T: CubeTexels>(_ cube: T, _ r00: Ray, _ r10: Ray, _ r01: Ray, _ r11: Ray, span: (Double, Double))
    -> Int
  {
    guard cube.levelCount > 1 else { return 0 }
    let face = CubeFace.locate(
      x: r00.x + r10.x + r01.x + r11.x, y: r00.y + r10.y + r01.y + r11.y, z: r00.z + r10.z + r01.z + r11.z
    ).face
    let size = Double(cube.faceSize(level: 0))
    guard let p0 = onFace(r00, face, size), let p1 = onFace(r10, face, size),
      let p2 = onFace(r01, face, size), let p3 = onFace(r11, face, size)
    else { return 0 }
    func length(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
      ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
    }
    let across = max(length(p0, p1), length(p2, p3)) / max(span.0, 1)
    let down = max(length(p0, p2), length(p1, p3)) / max(span.1, 1)
    var footprint = min(across, down), level = 0
    while footprint >= 2, level + 1 < cube.levelCount {
      footprint /= 2
      level += 1
    }
    return level
  }

  /// `level`, or a finer one where a tile pyramid holds finer data than at `level` for the
  /// block whose corner rays are `corners`: the coarser levels a view reads as mip levels
  /// are often not loaded (the schedule fetches the view's level), and their cover is then a
  /// far coarser one. A finer level read at two or more texels a pixel skips a few texels, as
  /// the source's own render does; a level missing would show the coarsest level instead.
  static func readable<T: CubeTexels>(_ cube: T, _ level: Int, _ r00: Ray, _ r10: Ray, _ r01: Ray, _ r11: Ray, _ sizes: [Int])
    -> Int
  {
    guard level > 0 else { return 0 }
    // The coarsest data any corner would show at mip level `m`.
    func worst(_ m: Int) -> Int {
      let size = sizes[m], s = Double(size)
      func at(_ r: Ray) -> Int {
        let (face, u, v) = locate(r)
        return cube.detail(level: m, face: face, x: min(Int(u * s), size - 1), y: min(Int(v * s), size - 1))
      }
      return max(max(at(r00), at(r10)), max(at(r01), at(r11)))
    }
    var best = level, bestDetail = worst(level)
    guard bestDetail > level else { return level }
    for m in stride(from: level - 1, through: 0, by: -1) {
      let d = worst(m)
      if d < bestDetail {
        best = m
        bestDetail = d
      }
      if bestDetail == m { break }
    }
    return best
  }

  /// Draws the view of `cube` into `output`, its bands spread by `run` (a row executor's
  /// `run`). A closure rather than a generic executor: with `T` the only generic parameter,
  /// a caller that knows its cube gets this loop specialised for it (Swift specialises only
  /// when every generic parameter is known; unspecialised, each texel read is a witness call).
  ///
  /// `stepped` (the default) draws each run of up to four blocks that read one level as the
  /// equirectangular renderer draws its blocks (``SteppedBlocks``): the face coordinates at
  /// 3×3 points, stepped in fixed point between them, four pixels at a time through
  /// `kernel` (`nil`: the portable Swift loop). Where a run's texels do not lie in one face
  /// or tile in memory (at face and tile edges), its rows are cut where they pass from one
  /// to the next (``SteppedBlocks/cut(_:_:_:xs:ys:_:)``); where the view bends a face too much
  /// for one patch, its blocks, then their quarters down to 4×4 pixels, are tried alone. What
  /// is left, and every block when `stepped` is false (the reference), casts each pixel's ray
  /// between the block's corner rays and meets its face with one division.
  static func render<T: CubeTexels>(
    _ cube: T, view: ViewAngles, hfov: Double, lens: Lens, into output: inout RGBAImage, kernel: GroupKernel? = nil,
    stepped: Bool = true, run: (Int, @Sendable (Int) -> Void) -> Void
  ) {
    let width = output.width, height = output.height
    guard width > 0, height > 0 else { return }
    let focal = lens.focalLength(hfov: hfov, width: Double(width))
    let yaw = Elementary.sinCos(view.yaw), pitch = Elementary.sinCos(view.pitch), roll = Elementary.sinCos(view.roll)
    // Blocks span at most 0.05 rad (3°): the interpolated rays of a fisheye or stereographic
    // view at a huge field of view stay well within a hundredth of a pixel of exact.
    var side = block
    while side > 2, Double(side) / focal > 0.05 { side /= 2 }
    // Bands twice as tall for a rectilinear lens (blocks of 16×32, runs of 64×32, as the
    // equirectangular renderer's): half the exact rays, checks and levels a pixel, and its
    // face coordinates are followed as closely (the patch's error grows with its longer side).
    let b = side, bh = lens == .rectilinear ? 2 * side : side
    let columns = (width + b - 1) / b, bands = (height + bh - 1) / bh
    let sizes = (0..<cube.levelCount).map { cube.faceSize(level: $0) }
    // The ray through a corner of the pixel grid (its top-left at node (i, j)), as the direct
    // renderer casts them through pixel centres.
    // A rectilinear lens's rays are kept as they are (linear in the screen, so interpolation is
    // exact); other lenses' are made unit length, so that interpolation follows the direction.
    @Sendable func node(_ i: Int, _ j: Int) -> Ray {
      let r = CubeMap.ray(
        min(i, width), min(j, height), width: width, height: height, focal: focal, lens: lens, yaw: yaw, pitch: pitch,
        roll: roll, centred: false)
      if lens == .rectilinear { return r }
      let n = (r.x * r.x + r.y * r.y + r.z * r.z).squareRoot()
      return n > 0 ? (r.x / n, r.y / n, r.z / n) : r
    }
    // Runs of blocks stepped as one: four along a row for a rectilinear lens (its face
    // coordinates are ratios of linear functions, which a biquadratic follows to a thousandth
    // of a texel over 64 pixels), two for the others, whose rays bend.
    let runLength = lens == .rectilinear ? 4 : 2
    output.pixels.withUnsafeMutableBufferPointer { out in
      let shared = SharedPixels(base: out.baseAddress!, source: UnsafePointer(out.baseAddress!))
      run(bands) { band in
        let j0 = band * bh, j1 = min(j0 + bh, height)
        let top = (0...columns).map { node($0 * b, j0) }, bottom = (0...columns).map { node($0 * b, j1) }
        let levels = (0..<columns).map { column -> Int in
          let i0 = column * b, i1 = min(i0 + b, width)
          let r00 = top[column], r10 = top[column + 1], r01 = bottom[column], r11 = bottom[column + 1]
          return Self.readable(
            cube, Self.level(cube, r00, r10, r01, r11, span: (Double(i1 - i0), Double(j1 - j0))), r00, r10, r01, r11,
            sizes)
        }
        let blocks = SteppedBlocks(
          cube: cube, width: width, height: height, focal: focal, lens: lens, yaw: yaw, pitch: pitch, roll: roll,
          kernel: kernel, out: shared.base, top: top, bottom: bottom, side: b, j0: j0, j1: j1)
        var column = 0
        while column < columns {
          let level = levels[column]
          var end = column + 1
          if stepped {
            while end < columns, end - column < runLength, levels[end] == level { end += 1 }
          }
          let i0 = column * b, i1 = min(end * b, width)
          if !stepped || !blocks.step(level: level, size: sizes[level], xs: i0..<i1, ys: j0..<j1) {
            for c in column..<end {
              let corners = Corners(
                r00: top[c], r10: top[c + 1], r01: bottom[c], r11: bottom[c + 1], i0: c * b, j0: j0,
                spanX: Double(min(c * b + b, width) - c * b), spanY: Double(j1 - j0))
              let xs = (c * b)..<min(c * b + b, width)
              if stepped && end - column > 1 {
                blocks.piece(level: level, size: sizes[level], xs: xs, ys: j0..<j1, corners: corners)
              } else if stepped {
                blocks.split(level: level, size: sizes[level], xs: xs, ys: j0..<j1, corners: corners)
              } else {
                blocks.rays(level: level, size: sizes[level], xs: xs, ys: j0..<j1, corners: corners)
              }
            }
          }
          column = end
        }
      }
    }
  }
}

// MARK: The sources

extension CubeMap: CubeTexels {
  /// The finest level plus each mip level built.
  public var levelCount: Int { 1 + mipFaces.count }
  /// Face size in texels: ``CubeMap/size`` at level 0, the mip sizes after.
  public func faceSize(level: Int) -> Int { level == 0 ? size : mipSizes[level - 1] }
  /// Texel (`x`, `y`) of `face` at `level`, read in place.
  @inline(__always) public func texel(level: Int, face: Int, x: Int, y: Int) -> UInt32 {
    // Read in place: a copy of the image would retain and release its pixels every tap, and
    // two threads doing that to one face's count fight over its cache line (8× slower).
    if level == 0 { return faces[face].pixels[y * size + x] }
    return mipFaces[level - 1][face].pixels[y * mipSizes[level - 1] + x]
  }

  /// Calls `body` with the whole face at `level`: a cube map holds every face in memory.
  public func withRows(level: Int, face: Int, x: Int, y: Int, _ body: (TexelRows) -> Void) -> Bool {
    let size = faceSize(level: level)
    (level == 0 ? faces[face].pixels : mipFaces[level - 1][face].pixels).withUnsafeBufferPointer { p in
      body(TexelRows(base: p.baseAddress!, stride: size, x0: 0, y0: 0, width: size, height: size))
    }
    return true
  }

  /// The cube with its faces halved again and again (2×2 boxes, sizes rounded up) down to
  /// 8 texels: a third more memory, so that a wide view reads a level as coarse as its
  /// pixels instead of skipping texels.
  public func withMipLevels() -> CubeMap {
    var copy = self
    var level = faces
    copy.mipFaces = []
    copy.mipSizes = []
    while let side = level.first?.width, side > 8 {
      level = level.map { $0.halved() }
      copy.mipFaces.append(level)
      copy.mipSizes.append(level[0].width)
    }
    return copy
  }
}
