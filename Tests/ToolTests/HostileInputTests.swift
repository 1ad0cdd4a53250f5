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

  /// A valid progressive grayscale JPEG of `width`×`height` made of its DC scan only, every
  /// block's difference coded in one bit: about a bit a block, while libjpeg holds 128 bytes
  /// a block (the whole image's coefficients) until the last scan.
  static func progressiveDCOnly(width: Int, height: Int) -> [UInt8] {
    func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    var jpeg: [UInt8] = [0xFF, 0xD8]
    jpeg += [0xFF, 0xDB] + be16(67) + [0] + [UInt8](repeating: 1, count: 64)  // DQT: all ones
    jpeg += [0xFF, 0xC2] + be16(11) + [8] + be16(height) + be16(width) + [1, 1, 0x11, 0]  // SOF2, one component
    jpeg += [0xFF, 0xC4] + be16(20) + [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0]  // DC table: '0' → category 0
    jpeg += [0xFF, 0xDA] + be16(8) + [1, 1, 0x00, 0, 0, 0]  // SOS: DC first scan
    let blocks = ((width + 7) / 8) * ((height + 7) / 8)
    jpeg += [UInt8](repeating: 0, count: (blocks + 7) / 8)
    return jpeg + [0xFF, 0xD9]
  }

  /// `imagestage ARGS` under python's getrusage: its status, stderr and peak RSS in MB.
  /// Killed after `timeout` seconds (status -9).
  static func measured(_ args: [String], timeout: Int = 120) throws -> (status: Int32, stderr: String, peakMB: Int) {
    let script = """
      import resource, subprocess, sys
      p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
      try:
          _, err = p.communicate(timeout=\(timeout))
      except subprocess.TimeoutExpired:
          p.kill()
          _, err = p.communicate()
      sys.stderr.buffer.write(err)
      print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
      """
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    python.arguments = ["-c", script, Tool.productsDirectory.appendingPathComponent("imagestage").path] + args
    let out = Pipe(), err = Pipe()
    python.standardOutput = out
    python.standardError = err
    try python.run()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    python.waitUntilExit()
    let fields = stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    return (Int32(fields.first ?? -1), stderr, fields.count > 1 ? fields[1] : -1)
  }

  /// A 500 KB progressive JPEG of 16000×16000 px: libjpeg would take 512 MB for its
  /// coefficients before a row is read. `pano tiles --max-memory 256` refuses it from the
  /// header, in bounded memory; within the limit it tiles as before.
  @Test func aProgressiveJPEGsCoefficientsCountAgainstMaxMemory() throws {
    let dir = try Tool.temporaryDirectory()
    let bomb = dir.appendingPathComponent("bomb.jpg").path
    try Data(Self.progressiveDCOnly(width: 16000, height: 16000)).write(to: URL(fileURLWithPath: bomb))
    let out = dir.appendingPathComponent("tiles").path
    let run = try Self.measured(["pano", "tiles", bomb, "-o", out, "--max-memory", "256"])
    #expect(run.status == 2, "\(run.status): \(run.stderr)")
    #expect(run.stderr.contains("JPEG decoder holds") && run.stderr.contains("over --max-memory 256"), "\(run.stderr)")
    #expect(run.peakMB >= 0 && run.peakMB < 200, "peak \(run.peakMB) MB")
    #expect(!FileManager.default.fileExists(atPath: out))
    // A small one of the same kind is read (a flat grey panorama).
    let small = dir.appendingPathComponent("small.jpg").path
    try Data(Self.progressiveDCOnly(width: 512, height: 256)).write(to: URL(fileURLWithPath: small))
    let fine = try Tool.run("imagestage", ["pano", "tiles", small, "-o", out, "--tile-size", "64"])
    #expect(fine.status == 0, "\(fine.stderr)")
    let render = try Tool.run("imagestage", ["pano", "render", small, "-o", dir.appendingPathComponent("v.png").path])
    #expect(render.status == 0, "\(render.stderr)")
  }

  /// A valid progressive grayscale JPEG of 64×64 px and 883 scans, about 8 KB: its DC scan,
  /// then each AC coefficient alone at Al = 13 and refined bit by bit to 0 (14 scans each),
  /// every scan one EOB run over the 64 blocks. Each scan of a progressive JPEG is a pass
  /// over the whole image, so thousands of them in a large one took minutes.
  static func manyScans() -> [UInt8] {
    func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    var jpeg: [UInt8] = [0xFF, 0xD8]
    jpeg += [0xFF, 0xDB] + be16(67) + [0] + [UInt8](repeating: 1, count: 64)
    jpeg += [0xFF, 0xC2] + be16(11) + [8] + be16(64) + be16(64) + [1, 1, 0x11, 0]
    // DC table 0: '0' → category 0; AC table 0: '0' → EOB run 2⁶ (+ 6 bits of 0: 64 blocks).
    let one = [1] + [UInt8](repeating: 0, count: 15)
    jpeg += [0xFF, 0xC4] + be16(38) + [0x00] + one + [0x00] + [0x10] + one + [0x60]
    func scan(_ ss: Int, _ se: Int, _ ah: Int, _ al: Int, _ data: [UInt8]) {
      jpeg += [0xFF, 0xDA] + be16(8) + [1, 1, 0x00, UInt8(ss), UInt8(se), UInt8(ah << 4 | al)] + data
    }
    scan(0, 0, 0, 0, [UInt8](repeating: 0, count: 8))  // 64 blocks, one bit each
    for k in 1...63 {
      scan(k, k, 0, 13, [0x01])  // '0' + '000000', padded with ones
      for al in stride(from: 12, through: 0, by: -1) { scan(k, k, al + 1, al, [0x01]) }
    }
    return jpeg + [0xFF, 0xD9]
  }

  /// Over 500 scans is refused, by `pano render` and `pano tiles`; 883 is what a valid
  /// progression of one component allows (three make 2649).
  @Test func aJPEGOfTooManyScansIsRefused() throws {
    let dir = try Tool.temporaryDirectory()
    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
    try Data(Self.manyScans()).write(to: URL(fileURLWithPath: file("scans.jpg")))
    let expected = "has over 500 scans"
    let render = try Tool.run("imagestage", ["pano", "render", file("scans.jpg"), "-o", file("v.png")])
    #expect(render.status == 2 && render.stderr.contains(expected), "\(render.stderr)")
    let tiles = try Tool.run("imagestage", ["pano", "tiles", file("scans.jpg"), "-o", file("tiles"), "--tile-size", "64"])
    #expect(tiles.status == 2 && tiles.stderr.contains(expected), "\(tiles.stderr)")
  }

  /// A 2 KB JPEG whose GPano fields put its 64×32 px in a panorama 100 000 px wide: `pano
  /// tiles` sized the pyramid by the claim (faces of 31 832 px, tiles for hours). Refused at
  /// once, in bounded memory; `--cube-size` still lets a user choose.
  @Test func gpanoClaimingAHugePanoramaIsRefused() throws {
    let dir = try Tool.temporaryDirectory()
    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
    _ = try Tool.run("imagestage", ["pano", "sample", "-o", file("s.jpg"), "--size", "64x32"])
    let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file("s.jpg"))))
    let xmp = Array(
      ("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:Description "
        + "GPano:ProjectionType=\"equirectangular\" GPano:FullPanoWidthPixels=\"100000\" "
        + "GPano:FullPanoHeightPixels=\"50000\" GPano:CroppedAreaLeftPixels=\"0\" GPano:CroppedAreaTopPixels=\"0\" "
        + "GPano:CroppedAreaImageWidthPixels=\"64\" GPano:CroppedAreaImageHeightPixels=\"32\"/></rdf:RDF></x:xmpmeta>").utf8)
    let app1: [UInt8] = [0xFF, 0xE1, UInt8((xmp.count + 2) >> 8), UInt8((xmp.count + 2) & 0xFF)] + xmp
    try Data(Array(jpeg[..<2]) + app1 + Array(jpeg[2...])).write(to: URL(fileURLWithPath: file("claim.jpg")))
    let run = try Self.measured(["pano", "tiles", file("claim.jpg"), "-o", file("tiles")], timeout: 60)
    #expect(run.status == 2, "\(run.status): \(run.stderr)")
    #expect(run.stderr.contains("a panorama 100000 px wide") && run.stderr.contains("give --cube-size"), "\(run.stderr)")
    #expect(run.peakMB >= 0 && run.peakMB < 200, "peak \(run.peakMB) MB")
    #expect(!FileManager.default.fileExists(atPath: file("tiles")))
    let chosen = try Tool.run(
      "imagestage", ["pano", "tiles", file("claim.jpg"), "-o", file("tiles"), "--cube-size", "64", "--tile-size", "64"])
    #expect(chosen.status == 0, "\(chosen.stderr)")
  }

  /// Ctrl+C in a long run ends it within a second, its partial output removed: a pyramid of
  /// 30 000-px faces (minutes of tiles) and a large render. The child gets SIGINT's default
  /// disposition (a background job's parent may have it ignored, which the CLI respects).
  @Test(arguments: [
    ["pano", "tiles", "sample", "-o", "OUT", "--cube-size", "30000"],
    ["pano", "render", "sample", "--size", "12000x6000", "-o", "OUT.png"],
  ])
  func ctrlCEndsALongRunWithinASecond(_ command: [String]) throws {
    let dir = try Tool.temporaryDirectory()
    let args = command.map { $0.replacingOccurrences(of: "OUT", with: dir.appendingPathComponent("out").path) }
    let script = """
      import signal, subprocess, sys, time
      p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
      time.sleep(2)
      alive = p.poll() is None
      t = time.time()
      p.send_signal(signal.SIGINT)
      try:
          p.communicate(timeout=10)
      except subprocess.TimeoutExpired:
          p.kill()
          p.communicate()
      print(int(alive), p.returncode, time.time() - t)
      """
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    python.arguments = ["-c", script, Tool.productsDirectory.appendingPathComponent("imagestage").path] + args
    let out = Pipe()
    python.standardOutput = out
    try python.run()
    let fields = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")
    python.waitUntilExit()
    try #require(fields.count == 3, "\(fields)")
    #expect(fields[0] == "1", "the run ended before the interrupt: make it longer")
    #expect(fields[1] == "130", "exit \(fields[1])")
    let seconds = Double(fields[2].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99
    #expect(seconds < 1, "\(seconds) s after SIGINT")
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(left.isEmpty, "\(left)")
  }
}
