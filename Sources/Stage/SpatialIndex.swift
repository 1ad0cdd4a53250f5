/// A uniform grid over slot frames, so that finding the target under a dragged item costs
/// about the number of slots near it, not the number on the board.
///
/// Why a grid and not an R-tree: boards are grids or rows of similar slots, and a grid
/// query is a few array reads with no pointer chasing (the 1 M-slot benchmark in `bench/`
/// shows it). Slots far larger than the cell go to a short list scanned linearly, so a few
/// big slots cannot blow the grid up. The cell count is capped near 4 × slots, so a sparse
/// board cannot make it allocate more than a few arrays of that size.
public struct SpatialIndex: Sendable {
  @usableFromInline var cell: Double = 1
  @usableFromInline var originX = 0.0
  @usableFromInline var originY = 0.0
  @usableFromInline var columns = 1
  @usableFromInline var rows = 1
  /// Slots by cell their frame overlaps, in CSR form: cell c holds `frameEntries[frameStart[c]..<frameStart[c+1]]`.
  @usableFromInline var frameStart: [Int32] = [0, 0]
  @usableFromInline var frameEntries: [Int32] = []
  /// Slots by the one cell holding their centre.
  @usableFromInline var centerStart: [Int32] = [0, 0]
  @usableFromInline var centerEntries: [Int32] = []
  @usableFromInline var oversized: [Int32] = []
  @usableFromInline var frames: [StageRect] = []

  /// Slots spanning more than this many cells per axis go to the linear list.
  static let maxSpan = 4

  /// An empty index: queries find nothing until it is built over slot frames.
  public init() {}

  /// Builds the index over `frames` (one per slot, by slot index).
  /// - Complexity: O(n) time and memory.
  public init(frames: [StageRect]) {
    self.frames = frames
    guard !frames.isEmpty else { return }
    var minX = Double.infinity, minY = Double.infinity
    var maxX = -Double.infinity, maxY = -Double.infinity
    var sumSide = 0.0
    for f in frames {
      minX = min(minX, f.minX)
      minY = min(minY, f.minY)
      maxX = max(maxX, f.maxX)
      maxY = max(maxY, f.maxY)
      sumSide += (f.size.width + f.size.height) / 2
    }
    var width = max(maxX - minX, 1), height = max(maxY - minY, 1)
    var cell = max(sumSide / Double(frames.count), 1)
    if !(width.isFinite && height.isFinite && cell.isFinite) {
      // Coordinates past Double's range: one cell, scanned linearly, rather than a trap.
      (minX, minY, width, height, cell) = (0, 0, 1, 1, 1)
    }
    let maxCells = Double(4 * frames.count + 16)
    if (width / cell) * (height / cell) > maxCells {
      cell = (width * height / maxCells).squareRoot()
    }
    // A long thin board (one axis shorter than a cell) must respect the cap on its own.
    cell = max(cell, width / maxCells, height / maxCells)
    self.cell = cell
    originX = minX
    originY = minY
    columns = max(1, Int((width / cell).rounded(.up)))
    rows = max(1, Int((height / cell).rounded(.up)))
    let cellCount = columns * rows

    // Counting sort into CSR arrays: one pass to count, one to place.
    var frameCount = [Int32](repeating: 0, count: cellCount + 1)
    var centerCount = [Int32](repeating: 0, count: cellCount + 1)
    var big: [Int32] = []
    for (i, f) in frames.enumerated() {
      let (x0, y0, x1, y1) = cellRange(f)
      if x1 - x0 >= Self.maxSpan || y1 - y0 >= Self.maxSpan {
        big.append(Int32(i))
      } else {
        for y in y0...y1 { for x in x0...x1 { frameCount[y * columns + x + 1] += 1 } }
      }
      centerCount[cellOf(f.center) + 1] += 1
    }
    oversized = big
    for c in 0..<cellCount {
      frameCount[c + 1] += frameCount[c]
      centerCount[c + 1] += centerCount[c]
    }
    frameStart = frameCount
    centerStart = centerCount
    frameEntries = [Int32](repeating: 0, count: Int(frameCount[cellCount]))
    centerEntries = [Int32](repeating: 0, count: Int(centerCount[cellCount]))
    var frameFill = frameCount
    var centerFill = centerCount
    for (i, f) in frames.enumerated() {
      let (x0, y0, x1, y1) = cellRange(f)
      if !(x1 - x0 >= Self.maxSpan || y1 - y0 >= Self.maxSpan) {
        for y in y0...y1 {
          for x in x0...x1 {
            let c = y * columns + x
            frameEntries[Int(frameFill[c])] = Int32(i)
            frameFill[c] += 1
          }
        }
      }
      let c = cellOf(f.center)
      centerEntries[Int(centerFill[c])] = Int32(i)
      centerFill[c] += 1
    }
  }

  @inlinable func column(_ x: Double) -> Int {
    let c = ((x - originX) / cell).rounded(.down)
    // Written so that NaN lands in cell 0 instead of trapping in Int(_:).
    return c >= 0 ? (c < Double(columns) ? Int(c) : columns - 1) : 0
  }

  @inlinable func row(_ y: Double) -> Int {
    let r = ((y - originY) / cell).rounded(.down)
    return r >= 0 ? (r < Double(rows) ? Int(r) : rows - 1) : 0
  }

  @inlinable func cellOf(_ p: StagePoint) -> Int { row(p.y) * columns + column(p.x) }

  @inlinable func cellRange(_ r: StageRect) -> (Int, Int, Int, Int) {
    (column(r.minX), row(r.minY), column(r.maxX), row(r.maxY))
  }

  /// The slot whose centre is nearest to `point` and closer than `radius`, among those
  /// `accept` lets through. Ties go to the higher slot index, as the seed's loop does.
  /// - Complexity: O(slots within `radius`) on boards of similar-sized slots.
  @inlinable public func nearestCenter(
    to point: StagePoint, within radius: Double, accept: (Int) -> Bool
  ) -> Int? {
    guard !frames.isEmpty, radius > 0 else { return nil }
    var best = -1
    var bestD2 = radius * radius
    let cx = column(point.x), cy = row(point.y)
    let maxRing = max(columns, rows)
    var k = 0
    while k <= maxRing {
      // Every cell in ring k is at least (k − 1) cells away along some axis.
      let bound = Double(k - 1) * cell
      if bound > 0 && bound * bound > bestD2 { break }
      let y0 = cy - k, y1 = cy + k, x0 = cx - k, x1 = cx + k
      func visit(_ x: Int, _ y: Int) {
        let c = y * columns + x
        var e = Int(centerStart[c])
        let end = Int(centerStart[c + 1])
        while e < end {
          let s = Int(centerEntries[e])
          e += 1
          let d2 = frames[s].center.distanceSquared(to: point)
          if (d2 < bestD2 || (d2 == bestD2 && best >= 0 && s > best)) && accept(s) {
            best = s
            bestD2 = d2
          }
        }
      }
      for y in max(y0, 0)...min(y1, rows - 1) {
        if y == y0 || y == y1 {
          // Top and bottom rows of the ring: every cell is new.
          for x in max(x0, 0)...min(x1, columns - 1) { visit(x, y) }
        } else {
          // Rows in between: only the two side cells are new.
          if x0 >= 0 { visit(x0, y) }
          if x1 < columns && x1 != x0 { visit(x1, y) }
        }
      }
      k += 1
    }
    return best >= 0 ? best : nil
  }

  /// Calls `body` once for every slot whose frame shares positive area with `rect`.
  /// - Complexity: O(cells under `rect` + slots there + oversized slots).
  @inlinable public func forEachOverlapping(_ rect: StageRect, _ body: (Int) -> Void) {
    guard !frames.isEmpty else { return }
    let (qx0, qy0, qx1, qy1) = cellRange(rect)
    for y in qy0...qy1 {
      for x in qx0...qx1 {
        let c = y * columns + x
        var e = Int(frameStart[c])
        let end = Int(frameStart[c + 1])
        while e < end {
          let s = Int(frameEntries[e])
          e += 1
          let f = frames[s]
          // Report each slot once: in the first query cell its frame covers.
          if max(column(f.minX), qx0) != x || max(row(f.minY), qy0) != y { continue }
          if f.intersects(rect) { body(s) }
        }
      }
    }
    for s in oversized where frames[Int(s)].intersects(rect) { body(Int(s)) }
  }

  /// Calls `body` for every slot whose frame contains `point`.
  @inlinable public func forEachContaining(_ point: StagePoint, _ body: (Int) -> Void) {
    guard !frames.isEmpty else { return }
    let c = cellOf(point)
    var e = Int(frameStart[c])
    let end = Int(frameStart[c + 1])
    while e < end {
      let s = Int(frameEntries[e])
      if frames[s].contains(point) { body(s) }
      e += 1
    }
    for s in oversized where frames[Int(s)].contains(point) { body(Int(s)) }
  }
}
