import Foundation
import Panorama
import Raster
import TestSupport
import Testing

/// The pure-Swift box reader (what the web viewer runs) against libavformat's reading
/// (`VideoDecoder.spherical`, what the CLI and the app use) on clips ffmpeg makes from the
/// sample panorama, V2 and V1 metadata written by scripts/spherical-metadata.py.
@Suite("MP4SphericalReader", .serialized)
struct MP4SphericalReaderTests {
  static let dir: URL = {
    let dir = try! Tool.temporaryDirectory()
    func ffmpeg(_ args: [String]) { Clips.ffmpeg(args, in: dir) }
    func metadata(_ input: String, _ output: String, _ options: [String]) {
      Clips.metadata(dir.appendingPathComponent(input).path, dir.appendingPathComponent(output).path, options)
    }
    let pano = dir.appendingPathComponent("pano.png").path
    _ = try! Tool.run("imagestage", ["pano", "sample", "-o", pano, "--size", "256x128"])
    ffmpeg(["-loop", "1", "-i", pano, "-t", "0.2", "-r", "10", "plain.mp4"])
    // A top-bottom pair: the panorama on top, a red-tinted copy below.
    ffmpeg([
      "-loop", "1", "-i", pano, "-filter_complex", "[0]split[a][b];[b]colorchannelmixer=rr=1:gg=0.3:bb=0.3[t];[a][t]vstack",
      "-t", "0.2", "-r", "10", "pair.mp4",
    ])
    metadata("plain.mp4", "mono.mp4", ["--v2"])
    metadata("pair.mp4", "topbottom.mp4", ["--v2", "--stereo", "top-bottom"])
    metadata("plain.mp4", "posed.mp4", ["--v2", "--yaw", "90", "--pitch", "-12.5", "--roll", "7"])
    metadata("plain.mp4", "cropped.mp4", ["--v2", "--crop", "0.25,0.125,0,0.5"])
    metadata("plain.mp4", "v1.mp4", ["--v1", "--yaw", "45", "--stereo", "top-bottom"])
    // moov first: ffmpeg carries the V2 side data over (sv3d is "unofficial" to its muxer).
    ffmpeg(["-i", "posed.mp4", "-c", "copy", "-strict", "unofficial", "-movflags", "+faststart", "faststart.mp4"])
    return dir
  }()

  static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

  /// Drives the reader over `bytes` as a host would: every read it asks for, in order.
  static func read(_ bytes: [UInt8], knownSize: Bool = false) -> (
    video: SphericalVideo?, reason: String, reads: [Int64], frame: (width: Int, height: Int)?
  ) {
    var reader = MP4SphericalReader(fileSize: knownSize ? Int64(bytes.count) : nil)
    var reads: [Int64] = []
    for _ in 0..<200 {
      switch reader.next {
      case .need(let offset, let count):
        #expect(count >= 0 && count <= MP4SphericalReader.maxMoov)
        reads.append(offset)
        let start = Int(min(max(offset, 0), Int64(bytes.count)))
        reader.feed(Array(bytes[start..<min(start + count, bytes.count)]))
      case .done(let video, let reason): return (video, reason, reads, reader.frameSize)
      }
    }
    Issue.record("the reader did not finish in 200 reads")
    return (nil, "", reads, nil)
  }

  static func bytes(_ name: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path(name))!) }

  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")),
    arguments: ["mono.mp4", "topbottom.mp4", "posed.mp4", "cropped.mp4", "v1.mp4", "faststart.mp4"])
  func agreesWithLibavformat(_ name: String) throws {
    let decoder = try VideoDecoder(path: Self.path(name))
    let ours = Self.read(Self.bytes(name))
    let video = try #require(ours.video, "\(name): \(ours.reason)")
    #expect(video == decoder.spherical, "\(name)")
    // The same with the file's size known (a Content-Range total).
    #expect(Self.read(Self.bytes(name), knownSize: true).video == decoder.spherical)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
  func whatTheClipsSay() throws {
    #expect(Self.read(Self.bytes("topbottom.mp4")).video?.stereo == .topBottom)
    let posed = try #require(Self.read(Self.bytes("posed.mp4")).video)
    #expect(abs(posed.pose.yaw - Double.pi / 2) < 1e-9)
    #expect(abs(posed.pose.pitch + 12.5 * Double.pi / 180) < 1e-9)
    #expect(abs(posed.pose.roll - 7 * Double.pi / 180) < 1e-9)
    let cropped = try #require(Self.read(Self.bytes("cropped.mp4")).video)
    #expect([cropped.cropTop, cropped.cropBottom, cropped.cropLeft, cropped.cropRight] == [0.25, 0.125, 0, 0.5])
    let v1 = try #require(Self.read(Self.bytes("v1.mp4")).video)
    #expect(v1.source.contains("V1") && v1.stereo == .topBottom && abs(v1.initialView.yaw - Double.pi / 4) < 1e-9)
  }

  /// ffmpeg's default puts moov after mdat: the reader asks for the first 64 KB, then moov's
  /// own range (this clip's mdat is smaller than 64 KB, so the header is in hand). With
  /// +faststart moov is in the first read: one read only.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
  func moovAtTheEndOrFirst() throws {
    let end = Self.bytes("posed.mp4"), fast = Self.bytes("faststart.mp4")
    #expect(Self.read(end).reads.count == 2 || end.count <= MP4SphericalReader.firstRead)
    #expect(Self.read(fast).reads == [0])
    // moov past a large mdat: the header read at mdat's end, then moov. A 1 MB mdat
    // spliced in front of the clip's (chunk offsets do not matter to the reader).
    let top = Self.topLevel(end)
    let moov = try #require(top.first { $0.type == "moov" })
    let ftyp = try #require(top.first { $0.type == "ftyp" })
    var big = Array(end[ftyp.range])
    big += [0, 0x10, 0, 0] + Array("mdat".utf8) + [UInt8](repeating: 7, count: (1 << 20) - 8)
    big += Array(end[moov.range])
    let result = Self.read(big)
    #expect(result.video == Self.read(end).video)
    let moovAt = Int64(ftyp.range.count + (1 << 20))
    #expect(result.reads == [0, moovAt, moovAt + 8])
  }

  static func topLevel(_ bytes: [UInt8]) -> [(type: String, range: Range<Int>)] {
    var out: [(String, Range<Int>)] = []
    var i = 0
    while i + 8 <= bytes.count {
      let size = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
      out.append((String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self), i..<(i + size)))
      i += max(size, 8)
    }
    return out
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
  func noMetadataGivesAReasonAndTheFrameSize() throws {
    let result = Self.read(Self.bytes("plain.mp4"))
    #expect(result.video == nil)
    #expect(result.reason.contains("no spherical metadata"))
    let frame = try #require(result.frame)
    let decoder = try VideoDecoder(path: Self.path("plain.mp4"))
    #expect(SphericalVideo.assumed(width: frame.width, height: frame.height) == decoder.spherical)
  }

  /// Cut anywhere, or bytes flipped anywhere in moov: a reason or a reading, never a trap;
  /// cut inside moov: always a reason.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
  func truncatedAndGarbage() throws {
    let whole = Self.bytes("topbottom.mp4")
    let moov = try #require(Self.topLevel(whole).first { $0.type == "moov" })
    for cut in stride(from: 0, to: whole.count, by: max(1, whole.count / 97)) {
      let result = Self.read(Array(whole[..<cut]))
      if cut < moov.range.upperBound {
        #expect(result.video == nil && !result.reason.isEmpty, "cut at \(cut)")
      }
    }
    var generator = SeededRandom(seed: 139)  // the same draws every run
    for _ in 0..<300 {
      var bad = whole
      for _ in 0..<4 { bad[Int.random(in: moov.range, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
      let result = Self.read(bad)
      #expect(result.video != nil || !result.reason.isEmpty)
    }
    let garbage = (0..<70_000).map { [0x13, 0x37, 0xC0, 0xDE, 0x00, 0xFF, 0x80, 0x01][$0 % 8] as UInt8 }
    #expect(Self.read(garbage).reason.contains("not an ISO BMFF"))
    #expect(Self.read([]).reason.contains("no moov"))
    // A moov over 16 MB (64-bit size) is refused before it is read.
    let huge = [0, 0, 0, 1] + Array("moov".utf8) + [0, 0, 0, 0, 0x02, 0, 0, 0] + [UInt8](repeating: 0, count: 64)
    let refused = Self.read(huge)
    #expect(refused.reason.contains("over the 16 MB") && refused.reads == [0])
    // A 64-bit size near Int64.max after a first box: refused, not an overflow trap.
    let free = [0, 0, 0, 8] + Array("free".utf8)
    let endless = free + [0, 0, 0, 1] + Array("mdat".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    #expect(Self.read(endless + [UInt8](repeating: 0, count: 64)).reason.contains("past any file's end"))
    // A child running past moov's end.
    let overrun = [0, 0, 0, 24] + Array("moov".utf8) + [0, 0, 1, 0] + Array("trak".utf8) + [UInt8](repeating: 0, count: 8)
    #expect(Self.read(overrun).reason.contains("runs past its parent"))
  }
}
