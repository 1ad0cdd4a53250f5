import CoreMath

/// A multiresolution cube read from the tiles a host loaded: the view drawn at one `level`
/// from the tiles it has, each missing texel taken from the finest loaded tile that covers
/// it (a parent, a grandparent, …), so a missing or broken tile shows coarser, never a hole.
/// Bilinear across tile and face edges, as ``CubeMap`` is (which it equals when every tile
/// of the level is in).
public struct TiledCube: Sendable {
  /// The pyramid the tiles belong to.
  public let layout: MultiresLayout
  /// The level drawn (1…`layout.maxLevel`).
  public let level: Int
  /// The loaded tiles, any level.
  public var tiles: [TileID: RGBAImage] = [:]

  /// A cube with no tiles yet, drawn at `level`, clamped to 1…`layout.maxLevel`.
  public init(layout: MultiresLayout, level: Int) {
    self.layout = layout
    self.level = min(max(level, 1), layout.maxLevel)
  }

  /// Every tile of `layout` cut from `cube`'s faces, each level's faces halved from the
  /// finest as `pano tiles` halves them, drawn at the finest level: the pyramid a host holds
  /// once everything has loaded. `keeping` leaves tiles out (asked in level, face, row, column
  /// order), for a partly loaded pyramid.
  public static func cut(
    from cube: CubeMap, layout: MultiresLayout, keeping keep: (TileID) -> Bool = { _ in true }
  ) -> TiledCube {
    var tiled = TiledCube(layout: layout, level: layout.maxLevel)
    let ts = layout.tileResolution
    for level in 1...layout.maxLevel {
      var faces = cube.faces
      for _ in level..<layout.maxLevel { faces = faces.map { $0.halved() } }
      let n = layout.tilesPerSide(level: level)
      for f in 0..<6 {
        for y in 0..<n {
          for x in 0..<n {
            let id = TileID(level: level, face: f, x: x, y: y)
            guard keep(id) else { continue }
            let (w, h) = layout.tileSize(level: level, x: x, y: y)
            var tile = RGBAImage(width: w, height: h)
            for j in 0..<h { for i in 0..<w { tile[i, j] = faces[f][x * ts + i, y * ts + j] } }
            tiled.tiles[id] = tile
          }
        }
      }
    }
    return tiled
  }

  /// The texel (`tx`, `ty`) of `face` at `level`, from the finest loaded tile covering it;
  /// black when none does.
  func texel(_ face: Int, _ tx: Int, _ ty: Int) -> UInt32 {
    var size = layout.faceSize(level: level)
    var x = tx, y = ty, f = face
    if x < 0 || y < 0 || x >= size || y >= size {
      // Past an edge: the neighbouring face's texel there.
      let s = Double(size)
      let d = CubeFace.direction(face: face, u: (Double(tx) + 0.5) / s, v: (Double(ty) + 0.5) / s)
      let p = CubeFace.locate(x: d.x, y: d.y, z: d.z)
      f = p.face
      x = min(max(Int(p.u * s), 0), size - 1)
      y = min(max(Int(p.v * s), 0), size - 1)
    }
    let ts = layout.tileResolution
    var l = level
    while l >= 1 {
      let id = TileID(level: l, face: f, x: x / ts, y: y / ts)
      if let tile = tiles[id] {
        let px = min(x - id.x * ts, tile.width - 1), py = min(y - id.y * ts, tile.height - 1)
        return tile.pixels[py * tile.width + px]
      }
      // One level coarser: the face halves (sizes rounded up), and so do the coordinates.
      l -= 1
      let coarser = layout.faceSize(level: l)
      x = min(x / 2, coarser - 1)
      y = min(y / 2, coarser - 1)
      size = coarser
    }
    return RGBAImage.pack(r: 0, g: 0, b: 0)
  }

  /// The colour seen in direction (`x`, `y`, `z`): bilinear between the four nearest texels.
  public func sample(x: Double, y: Double, z: Double) -> UInt32 {
    CubeMap.bilinear(x: x, y: y, z: z, size: layout.faceSize(level: level)) { texel($0, $1, $2) }
  }

  /// Draws the view into `output` (every lens, with roll) with the cube grid renderer,
  /// reading the pyramid's coarser levels as mip levels where the view's pixels are larger
  /// than the drawn level's texels.
  /// Its blocks are stepped four pixels at a time through `kernel` (`nil`: the portable Swift
  /// loop), as ``CubeMap/render(view:hfov:lens:into:executor:kernel:)``'s are.
  /// It builds the tile table (``texels()``) for the frame: a host that draws many frames
  /// from the same tiles keeps the table and calls its own `render`.
  public func render<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, into output: inout RGBAImage, executor: E,
    kernel: GroupKernel? = nil
  ) {
    texels().render(view: view, hfov: hfov, lens: lens, into: &output, executor: executor, kernel: kernel)
  }

  /// The per-pixel reference (``CubeMap/renderReference(view:hfov:lens:into:executor:)``).
  public func renderReference<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, into output: inout RGBAImage, executor: E
  ) {
    CubeRendering.render(texels(), view: view, hfov: hfov, lens: lens, into: &output, stepped: false) {
      executor.run($0, $1)
    }
  }

  /// The loaded tiles as a table per level, each cell pointing at the finest loaded tile that
  /// covers it: one lookup per texel however many levels are missing.
  public func texels() -> Texels { Texels(self) }

  /// A ``TiledCube``'s texels, levels `level`, `level − 1`, … 1 as mip levels 0, 1, ….
  public struct Texels: CubeTexels {
    struct Cell {
      /// Index into `images`, or −1 where no loaded tile covers the cell.
      var image: Int32 = -1
      /// Levels between the cell's and its tile's: texel `x` is the tile's `x >> shift`.
      var shift: Int32 = 0
      /// The tile's top-left texel at its own level.
      var originX: Int32 = 0
      var originY: Int32 = 0
      /// The tile's size.
      var width: Int32 = 1
      var height: Int32 = 1
    }
    let sizes: [Int]
    let perSide: [Int]
    let offsets: [Int]
    let tileResolution: Int
    /// log2 of `tileResolution` when it is a power of two (the usual 256 or 512), else −1:
    /// a texel's tile is then a shift away, not two integer divisions.
    let tileShift: Int
    let cells: [Cell]
    let images: [RGBAImage]

    init(_ cube: TiledCube) {
      let layout = cube.layout, ts = layout.tileResolution
      var sizes: [Int] = [], perSide: [Int] = [], offsets: [Int] = [], cells: [Cell] = []
      var images: [RGBAImage] = [], index: [TileID: Int32] = [:]
      for l in stride(from: cube.level, through: 1, by: -1) {
        let n = layout.tilesPerSide(level: l)
        sizes.append(layout.faceSize(level: l))
        perSide.append(n)
        offsets.append(cells.count)
        for face in 0..<6 {
          for y in 0..<n {
            for x in 0..<n {
              var cell = Cell()
              var id: TileID? = TileID(level: l, face: face, x: x, y: y)
              while let t = id {
                if let image = cube.tiles[t], !image.pixels.isEmpty {
                  if index[t] == nil {
                    index[t] = Int32(images.count)
                    images.append(image)
                  }
                  cell = Cell(
                    image: index[t]!, shift: Int32(l - t.level), originX: Int32(t.x * ts), originY: Int32(t.y * ts),
                    width: Int32(max(image.width, 1)), height: Int32(max(image.height, 1)))
                  break
                }
                id = t.parent
              }
              cells.append(cell)
            }
          }
        }
      }
      self.sizes = sizes
      self.perSide = perSide
      self.offsets = offsets
      self.tileResolution = ts
      tileShift = ts > 0 && ts & (ts - 1) == 0 ? ts.trailingZeroBitCount : -1
      self.cells = cells
      self.images = images
    }

    /// Draws the view into `output` from these tiles, as ``TiledCube/render(view:hfov:lens:into:executor:kernel:)``
    /// does: the table is built once for as long as the tiles stay the same.
    public func render<E: RowExecutor>(
      view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, into output: inout RGBAImage, executor: E,
      kernel: GroupKernel? = nil
    ) {
      CubeRendering.render(self, view: view, hfov: hfov, lens: lens, into: &output, kernel: kernel) {
        executor.run($0, $1)
      }
    }

    /// Levels held, finest first.
    public var levelCount: Int { sizes.count }
    /// Face size in texels at `level`.
    public func faceSize(level: Int) -> Int { sizes[level] }
    /// The level whose tile shows texel (`x`, `y`): `level` when its own tile is loaded, coarser where a parent stands in, `Int.max` where nothing covers it.
    public func detail(level: Int, face: Int, x: Int, y: Int) -> Int {
      let cell = cell(level, face, x, y)
      return cell.image >= 0 ? level + Int(cell.shift) : Int.max
    }
    @inline(__always) func cell(_ level: Int, _ face: Int, _ x: Int, _ y: Int) -> Cell {
      let n = perSide[level]
      if tileShift >= 0 { return cells[offsets[level] + (face * n + (y >> tileShift)) * n + (x >> tileShift)] }
      return cells[offsets[level] + (face * n + y / tileResolution) * n + x / tileResolution]
    }
    /// Texel (`x`, `y`) of `face` at `level`, from the finest loaded tile covering it; black where none does.
    @inline(__always) public func texel(level: Int, face: Int, x: Int, y: Int) -> UInt32 {
      let cell = cell(level, face, x, y)
      guard cell.image >= 0 else { return RGBAImage.pack(r: 0, g: 0, b: 0) }
      // Read in place (see CubeMap.texel): no copy of the tile, so no retain a tap.
      let shift = Int(cell.shift), width = Int(cell.width)
      let px = min((x >> shift) - Int(cell.originX), width - 1)
      let py = min((y >> shift) - Int(cell.originY), Int(cell.height) - 1)
      return images[Int(cell.image)].pixels[py * width + px]
    }
    /// The tile that holds the texel, where it is the texel's own level's (not a coarser cover).
    public func withRows(level: Int, face: Int, x: Int, y: Int, _ body: (TexelRows) -> Void) -> Bool {
      let ts = tileResolution, cell = cell(level, face, x, y)
      guard cell.image >= 0, cell.shift == 0 else { return false }
      let stride = Int(cell.width), height = Int(cell.height), x0 = Int(cell.originX), y0 = Int(cell.originY)
      images[Int(cell.image)].pixels.withUnsafeBufferPointer { p in
        guard p.count >= stride * height else { return }
        // No further than the tile's square: a tile image larger than the layout says is
        // clamped there by `texel`, so beyond it the next tile's texels are shown.
        body(
          TexelRows(
            base: p.baseAddress!, stride: stride, x0: x0, y0: y0, width: min(stride, ts, sizes[level] - x0),
            height: min(height, ts, sizes[level] - y0)))
      }
      return true
    }
  }

  /// The cube as a `width`×`width/2` equirectangular image (longitude 0 at the centre
  /// column, as ``PanoramaGeometry`` has it), for renderers that read one.
  public func equirectangular<E: RowExecutor>(width: Int, executor: E) -> RGBAImage {
    let w = max(width, 2), h = max(w / 2, 1)
    var out = RGBAImage(width: w, height: h)
    let cube = self
    out.pixels.withUnsafeMutableBufferPointer { px in
      let shared = SharedPixels(base: px.baseAddress!, source: UnsafePointer(px.baseAddress!))
      executor.run(h) { j in
        let lat = (0.5 - (Double(j) + 0.5) / Double(h)) * Elementary.pi
        let (sinLat, cosLat) = Elementary.sinCos(lat)
        for i in 0..<w {
          let lon = ((Double(i) + 0.5) / Double(w) - 0.5) * Elementary.twoPi
          let (sinLon, cosLon) = Elementary.sinCos(lon)
          shared.base[j * w + i] = cube.sample(x: cosLat * sinLon, y: sinLat, z: cosLat * cosLon)
        }
      }
    }
    return out
  }
}
