import CoreMath
import Panorama

/// Exports of the Panorama core for the Embedded Swift (wasm32) check.

/// Yaw in degrees recovered from the attitude of a device at (yaw, pitch, roll) degrees.
@_cdecl("pano_yaw_from_attitude")
public func panoYawFromAttitude(_ yaw: Double, _ pitch: Double, _ roll: Double) -> Double {
  let q = ViewAngles(yaw: Angle(degrees: yaw).radians, pitch: Angle(degrees: pitch).radians, roll: Angle(degrees: roll).radians)
    .attitude
  return Angle(radians: ViewAngles(attitude: q).yaw).degrees
}

/// Number of samples in a small Sensor Logger log parsed by the core.
@_cdecl("pano_parse_log")
public func panoParseLog() -> Int32 {
  let csv = "time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw\n1,0,0,0,0,1,0,0,0\n2,0.5,0,0,0.7071068,0.7071068,0,0,0\n"
  guard let log = try? MotionLog.parse(Array(csv.utf8)) else { return -1 }
  return Int32(log.samples.count)
}

/// RGB (0xBBGGRR) at the centre of a perspective view of the built-in sample: the sample
/// marks north (yaw 0) with a red N below the horizon and east (yaw 90) with a white E.
@_cdecl("pano_render_center")
public func panoRenderCenter(_ yaw: Double, _ pitch: Double) -> Int32 {
  let source = try! SamplePanorama.make(width: 512)
  var renderer = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 512, height: 256))
  var out = RGBAImage(width: 64, height: 48)
  renderer.renderPerspective(
    view: ViewAngles(yaw: Angle(degrees: yaw).radians, pitch: Angle(degrees: pitch).radians), hfov: 1,
    into: &out, executor: InlineRows())
  return Int32(out[32, 24] & 0xFF_FFFF)
}

/// PSNR × 100 between a view drawn with the default blocks and with 2 × 2 blocks (nearly
/// exact), large enough that blocks take the four-pixel path: checks the 32.32 stepping on
/// a target whose `Int` is 32 bits.
@_cdecl("pano_grid_psnr")
public func panoGridPSNR() -> Int32 {
  let source = try! SamplePanorama.make(width: 1024)
  var coarse = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
  var fine = coarse
  fine.gridSpacing = GridSpacing(columns: 2, rows: 2)
  var a = RGBAImage(width: 256, height: 192), b = a
  let view = ViewAngles(yaw: 0.4, pitch: 0.3)
  coarse.renderPerspective(view: view, hfov: 1.2, into: &a, executor: InlineRows())
  fine.renderPerspective(view: view, hfov: 1.2, into: &b, executor: InlineRows())
  var squares = 0.0
  for (p, q) in zip(a.pixels, b.pixels) {
    for shift in [0, 8, 16] as [UInt32] {
      let d = Double((p >> shift) & 255) - Double((q >> shift) & 255)
      squares += d * d
    }
  }
  let mse = max(squares / Double(a.pixels.count * 3), 1e-10)
  return Int32(100 * 10 * Elementary.log(255 * 255 / mse) / Elementary.log(10))
}

/// Mip levels on wasm32 (32-bit Int): 1-px stripes seen at 120° over 64 px average to grey
/// with levels (returns the spread of the red channel ×100; the host wants it small) and the
/// same view without levels aliases (the host wants that spread large).
@_cdecl("pano_mip_spread")
public func panoMipSpread(_ withLevels: Int32) -> Int32 {
  var stripes = RGBAImage(width: 1024, height: 512)
  for y in 0..<512 {
    for x in 0..<1024 { stripes[x, y] = x % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF }
  }
  var renderer = try! PanoramaRenderer(source: stripes, geometry: PanoramaGeometry(width: 1024, height: 512))
  if withLevels != 0 { renderer.buildMipLevels(executor: InlineRows()) } else { renderer.buildsMipLevelsWhenMinified = false }
  var frame = RGBAImage(width: 64, height: 36)
  renderer.renderPerspective(view: ViewAngles(yaw: 0.3, pitch: 0.1), hfov: 2.1, into: &frame, executor: InlineRows())
  var sum = 0.0, squares = 0.0
  for p in frame.pixels {
    let r = Double(p & 255)
    sum += r
    squares += r * r
  }
  let n = Double(frame.pixels.count), mean = sum / n
  return Int32(100 * max(squares / n - mean * mean, 0).squareRoot())
}
