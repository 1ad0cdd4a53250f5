import Dispatch
import HostIO
import Panorama
import Raster
import Scenes
import StageSDL
import Synchronization

/// The Panorama tab's picture: the frame the renderer draws into, its streaming texture,
/// and what it last drew, so that an unchanged view is not drawn again.
struct PanoramaPicture {
  var frame = RGBAImage(width: 1, height: 1)
  var texture: Texture?
  var renderedKey: PanoramaFrameKey?
  /// The number of the video frame drawn; -1 before the first.
  var renderedVideoFrame = -1
  let executor = ThreadedRows(threads: 2)
}

/// The panorama's mip levels and polar caps, built on another thread after it opens (so the
/// first frame does not wait for them), tagged with the opening they belong to.
struct PanoramaExtras {
  let finished = FinishedExtras()
  var opening = 0
  /// Extras are on their way for the panorama shown.
  var pending = false
  /// Frames drawn since the extras came in (or since start, for a scene without them).
  var framesSince = 0

  /// A panorama opened whose extras will be built: the tag to leave them under.
  mutating func expect() -> Int {
    opening += 1
    pending = true
    return opening
  }

  /// A picture without extras opened (a video): extras on their way are dropped.
  mutating func expectNone() {
    opening += 1
    pending = false
  }

  /// The panorama with its extras once they are in; nil before, and when another panorama
  /// opened since.
  mutating func take() -> PanoramaRenderer? {
    guard pending,
      let done = finished.value.withLock({ value in
        defer { value = nil }
        return value
      })
    else { return nil }
    guard done.opening == opening else { return nil }
    pending = false
    framesSince = 0
    return done.renderer
  }
}

/// Where the thread building a panorama's extras leaves them for the main loop.
final class FinishedExtras: Sendable {
  let value = Mutex<(opening: Int, renderer: PanoramaRenderer)?>(nil)
}

extension App {
  func preparePanorama() {
    guard studio.panorama == nil else { return }
    if let config = options.tourConfig, openTour(config) { return }
    var message: String?
    // The sample is drawn only when it is shown: a panorama that opens never pays for it.
    var loaded: LoadedPanorama?
    var name = "Sample panorama"
    if let path = options.panorama, VideoDecoder.isVideo(path) {
      do {
        try openVideo(path)
        // The log turns the video's view as it turns a still's (it was ignored, unsaid).
        if let problem = playMotion() {
          Console.error(problem)
          studio.showMessage(problem, in: .panorama)
        }
        return
      } catch {
        message = "\(error.message). Showing the sample panorama."
      }
    } else if let path = options.panorama {
      do {
        loaded = try LoadedPanorama.load(path)
        name = fileName(path)
      } catch {
        message = "\(error.message). Showing the sample panorama."
      }
    }
    let renderer = Self.renderer(loaded ?? LoadedPanorama.sample())
    studio.setPanorama(PanoramaScene(renderer: renderer, name: name))
    if options.levelHorizon { studio.updatePanorama { $0.update { $0.levelsHorizon = true } } }
    buildExtras(renderer)
    if let problem = playMotion() { message = problem }
    if let message {
      Console.error(message)
      studio.showMessage(message, in: .panorama)
    }
  }

  /// Replays `--motion`'s log, looping, in the panorama shown (a still or a video); what
  /// went wrong when it does not read.
  func playMotion() -> String? {
    guard let motion = options.motion else { return nil }
    do {
      let log = try MotionLog.parse(try FileIO.read(motion))
      studio.updatePanorama { $0.update { $0.play(log, loops: true) } }
      return nil
    } catch {
      return "\(motion): \(error)"
    }
  }

  static func renderer(_ panorama: LoadedPanorama) -> PanoramaRenderer {
    // LoadedPanorama.load refuses an image without pixels (and the sample has them), so the
    // renderer's one refusal cannot happen here.
    guard var renderer = try? PanoramaRenderer(source: panorama.image, geometry: panorama.geometry) else {
      preconditionFailure("a loaded panorama with no pixels")
    }
    renderer.groupKernel = BlendKernels.chosen()
    return renderer
  }

  /// A viewer shows zoomed-out views and the strip: mip levels keep them from aliasing. Users
  /// look up and down: the polar caps keep those views as fast as level ones. Built on
  /// another thread (100–200 ms for an 8192–10800-wide panorama) while the first frames show
  /// without them, then swapped in by `takeExtras`.
  func buildExtras(_ renderer: PanoramaRenderer) {
    let opening = extras.expect(), finished = extras.finished
    DispatchQueue.global().async {
      var renderer = renderer
      renderer.buildMipLevels(executor: ThreadedRows(threads: 2))
      renderer.buildPolarCaps(executor: ThreadedRows(threads: 2))
      finished.value.withLock { $0 = (opening, renderer) }
    }
  }

  /// Puts the finished extras into the panorama on screen, unless another one opened since.
  func takeExtras() {
    guard let renderer = extras.take() else { return }
    studio.updatePanorama { $0.updateRenderer { $0 = renderer } }
    picture.renderedKey = nil
    drewIdleFrame = false
    if options.events {
      Console.line(JSONLine.panoramaReady(mipLevels: renderer.mipLevels.levels.count, polarCaps: renderer.polarCaps != nil))
    }
  }

  /// A file dropped on the window: shown on the Panorama tab, or played there if a video.
  func openPanorama(_ path: String) {
    emit(studio.show(.panorama, at: now))
    preparePanorama()
    if VideoDecoder.isVideo(path) {
      do {
        try openVideo(path)
        studio.showMessage(nil, in: .panorama)
      } catch {
        Console.error(error.message)
        studio.showMessage(error.message, in: .panorama)
      }
      return
    }
    do {
      let loaded = try LoadedPanorama.load(path)
      let renderer = Self.renderer(loaded)
      closeVideo()
      studio.updatePanorama { $0.load(renderer, name: fileName(path)) }
      buildExtras(renderer)
      studio.showMessage(nil, in: .panorama)
    } catch {
      Console.error(error.message)
      studio.showMessage(error.message, in: .panorama)
    }
  }

  /// Draws the view (the still's or the video's) into the picture, when it changed.
  func renderPanorama() {
    guard let scene = studio.panorama else { return }
    let (pw, _) = window.pixelSize
    let scale = viewportSize.width > 0 ? Double(pw) / viewportSize.width : 1
    let width = max(1, Int(scene.frame.size.width * scale)), height = max(1, Int(scene.frame.size.height * scale))
    let key = scene.frameKey(width: width, height: height)
    let player = scene.video != nil ? video?.player : nil
    guard key != picture.renderedKey || (player != nil && player!.frameNumber != picture.renderedVideoFrame) else { return }
    if picture.frame.width != width || picture.frame.height != height {
      picture.frame = RGBAImage(width: width, height: height)
      picture.texture = try? Texture(window, image: picture.frame, streaming: true)
    }
    var frame = picture.frame
    if let player {
      let v = scene.viewer
      player.render(view: v.renderedView, hfov: v.hfov, lens: v.lens, into: &frame, executor: picture.executor)
      picture.renderedVideoFrame = player.frameNumber
    } else {
      let executor = picture.executor
      studio.updatePanorama { $0.render(into: &frame, executor: executor) }
    }
    picture.frame = frame
    picture.texture?.update(picture.frame)
    picture.renderedKey = key
    if options.events, let scene = studio.panorama { Console.line(SceneLines.view(scene.viewer)) }
  }
}
