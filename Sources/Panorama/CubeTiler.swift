import CoreMath

/// One tile of a cube pyramid: `level` (1 is the coarsest), `face` (Pannellum's order,
/// ``MultiresLayout/faces``), column `x`, row `y`.
public struct CubeTile: Sendable {
  /// Pyramid level (1 coarsest), face (0…5), tile column and row.
  public var level: Int, face: Int, x: Int, y: Int
  /// The tile's pixels, `MultiresLayout.tileSize(level:x:y:)` in size (smaller at a face's last column or row).
  public var image: RGBAImage

  /// The tile at `level`, `face`, column `x`, row `y`, holding `image`.
  public init(level: Int, face: Int, x: Int, y: Int, image: RGBAImage) {
    self.level = level
    self.face = face
    self.x = x
    self.y = y
    self.image = image
  }
}

/// Which source rows each finest-level tile reads, and the order that lets a tiler hold only
/// a band of the source: tiles sorted by their last row, so a tile is drawn as soon as the
/// decoder has passed its rows, and rows no later tile reads are dropped.
public struct CubeTilePlan: Sendable {
  /// One finest-level tile: its face, column and row, and the source rows it reads.
  public struct Entry: Sendable, Equatable {
    /// Face (0…5), tile column and row.
    public let face: Int, x: Int, y: Int
    /// The source rows the tile's filter taps can touch, with a margin.
    public let rows: Range<Int>
  }
  /// The pyramid the tiles belong to.
  public let layout: MultiresLayout
  /// The finest level's tiles, by `rows.upperBound`.
  public let entries: [Entry]
  /// The most source rows held at once: for each entry, its last row minus the first row
  /// any entry from it on reads.
  public let windowRows: Int
  /// For each entry, the first row it or any later entry reads (rows above can be dropped).
  public let firstRowNeeded: [Int]

  /// Rows added on each side of a tile's exact range: the reach of ``CubeFaceFilter``'s taps.
  static var margin: Int { CubeFaceFilter.rowMargin }

  /// The plan for the finest level of `layout`, drawn from a `sourceWidth`×`sourceHeight` pixel image placed by `geometry`.
  public init(layout: MultiresLayout, geometry: PanoramaGeometry, sourceWidth: Int, sourceHeight: Int) {
    self.layout = layout
    let level = layout.maxLevel, side = layout.tilesPerSide(level: level)
    let cube = Double(layout.cubeResolution), ts = layout.tileResolution
    let scaleY = Double(sourceHeight) / geometry.croppedHeight
    var entries: [Entry] = []
    for face in 0..<6 {
      for y in 0..<side {
        for x in 0..<side {
          let (w, h) = layout.tileSize(level: level, x: x, y: y)
          // The tile's square on the face, in face coordinates (-1…1, right and down).
          let s0 = 2 * Double(x * ts) / cube - 1, s1 = 2 * Double(x * ts + w) / cube - 1
          let t0 = 2 * Double(y * ts) / cube - 1, t1 = 2 * Double(y * ts + h) / cube - 1
          // Latitude over the square is extreme at its corners or where it comes closest to
          // the face's centre lines (the top and bottom faces' poles, the side faces' centre
          // column): checking those nine points is exact, not a sampling.
          var lo = Double.infinity, hi = -Double.infinity
          for s in [s0, s1, min(max(0, s0), s1)] {
            for t in [t0, t1, min(max(0, t0), t1)] {
              let d = CubeFace.direction(face: face, u: (s + 1) / 2, v: (t + 1) / 2)
              let length = (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot()
              let horizontal = (d.x * d.x + d.z * d.z).squareRoot() / length
              let full = geometry.fullPosition(longitude: 0, sinLatitude: d.y / length, horizontal: horizontal)
              let row = (full.y - geometry.croppedTop) * scaleY - 0.5
              lo = min(lo, row)
              hi = max(hi, row)
            }
          }
          let first = Self.clampRow(lo.rounded(.down) - Double(Self.margin), sourceHeight - 1)
          let last = Self.clampRow(hi.rounded(.up) + Double(Self.margin + 1), sourceHeight)
          entries.append(Entry(face: face, x: x, y: y, rows: first..<max(last, first + 1)))
        }
      }
    }
    entries.sort { ($0.rows.upperBound, $0.rows.lowerBound) < ($1.rows.upperBound, $1.rows.lowerBound) }
    var firstRowNeeded = [Int](repeating: 0, count: entries.count)
    var lowest = sourceHeight, window = 0
    for i in stride(from: entries.count - 1, through: 0, by: -1) {
      lowest = min(lowest, entries[i].rows.lowerBound)
      firstRowNeeded[i] = lowest
      window = max(window, entries[i].rows.upperBound - lowest)
    }
    self.entries = entries
    self.firstRowNeeded = firstRowNeeded
    windowRows = window
  }

  /// A row number in 0…`limit` (non-finite: 0).
  static func clampRow(_ row: Double, _ limit: Int) -> Int {
    guard row.isFinite else { return 0 }
    return Int(min(max(row, 0), Double(limit)))
  }
}

/// Builds a pyramid's coarser levels as the finest tiles arrive: each tile halved (2×2 box,
/// sizes rounded up) into its parent's quarter, and a parent handed back, and halved in
/// turn, when its last child is in. Holds only parents still waiting for children.
/// The result equals halving whole faces, because tile edges fall on even pixels.
public struct TilePyramid: Sendable {
  struct Key: Hashable { var level: Int, face: Int, x: Int, y: Int }
  /// The pyramid being filled.
  public let layout: MultiresLayout
  var pending: [Key: (image: RGBAImage, missing: Int)] = [:]

  /// `nil` unless the tile size is even (an odd one puts tile edges mid-pair).
  public init?(layout: MultiresLayout) {
    guard layout.tileResolution % 2 == 0 else { return nil }
    self.layout = layout
  }

  /// Parents waiting for children.
  public var pendingCount: Int { pending.count }

  /// Takes a tile of level 2 or finer; returns the coarser tiles it completed, finer first.
  public mutating func add(_ tile: CubeTile) -> [CubeTile] {
    var done: [CubeTile] = []
    var child = tile
    while child.level > 1 {
      let level = child.level - 1, px = child.x / 2, py = child.y / 2
      let key = Key(level: level, face: child.face, x: px, y: py)
      var entry =
        pending.removeValue(forKey: key)
        ?? {
          let (w, h) = layout.tileSize(level: level, x: px, y: py)
          let finer = layout.tilesPerSide(level: child.level)
          let children = (min(2 * px + 1, finer - 1) - 2 * px + 1) * (min(2 * py + 1, finer - 1) - 2 * py + 1)
          return (RGBAImage(width: w, height: h), children)
        }()
      let half = child.image.halved(), half2 = layout.tileResolution / 2
      let ox = (child.x % 2) * half2, oy = (child.y % 2) * half2
      for y in 0..<min(half.height, entry.image.height - oy) {
        for x in 0..<min(half.width, entry.image.width - ox) { entry.image[ox + x, oy + y] = half[x, y] }
      }
      entry.missing -= 1
      guard entry.missing == 0 else {
        pending[key] = entry
        break
      }
      child = CubeTile(level: level, face: child.face, x: px, y: py, image: entry.image)
      done.append(child)
    }
    return done
  }
}

/// A `factor`×`factor` box reduction of an image fed row by row: the small copy a tiler
/// draws the fallback faces and the preview from without holding the source.
public struct BoxReducer: Sendable {
  /// Source pixels per reduced pixel along each axis.
  public let factor: Int
  /// The source image's size, in pixels.
  public let sourceWidth: Int, sourceHeight: Int
  /// The reduced image so far: rows are filled in as the source rows covering them arrive.
  public private(set) var image: RGBAImage
  var sums: [UInt32]
  var rowsIn = 0

  /// `factor` is clamped to 1…16 (sums of 256 pixels fit 32 bits).
  public init(sourceWidth: Int, sourceHeight: Int, factor: Int) {
    let k = min(max(factor, 1), 16)
    self.factor = k
    self.sourceWidth = sourceWidth
    self.sourceHeight = sourceHeight
    image = RGBAImage(width: (sourceWidth + k - 1) / k, height: (sourceHeight + k - 1) / k)
    sums = [UInt32](repeating: 0, count: image.width * 4)
  }

  /// The reduction factor that brings `width` to at most `target` pixels.
  public static func factor(width: Int, target: Int) -> Int { max(1, (width + target - 1) / max(target, 1)) }

  /// The reduced image's geometry, given the source's: the last column and row stand for
  /// fewer source pixels, so the reduced image spans a little more than the source.
  public func geometry(of source: PanoramaGeometry) -> PanoramaGeometry {
    var g = source
    g.croppedWidth *= Double(image.width * factor) / Double(sourceWidth)
    g.croppedHeight *= Double(image.height * factor) / Double(sourceHeight)
    return g
  }

  /// Adds the next source row (`sourceWidth` pixels).
  public mutating func add(row: UnsafePointer<UInt32>) {
    guard rowsIn < sourceHeight else { return }
    let k = factor
    sums.withUnsafeMutableBufferPointer { s in
      for x in 0..<sourceWidth {
        let p = row[x], o = (x / k) * 4
        s[o] &+= p & 0xFF
        s[o + 1] &+= (p >> 8) & 0xFF
        s[o + 2] &+= (p >> 16) & 0xFF
        s[o + 3] &+= p >> 24
      }
    }
    rowsIn += 1
    guard rowsIn % k == 0 || rowsIn == sourceHeight else { return }
    let y = (rowsIn - 1) / k, rows = UInt32(rowsIn - y * k)
    for x in 0..<image.width {
      let n = UInt32(min(k, sourceWidth - x * k)) * rows, o = x * 4
      func mean(_ c: Int) -> UInt32 { (sums[o + c] + n / 2) / n }
      image[x, y] = mean(0) | mean(1) << 8 | mean(2) << 16 | mean(3) << 24
    }
    for i in 0..<sums.count { sums[i] = 0 }
  }
}

/// A cube pyramid made from a source read once, top to bottom, holding only a band of its
/// rows: the finest tiles are drawn by ``CubeFaceFilter`` (bilinear, widened to each pixel's
/// footprint where the face minifies the source), each as soon as the rows it reads are in,
/// and the coarser levels built from them by ``TilePyramid`` (2×2 area means).
public enum CubeTiler {
  /// The rows of band buffer the run allocates: the plan's window and one read's worth.
  public static func bufferRows(plan: CubeTilePlan, sourceHeight: Int, chunk: Int) -> Int {
    min(plan.windowRows + chunk, sourceHeight + 1)
  }

  /// The pixel bytes of finest tiles drawn before a batch is handed to `emit` (64 MiB): the
  /// tiles whose rows are in are drawn in batches of at most this, not all at once. A small
  /// source has all its rows in at the first read, and a large `--cube-size` then drew every
  /// finest tile before writing any (20 GB for 30 000 px faces).
  public static let batchBytes = 64 << 20

  /// Finest tiles in one batch of at most `batchBytes` (never under one).
  public static func batchTiles(tileResolution: Int, batchBytes: Int = batchBytes) -> Int {
    max(1, batchBytes / max(1, tileResolution * tileResolution * 4))
  }

  /// Runs the plan.
  /// - Parameters:
  ///   - plan: which rows each finest tile reads, in the order they are drawn.
  ///   - geometry: where the source sits in its full panorama.
  ///   - sourceWidth: the source's width in pixels.
  ///   - sourceHeight: the source's height in pixels (rows read, top to bottom).
  ///   - background: the colour outside a partial panorama.
  ///   - kernel: the finest faces' resampling kernel (``CubeFaceFilter``).
  ///   - reducer: takes every row, for the fallback faces and the preview.
  ///   - chunk: rows read at a time.
  ///   - executor: runs each tile's bands of rows.
  ///   - read: fills `count` rows of the buffer from buffer row `at` with the source's next
  ///     rows; returns an error message, or nil.
  ///   - emit: takes a batch of finished tiles (finest ones and the coarser ones they
  ///     completed); returns an error message, or nil. Every row reaches `reducer`.
  ///   - batchBytes: the finest tiles' pixel bytes in one batch at most (one tile at least).
  /// - Returns: the first error message, or nil when every tile was emitted.
  public static func run<E: RowExecutor>(
    plan: CubeTilePlan, geometry: PanoramaGeometry, sourceWidth: Int, sourceHeight: Int,
    background: UInt32 = RGBAImage.pack(r: 0, g: 0, b: 0), kernel: CubeFaceFilter.Kernel = .bilinear,
    reducer: inout BoxReducer, chunk: Int = 16, executor: E,
    batchBytes: Int = CubeTiler.batchBytes, read: (inout RGBAImage, _ at: Int, _ count: Int) -> String?,
    emit: ([CubeTile]) -> String?
  ) -> String? {
    guard var pyramid = TilePyramid(layout: plan.layout) else { return "the tile size must be even" }
    let layout = plan.layout, level = layout.maxLevel, ts = layout.tileResolution
    let capacity = bufferRows(plan: plan, sourceHeight: sourceHeight, chunk: chunk)
    var buffer = RGBAImage(width: sourceWidth, height: capacity)
    var top = 0, rowsRead = 0

    /// Reads the next rows, first dropping those above `keepFrom` when the buffer is full.
    func readMore(keepFrom: Int) -> String? {
      if rowsRead - top + chunk > capacity {
        let drop = min(keepFrom, rowsRead) - top
        if drop > 0 {
          let kept = (rowsRead - top - drop) * sourceWidth
          buffer.pixels.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.update(from: p.baseAddress! + drop * sourceWidth, count: kept)
          }
          top += drop
        }
      }
      let count = min(chunk, sourceHeight - rowsRead, capacity - (rowsRead - top))
      guard count > 0 else { return "the tiler's band buffer is full (a plan error)" }
      if let error = read(&buffer, rowsRead - top, count) { return error }
      buffer.pixels.withUnsafeBufferPointer { p in
        for r in 0..<count { reducer.add(row: p.baseAddress! + (rowsRead - top + r) * sourceWidth) }
      }
      rowsRead += count
      if rowsRead == sourceHeight && buffer.height > rowsRead - top {
        // The buffer ends at the last row, as the source does (a partial panorama shows
        // background below it): its unused rows dropped in place, without a copy.
        var pixels = buffer.pixels
        buffer = RGBAImage(width: 1, height: 1)
        pixels.removeLast(pixels.count - (rowsRead - top) * sourceWidth)
        buffer = RGBAImage(width: sourceWidth, height: rowsRead - top, validPixels: pixels)
      }
      return nil
    }

    var next = 0
    while next < plan.entries.count {
      guard plan.entries[next].rows.upperBound <= rowsRead else {
        if let error = readMore(keepFrom: plan.firstRowNeeded[next]) { return error }
        continue
      }
      var end = next
      let batchLimit = next + batchTiles(tileResolution: ts, batchBytes: batchBytes)
      while end < plan.entries.count && end < batchLimit && plan.entries[end].rows.upperBound <= rowsRead { end += 1 }
      var batch: [CubeTile] = []
      do {
        let filter = CubeFaceFilter(
          band: buffer, firstRow: top, sourceHeight: sourceHeight, geometry: geometry, background: background,
          kernel: kernel)
        for entry in plan.entries[next..<end] {
          let (w, h) = layout.tileSize(level: level, x: entry.x, y: entry.y)
          var image = RGBAImage(width: w, height: h)
          filter.draw(
            face: entry.face, cubeSize: layout.cubeResolution, x: entry.x * ts, y: entry.y * ts, into: &image,
            executor: executor)
          batch.append(CubeTile(level: level, face: entry.face, x: entry.x, y: entry.y, image: image))
        }
      }  // the filter lets go of the buffer before it is written again
      for tile in batch where tile.level > 1 { batch += pyramid.add(tile) }
      if let error = emit(batch) { return error }
      next = end
    }
    // The rest of the rows, for the reducer.
    while rowsRead < sourceHeight {
      if let error = readMore(keepFrom: rowsRead) { return error }
    }
    return pyramid.pendingCount == 0 ? nil : "the pyramid has \(pyramid.pendingCount) unfinished tiles (a plan error)"
  }
}

extension RGBAImage {
  /// The image halved, sizes rounded up (the last column or row then averages with itself):
  /// a 2×2 box, rounded to nearest, as each coarser level of a pyramid is made.
  public func halved() -> RGBAImage {
    let w = (width + 1) / 2, h = (height + 1) / 2
    var out = RGBAImage(width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        let x0 = 2 * x, y0 = 2 * y, x1 = min(2 * x + 1, width - 1), y1 = min(2 * y + 1, height - 1)
        let a = self[x0, y0], b = self[x1, y0], c = self[x0, y1], d = self[x1, y1]
        var value: UInt32 = 0
        // Per channel, without an array per pixel: this runs for every texel of every level.
        for shift in stride(from: UInt32(0), through: 24, by: 8) {
          let sum = ((a >> shift) & 0xFF) + ((b >> shift) & 0xFF) + ((c >> shift) & 0xFF) + ((d >> shift) & 0xFF)
          value |= ((sum + 2) / 4) << shift
        }
        out[x, y] = value
      }
    }
    return out
  }
}
