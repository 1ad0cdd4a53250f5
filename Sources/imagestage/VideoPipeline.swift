import Dispatch
import HostIO
import Panorama
import Raster
import StageJSON
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

// `pano video`'s pipeline, apart from the commands that use it: frames written on their own
// thread (`FrameWriter`), where they go (`FrameSink`: a PNG folder, a pipe, ffmpeg for
// .mp4), handed to a pipe without a copy (`PipeSplicer`), and the progress bar (`Progress`).

/// Writes frames on its own thread, in order, so frame N is written while N + 1 renders; at
/// most `buffers` frames are in flight. PNG files are independent, so a folder's frames are
/// encoded on several threads at once (PNG compression costs far more than rendering). The
/// first error stops the writing and is thrown from the next `waitForFree` or `finish`.
final class FrameWriter: @unchecked Sendable {
  /// A frame buffer shared with the writer without copying: the renderer draws into it only
  /// after the writer has let it go (`waitForFree`).
  final class Buffer: @unchecked Sendable {
    var image: RGBAImage
    init(_ width: Int, _ height: Int) { image = RGBAImage(width: width, height: height) }
  }

  /// Touched only on `queue` (serial for a stream; a folder's frames never touch it).
  var sink: FrameSink
  /// The first write error (a lock, not the queue: reading it must not wait for a write).
  let error = Mutex<(any Error)?>(nil)
  let queue: DispatchQueue
  let free: DispatchSemaphore
  /// The folder frames go to, encoded concurrently; nil for a stream (pipe, ffmpeg).
  let folder: String?
  /// How many frame buffers the caller should cycle through.
  let buffers: Int

  init(_ sink: FrameSink, threads: Int) {
    self.sink = sink
    if case .directory(let path) = sink.kind {
      folder = path
      buffers = max(2, threads + 1)
      queue = DispatchQueue(label: "imagestage.video-frames", attributes: .concurrent)
    } else {
      folder = nil
      buffers = 2
      queue = DispatchQueue(label: "imagestage.video-frames")
    }
    free = DispatchSemaphore(value: buffers)
  }

  /// Waits until a buffer is free; throws the writer's error, if it met one.
  func waitForFree() throws {
    free.wait()
    if let error = error.withLock({ $0 }) {
      // Hand the buffer back: a semaphore released below its starting count traps.
      free.signal()
      throw error
    }
  }

  func write(_ buffer: Buffer, index: Int) {
    let folder = self.folder
    queue.async {
      if self.error.withLock({ $0 == nil }) {
        do {
          if let folder {
            try FrameSink.writePNG(buffer.image, index: index, in: folder)
          } else {
            try self.sink.write(buffer.image, index: index)
          }
        } catch {
          self.error.withLock { if $0 == nil { $0 = error } }
        }
      }
      self.free.signal()
    }
  }

  /// After a failure: waits for the frames in flight, stops ffmpeg and removes the
  /// unfinished output.
  func abandon() {
    queue.sync(flags: .barrier) { self.sink.abandon() }
  }

  /// Waits for every frame, closes the sink, and throws the first error.
  func finish() throws {
    try queue.sync(flags: .barrier) {
      if let error = self.error.withLock({ $0 }) { throw error }
      try self.sink.finish()
    }
  }
}

/// Where video frames go: ffmpeg (`.mp4`), numbered PNGs (a directory), or raw RGBA (`-`).
struct FrameSink {
  enum Kind {
    /// ffmpeg, and the splicer for its input (nil: written with `write`).
    case ffmpeg(ChildProcess, PipeSplicer?)
    /// The folder frames are written into (the staged output's temporary one).
    case directory(String)
    case stdout
  }
  var kind: Kind
  /// The .mp4 or folder being made, renamed over OUT by `finish` (nil for `-`).
  var staged: StagedOutput?
  /// Written into the .mp4 once ffmpeg has finished it (a 2:1 full-sphere view).
  var sphericalTag: SphericalTag?

  /// Refuses an output no sink takes, before anything is decoded: an unknown extension
  /// (`clip.webm` became a folder of PNGs), a file where a folder is meant, raw frames to a
  /// terminal.
  static func check(output: String) throws {
    let accepted = "OUT.mp4 (H.264, through ffmpeg), a folder for numbered PNGs, or - for raw RGBA on standard output"
    if output == "-" {
      guard isatty(1) == 0 else {
        throw CommandError(
          message: "-o -: standard output is a terminal; pipe the raw frames (| ffplay …) or write OUT.mp4 or a folder of PNGs")
      }
      return
    }
    var status = stat()
    let exists = stat(output, &status) == 0
    let isDirectory = exists && (status.st_mode & S_IFMT) == S_IFDIR
    if output.lowercased().hasSuffix(".mp4") {
      guard !isDirectory else { throw CommandError(message: "-o \(output): that is a folder; an .mp4 is a file") }
      return try PanoCommand.checkDestination(output)
    }
    if exists && !isDirectory {
      throw CommandError(message: "-o \(output): that is a file; pano video writes \(accepted)")
    }
    let name = output.split(separator: "/").last.map(String.init) ?? output
    if !isDirectory, let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex {
      throw CommandError(message: "-o \(output): unknown video type \(name[dot...]); pano video writes \(accepted)")
    }
    try PanoCommand.checkDestination(output)
    // The new frames replace the folder whole (no stale frames of a longer clip stay): only
    // an earlier run's frames may be there, never the user's own files.
    if isDirectory, let other = FileIO.entries(output).first(where: { !isFrameName($0) }) {
      throw CommandError(
        message:
          "-o \(output): the folder holds \(TilesCommand.entryName(other, in: output)); pano video replaces a folder's frames whole, so give a new folder, an empty one or one of frame-NNNNN.png only"
      )
    }
  }

  /// `frame-00001.png`: a frame `writePNG` names.
  static func isFrameName(_ name: String) -> Bool {
    name.hasPrefix("frame-") && name.hasSuffix(".png") && name.dropFirst(6).dropLast(4).allSatisfy(\.isNumber)
      && name.count >= 15
  }

  init(output: String, width: Int, height: Int, fps: Double) throws {
    if output == "-" {
      kind = .stdout
      #if os(Linux)
        // A 64 KB pipe wakes the reader 130 times for a 1080p frame; 1 MB (the unprivileged
        // limit) cuts that to 8. Not a pipe, or refused: nothing changes.
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, hidden behind _GNU_SOURCE in Glibc
        _ = fcntl(1, setPipeSize, Int32(1 << 20))
      #endif
    } else if output.lowercased().hasSuffix(".mp4") {
      guard ChildProcess.isOnPath("ffmpeg") else {
        throw CommandError(
          message: "ffmpeg not found on PATH: install it (apt-get install ffmpeg) or write PNGs to a directory")
      }
      // ffmpeg writes OUT.mp4.partial-PID (the muxer named, since the name's extension is not
      // .mp4), renamed over OUT.mp4 only when ffmpeg has finished it.
      let staged = try StagedOutput(output, kind: .file)
      Self.mention(staged.removedLeftovers)
      let ffmpeg = try ChildProcess([
        "ffmpeg", "-loglevel", "error", "-y", "-protocol_whitelist", "pipe", "-f", "rawvideo", "-pix_fmt", "rgba", "-s",
        "\(width)x\(height)", "-r",
        JSONText.number(fps), "-i", "-", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "veryfast", "-f", "mp4",
        staged.temporary,
      ])
      self.staged = staged
      // Spliced into ffmpeg's input as into standard output's pipe.
      kind = .ffmpeg(ffmpeg, PipeSplicer(fd: ffmpeg.input))
    } else {
      let staged = try StagedOutput(output, kind: .directory)
      Self.mention(staged.removedLeftovers)
      self.staged = staged
      kind = .directory(staged.temporary)
    }
  }

  /// Says which leftovers of killed runs were removed (they could be large).
  static func mention(_ leftovers: [String]) {
    for path in leftovers { Console.error("removed \(path), left by an earlier run that was killed") }
  }

  mutating func write(_ frame: RGBAImage, index: Int) throws {
    switch kind {
    case .ffmpeg(let ffmpeg, let splicer):
      let sent = frame.pixels.withUnsafeBytes { bytes in
        splicer.map { $0.send(bytes) } ?? Console.writeAll(ffmpeg.input, bytes)
      }
      guard sent else {
        let status = ffmpeg.wait()
        throw CommandError(
          message: "ffmpeg stopped accepting frames (exit status \(status)); \(staged?.target ?? "the output") is as it was",
          code: 1)
      }
    case .directory(let dir):
      try Self.writePNG(frame, index: index, in: dir)
    case .stdout:
      let sent = frame.pixels.withUnsafeBytes { bytes in
        Self.splicer.map { $0.send(bytes) } ?? Console.writeAll(1, bytes)
      }
      guard sent else {
        throw CommandError(message: "standard output closed: the reader stopped taking frames", code: 1)
      }
    }
  }

  /// `vmsplice` into a pipe on standard output, when it is one (Linux): the pipe takes the
  /// frame's pages instead of a copy of them. Nil elsewhere, or with `IMAGESTAGE_PIPE=write`:
  /// frames are written.
  static let splicer: PipeSplicer? = PipeSplicer()

  /// Frame `index` as `DIR/frame-NNNNN.png`, numbered from 1.
  static func writePNG(_ frame: RGBAImage, index: Int, in dir: String) throws {
    let name = String(index + 1)
    let path = "\(dir)/frame-\(String(repeating: "0", count: max(0, 5 - name.count)))\(name).png"

    // A frame that cannot be written is the run failing, whatever the cause. No fsync per
    // frame: the folder is new, synced once and renamed into place at the end.
    do { try FileIO.writeNew(try Raster.encodePNG(frame, executor: InlineRows()), to: path) } catch {
      throw CommandError(message: "\(path): \(Failures.describe(error).message)", code: 1)
    }
  }

  /// Stops ffmpeg (its file is not wanted) and removes the unfinished output.
  func abandon() {
    if case .ffmpeg(let ffmpeg, _) = kind { ffmpeg.stop() }
    staged?.discard()
  }

  /// Ends the stream and puts the output in place (an .mp4 only once ffmpeg succeeded).
  func finish() throws {
    if case .ffmpeg(let ffmpeg, _) = kind {
      let status = ffmpeg.wait()
      guard status == 0 else {
        staged?.discard()
        throw CommandError(
          message: "ffmpeg failed (exit status \(status)); \(staged?.target ?? "the output") is as it was", code: 1)
      }
      if let sphericalTag, let staged {
        do { try MP4Tagger.tagInPlace(staged.temporary, tag: sphericalTag) } catch {
          staged.discard()
          throw error
        }
      }
    }
    try staged?.commit()
  }
}

/// A progress bar on stderr when it is a terminal.
struct Progress {
  let total: Int
  var unit = "frames"
  let enabled = isatty(2) != 0

  func update(_ done: Int) {
    guard enabled else { return }
    let width = 30
    let filled = total > 0 ? done * width / total : width
    let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
    Console.writeAll(2, Array("\r[\(bar)] \(done)/\(total) \(unit)".utf8))
  }

  func finish() {
    if enabled { Console.writeAll(2, Array("\n".utf8)) }
  }
}

/// Hands frames to a pipe (standard output, or ffmpeg's input) by reference (`vmsplice`), saving the 8 MB copy
/// a 1080p frame costs. The pipe then refers to the frame's pages until the reader takes
/// them, so `send` returns only once the pipe is empty: the buffer is not reused (the next
/// frame rendered into it) before the reader has every byte of this one.
struct PipeSplicer {
  typealias Splice = @convention(c) (Int32, UnsafePointer<iovec>?, Int, UInt32) -> Int

  let splice: Splice

  let fd: Int32

  init?(fd: Int32 = 1) {
    self.fd = fd
    #if os(Linux)
      var status = stat()
      guard getenv("IMAGESTAGE_PIPE").map({ String(cString: $0) }) != "write",
        fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO,
        let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "vmsplice")  // RTLD_DEFAULT
      else { return nil }
      splice = unsafeBitCast(symbol, to: Splice.self)
    #else
      return nil
    #endif
  }

  /// All of `bytes` into the pipe, then waits for the reader to empty it; false when the
  /// pipe closed.
  func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
      var piece = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + offset), iov_len: bytes.count - offset)
      let sent = splice(fd, &piece, 1, 0)
      if sent < 0 {
        if errno == EINTR { continue }
        // A descriptor vmsplice does not take after all: write the rest.
        if errno == EINVAL || errno == EBADF || errno == ENOSYS {
          return Console.writeAll(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
        return false
      }
      offset += sent
    }
    // FIONREAD: bytes still in the pipe. Wait until the reader has them all (it is already
    // reading: vmsplice only returned once the last piece fit), or has gone (POLLERR on
    // the write end: the bytes would stay in the pipe for ever).
    let bytesQueued: UInt = 0x541B
    var waiting: Int32 = 1
    var pause = timespec(tv_sec: 0, tv_nsec: 50_000)
    while ioctl(fd, bytesQueued, &waiting) == 0 && waiting > 0 {
      var end = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      if poll(&end, 1, 0) > 0 && end.revents & Int16(POLLERR | POLLHUP) != 0 { return false }
      nanosleep(&pause, nil)
    }
    return true
  }
}
