import CoreMath

/// One tile of a multiresolution cube pyramid (``MultiresLayout``): level (1 coarsest),
/// face (Pannellum's order: front, right, back, left, up, down), column and row.
public struct TileID: Hashable, Sendable, Comparable {
  /// Pyramid level: 1 is the coarsest, ``MultiresLayout/maxLevel`` the finest.
  public var level: Int
  /// Cube face, 0…5 in Pannellum's order (front, right, back, left, up, down).
  public var face: Int
  /// Tile column from the face's left edge.
  public var x: Int
  /// Tile row from the face's top edge.
  public var y: Int

  /// The tile at `level`, `face`, column `x`, row `y`; not checked against a layout.
  public init(level: Int, face: Int, x: Int, y: Int) {
    self.level = level
    self.face = face
    self.x = x
    self.y = y
  }

  /// The tile one level coarser that covers this one (the face halves; tiles keep their size).
  public var parent: TileID? { level > 1 ? TileID(level: level - 1, face: face, x: x / 2, y: y / 2) : nil }

  /// Orders by level, face, row, then column: coarse tiles first, each face row by row.
  public static func < (a: TileID, b: TileID) -> Bool {
    (a.level, a.face, a.y, a.x) < (b.level, b.face, b.y, b.x)
  }
}

/// The cube's faces as directions (x right, y up, z forward at yaw 0, as the renderer's
/// camera frame): each face's centre and the directions of its image's right and down.
/// Front looks at yaw 0, right at yaw 90°; the up face's bottom edge meets the front's top,
/// the down face's top edge meets the front's bottom.
public enum CubeFace {
  typealias V = (x: Double, y: Double, z: Double)
  /// (centre, right, down) per face.
  static let frames: [(V, V, V)] = [
    ((0, 0, 1), (1, 0, 0), (0, -1, 0)),  // front
    ((1, 0, 0), (0, 0, -1), (0, -1, 0)),  // right
    ((0, 0, -1), (-1, 0, 0), (0, -1, 0)),  // back
    ((-1, 0, 0), (0, 0, 1), (0, -1, 0)),  // left
    ((0, 1, 0), (1, 0, 0), (0, 0, 1)),  // up
    ((0, -1, 0), (1, 0, 0), (0, 0, -1)),  // down
  ]

  /// The face a direction meets and where on it: `u` and `v` from 0 (left, top) to 1.
  public static func locate(x: Double, y: Double, z: Double) -> (face: Int, u: Double, v: Double) {
    let ax = abs(x), ay = abs(y), az = abs(z)
    let face: Int
    if ax >= ay && ax >= az {
      face = x >= 0 ? 1 : 3
    } else if ay >= az {
      face = y >= 0 ? 4 : 5
    } else {
      face = z >= 0 ? 0 : 2
    }
    let (c, r, d) = frames[face]
    let along = x * c.x + y * c.y + z * c.z
    guard along > 0 else { return (face, 0.5, 0.5) }  // the zero vector
    let s = (x * r.x + y * r.y + z * r.z) / along, t = (x * d.x + y * d.y + z * d.z) / along
    return (face, min(max((s + 1) / 2, 0), 1), min(max((t + 1) / 2, 0), 1))
  }

  /// The direction (not normalised) through point (`u`, `v`) of `face`.
  public static func direction(face: Int, u: Double, v: Double) -> (x: Double, y: Double, z: Double) {
    let (c, r, d) = frames[min(max(face, 0), 5)]
    let s = 2 * u - 1, t = 2 * v - 1
    return (c.x + s * r.x + t * d.x, c.y + s * r.y + t * d.y, c.z + s * r.z + t * d.z)
  }
}

/// Which tiles of a multiresolution panorama a view needs, in which order, what to draw
/// meanwhile, and what to drop: the rules every host shares (the web viewer, the app, the
/// CLI), so the host only fetches bytes and decodes them.
///
/// - The coarsest level's tiles come first and stay: whatever else is missing, something
///   covers every direction, so a view never has a hole.
/// - Then the tiles the view sees at its level (``level(view:hfov:lens:width:height:)``), the
///   one at the view's centre first. How fine that level is depends on the host
///   (``Sharpness``): an interactive viewer matches the view's centre, an offline render the
///   view's finest pixels anywhere.
/// - Meanwhile each of those is drawn from the finest tile loaded that covers it (its parent,
///   grandparent, … down to the coarsest level), coarse under fine, over the whole coarsest
///   level.
/// - A tile that fails is tried again `retries` times, then left to its coarser cover.
/// - Beyond `budget` resident tiles, the least recently needed go, never the coarsest level's
///   and never one the view needs now.
public struct TileSchedule: Sendable {
  /// The pyramid the tiles belong to.
  public let layout: MultiresLayout
  /// Resident tiles kept at most (the coarsest level's are never dropped).
  public var budget: Int
  /// Times a failed tile is tried again before it is left at its coarser cover.
  public var retries = 2
  /// Tile fetches in flight at most.
  public var maxInFlight = 6
  /// How fine a level the view draws.
  public var sharpness: Sharpness

  /// How fine a level a view draws, against the view's pixels.
  ///
  /// A wide rectilinear view puts more pixels into each degree towards its edges and corners
  /// than at its centre, and a face's texels are coarsest at its middle, so the level that
  /// matches the corners can be two or three levels finer than the one that matches the
  /// centre: over ten times the tiles. Pannellum picks by the centre (one level finer than
  /// ``centre`` at most, by a factor of √2 in face size) and lets the edges minify.
  public enum Sharpness: Sendable, Equatable {
    /// The coarsest level whose face has as many texels across its 90° as the view puts
    /// there at its centre (``MultiresLayout/level(viewWidth:hfov:)``): what an interactive
    /// viewer fetches, a few tiles per view whatever its shape. Edges and corners of a wide
    /// view read that level minified a little.
    case centre
    /// The coarsest level whose texels are at least as fine as the view's pixels at every
    /// part of the view, edges and corners included: what an offline render (a still, a
    /// video frame) reads, where the tiles are local files and only the picture counts.
    case everyPixel
  }

  /// Loaded tiles with the plan number that last needed them.
  public private(set) var resident: [TileID: Int] = [:]
  /// Tiles asked for and not yet reported loaded or failed.
  public private(set) var inFlight: Set<TileID> = []
  /// Failed attempts so far, by tile (cleared when the tile loads).
  public private(set) var failures: [TileID: Int] = [:]
  var plans = 0

  /// A schedule with nothing loaded, keeping at most `budget` tiles resident, drawing views
  /// at the level `sharpness` picks (``Sharpness/centre`` for an interactive host).
  public init(layout: MultiresLayout, budget: Int = 512, sharpness: Sharpness = .centre) {
    self.layout = layout
    self.budget = budget
    self.sharpness = sharpness
  }

  /// What to do for one frame.
  public struct Plan: Equatable, Sendable {
    /// Tiles to fetch now, in order (marked in flight).
    public var fetch: [TileID]
    /// Tiles to draw, coarse first, so finer ones cover them.
    public var draw: [TileID]
    /// Tiles to drop (their textures freed).
    public var evict: [TileID]
    /// The level the view wants.
    public var level: Int
  }

  /// The coarsest level's tiles: fetched first, never dropped.
  public var baseTiles: [TileID] { tiles(level: 1) }

  func tiles(level: Int) -> [TileID] {
    let n = layout.tilesPerSide(level: level)
    var out: [TileID] = []
    for face in 0..<6 {
      for y in 0..<n { for x in 0..<n { out.append(TileID(level: level, face: face, x: x, y: y)) } }
    }
    return out
  }

  /// The tile at (`u`, `v`) of `face` at `level`.
  public func tile(level: Int, face: Int, u: Double, v: Double) -> TileID {
    let size = Double(layout.faceSize(level: level)), n = layout.tilesPerSide(level: level)
    let px = min(Int(u * size), Int(size) - 1), py = min(Int(v * size), Int(size) - 1)
    return TileID(
      level: level, face: face, x: min(px / layout.tileResolution, n - 1), y: min(py / layout.tileResolution, n - 1))
  }

  /// The tiles at `level` a `width`×`height` view at `view` (`hfov` radians across, `lens`)
  /// sees, nearest its centre first.
  ///
  /// Rectilinear views (the web viewer's, the app's): exactly the tiles whose square meets
  /// the view's pyramid of rays, however thin the part that shows (`footprint`, internal), so every
  /// tile a pixel samples is listed, and a tile that touches the view only along an edge or a
  /// corner too. Other lenses map the screen's edges to curves: their tiles are found by
  /// casting rays at most a quarter tile apart on the screen and 4 px apart along its edges,
  /// which can miss a sliver (the coarsest level, drawn under everything, shows there).
  public func visible(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, width: Int, height: Int, level: Int
  ) -> [TileID] {
    guard width > 0, height > 0 else { return [] }
    if lens == .rectilinear { return footprint(view: view, hfov: hfov, width: width, height: height, level: level) }
    let focal = lens.focalLength(hfov: hfov, width: Double(width))
    let step = max(4, min(64, Double(layout.tileResolution) / 4))
    let columns = Int((Double(width) / step).rounded(.up)), rows = Int((Double(height) / step).rounded(.up))
    let (sy, cy) = Elementary.sinCos(view.yaw), (sp, cp) = Elementary.sinCos(view.pitch)
    var seen: [TileID: Double] = [:]
    func cast(_ sx: Double, _ sv: Double) {
      let r = lens.ray(x: sx / focal, y: sv / focal)
      // Pitch about x (looking up is +y), then yaw about y (turning right is +x).
      let y1 = r.y * cp + r.z * sp, z1 = r.z * cp - r.y * sp
      let x2 = r.x * cy + z1 * sy, z2 = z1 * cy - r.x * sy
      let (face, u, v) = CubeFace.locate(x: x2, y: y1, z: z2)
      let t = tile(level: level, face: face, u: u, v: v)
      let distance = sx * sx + sv * sv
      if distance < seen[t] ?? .infinity { seen[t] = distance }
    }
    let w = Double(width), h = Double(height)
    for j in 0...rows {
      for i in 0...columns { cast((Double(i) / Double(columns) - 0.5) * w, (0.5 - Double(j) / Double(rows)) * h) }
    }
    // Along the edges every 4 px: a tile can enter the view as a sliver thinner than the
    // grid's step (inside, a tile at the view's level is larger than the step).
    let across = Int((w / 4).rounded(.up)), down = Int((h / 4).rounded(.up))
    for i in 0...across {
      let sx = (Double(i) / Double(across) - 0.5) * w
      cast(sx, h / 2)
      cast(sx, -h / 2)
    }
    for j in 0...down {
      let sv = (0.5 - Double(j) / Double(down)) * h
      cast(-w / 2, sv)
      cast(w / 2, sv)
    }
    return seen.sorted { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }.map { $0.key }
  }

  /// The level a `width`×`height` view at `view` (`hfov` radians across, `lens`) draws, as
  /// ``sharpness`` picks it.
  ///
  /// - Complexity: O(1) for ``Sharpness/centre``; 289 rays cast for ``Sharpness/everyPixel``.
  public func level(view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, width: Int, height: Int) -> Int {
    switch sharpness {
    case .centre: return layout.level(viewWidth: lens.centreWidth(hfov: hfov, width: Double(width)), hfov: hfov)
    case .everyPixel: return finestNeededLevel(view: view, hfov: hfov, lens: lens, width: width, height: height)
    }
  }

  /// The coarsest level whose texels are at least as fine as the view's pixels at every part
  /// of the view, along each pixel's shorter step (the step the renderer picks its mip level
  /// by, so it reads coarser levels where the view minifies). Matching the view's centre only
  /// is a level too coarse for a wide view: a rectilinear lens packs more pixels into each
  /// degree towards its edges, and a face's texels are coarsest at its middle.
  func finestNeededLevel(view: ViewAngles, hfov: Double, lens: Lens, width: Int, height: Int) -> Int {
    guard width > 0, height > 0 else { return 1 }
    let focal = lens.focalLength(hfov: hfov, width: Double(width))
    let (sy, cy) = Elementary.sinCos(view.yaw), (sp, cp) = Elementary.sinCos(view.pitch)
    func ray(_ sx: Double, _ sv: Double) -> CubeRendering.Ray {
      let r = lens.ray(x: sx / focal, y: sv / focal)
      let y1 = r.y * cp + r.z * sp, z1 = r.z * cp - r.y * sp
      return (r.x * cy + z1 * sy, y1, z1 * cy - r.x * sy)
    }
    func distance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
      ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
    }
    // A 17×17 grid of pixels, the view's edges included: the finest need is at an edge or
    // a corner for every lens, and changes slowly between.
    let samples = 16
    let w = Double(width), h = Double(height)
    var needed = 0.0  // face size, in texels, at which one texel spans a pixel's shorter step
    for j in 0...samples {
      for i in 0...samples {
        let sx = (Double(i) / Double(samples) - 0.5) * (w - 1), sv = (0.5 - Double(j) / Double(samples)) * (h - 1)
        let centre = ray(sx, sv)
        let face = CubeRendering.faceOf(centre)
        guard let p = CubeRendering.onFace(centre, face, 1), let across = CubeRendering.onFace(ray(sx + 1, sv), face, 1),
          let down = CubeRendering.onFace(ray(sx, sv - 1), face, 1)
        else { continue }
        let step = min(distance(p, across), distance(p, down))
        if step.isFinite, step > 0 { needed = max(needed, 1 / step) }
      }
    }
    for level in 1...layout.maxLevel where Double(layout.faceSize(level: level)) >= needed { return level }
    return layout.maxLevel
  }

  /// The tiles at `level` whose square on the cube meets a rectilinear view's pyramid of
  /// rays, nearest the view's centre first. The pyramid is four half-spaces (x ≤ W·z,
  /// −x ≤ W·z, y ≤ H·z, −y ≤ H·z in the camera's frame, W and H the tangents of half the
  /// fields); on a face's plane each is a half-plane, so a block of tiles is seen exactly when
  /// clipping its rectangle by the four leaves something. Blocks are split in four from the
  /// whole face down, and unseen ones dropped whole, so the work follows the tiles seen, not
  /// the pyramid's size. A ray sampling a pixel lies in the pyramid, so its tile is found.
  func footprint(view: ViewAngles, hfov: Double, width: Int, height: Int, level: Int) -> [TileID] {
    typealias V = (x: Double, y: Double, z: Double)
    let focal = Lens.rectilinear.focalLength(hfov: hfov, width: Double(width))
    let halfW = Double(width) / 2 / focal, halfH = Double(height) / 2 / focal
    let (sy, cy) = Elementary.sinCos(view.yaw), (sp, cp) = Elementary.sinCos(view.pitch)
    // Camera to world, as the renderers turn their rays: pitch about x, then yaw about y.
    func world(_ r: V) -> V {
      let y1 = r.y * cp + r.z * sp, z1 = r.z * cp - r.y * sp
      return (r.x * cy + z1 * sy, y1, z1 * cy - r.x * sy)
    }
    func camera(_ p: V) -> V {
      let x = p.x * cy - p.z * sy, z1 = p.x * sy + p.z * cy
      return (x, p.y * cp - z1 * sp, p.y * sp + z1 * cp)
    }
    func dot(_ a: V, _ b: V) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
    // Inward normals of the pyramid's four sides (left, right, bottom, top), turned to world.
    let sides = [world((1, 0, halfW)), world((-1, 0, halfW)), world((0, 1, halfH)), world((0, -1, halfH))]
    let size = Double(layout.faceSize(level: level)), n = layout.tilesPerSide(level: level)
    let tileSide = Double(layout.tileResolution)
    var span = 1
    while span < n { span *= 2 }
    var seen: [(tile: TileID, distance: Double)] = []
    for face in 0..<6 {
      let (c, r, d) = CubeFace.frames[face]
      // Side k is a + b·s + e·t ≥ 0 at face point (s, t), s and t in −1…1 (centre + s·right + t·down).
      let planes = sides.map { (a: dot($0, c), b: dot($0, r), e: dot($0, d)) }
      var blocks = [(x: 0, y: 0, span: span)]
      while let block = blocks.popLast() {
        guard block.x < n, block.y < n else { continue }
        let s0 = 2 * Double(block.x) * tileSide / size - 1, t0 = 2 * Double(block.y) * tileSide / size - 1
        let s1 = min(1, 2 * Double(block.x + block.span) * tileSide / size - 1)
        let t1 = min(1, 2 * Double(block.y + block.span) * tileSide / size - 1)
        var polygon = [(s: s0, t: t0), (s: s1, t: t0), (s: s1, t: t1), (s: s0, t: t1)]
        for plane in planes where !polygon.isEmpty {
          // Sutherland–Hodgman against one half-plane; a hair of slack keeps a tile whose
          // edge lies on the view's edge (rounding must not drop it).
          func value(_ p: (s: Double, t: Double)) -> Double { plane.a + plane.b * p.s + plane.e * p.t + 1e-12 }
          var kept: [(s: Double, t: Double)] = []
          for (i, p) in polygon.enumerated() {
            let q = polygon[(i + 1) % polygon.count]
            let vp = value(p), vq = value(q)
            if vp >= 0 { kept.append(p) }
            if (vp >= 0) != (vq >= 0) {
              let f = vp / (vp - vq)
              kept.append((s: p.s + f * (q.s - p.s), t: p.t + f * (q.t - p.t)))
            }
          }
          polygon = kept
        }
        if polygon.isEmpty { continue }
        if block.span > 1 {
          let half = block.span / 2
          for (dx, dy) in [(0, 0), (half, 0), (0, half), (half, half)] {
            blocks.append((x: block.x + dx, y: block.y + dy, span: half))
          }
          continue
        }
        // The seen part on the screen (focal lengths, convex): how far its nearest point
        // is from the centre, 0 when it holds the centre.
        let points = polygon.map { p -> (x: Double, y: Double) in
          let q = camera((c.x + p.s * r.x + p.t * d.x, c.y + p.s * r.y + p.t * d.y, c.z + p.s * r.z + p.t * d.z))
          let z = max(q.z, 1e-12)
          return (q.x / z, q.y / z)
        }
        var nearest = Double.infinity, sign = 0.0, holdsCentre = points.count >= 3
        for (i, a) in points.enumerated() {
          let b = points[(i + 1) % points.count]
          let ex = b.x - a.x, ey = b.y - a.y, length = ex * ex + ey * ey
          let f = length > 0 ? min(max(-(a.x * ex + a.y * ey) / length, 0), 1) : 0
          let px = a.x + f * ex, py = a.y + f * ey
          nearest = min(nearest, px * px + py * py)
          let cross = a.x * ey - a.y * ex
          if cross != 0 {
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { holdsCentre = false }
          }
        }
        let distance = holdsCentre ? 0 : nearest * focal * focal
        seen.append((tile: TileID(level: level, face: face, x: block.x, y: block.y), distance: distance))
      }
    }
    return seen.sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.tile < $1.tile) }.map { $0.tile }
  }

  /// The finest loaded tile covering `tile` (itself, a parent, …), or `nil`.
  public func cover(_ tile: TileID) -> TileID? {
    var t: TileID? = tile
    while let current = t {
      if resident[current] != nil { return current }
      t = current.parent
    }
    return nil
  }

  /// Whether a failed tile has used up its tries.
  public func gaveUp(_ tile: TileID) -> Bool { (failures[tile] ?? 0) > retries }

  /// The plan for a frame of this view: fetch, draw, evict.
  public mutating func plan(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, width: Int, height: Int
  ) -> Plan {
    plans += 1
    let level = level(view: view, hfov: hfov, lens: lens, width: width, height: height)
    let seen = visible(view: view, hfov: hfov, lens: lens, width: width, height: height, level: level)
    var fetch: [TileID] = []
    for t in baseTiles + seen where fetch.count + inFlight.count < maxInFlight {
      if resident[t] == nil && !inFlight.contains(t) && !gaveUp(t) && !fetch.contains(t) { fetch.append(t) }
    }
    inFlight.formUnion(fetch)
    var drawn: Set<TileID> = []
    for t in seen {
      // Each seen tile is drawn from what covers it; those covers are the ones in use now.
      if let c = cover(t) { drawn.insert(c) }
    }
    for t in drawn { resident[t] = plans }
    // The whole coarsest level underneath (six quads at most): whatever a ray missed, the
    // view has no hole.
    for t in baseTiles where resident[t] != nil {
      resident[t] = plans
      drawn.insert(t)
    }
    let draw = drawn.sorted()
    var evict: [TileID] = []
    if resident.count > budget {
      let keep = Set(seen).union(drawn)
      let candidates = resident.filter { $0.key.level > 1 && !keep.contains($0.key) }
        .sorted { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }
      for (t, _) in candidates.prefix(resident.count - budget) { evict.append(t) }
      for t in evict { resident[t] = nil }
    }
    return Plan(fetch: fetch, draw: draw, evict: evict, level: level)
  }

  /// A fetched tile is decoded and ready to draw.
  public mutating func loaded(_ tile: TileID) {
    inFlight.remove(tile)
    failures[tile] = nil
    resident[tile] = plans
  }

  /// A fetch failed; true when it will be tried again.
  @discardableResult public mutating func failed(_ tile: TileID) -> Bool {
    inFlight.remove(tile)
    failures[tile, default: 0] += 1
    return !gaveUp(tile)
  }
}

extension Lens {
  /// Focal length in pixels for a `width`-pixel view `hfov` radians across.
  func focalLength(hfov: Double, width: Double) -> Double {
    focalLength(halfWidth: width / 2, fieldOfView: min(max(hfov, 1e-6), maximumFieldOfView))
  }

  /// The width a rectilinear view of `hfov` would need to show the centre as sharply as this
  /// lens's view does: the centre rule is written for rectilinear views.
  func centreWidth(hfov: Double, width: Double) -> Double {
    let (s, c) = Elementary.sinCos(min(max(hfov / 2, 1e-6), 1.5))
    return 2 * focalLength(hfov: hfov, width: width) * s / c
  }
}
