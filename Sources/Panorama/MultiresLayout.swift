import CoreMath

/// The tile pyramid of a multiresolution cube panorama, as Pannellum lays one out (its
/// `multiRes` config: `cubeResolution`, `tileResolution`, `maxLevel`, `path`): level 1 is the
/// coarsest, each level doubles the face size up to `cubeResolution` at `maxLevel`, and every
/// face of a level is cut into `tileResolution`-pixel tiles (the last row and column
/// smaller). Pure arithmetic, shared by the tiler and the viewers that stream the tiles.
public struct MultiresLayout: Hashable, Sendable {
  /// Face size in pixels at the finest level.
  public let cubeResolution: Int
  /// Tile size in pixels (the last tile of a row or column may be smaller).
  public let tileResolution: Int
  /// The finest level; level 1 is the coarsest.
  public let maxLevel: Int

  /// The faces in Pannellum's order and letters: front, right, back, left, up, down.
  public static let faces = ["f", "r", "b", "l", "u", "d"]

  /// `nil` when the numbers cannot make a pyramid: not positive, more levels than halvings
  /// of the face leave a pixel, or a pyramid of more than a million tiles a face.
  public init?(cubeResolution: Int, tileResolution: Int, maxLevel: Int) {
    guard cubeResolution > 0, tileResolution > 0, maxLevel > 0, maxLevel <= 30,
      cubeResolution >> (maxLevel - 1) >= 1, cubeResolution / tileResolution < 1000  // no sum: it could overflow
    else { return nil }
    self.cubeResolution = cubeResolution
    self.tileResolution = tileResolution
    self.maxLevel = maxLevel
  }

  /// The levels a pyramid of `cubeResolution` px faces cut into `tileResolution` px tiles
  /// has: halvings (rounded up) until a face fits one tile, plus one; generate.py's count.
  public static func levels(cubeResolution: Int, tileResolution: Int) -> Int {
    var levels = 1, size = max(cubeResolution, 1)
    while size > max(tileResolution, 1) {
      size = (size + 1) / 2
      levels += 1
    }
    return levels
  }

  /// A face's size in pixels at `level` (1…`maxLevel`): half the next finer level's, rounded
  /// up, as the tiler halves it.
  public func faceSize(level: Int) -> Int {
    var size = cubeResolution
    for _ in 0..<max(0, maxLevel - min(max(level, 1), maxLevel)) { size = (size + 1) / 2 }
    return size
  }

  /// Tiles along a face's side at `level`.
  public func tilesPerSide(level: Int) -> Int { (faceSize(level: level) + tileResolution - 1) / tileResolution }

  /// Tiles of all six faces at `level`.
  public func tileCount(level: Int) -> Int { 6 * tilesPerSide(level: level) * tilesPerSide(level: level) }

  /// The pixel size of tile (`x`, `y`) at `level`: `tileResolution`, or less in the last
  /// column and row.
  public func tileSize(level: Int, x: Int, y: Int) -> (width: Int, height: Int) {
    let face = faceSize(level: level)
    return (min(tileResolution, face - x * tileResolution), min(tileResolution, face - y * tileResolution))
  }

  /// The coarsest level sharp enough for a `viewWidth`-pixel view `hfov` radians wide: one
  /// whose face has at least as many pixels across its 90° as the view puts there at its
  /// centre (`viewWidth / tan(hfov / 2)`), or `maxLevel` when none is.
  public func level(viewWidth: Double, hfov: Double) -> Int {
    let (s, c) = Elementary.sinCos(min(max(hfov / 2, 1e-6), 1.5))
    let needed = viewWidth * c / s
    for level in 1...maxLevel where Double(faceSize(level: level)) >= needed { return level }
    return maxLevel
  }

  /// A tile's address from Pannellum's `path` template: `%l` the level, `%s` the face letter,
  /// `%x` and `%y` the tile's column and row, `%%` a percent sign; other text as it is.
  public static func path(_ template: String, level: Int, face: Int, x: Int, y: Int) -> String {
    var out = ""
    var escape = false
    for ch in template {
      if escape {
        switch ch {
        case "l": out += String(level)
        case "s": out += faces[min(max(face, 0), 5)]
        case "x": out += String(x)
        case "y": out += String(y)
        case "%": out += "%"
        default: out += "%" + String(ch)
        }
        escape = false
      } else if ch == "%" {
        escape = true
      } else {
        out.append(ch)
      }
    }
    if escape { out += "%" }
    return out
  }
}
