// The cube renderers in wasm, for bench/cube.sh (bench/web/cube.mjs drives it under node):
// the same sources and views as `pano-bench --cube`, built inside the module (no host I/O),
// one thread, the portable Swift loop with SIMD128 as the web viewer's CPU renderer runs it.
import CoreMath
import Panorama

nonisolated(unsafe) var equirect: PanoramaRenderer?
nonisolated(unsafe) var cube: CubeMap?
nonisolated(unsafe) var tiled: TiledCube?
/// The pyramid's tile table, kept across frames as the viewer keeps it (ViewerTour.renderTiles).
nonisolated(unsafe) var tiledTable: TiledCube.Texels?
nonisolated(unsafe) var frame = RGBAImage(width: 1, height: 1)

/// Builds SamplePanorama at 4·`face` px wide with mip levels, its faces (`face` px, with mip
/// levels) and the same faces as a fully loaded pyramid of 512 px tiles.
@_cdecl("bench_cube_setup")
public func benchCubeSetup(_ face: Int32) {
  let size = Int(face)
  guard let source = try? SamplePanorama.make(width: 4 * size),
    var renderer = try? PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: source.width, height: source.height))
  else { return }
  renderer.buildMipLevels(executor: InlineRows())
  let faces = CubeMap.faces(from: &renderer, size: size, executor: InlineRows()).withMipLevels()
  let ts = min(512, size)
  guard
    let layout = MultiresLayout(
      cubeResolution: size, tileResolution: ts, maxLevel: MultiresLayout.levels(cubeResolution: size, tileResolution: ts))
  else { return }
  var pyramid = TiledCube(layout: layout, level: layout.maxLevel)
  for level in 1...layout.maxLevel {
    var levelFaces = faces.faces
    for _ in level..<layout.maxLevel { levelFaces = levelFaces.map { $0.halved() } }
    let n = layout.tilesPerSide(level: level)
    for f in 0..<6 {
      for y in 0..<n {
        for x in 0..<n {
          let (w, h) = layout.tileSize(level: level, x: x, y: y)
          var tile = RGBAImage(width: w, height: h)
          for j in 0..<h { for i in 0..<w { tile[i, j] = levelFaces[f][x * ts + i, y * ts + j] } }
          pyramid.tiles[TileID(level: level, face: f, x: x, y: y)] = tile
        }
      }
    }
  }
  equirect = renderer
  cube = faces
  tiled = pyramid
  tiledTable = pyramid.texels()
}

/// Draws `frames` `width`×`height` frames of case `which` (0: equirectangular, 1: cube
/// reference, 2: cube stepped, 3: tiled reference, 4: tiled stepped), hfov 90°, pitch
/// `pitch` degrees, yaw 1° further each frame from `first`.
@_cdecl("bench_cube_render")
public func benchCubeRender(_ which: Int32, _ width: Int32, _ height: Int32, _ frames: Int32, _ first: Int32, _ pitch: Double) {
  guard var renderer = equirect, let cube, let tiled, let tiledTable else { return }
  if frame.width != Int(width) || frame.height != Int(height) { frame = RGBAImage(width: Int(width), height: Int(height)) }
  let hfov = Elementary.halfPi, degree = Elementary.pi / 180
  for k in 0..<Int(frames) {
    let view = ViewAngles(yaw: Double(Int(first) + k) * degree, pitch: pitch * degree)
    switch which {
    case 0: renderer.renderPerspective(view: view, hfov: hfov, into: &frame, executor: InlineRows())
    case 1: cube.renderReference(view: view, hfov: hfov, into: &frame, executor: InlineRows())
    case 2: cube.render(view: view, hfov: hfov, into: &frame, executor: InlineRows())
    case 3: tiled.renderReference(view: view, hfov: hfov, into: &frame, executor: InlineRows())
    default: tiledTable.render(view: view, hfov: hfov, into: &frame, executor: InlineRows())
    }
  }
  equirect = renderer  // its grid cache, kept for the next call
}
