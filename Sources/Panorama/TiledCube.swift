import CoreMath

/// A multiresolution cube read from the tiles a host loaded: the view drawn at one `level`
/// from the tiles it has, each missing texel taken from the finest loaded tile that covers
/// it (a parent, a grandparent, …), so a missing or broken tile shows coarser, never a hole.
/// Bilinear across tile and face edges, as ``CubeMap`` is (which it equals when every tile
/// of the level is in).
public struct TiledCube: Sendable {
  public let layout: MultiresLayout
  /// The level drawn (1…`layout.maxLevel`).
  public let level: Int
  /// The loaded tiles, any level.
  public var tiles: [TileID: RGBAImage] = [:]

  public init(layout: MultiresLayout, level: Int) {
    self.layout = layout
    self.level = min(max(level, 1), layout.maxLevel)
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

  /// Draws the view into `output` (every lens, with roll), as ``CubeMap`` does.
  public func render<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, into output: inout RGBAImage, executor: E
  ) {
    let cube = self
    CubeMap.render(view: view, hfov: hfov, lens: lens, into: &output, executor: executor) {
      cube.sample(x: $0, y: $1, z: $2)
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
