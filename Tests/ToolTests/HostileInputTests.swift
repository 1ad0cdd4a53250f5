import Foundation
import Testing

/// Files crafted to make the CLI read what it was not given, crash, or take all memory or
/// time: each is refused with a message, quickly, in bounded memory.
@Suite struct HostileInputTests {
  /// An upload named `clip.mp4` that is an HLS playlist or an ffconcat list naming another
  /// clip on the host (by `file://` address, absolute path or relative name): `pano info`
  /// and `pano reframe` refuse it by name and never open the other clip.
  @Test func playlistsAndListsNamingOtherFilesAreRefused() throws {
    let dir = try Tool.temporaryDirectory()
    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
    // Someone else's clip, of a size nothing else here has.
    Clips.ffmpeg(["-f", "lavfi", "-i", "color=red:s=96x48:d=0.5", "-r", "30", file("other.mp4")])
    let other = file("other.mp4")
    let lists: [(String, String, String)] = [
      ("hls.mp4", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile://\(other)\n#EXT-X-ENDLIST\n", "is an HLS playlist"),
      ("hls-path.mov", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n\(other)\n#EXT-X-ENDLIST\n", "is an HLS playlist"),
      ("concat.mp4", "ffconcat version 1.0\nfile 'other.mp4'\n", "is an ffconcat list"),
      ("concat-abs.mkv", "ffconcat version 1.0\nfile 'file:\(other)'\n", "is an ffconcat list"),
    ]
    // Reads of other.mp4 set its access time, when this file system keeps them: set it far
    // back, and check a read of a control file does move it.
    func setAccessTimeBack(_ path: String) { _ = path.withCString { utimes($0, [timeval(), timeval()]) } }
    func accessTime(_ path: String) -> Int {
      var s = stat()
      stat(path, &s)
      return s.st_atim.tv_sec
    }
    try Data("x".utf8).write(to: URL(fileURLWithPath: file("control")))
    setAccessTimeBack(file("control"))
    _ = try Data(contentsOf: URL(fileURLWithPath: file("control")))
    let keepsAccessTimes = accessTime(file("control")) > 0
    for (name, text, expected) in lists {
      try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
      setAccessTimeBack(other)
      let info = try Tool.run("imagestage", ["pano", "info", file(name)])
      #expect(info.status != 0 && info.stderr.contains("\(name) \(expected)"), "\(name): \(info.stderr)")
      #expect(!info.stdout.contains("96"), "\(name): \(info.stdout)")
      let out = file(name + ".out.mp4")
      let reframe = try Tool.run("imagestage", ["pano", "reframe", file(name), "-o", out, "--size", "64x32"])
      #expect(reframe.status != 0 && reframe.stderr.contains("\(name) \(expected)"), "\(name): \(reframe.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
      if keepsAccessTimes { #expect(accessTime(other) == 0, "\(name): other.mp4 was read") }
    }
    // A format libavformat reads but we do not (a raw H.264 stream) is named, not opened.
    Clips.ffmpeg(["-f", "lavfi", "-i", "color=red:s=96x48:d=0.2", "-f", "h264", file("raw.mp4")])
    let raw = try Tool.run("imagestage", ["pano", "info", file("raw.mp4")])
    #expect(raw.status != 0 && raw.stderr.contains("raw.mp4 is a h264 file, not a container this reads"), "\(raw.stderr)")
  }

  /// moov inside a top-level `udta` whose 64-bit size is near Int64.max: libavformat reads
  /// the clip (it clamps the size to the file), and the CLI's walk of the same boxes trapped
  /// on the offset sum (SIGILL). Now `pano info` answers, and `pano reframe` reframes it.
  @Test func aBoxSizeNearInt64MaxIsNotACrash() throws {
    let dir = try Tool.temporaryDirectory()
    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
    Clips.ffmpeg(["-f", "lavfi", "-i", "color=gray:s=64x32:d=0.2", "-r", "10", file("plain.mp4")])
    let plain = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file("plain.mp4"))))
    // ffmpeg's order: ftyp, free, mdat, moov. Wrapping moov leaves the chunk offsets true.
    var before: [UInt8] = [], moov: [UInt8] = []
    var i = 0
    while i + 8 <= plain.count {
      let size = plain[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
      let box = plain[i..<min(i + max(size, 8), plain.count)]
      if String(decoding: plain[(i + 4)..<(i + 8)], as: UTF8.self) == "moov" { moov += box } else { before += box }
      i += max(size, 8)
    }
    try #require(!moov.isEmpty)
    let huge = UInt64(Int64.max) - 8
    let header: [UInt8] = [0, 0, 0, 1] + Array("udta".utf8) + (0..<8).map { UInt8(truncatingIfNeeded: huge >> (56 - 8 * $0)) }
    try Data(before + header + moov).write(to: URL(fileURLWithPath: file("crafted.mp4")))
    let info = try Tool.run("imagestage", ["pano", "info", file("crafted.mp4")])
    #expect(info.status == 0 && info.stdout.contains("64"), "\(info.status): \(info.stderr)")
    let out = file("out.mp4")
    let reframe = try Tool.run("imagestage", ["pano", "reframe", file("crafted.mp4"), "-o", out, "--size", "32x16"])
    #expect(reframe.status == 0, "\(reframe.status): \(reframe.stderr)")
  }
}
