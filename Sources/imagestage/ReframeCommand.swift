import CoreMath
import Dispatch
import HostIO
import Panorama
import Raster
import Scenes
import StageJSON
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `imagestage pano reframe IN -o OUT.mp4|DIR|-`: a flat video of a 360° clip, the view driven
/// by a motion log, keyframes or fixed angles (docs/video.md). Three stages run at once:
/// the decoder (its own threads) on a thread of its own, the renderer on the caller's
/// threads straight from the decoded planes, and the writer (ffmpeg's input, or standard
/// output) on a third; at most a few frames are in flight between them.
enum ReframeCommand {
  static func run(_ args: [String], spec: String = "pano reframe") throws {
    let parsed = try PanoCommand.parse(args, Commands.spec(spec))
    guard parsed.positional.count == 1 else { throw CommandError(message: "expected one input video") }
    guard let output = parsed.value("output") else { throw CommandError(message: "\(spec) needs -o OUT.mp4 or -o -") }
    let input = parsed.positional[0]
    if parsed.flag("quiet") && parsed.flag("progress") {
      throw CommandError(message: "--quiet and --progress: give one")
    }
    var raw = parsed.value("raw") ?? "yuv420p"
    guard raw == "yuv420p" || raw == "rgba" else { throw CommandError(message: "--raw: \"\(raw)\" is not yuv420p or rgba") }
    // A folder (one there, or a name without an extension) takes numbered PNGs, as
    // `pano video`'s synopsis promises for a video source too.
    let folder = output != "-" && Self.isFolder(output)
    if output == "-" {
      guard isatty(1) == 0 else {
        throw CommandError(message: "-o -: standard output is a terminal; pipe the raw frames (| ffplay …) or write OUT.mp4")
      }
    } else if folder {
      try FrameSink.check(output: output)
      raw = "rgba"
    } else {
      guard Self.containers.contains(where: { output.lowercased().hasSuffix($0) }) else {
        throw CommandError(
          message: "-o \(output): unknown video type; write OUT.mp4, .mov, .mkv or .webm, a folder for PNGs, or - for raw frames")
      }
      // Before anything is decoded, as render and tiles check (ffmpeg failed late, naming
      // the staged OUT.partial-PID).
      try PanoCommand.checkDestination(output)
      guard ChildProcess.isOnPath("ffmpeg") else {
        throw CommandError(message: "ffmpeg not found on PATH: install it (apt-get install ffmpeg) or write raw frames with -o -")
      }
    }
    // The encoder and its preset, checked before anything is decoded (ffmpeg would fail
    // at its first frame with its own text).
    // WebM holds VP8, VP9 and AV1 only: VP9 is its default (x264 failed in ffmpeg's words).
    let webm = output.lowercased().hasSuffix(".webm")
    let encoder = parsed.value("encoder") ?? (webm ? "libvpx-vp9" : "libx264")
    var preset: String?
    if output != "-" && !folder {
      if let problem = VideoEncoders.problem(encoder: encoder) { throw CommandError(message: problem) }
      if webm, let codec = VideoEncoders.codecName(encoder: encoder), !["vp8", "vp9", "av1"].contains(codec) {
        throw CommandError(
          message:
            "--encoder \(encoder): WebM holds VP8, VP9 or AV1 video, not \(codec); leave --encoder out (libvpx-vp9) or write .mp4"
        )
      }
      switch VideoEncoders.preset(parsed.value("preset"), encoder: encoder, fallback: "veryfast") {
      case .success(let p): preset = p
      case .failure(let e): throw CommandError(message: e.message)
      }
    }
    let camera = try PanoCommand.camera(parsed)
    guard !camera.strip else { throw CommandError(message: "--mode strip: a video is reframed in perspective only") }
    let size = try parsed.size("size") ?? (1920, 1080)
    guard size.width % 2 == 0, size.height % 2 == 0 else {
      throw CommandError(message: "--size \(size.width)x\(size.height): both sides must be even (4:2:0 video)")
    }
    let start = try parsed.number("start", in: 0...1e7) ?? 0
    let length = try parsed.number("duration", in: 0.001...1e7)
    let threads = camera.threads
    let decoder = try VideoDecoder(path: input, threads: try parsed.integer("decoder-threads", in: 0...64) ?? 0)
    if let warning = decoder.colourTags.hdrWarning { Console.error("warning: \(input): \(warning)") }
    let eye = decoder.spherical.eye(width: decoder.width, height: decoder.height)
    guard decoder.spherical.projection == .equirectangular else {
      throw CommandError(
        message:
          "\(input): its projection is \(decoder.spherical.projection.rawValue) (\(decoder.spherical.source)); only equirectangular is drawn so far"
      )
    }
    let fps = Double(decoder.frameRate.numerator) / Double(decoder.frameRate.denominator)
    let clipEnd = decoder.duration ?? .infinity
    if start > 0 && start >= clipEnd {
      throw CommandError(message: "--start \(JSONText.number(start)): the clip is only \(format2(clipEnd)) s long")
    }
    let end = min(clipEnd, length.map { start + $0 } ?? .infinity)
    var path = try ViewPath(parsed, camera: camera, decoder: decoder, clipEnd: end)
    // The renderer reads one eye; its geometry comes from the metadata.
    var renderer: YUVRenderer
    do {
      renderer = try YUVRenderer(width: eye.width, height: eye.height, video: decoder.spherical)
    } catch {
      throw CommandError(message: "\(input): one eye is \(eye.width)×\(eye.height), too small to draw (\(error))")
    }
    renderer.kernel = YUVKernels.chosen()
    if eye.height % 2 != 0 || eye.width % 2 != 0 {
      throw CommandError(message: "\(input): one eye is \(eye.width)×\(eye.height); 4:2:0 needs even sides")
    }

    // Ctrl-C and SIGTERM: ffmpeg killed, the staged output removed, exit 130 or 143 (`Interrupts`).
    Interrupts.install()
    let sink = try ReframeSink(
      output: output, folder: folder, width: size.width, height: size.height, raw: raw, rate: decoder.frameRate,
      input: input,
      audioCodec: parsed.flag("no-audio") ? nil : decoder.audioCodecName, start: start, duration: length,
      colour: decoder.colourTags, encoder: encoder, preset: preset, parsed: parsed)
    // A 2:1 view of the whole sphere is itself a 360° clip: say so (keys may change the lens).
    if parsed.value("keys") == nil,
      MP4Tagger.isFullSphere(lens: camera.lens, hfov: camera.hfov, width: size.width, height: size.height)
    {
      sink.sphericalTag = SphericalTag()
    }
    // A clip cut short (a copy stopped early, a card pulled) gives what it has, as ffmpeg
    // does; a frame that cannot be decoded with data still to come stays an error.
    decoder.keepsFramesOfACutFile = true
    let frames = DecodeAhead(decoder, start: start, end: end)
    let expected = end.isFinite ? max(1, Int(((end - start) * fps).rounded())) : decoder.frameCount
    let progress = ReframeProgress(
      total: expected, fps: fps, forced: parsed.flag("progress"), quiet: parsed.flag("quiet"))
    let executor = ThreadedRows(threads: threads)
    var written = 0
    do {
      while let frame = try frames.next() {
        let t = frame.time
        if written == 0 { VideoSource.warnIfDualFisheye(decoder, frame, path: input) }
        let view = path.view(at: t)
        let planes = try frame.planes.cropped(width: eye.width, height: eye.height)
        let buffer = try sink.freeBuffer()
        if raw == "rgba" {
          try renderer.render(
            view: view.view, hfov: view.hfov, lens: view.lens, eye: view.eye, from: planes, into: &buffer.rgba, executor: executor
          )
        } else {
          try renderer.render(
            view: view.view, hfov: view.hfov, lens: view.lens, eye: view.eye, from: planes, into: &buffer.yuv, executor: executor)
        }
        sink.write(buffer, frame: frame)
        written += 1
        progress.update(written, time: t - start)
      }
      frames.stop()
      try sink.finish()
    } catch {
      frames.stop()
      sink.abandon()
      progress.finish(written)
      throw error
    }
    progress.finish(written, output: output)
    if let cut = decoder.endedEarly {
      let last = Int((cut.time * fps).rounded())
      Console.error(
        "\(input): the clip ends early at \(format2(cut.time)) s (frame \(last)\(cut.expected.map { " of \($0)" } ?? "")): the output stops there"
      )
    }
    // The frames there, not the header's length, for a clip that ended early.
    if let note = path.endNote(clipEnd: min(end, decoder.endedEarly?.time ?? end)) { Console.error(note) }
  }

  static let containers = [".mp4", ".mov", ".mkv", ".webm", ".m4v"]

  /// Whether `-o path` means a folder of PNGs: a folder that is there, or a name with no
  /// extension (`frames`, `out/`).
  static func isFolder(_ path: String) -> Bool {
    var status = stat()
    if stat(path, &status) == 0 { return (status.st_mode & S_IFMT) == S_IFDIR }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: ".") else { return true }
    return dot == name.startIndex || name.index(after: dot) == name.endIndex
  }
}

/// Where each frame's view comes from: a motion log (through the viewers' own replay, as
/// `pano video`), keyframes, or fixed angles.
struct ViewPath {
  enum Source {
    case fixed
    case motion(PanoramaViewer, offset: Double, logEnd: Double)
    case keys(ViewKeyframes)
  }
  var source: Source
  let camera: PanoCommand.Camera
  /// The motion log's name and where it ends in clip time, for `endNote`.
  var motionEnd: (path: String, time: Double)?

  init(_ parsed: Arguments, camera: PanoCommand.Camera, decoder: VideoDecoder, clipEnd: Double) throws {
    self.camera = camera
    let offset = try parsed.number("offset", in: -1e6...1e6) ?? 0
    if parsed.value("motion") != nil && parsed.value("keys") != nil {
      throw CommandError(message: "--motion and --keys both drive the view; give one")
    }
    if let motionPath = parsed.value("motion") {
      let log: MotionLog
      do { log = try MotionLog.parse(try FileIO.read(motionPath)) } catch let error as MotionLog.ParseError {
        throw InFile(path: motionPath, error: error)
      }
      let times = log.samples.map(\.t).filter(\.isFinite)
      let logEnd = (times.max() ?? 0) - (times.min() ?? 0)
      var viewer = PanoramaViewer(geometry: PanoramaGeometry(width: 2, height: 1), smoothing: !parsed.flag("raw-motion"))
      viewer.keepsInsideCoverage = false
      viewer.levelsHorizon = parsed.flag("level-horizon")
      viewer.set(offset: camera.view)
      viewer.play(log, loops: false)
      source = .motion(viewer, offset: offset, logEnd: logEnd)
      motionEnd = (motionPath, logEnd + offset)
    } else if let keysPath = parsed.value("keys") {
      source = .keys(try Self.readKeys(keysPath, camera: camera))
    } else {
      source = .fixed
    }
  }

  /// What to tell the user after the run, when the log ends before the clip: `clipEnd` is
  /// where the frames actually ended (a clip cut short ends before its header says).
  func endNote(clipEnd: Double) -> String? {
    guard let (path, end) = motionEnd, clipEnd.isFinite, end < clipEnd - 1e-6 else { return nil }
    return
      "\(path) ends at \(format2(end)) s of the clip (\(format2(clipEnd)) s): after that the view holds the log's last direction"
  }

  mutating func view(at t: Double) -> (view: ViewAngles, hfov: Double, lens: Lens, eye: Double?) {
    switch source {
    case .fixed: return (camera.view, camera.hfov, camera.lens, nil)
    case .motion(var viewer, let offset, let logEnd):
      viewer.advance(to: min(max(t - offset, 0), logEnd + 1))
      let view = viewer.view
      source = .motion(viewer, offset: offset, logEnd: logEnd)
      return (view, camera.hfov, camera.lens, nil)
    case .keys(let keys): return keys.view(at: t)
    }
  }

  /// KEYS.json: an array of `{"time": s, "yaw": °, "pitch": °, "roll": °, "hfov": °, "lens": name}`
  /// (or `{"keys": [...]}`); a missing angle is the command line's, a missing lens the last key's.
  static func readKeys(_ path: String, camera: PanoCommand.Camera) throws -> ViewKeyframes {
    let json: JSON
    do { json = try JSONParser.parse(try FileIO.read(path, limit: 16 << 20)) } catch let e as JSONSyntaxError {
      throw InFile(path: path, error: e)
    }
    guard case .array(let items) = (json["keys"] ?? json).value else {
      throw CommandError(message: "\(path): expected an array of keys (or {\"keys\": [...]}), found \(json.typeName)")
    }
    var keys: [ViewKeyframes.Key] = []
    var lens = camera.lens
    for (i, item) in items.enumerated() {
      func number(_ name: String) throws -> Double? {
        guard let v = item[name] else { return nil }
        guard case .number(let d) = v.value else {
          throw CommandError(message: "\(path): key \(i + 1): \"\(name)\" is \(v.typeName), expected a number (line \(v.line))")
        }
        return d
      }
      guard case .object = item.value else {
        throw CommandError(message: "\(path): key \(i + 1) is \(item.typeName), expected an object (line \(item.line))")
      }
      guard let time = try number("time") else {
        throw CommandError(message: "\(path): key \(i + 1) has no \"time\" (seconds) (line \(item.line))")
      }
      if let name = item["lens"] {
        guard case .string(let s) = name.value, let l = Lens(rawValue: s) else {
          throw CommandError(
            message: "\(path): key \(i + 1): \"lens\" must be one of \(Lens.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        lens = l
      }
      func radians(_ name: String, _ fallback: Double) throws -> Double {
        try number(name).map { Angle(degrees: $0).radians } ?? fallback
      }
      keys.append(
        ViewKeyframes.Key(
          time: time,
          view: ViewAngles(
            yaw: try radians("yaw", camera.view.yaw), pitch: try radians("pitch", camera.view.pitch),
            roll: try radians("roll", camera.view.roll)), hfov: try radians("hfov", camera.hfov), lens: lens))
    }
    do { return try ViewKeyframes(keys) } catch { throw CommandError(message: "\(path): \(error)") }
  }
}
