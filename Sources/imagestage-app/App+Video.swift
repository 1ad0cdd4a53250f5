import HostIO
import Panorama
import Raster
import Scenes

/// A 360° video on the Panorama tab: its player, and what is said about it only once.
struct VideoSession {
  let player: VideoPlayer
  /// Whether the first frame was looked at for an unstitched dual-fisheye layout.
  var checkedLayout = false
  /// Whether the video's early end (a file cut short) was said.
  var saidPictureEnd = false
}

extension App {
  /// Opens a 360° video on the Panorama tab, playing from its start; throws (nothing
  /// changed) when it cannot play.
  func openVideo(_ path: String) throws(VideoError) {
    let player = try VideoPlayer(path: path, now: now)
    closeVideo()
    video = VideoSession(player: player)
    let playback = VideoPlayback(duration: player.duration, frameDuration: player.frameDuration)
    if studio.panorama == nil {
      studio.setPanorama(PanoramaScene(video: playback, geometry: player.geometry, name: fileName(path)))
    } else {
      studio.updatePanorama { $0.load(video: playback, geometry: player.geometry, name: fileName(path)) }
    }
    // No extras for a video: its frames are drawn straight from the decoder's planes.
    extras.expectNone()
    picture.renderedKey = nil
    picture.renderedVideoFrame = -1
    drewIdleFrame = false
    if options.levelHorizon { studio.updatePanorama { $0.update { $0.levelsHorizon = true } } }
    if let problem = player.soundProblem {
      Console.error("\(path): \(problem)")
      emit(studio.notify("Playing without sound: \(problem.dropFirst("no sound: ".count))", at: now))
    }
  }

  /// Warns, as the CLI does, when a clip without spherical metadata looks like an
  /// unstitched dual-fisheye file: it would be drawn as equirectangular without a word.
  func warnIfDualFisheye(_ player: VideoPlayer, _ frame: VideoFrame) {
    guard player.spherical.source.hasPrefix("no spherical metadata"), DualFisheye.looksUnstitched(frame.planes) else {
      return
    }
    Console.error("warning: \(DualFisheye.warning(player.path))")
    studio.showMessage(
      "\(fileName(player.path)) looks like an unstitched dual-fisheye clip (two lens circles side by side): stitch it with the camera's software first.",
      in: .panorama)
  }

  func closeVideo() {
    video?.player.stop()
    video = nil
  }

  /// Does what the playback state asks (seek, play, pause), takes the frame the clock has
  /// reached, and reports it back; whether the picture changed.
  func driveVideo() -> Bool {
    guard let player = video?.player, let playback = studio.panorama?.video else { return false }
    let t = now
    var changed = false
    // Leaving the tab pauses, as a hidden player should.
    if studio.active != .panorama && playback.isPlaying {
      studio.updatePanorama { $0.updateVideo { $0.pause() } }
    }
    var seek: Double?
    studio.updatePanorama { $0.updateVideo { seek = $0.takeSeek() } }
    if let seek {
      player.seek(to: seek, now: t)
      changed = true
    }
    let wanted = studio.panorama?.video?.isPlaying ?? false
    if wanted != player.playing {
      player.setPlaying(wanted, now: t)
      changed = true
    }
    let hadProblem = player.soundProblem
    let tick = player.tick(now: t)
    if let frame = player.current, tick.newFrame {
      studio.updatePanorama { $0.updateVideo { $0.showed(frameAt: frame.time) } }
      changed = true
      if video?.checkedLayout == false {
        video?.checkedLayout = true
        warnIfDualFisheye(player, frame)
      }
    }
    if tick.reachedEnd {
      // A file cut short: the bar, its label and the length become what the file holds.
      let short = player.pictureEnd
      studio.updatePanorama { $0.updateVideo { $0.reachedEnd(at: short?.time) } }
      if let short, video?.saidPictureEnd == false {
        video?.saidPictureEnd = true
        Console.error(short.note)
        studio.showMessage(short.note, in: .panorama)
      }
      changed = true
    }
    if let error = tick.error {
      Console.error(error)
      studio.updatePanorama { $0.updateVideo { $0.reachedEnd() } }
      studio.showMessage(error, in: .panorama)
      changed = true
    }
    if hadProblem == nil, let problem = player.soundProblem {
      Console.error("\(player.path): \(problem)")
      emit(studio.notify("Playing without sound: \(problem.dropFirst("no sound: ".count))", at: t))
    }
    if changed, options.events, let v = studio.panorama?.video {
      Console.line(SceneLines.video(v, dropped: player.dropped, sound: player.soundPlaying, at: t))
    }
    return changed
  }

  /// Whether the one thing that moves is the video playing (the camera is still).
  var videoOnlyMoves: Bool {
    guard studio.active == .panorama, video != nil, let scene = studio.panorama, let video = scene.video else {
      return false
    }
    return video.isPlaying && !scene.viewer.isMoving && studio.notice == nil
  }
}
