import Dispatch
import HostIO
import Panorama
import Raster
import StageJSON
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

// `pano reframe`'s stages apart from the command: the decoder running ahead on its own
// thread (`DecodeAhead`), where frames go (`ReframeSink`: ffmpeg's input or standard
// output, from a writer thread), and the progress line (`ReframeProgress`).

/// Decodes on a thread of its own, up to three frames ahead of the renderer, the frames
/// from `start` (after a seek to the key frame before it) until `end`.
final class DecodeAhead: @unchecked Sendable {
  enum Item {
    case frame(VideoFrame)
    case end
    case failure(any Error)
  }
  let decoder: VideoDecoder
  let slots = DispatchSemaphore(value: 0), ready = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
  let items = Mutex<[Item]>([])
  let stopped = Atomic<Bool>(false)
  var running = true

  init(_ decoder: VideoDecoder, start: Double, end: Double) {
    self.decoder = decoder
    // Created at 0 and raised: libdispatch traps on a semaphore freed below its start value.
    for _ in 0..<3 { slots.signal() }
    let quarter = 0.25 * decoder.frameDuration
    DispatchQueue.global().async {
      let decoder = self.decoder
      defer { self.done.signal() }
      do {
        try decoder.seek(to: start)
        while true {
          self.slots.wait()
          if self.stopped.load(ordering: .relaxed) { return }
          guard let frame = try decoder.next(), frame.time < end - quarter else {
            self.push(.end)
            return
          }
          if frame.time < start - quarter {
            self.slots.signal()
            continue
          }
          self.push(.frame(frame))
        }
      } catch {
        self.push(.failure(error))
      }
    }
  }

  func push(_ item: Item) {
    items.withLock { $0.append(item) }
    ready.signal()
  }

  /// The next frame in order, nil after the last; rethrows the decoder's error.
  func next() throws -> VideoFrame? {
    guard running else { return nil }
    ready.wait()
    let item = items.withLock { $0.removeFirst() }
    switch item {
    case .frame(let f):
      slots.signal()
      return f
    case .end:
      running = false
      return nil
    case .failure(let e):
      running = false
      throw e
    }
  }

  /// Stops the decoding thread and waits for it (the decoder must outlive its last call).
  func stop() {
    stopped.store(true, ordering: .relaxed)
    slots.signal()
    done.wait()
    done.signal()
  }
}

/// A frame buffer the renderer fills and the writer sends, in turn.
final class ReframeBuffer: @unchecked Sendable {
  var yuv: YUVImage
  var rgba: RGBAImage
  init(width: Int, height: Int, raw: String) {
    yuv = raw == "rgba" ? YUVImage(width: 2, height: 2) : YUVImage(width: width, height: height)
    rgba = RGBAImage(width: raw == "rgba" ? width : 0, height: raw == "rgba" ? height : 0)
  }
}

/// Where reframed frames go: ffmpeg (which encodes them and copies the clip's audio, or
/// encodes it where the container cannot hold its codec: `audioPlan`) writing
/// the output staged under a temporary name (`StagedOutput`, renamed over OUT when ffmpeg
/// has finished; `Interrupts` kill ffmpeg and remove it on Ctrl-C or SIGTERM); or raw frames
/// on standard output. Frames are written on a thread of their own, two buffers in turn.
final class ReframeSink: @unchecked Sendable {
  let output: String
  let ffmpeg: ChildProcess?
  let staged: StagedOutput?
  let fd: Int32
  let raw: String
  let queue = DispatchQueue(label: "imagestage.reframe-writer")
  let free = DispatchSemaphore(value: 0)
  let failure = Mutex<String?>(nil)
  let buffers: [ReframeBuffer]
  var next = 0
  /// The staged folder PNG frames go into (`-o DIR`), nil for a video or raw frames.
  var pngFolder: String?
  /// Frames handed to the writer (numbers the PNGs); touched on `queue` only.
  var written = 0
  /// Written into an MP4 or MOV output once ffmpeg has finished it (a 2:1 full-sphere view).
  var sphericalTag: SphericalTag?

  /// ffmpeg's muxer for an output name (the staged name's extension is not the output's).
  static func muxer(_ output: String) -> String {
    let lower = output.lowercased()
    if lower.hasSuffix(".mkv") { return "matroska" }
    if lower.hasSuffix(".webm") { return "webm" }
    if lower.hasSuffix(".mov") { return "mov" }
    return "mp4"
  }

  /// How the clip's audio goes into `output`: copied where the container takes its codec,
  /// otherwise encoded (Opus for WebM, AAC for MP4 and MOV; Matroska takes them all), with
  /// the line that says so. ffmpeg refused AAC in WebM and PCM in MP4 with its own text.
  static func audioPlan(codec: String, output: String) -> (options: [String], note: String?) {
    let lower = output.lowercased()
    let copied: (String) -> Bool
    let encoder: (name: String, shown: String, options: [String])
    let container: String
    if lower.hasSuffix(".webm") {
      container = "WebM"
      copied = { ["opus", "vorbis"].contains($0) }
      encoder = ("libopus", "Opus", ["-b:a", "160k"])
    } else if lower.hasSuffix(".mov") {
      container = "MOV"
      copied = { ["aac", "mp3", "ac3", "eac3", "alac"].contains($0) || $0.hasPrefix("pcm_") }
      encoder = ("aac", "AAC", ["-b:a", "256k"])
    } else if lower.hasSuffix(".mkv") {
      return (["-c:a", "copy"], nil)
    } else {
      container = lower.hasSuffix(".m4v") ? "M4V" : "MP4"
      copied = { ["aac", "mp3", "ac3", "eac3", "alac", "opus"].contains($0) }
      encoder = ("aac", "AAC", ["-b:a", "256k"])
    }
    guard !copied(codec) else { return (["-c:a", "copy"], nil) }
    return (
      ["-c:a", encoder.name] + encoder.options,
      "audio: \(codec) does not go into \(container); encoding it as \(encoder.shown) (--no-audio leaves it out)"
    )
  }

  init(
    output: String, folder: Bool = false, width: Int, height: Int, raw: String, rate: (numerator: Int, denominator: Int),
    input: String, audioCodec: String?, start: Double, duration: Double?, colour: VideoColourTags, encoder: String,
    preset: String?,
    parsed: Arguments
  ) throws {
    self.output = output
    self.raw = raw
    buffers = (0..<2).map { _ in ReframeBuffer(width: width, height: height, raw: raw) }
    for _ in buffers { free.signal() }
    guard output != "-" else {
      ffmpeg = nil
      staged = nil
      fd = 1
      return
    }
    if folder {
      // Numbered PNGs in a staged folder, renamed over DIR when the last is written.
      let staged = try StagedOutput(output, kind: .directory)
      FrameSink.mention(staged.removedLeftovers)
      self.staged = staged
      pngFolder = staged.temporary
      ffmpeg = nil
      fd = -1
      return
    }
    let quality = try parsed.integer("quality", in: 0...63) ?? 20
    var command = [
      "ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-protocol_whitelist", "pipe", "-f", "rawvideo", "-pix_fmt", raw,
      "-s", "\(width)x\(height)",
      "-framerate", "\(rate.numerator)/\(rate.denominator)", "-i", "-",
    ]
    if let audioCodec {
      if start > 0 { command += ["-ss", JSONText.number(start)] }
      if let duration { command += ["-t", JSONText.number(duration)] }
      let plan = Self.audioPlan(codec: audioCodec, output: output)
      if let note = plan.note { Console.error(note) }
      // -shortest: a clip cut short ends its video early (its audio may run on).
      // The clip is read again for its sound: local file, our containers only (VideoInput).
      command += VideoInput.ffmpegOptions(for: input)
      command += ["-i", input, "-map", "0:v:0", "-map", "1:a:0?"] + plan.options + ["-shortest"]
    }
    // 4:2:0 frames carry the clip's own Y′CbCr (its range and matrix, untouched): the
    // output says so. RGBA frames become BT.709 limited range, converted and tagged so.
    if raw == "rgba" {
      command += ["-vf", "scale=out_color_matrix=bt709:out_range=tv"]
      command += VideoColourTags(range: "tv", space: "bt709", primaries: "bt709", transfer: "bt709").ffmpegOptions
    } else {
      command += colour.ffmpegOptions
    }
    command += ["-c:v", encoder, "-crf", String(quality)]
    if let preset { command += ["-preset", preset] }
    if encoder.hasPrefix("libvpx") { command += ["-b:v", "0"] }
    let staged = try StagedOutput(output, kind: .file)
    FrameSink.mention(staged.removedLeftovers)
    command += ["-pix_fmt", "yuv420p", "-f", Self.muxer(output), staged.temporary]
    self.staged = staged
    let ffmpeg = try ChildProcess(command)
    self.ffmpeg = ffmpeg
    fd = ffmpeg.input
  }

  /// The next buffer to render into, once the writer has sent what it held.
  func freeBuffer() throws -> ReframeBuffer {
    free.wait()
    if let message = failure.withLock({ $0 }) {
      free.signal()
      throw CommandError(message: message, code: 1)
    }
    defer { next += 1 }
    return buffers[next % buffers.count]
  }

  func write(_ buffer: ReframeBuffer, frame: VideoFrame) {
    let (fd, raw, output) = (self.fd, self.raw, self.output)
    queue.async {
      if self.failure.withLock({ $0 == nil }), let folder = self.pngFolder {
        do { try FrameSink.writePNG(buffer.rgba, index: self.written, in: folder) } catch {
          self.failure.withLock { $0 = Failures.describe(error).message }
        }
        self.written += 1
      } else if self.failure.withLock({ $0 == nil }) {
        let sent =
          raw == "rgba"
          ? buffer.rgba.pixels.withUnsafeBytes { Console.writeAll(fd, $0) }
          : buffer.yuv.bytes.withUnsafeBytes { Console.writeAll(fd, $0) }
        if !sent {
          self.failure.withLock {
            $0 = output == "-" ? "standard output closed: the reader stopped taking frames" : "ffmpeg stopped accepting frames"
          }
        }
      }
      self.free.signal()
    }
  }

  /// Waits for the writer, lets ffmpeg finish, and renames its file over the output.
  func finish() throws {
    queue.sync {}
    if let message = failure.withLock({ $0 }) {
      abandon()
      throw CommandError(message: message, code: 1)
    }
    guard let staged else { return }
    guard let ffmpeg else { return try staged.commit() }
    let status = ffmpeg.wait()
    guard status == 0 else {
      staged.discard()
      throw CommandError(message: "ffmpeg failed (status \(status)); \(output) not written", code: 1)
    }
    if let sphericalTag, ["mp4", "mov"].contains(Self.muxer(output)) {
      do { try MP4Tagger.tagInPlace(staged.temporary, tag: sphericalTag) } catch {
        staged.discard()
        throw error
      }
    }
    try staged.commit()
  }

  /// After a failure: ffmpeg stopped, its partial file removed, an existing output untouched.
  func abandon() {
    queue.sync {}
    ffmpeg?.stop()
    staged?.discard()
  }
}

/// "frame 120/240 · 85.3 fps · 1.4 s left" on stderr: rewritten in place on a terminal,
/// a line a second with `--progress` otherwise.
final class ReframeProgress {
  let total: Int?
  let fps: Double
  let tty = isatty(2) != 0
  let enabled: Bool
  let started = ReframeProgress.now()
  var lastShown = 0.0

  /// Whether the summary line is printed at the end (all but `--quiet`: a script's log
  /// should say what was written too).
  let summary: Bool

  init(total: Int?, fps: Double, forced: Bool, quiet: Bool = false) {
    self.total = total
    self.fps = fps
    enabled = !quiet && (tty || forced)
    summary = !quiet
  }

  static func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }

  func line(_ done: Int) -> String {
    let elapsed = max(Self.now() - started, 1e-6)
    let rate = Double(done) / elapsed
    var text = "frame \(done)" + (total.map { "/\($0)" } ?? "") + " · \(format1(rate)) fps"
    if let total, rate > 0 { text += " · \(format1(Double(max(total - done, 0)) / rate)) s left" }
    return text
  }

  func update(_ done: Int, time: Double) {
    guard enabled else { return }
    let now = Self.now()
    guard now - lastShown >= (tty ? 0.25 : 1) else { return }
    lastShown = now
    Console.writeAll(2, Array((tty ? "\r\(line(done))   " : "\(line(done))\n").utf8))
  }

  /// The last line: `reframed 240 frames in 2.8 s (85.3 fps) into OUT.mp4`; after a
  /// failure (no `output`) only with the progress line, to end it.
  func finish(_ done: Int, output: String? = nil) {
    guard output == nil ? enabled : summary else { return }
    let elapsed = Self.now() - started
    let into = output.map { $0 == "-" ? " to standard output" : " into \($0)" } ?? ""
    Console.writeAll(
      2,
      Array(
        "\(enabled && tty ? "\r" : "")reframed \(done) frames in \(format1(elapsed)) s (\(format1(Double(done) / max(elapsed, 1e-6))) fps)\(into)\n"
          .utf8))
  }
}

/// `x` with one decimal.
func format1(_ x: Double) -> String {
  guard x.isFinite else { return "?" }
  let tenths = Int((x * 10).rounded())
  return "\(tenths / 10).\(abs(tenths) % 10)"
}

/// `x` with two decimals.
func format2(_ x: Double) -> String {
  guard x.isFinite else { return "?" }
  let hundredths = Int((x * 100).rounded())
  let fraction = abs(hundredths) % 100
  return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
