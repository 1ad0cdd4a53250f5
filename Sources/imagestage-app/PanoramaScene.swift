import CoreMath
import Panorama
import Raster
import StageFiles
import StageSDL

/// The seed-003 viewer: a panorama panned by motion (gyroscope, a replayed log) or by hand
/// (mouse drag, arrows, wheel zoom), in strip mode (the seed's) or perspective mode.
final class PanoramaScene {
  var renderer: PanoramaRenderer
  var sourceName: String
  var perspective = true
  /// Rectilinear, stereographic (wide views; looking down, a little planet), fisheye or
  /// equirectangular. Key L cycles them.
  var lens = Lens.rectilinear
  /// The user's own offset on top of motion: mouse drag and arrow keys (radians).
  var manual = ViewAngles()
  var hfov = Angle(degrees: 90).radians
  var tracker = MotionTracker()
  var motionLog: MotionLog?
  var motionStart: Double?
  var nextSample = 0
  var message = ""
  var usingGyro = false
  private var frame = RGBAImage(width: 1, height: 1)
  private var texture: Texture?
  private var dragFrom: (x: Double, y: Double, yaw: Double, pitch: Double)?
  private var dirty = true
  private var lastView: ViewAngles?
  let executor = ThreadedRows(threads: 2)

  init(panorama: LoadedPanorama, name: String) {
    renderer = Self.renderer(panorama)
    sourceName = name
  }

  func load(_ panorama: LoadedPanorama, name: String) {
    renderer = Self.renderer(panorama)
    sourceName = name
    manual = ViewAngles()
    dirty = true
  }

  /// A viewer shows zoomed-out views and the strip (an image fitted to a window much lower
  /// than it): mip levels keep them from aliasing, for a third more memory.
  static func renderer(_ panorama: LoadedPanorama) -> PanoramaRenderer {
    var renderer = PanoramaRenderer(source: panorama.image, geometry: panorama.geometry)
    renderer.buildMipLevels(executor: ThreadedRows(threads: 2))
    return renderer
  }

  /// The camera now: motion (recentred, smoothed) plus the manual offset.
  var view: ViewAngles {
    let m = tracker.view
    return ViewAngles(
      yaw: m.yaw + manual.yaw, pitch: min(max(m.pitch + manual.pitch, -Elementary.halfPi), Elementary.halfPi),
      roll: perspective ? m.roll : 0)
  }

  /// Whether the picture will change without input (a log replaying or a gyroscope).
  var isMoving: Bool { (motionLog != nil) || usingGyro }

  func recenter() {
    tracker.recenter()
    manual = ViewAngles()
    dirty = true
  }

  /// Feeds the replayed log up to time `t` (it loops).
  func advance(to t: Double) {
    guard let log = motionLog, let last = log.samples.last else { return }
    if motionStart == nil { motionStart = t }
    let duration = max(last.t, 0.001)
    var local = t - motionStart!
    if local > duration {
      // Loop: start the log again from its first sample.
      motionStart! += duration * (local / duration).rounded(.down)
      local = t - motionStart!
      nextSample = 0
      tracker = MotionTracker()
    }
    while nextSample < log.samples.count && log.samples[nextSample].t <= local {
      tracker.feed(log.samples[nextSample])
      nextSample += 1
    }
    dirty = true
  }

  func gyro(_ rate: Vector3, at t: Double) {
    usingGyro = true
    tracker.feed(.rate(t: t, rate))
    dirty = true
  }

  // MARK: Input

  func pointerDown(_ x: Double, _ y: Double) { dragFrom = (x, y, manual.yaw, manual.pitch) }

  func pointerMove(_ x: Double, _ y: Double, width: Int) {
    guard let d = dragFrom else { return }
    // Dragging moves the picture with the pointer: right drag turns the camera left.
    let radiansPerPoint = hfov / Double(max(width, 1))
    manual.yaw = d.yaw - (x - d.x) * radiansPerPoint
    manual.pitch = min(max(d.pitch + (y - d.y) * radiansPerPoint, -Elementary.halfPi), Elementary.halfPi)
    dirty = true
  }

  func pointerUp() { dragFrom = nil }

  func turn(yaw: Double, pitch: Double) {
    manual.yaw += yaw
    manual.pitch = min(max(manual.pitch + pitch, -Elementary.halfPi), Elementary.halfPi)
    dirty = true
  }

  /// The widest view the wheel reaches: a rectilinear lens stretches badly past 120°.
  var widest: Double { Angle(degrees: lens == .rectilinear ? 120 : lens == .stereographic ? 330 : 360).radians }

  func zoom(by factor: Double) {
    hfov = min(max(hfov * factor, Angle(degrees: 20).radians), widest)
    dirty = true
  }

  func toggleLens() {
    let all = Lens.allCases
    lens = all[(all.firstIndex(of: lens)! + 1) % all.count]
    hfov = min(hfov, widest)
    dirty = true
  }

  func toggleMode() {
    perspective.toggle()
    dirty = true
  }

  // MARK: Drawing

  func draw(_ window: Window, top: Double) throws {
    let (pw, _) = window.pixelSize
    let (ww, wh) = window.size
    let scale = ww > 0 ? Double(pw) / Double(ww) : 1
    let height = max(1, Int(Double(wh) - top) * Int(scale.rounded()))
    let width = max(1, pw)
    if frame.width != width || frame.height != height {
      frame = RGBAImage(width: width, height: height)
      texture = try Texture(window, image: frame, streaming: true)
      dirty = true
    }
    let v = view
    if dirty || v != lastView {
      if perspective {
        renderer.renderPerspective(view: v, hfov: hfov, lens: lens, into: &frame, executor: executor)
      } else {
        renderer.renderStrip(yaw: v.yaw, into: &frame, executor: executor)
      }
      texture?.update(frame)
      lastView = v
      dirty = false
    }
    texture?.draw(window, in: PixelRect(x: 0, y: top, w: Double(ww), h: Double(wh) - top))
    let lensName = lens == .rectilinear ? "" : " (\(lens.rawValue))"
    let mode =
      perspective ? "perspective\(lensName), hfov \(Int(Angle(radians: hfov).degrees.rounded()))°" : "strip (seed 003)"
    let source = motionLog != nil ? "motion log" : (usingGyro ? "gyroscope" : "mouse / arrows")
    let caption =
      "\(sourceName) · \(mode) · yaw \(Int(Angle(radians: v.yaw).degrees.rounded()))° pitch \(Int(Angle(radians: v.pitch).degrees.rounded()))° · \(source) · M mode, L lens, R recentre, wheel zoom"
    window.fill(PixelRect(x: 0, y: Double(wh) - 28, w: Double(ww), h: 28), Color(0, 0, 0, 140))
    window.text(caption, x: 10, y: Double(wh) - 24, size: 14, color: Color(255, 255, 255))
    if !message.isEmpty {
      window.fill(PixelRect(x: 0, y: top, w: Double(ww), h: 28), Color(160, 20, 20, 200))
      window.text(message, x: 10, y: top + 5, size: 14, color: Color(255, 255, 255))
    }
  }
}
