import Dispatch
import HostIO
import Panorama
import Raster
import StageSDL
import Synchronization

/// Plays a 360° video for the Panorama tab: a thread decodes the picture, another the sound
/// (each with its own decoder on its own file handle), SDL's audio thread pulls the sound,
/// and the main loop shows the frame the clock has reached (`tick`). The sound is the
/// master clock; without sound (none in the file, no device, a device that never asks) the
/// host's clock is. Frames that come too late are dropped, never the sync: the decoding
/// thread skips frames nothing refers to while it is behind, and frames past their time are
/// not shown. The scene layer's `VideoPlayback` says what the user asked for; this does it.
final class VideoPlayer {
  let path: String
  let width: Int, height: Int
  let duration: Double
  let frameDuration: Double
  let spherical: SphericalVideo
  /// One eye's picture: what is drawn (the top or left eye of a stereo clip).
  let eye: (width: Int, height: Int)
  let geometry: PanoramaGeometry
  var renderer: YUVRenderer
  let audio: AudioOutput?
  /// Why there is no sound, when the file has some (no device, a decoder refused it).
  private(set) var soundProblem: String?
  /// Where the picture really ended, when that is before the length the header gave (a
  /// file cut short), and what to say of it; set once the end is reached.
  var pictureEnd: (time: Double, note: String)? { shared.state.withLock { $0.pictureEnd } }
  /// The frame on screen, and a number bumped with each new one.
  private(set) var current: VideoFrame?
  private(set) var frameNumber = 0
  /// Frames decoded but not shown (late), and frames the decoder skipped.
  var dropped: Int { shared.state.withLock { $0.dropped } + droppedHere }
  private var droppedHere = 0
  private(set) var playing = false
  private(set) var ended = false
  private var serial = 0
  /// The host's clock, carrying the media time on when no sound leads.
  private var wall = (media: 0.0, at: 0.0, running: false)
  /// After a seek: the next frame of the new serial shows whatever the clock says.
  private var awaitingFirst = true
  /// Whether the frame of a seek (or the first) is still on its way.
  var awaitingFrame: Bool { awaitingFirst }
  /// Since when sound has been expected and not heard (a device that does not pull).
  private var unheardSince: Double?
  private var soundLeads: Bool
  let shared = PlayerShared()

  /// Frames decoded ahead: at 4K each is 12 MB of planes.
  static let queueLength = 4
  /// Seconds of sound decoded ahead of the device.
  static let soundAhead = 0.5

  /// Opens `path`'s picture (refusing what cannot play, with the decoder's words) and its
  /// sound, and starts both threads, paused at 0 until `setPlaying(true)`.
  init(path: String, now: Double) throws(VideoError) {
    self.path = path
    let decoder = try VideoDecoder(path: path, threads: 0)
    // A clip cut short (a copy stopped early) plays what it has and ends at its last whole
    // frame, which `pictureEnd` then gives; a frame damaged mid-file is still an error.
    decoder.keepsFramesOfACutFile = true
    guard decoder.spherical.projection == .equirectangular else {
      throw VideoError(
        .unsupported, "\(path): its projection is \(decoder.spherical.projection.rawValue); the app plays equirectangular video")
    }
    if let warning = decoder.colourTags.hdrWarning { Console.error("warning: \(path): \(warning)") }
    width = decoder.width
    height = decoder.height
    frameDuration = decoder.frameDuration
    duration =
      decoder.duration ?? decoder.frameCount.map { Double($0) * decoder.frameDuration } ?? 0
    spherical = decoder.spherical
    let e = spherical.eye(width: width, height: height)
    eye = (e.width, e.height)
    do {
      renderer = try YUVRenderer(width: eye.width, height: eye.height, video: spherical)
    } catch {
      throw VideoError(.unsupported, "\(path): its picture is too small to show (\(error))")
    }
    geometry = spherical.geometry(eyeWidth: eye.width, eyeHeight: eye.height)
    var sound: AudioDecoder?
    var output: AudioOutput?
    if decoder.hasAudio {
      do {
        let d = try AudioDecoder(path: path, alignedWith: decoder)
        do {
          output = try AudioOutput(sampleRate: d.sampleRate, channels: d.channels)
          sound = d
        } catch {
          soundProblem = "no sound: \(error.message)"
        }
      } catch {
        soundProblem = "no sound: \(error.message)"
      }
    }
    audio = output
    soundLeads = output != nil
    wall = (0, now, false)
    shared.state.withLock {
      $0.seek = (0, 0)
      $0.soundSeek = (0, 0)
    }
    startPicture(decoder)
    if let sound, let output { startSound(sound, output) }
  }

  deinit { stop() }

  /// Ends both threads (they let their decoders go as they leave).
  func stop() {
    shared.state.withLock { $0.stop = true }
    shared.wake.signal()
    shared.soundWake.signal()
    audio?.setPaused(true)
  }

  /// Whether sound leads the clock now.
  var soundPlaying: Bool { soundLeads }

  // MARK: What the user asked

  func setPlaying(_ on: Bool, now: Double) {
    guard on != playing else { return }
    if on {
      wall = (wall.media, now, true)
      unheardSince = nil
      ended = false
    } else {
      wall = (clock(now: now), now, false)
    }
    playing = on
    audio?.setPaused(!on)
  }

  /// Shows `seconds`: both threads go there; the picture of the first frame then follows.
  func seek(to seconds: Double, now: Double) {
    serial += 1
    let s = serial
    shared.state.withLock {
      $0.seek = (seconds, s)
      $0.soundSeek = (seconds, s)
      $0.frames.removeAll()
      $0.ended = false
      $0.soundEnded = nil
    }
    audio?.flush(serial: s)
    wall = (seconds, now, playing)
    awaitingFirst = true
    unheardSince = nil
    ended = false
    soundLeads = audio != nil
    shared.wake.signal()
    shared.soundWake.signal()
  }

  // MARK: The clock

  /// The media time now: the sound heard, else the host's clock carried on.
  func clock(now: Double) -> Double {
    guard playing else { return wall.media }
    if soundLeads, let audio {
      let soundEnded = shared.state.withLock { $0.soundEnded == serial }
      if soundEnded && audio.queuedSeconds == 0 {
        // The sound ran out (the picture may go on longer): the host's clock carries on
        // from the last time heard.
        soundLeads = false
      } else if let heard = audio.heardTime(serial: serial) {
        wall = (heard, now, true)
        unheardSince = nil
        return heard
      } else {
        let since = unheardSince ?? now
        unheardSince = since
        if now - since > 1.5 && audio.callbacks == 0 {
          soundLeads = false
          soundProblem = "no sound: the \(audio.driver) sound device never asked for any"
        } else {
          // Wait for the sound: the picture holds until it is heard.
          wall = (wall.media, now, true)
          return wall.media
        }
      }
    }
    return wall.running ? wall.media + (now - wall.at) : wall.media
  }

  /// Seconds until the next decoded frame is due, while playing.
  func nextFrameDue(now: Double) -> Double? {
    guard playing else { return nil }
    let next = shared.state.withLock { $0.frames.first?.frame.time }
    guard let next else { return nil }
    return next - clock(now: now)
  }

  /// What happened since the last tick.
  struct Tick {
    var newFrame = false
    var reachedEnd = false
    var error: String?
  }

  /// Takes the frame the clock has reached (late ones are dropped), and says whether the
  /// picture changed, playback ended or decoding failed.
  func tick(now: Double) -> Tick {
    var result = Tick()
    let t = clock(now: now)
    let serial = self.serial, playing = self.playing, first = awaitingFirst
    var picked: VideoFrame?
    var skipped = 0
    let (queueEnded, error): (Bool, String?) = shared.state.withLock { s in
      s.clock = t
      s.playing = playing
      s.frames.removeAll { $0.serial != serial }
      if first, !s.frames.isEmpty {
        picked = s.frames.removeFirst().frame
      } else if playing {
        while let f = s.frames.first, f.frame.time <= t + 0.002 {
          if picked != nil { skipped += 1 }
          picked = s.frames.removeFirst().frame
        }
      }
      defer { s.error = nil }
      return (s.ended && s.frames.isEmpty, s.error)
    }
    droppedHere += skipped
    if let picked {
      current = picked
      frameNumber += 1
      result.newFrame = true
      if first {
        awaitingFirst = false
        if !playing || !soundLeads { wall = (picked.time, now, playing) }
      }
      shared.wake.signal()
    }
    if let error {
      result.error = error
      ended = true
      setPlaying(false, now: now)
    }
    let lastShown = current.map { t >= $0.time + frameDuration - 0.002 } ?? true
    if queueEnded && !awaitingFirst && !ended && playing && lastShown && current != nil {
      ended = true
      result.reachedEnd = true
      setPlaying(false, now: now)
    } else if queueEnded && awaitingFirst && current != nil {
      // A seek past the last frame: the last one shown stays.
      awaitingFirst = false
    }
    return result
  }

  /// Draws the current frame's view into `image`.
  func render(view: ViewAngles, hfov: Double, lens: Lens, into image: inout RGBAImage, executor: ThreadedRows) {
    // The planes are the decoder's, of the size `init` made the eye and the renderer from
    // (a frame of another size is refused as it is decoded): neither call can throw here.
    guard let current, let planes = try? current.planes.cropped(width: eye.width, height: eye.height) else { return }
    try? renderer.render(view: view, hfov: hfov, lens: lens, from: planes, into: &image, executor: executor)
  }

  // MARK: The threads

  func startPicture(_ decoder: VideoDecoder) {
    let shared = self.shared, fd = frameDuration
    DispatchQueue(label: "imagestage.video").async {
      PictureThread(decoder: decoder, shared: shared, frameDuration: fd).run()
    }
  }

  func startSound(_ decoder: AudioDecoder, _ output: AudioOutput) {
    let shared = self.shared
    DispatchQueue(label: "imagestage.sound").async {
      SoundThread(decoder: decoder, output: output, shared: shared).run()
    }
  }
}

/// What the main loop and the decoding threads share.
final class PlayerShared: Sendable {
  struct State {
    /// Decoded frames, in presentation order, with the serial of the seek they follow.
    var frames: [(serial: Int, frame: VideoFrame)] = []
    /// A seek for the picture thread: the time, and its serial; and one for the sound's.
    var seek: (time: Double, serial: Int)?
    var soundSeek: (time: Double, serial: Int)?
    /// The picture reached its end (for the latest serial).
    var ended = false
    /// The serial whose sound reached its end.
    var soundEnded: Int?
    var error: String?
    /// The picture ended before the header's length: where, and the note saying so.
    var pictureEnd: (time: Double, note: String)?
    var stop = false
    /// The main loop's clock and whether it runs: late frames are dropped by it.
    var clock = 0.0
    var playing = false
    var dropped = 0
  }
  let state = Mutex(State())
  /// Signalled when a frame was taken or a seek or stop came: the picture thread goes on.
  let wake = DispatchSemaphore(value: 0)
  let soundWake = DispatchSemaphore(value: 0)
}

/// Decodes frames ahead of the clock into the shared queue.
struct PictureThread {
  let decoder: VideoDecoder
  let shared: PlayerShared
  let frameDuration: Double

  enum Step {
    case stop, wait, seek(Double, Int), decode(clock: Double, playing: Bool)
  }

  func run() {
    var serial = 0
    var target: Double?
    var ended = false
    var lastTime: Double?
    let duration = decoder.duration
    // Late frames dropped in a row: after a few, one is shown late rather than none at all
    // (a decoder slower than the clock even when skipping).
    var drops = 0
    while true {
      let step: Step = shared.state.withLock { s in
        if s.stop { return .stop }
        if let seek = s.seek {
          s.seek = nil
          return .seek(seek.time, seek.serial)
        }
        if ended || s.frames.count >= VideoPlayer.queueLength { return .wait }
        return .decode(clock: s.clock, playing: s.playing)
      }
      switch step {
      case .stop: return
      case .wait:
        _ = shared.wake.wait(timeout: .now() + .milliseconds(20))
      case .seek(let time, let s):
        serial = s
        target = time
        ended = false
        lastTime = nil
        decoder.skipsNonReferenceFrames = false
        do {
          try decoder.seek(to: time)
        } catch {
          fail(error.message, serial: serial)
          ended = true
        }
      case .decode(let clock, let playing):
        do {
          guard let frame = try decoder.next() else {
            ended = true
            // The container promised more than there was: where the frames really end (the
            // decoder's, or the last frame's end while it skipped frames), said once the
            // last one has shown; not an error: what is there plays to its end.
            let end = decoder.endedEarly?.time ?? lastTime.map { $0 + frameDuration }
            var short: (time: Double, note: String)?
            if let claimed = duration, let end, end + 2 * frameDuration < claimed {
              short = (
                end,
                "\(decoder.path): the picture ends at \(seconds(end)) of its \(seconds(claimed)): the file is truncated"
              )
            }
            shared.state.withLock { s in
              guard s.seek == nil else { return }
              s.ended = true
              if let short { s.pictureEnd = short }
            }
            continue
          }
          lastTime = max(lastTime ?? 0, frame.time)
          if let t = target {
            // Frames before the one showing the seek's time are decoded and let go.
            if frame.time + frameDuration <= t + frameDuration * 0.01 { continue }
            target = nil
          } else if playing {
            let late = clock - (frame.time + frameDuration)
            // Behind by more than three frames: skip what nothing refers to until caught up.
            if late > 3 * frameDuration { decoder.skipsNonReferenceFrames = true }
            if late < 0 { decoder.skipsNonReferenceFrames = false }
            if late > 0 && drops < 4 {
              drops += 1
              shared.state.withLock { $0.dropped += 1 }
              continue
            }
            drops = 0
          }
          shared.state.withLock { s in
            if s.seek == nil { s.frames.append((serial, frame)) }
          }
        } catch {
          fail(error.message, serial: serial)
          ended = true
        }
      }
    }
  }

  /// `x` seconds, with two decimals (as the CLI's "ends early at 5.93 s").
  func seconds(_ x: Double) -> String {
    let hundredths = Int((x * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
  }

  func fail(_ message: String, serial: Int) {
    shared.state.withLock {
      $0.error = message
      $0.ended = true
    }
  }
}

/// Decodes sound ahead of the device into its queue.
struct SoundThread {
  let decoder: AudioDecoder
  let output: AudioOutput
  let shared: PlayerShared

  enum Step {
    case stop, wait, seek(Double, Int), decode
  }

  func run() {
    var serial = -1
    var target: Double?
    var ended = true
    while true {
      let step: Step = shared.state.withLock { s in
        if s.stop { return .stop }
        if let seek = s.soundSeek {
          s.soundSeek = nil
          return .seek(seek.time, seek.serial)
        }
        return ended ? .wait : .decode
      }
      switch step {
      case .stop: return
      case .wait:
        _ = shared.soundWake.wait(timeout: .now() + .milliseconds(20))
      case .seek(let time, let s):
        serial = s
        target = time
        ended = false
        do {
          try decoder.seek(to: time)
        } catch {
          ended = true
          shared.state.withLock { $0.soundEnded = s }
        }
      case .decode:
        if output.queuedSeconds > VideoPlayer.soundAhead {
          _ = shared.soundWake.wait(timeout: .now() + .milliseconds(20))
          continue
        }
        var chunk: AudioChunk?
        do {
          chunk = try decoder.next()
        } catch {
          chunk = nil
        }
        guard var chunk else {
          ended = true
          let s = serial
          shared.state.withLock { $0.soundEnded = s }
          continue
        }
        if let t = target {
          // Sound before the seek's time is cut, to the sample.
          let skip = Int(((t - chunk.time) * Double(decoder.sampleRate)).rounded())
          if skip >= chunk.frames { continue }
          if skip > 0 {
            chunk.samples.removeFirst(skip * chunk.channels)
            chunk.time = t
          }
          target = nil
        }
        output.enqueue(chunk.samples, at: chunk.time, serial: serial)
      }
    }
  }
}
