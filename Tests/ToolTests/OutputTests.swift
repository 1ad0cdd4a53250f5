import Foundation
import Testing

/// What the CLI does to the files it writes: a run that is interrupted, killed or refused
/// leaves what the user had as it was (real files, real signals to the real process).
@Suite("imagestage outputs", .serialized)
struct OutputTests {
  /// A running `imagestage` with its stderr collected.
  final class Running {
    let process = Process()
    let err = Pipe()

    init(_ args: [String]) throws {
      process.executableURL = Tool.productsDirectory.appendingPathComponent("imagestage")
      process.arguments = args
      process.currentDirectoryURL = Tool.packageRoot
      process.standardError = err
      process.standardOutput = FileHandle.nullDevice
      try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits (up to `seconds`) until `condition` holds while the process runs.
    func wait(upTo seconds: Double = 60, until condition: () -> Bool) -> Bool {
      let end = Date().addingTimeInterval(seconds)
      while Date() < end && process.isRunning {
        if condition() { return true }
        usleep(20_000)
      }
      return false
    }

    /// Sends `signal`, waits for the end: the exit status and stderr.
    func stop(_ signal: Int32) -> (status: Int32, stderr: String) {
      kill(pid, signal)
      let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (process.terminationStatus, message)
    }
  }

  static func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1 }

  /// Processes whose command line mentions `text` (a child left running).
  static func processes(mentioning text: String) -> [String] {
    let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { Int($0) != nil } ?? []
    return pids.compactMap { pid in
      guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
      let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
      return line.contains(text) ? line : nil
    }
  }

  static func source(in dir: URL) throws -> String {
    let path = dir.appendingPathComponent("pano.jpg").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", path, "--size", "2048x1024"]).status == 0)
    return path
  }

  /// Ctrl-C while ffmpeg writes over a video the user had: exit 130, ffmpeg gone, the old
  /// video byte for byte as it was, nothing left beside it.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
  func anInterruptedVideoLeavesTheFileItWasReplacing() throws {
    let dir = try Tool.temporaryDirectory()
    let source = try Self.source(in: dir)
    let out = dir.appendingPathComponent("out.mp4").path
    let good = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try good.write(to: URL(fileURLWithPath: out))
    let run = try Running(["pano", "video", source, "--motion", "docs/examples/turn.csv", "--size", "640x360", "-o", out])
    let partial = "\(out).partial-\(run.pid)"
    // ffmpeg has written part of the new video.
    #expect(run.wait { Self.size(partial) > 0 }, "ffmpeg started writing \(partial)")
    let (status, message) = run.stop(SIGINT)
    #expect(status == 130, "\(message)")
    #expect(message.contains("interrupted") && message.contains("is as it was"), "\(message)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == good)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["out.mp4", "pano.jpg"])
    #expect(Self.processes(mentioning: partial).isEmpty, "ffmpeg stopped")
  }

  /// SIGTERM while frames go into a folder of an earlier run's frames: the folder as it was.
  @Test func aTerminatedVideoLeavesTheFramesItWasReplacing() throws {
    let dir = try Tool.temporaryDirectory()
    let source = try Self.source(in: dir)
    let frames = dir.appendingPathComponent("frames")
    try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: false)
    let old = Data("an earlier run's frame".utf8)
    for name in ["frame-00001.png", "frame-00002.png"] { try old.write(to: frames.appendingPathComponent(name)) }
    let run = try Running(["pano", "video", source, "--motion", "docs/examples/turn.csv", "--size", "320x180", "-o", frames.path])
    let partial = "\(frames.path).partial-\(run.pid)"
    #expect(run.wait { (try? FileManager.default.contentsOfDirectory(atPath: partial).count) ?? 0 >= 3 })
    let (status, message) = run.stop(SIGTERM)
    #expect(status == 143, "SIGTERM: 128 + 15: \(message)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted() == ["frame-00001.png", "frame-00002.png"])
    #expect(try Data(contentsOf: frames.appendingPathComponent("frame-00001.png")) == old)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["frames", "pano.jpg"])

    // Run to the end, the new frames replace the old ones whole; a folder holding anything
    // else is refused before any work.
    let short = ["--motion", "docs/examples/turn.csv", "--size", "32x16", "--fps", "1"]
    let done = try Tool.run("imagestage", ["pano", "video", source, "-o", frames.path] + short)
    #expect(done.status == 0, "\(done.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: frames.path)
    #expect(written.count == 13 && written.allSatisfy { $0.hasPrefix("frame-") })
    #expect(try Data(contentsOf: frames.appendingPathComponent("frame-00001.png")) != old)
    try Data("mine".utf8).write(to: frames.appendingPathComponent("notes.txt"))
    let refused = try Tool.run("imagestage", ["pano", "video", source, "-o", frames.path] + short)
    #expect(refused.status == 2 && refused.stderr.contains("holds the file \"notes.txt\""), "\(refused.stderr)")
  }
}
