import Foundation
import Testing

/// `pano tag` on clips ffmpeg makes from the sample panorama: libavformat (ffprobe) and
/// `pano info` read back what it wrote, and a faststart clip (moov first, so the chunk
/// offsets move) still decodes to the same frames and audio.
@Suite("pano tag", .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
struct PanoTagTests {
  static let dir: URL = {
    let dir = try! Tool.temporaryDirectory()
    let pano = dir.appendingPathComponent("pano.png").path
    _ = try! Tool.run("imagestage", ["pano", "sample", "-o", pano, "--size", "256x128"])
    for (name, flags) in [("plain.mp4", [String]()), ("fast.mp4", ["-movflags", "+faststart"])] {
      Clips.ffmpeg(
        ["-loop", "1", "-i", pano, "-f", "lavfi", "-i", "sine=d=1", "-t", "1", "-r", "10", "-c:a", "aac"] + flags + [name],
        in: dir)
    }
    return dir
  }()

  static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

  static func tool(_ name: String, _ args: [String]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/\(name)")
    p.arguments = args
    p.standardInput = FileHandle.nullDevice
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = FileHandle.nullDevice
    try p.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return text
  }

  /// libavformat's side data for the video stream, as ffprobe prints it.
  static func sideData(_ file: String) throws -> [[String: Any]] {
    let json = try tool("ffprobe", ["-v", "error", "-select_streams", "v", "-show_streams", "-of", "json", file])
    let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let stream = (root?["streams"] as? [[String: Any]])?.first
    return stream?["side_data_list"] as? [[String: Any]] ?? []
  }

  /// Every decoded frame and audio sample, hashed: equal when the media is intact.
  static func md5(_ file: String) throws -> String { try tool("ffmpeg", ["-v", "error", "-i", file, "-f", "md5", "-"]) }

  @Test func libavformatAndPanoInfoReadTheMetadataBack() throws {
    let out = Self.path("tagged.mp4")
    let r = try Tool.run("imagestage", ["pano", "tag", Self.path("plain.mp4"), "-o", out, "--pose", "90,-12.5,7"])
    #expect(r.status == 0, "\(r.stderr)")
    let side = try Self.sideData(out)
    let mapping = side.first { $0["side_data_type"] as? String == "Spherical Mapping" }
    #expect(mapping?["projection"] as? String == "equirectangular")
    #expect(mapping?["yaw"] as? Int == 90)
    #expect(mapping?["roll"] as? Int == 7)
    let info = try Tool.run("imagestage", ["pano", "info", out])
    #expect(info.stdout.contains("\"pose\":{\"yaw\":90,\"pitch\":-12.5,\"roll\":7}"), "\(info.stdout)")
    #expect(info.stdout.contains("\"spherical\":\"Spherical Video V2"))
    #expect(try Self.md5(out) == Self.md5(Self.path("plain.mp4")))
  }

  /// moov before mdat: the entry grows, so every chunk offset (video and audio) must move by
  /// as much, or the decoder reads the wrong bytes.
  @Test func aFaststartClipStillDecodesEveryFrame() throws {
    let out = Self.path("fast-tagged.mp4")
    let r = try Tool.run("imagestage", ["pano", "tag", Self.path("fast.mp4"), "-o", out, "--stereo", "top-bottom"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("2 chunk offset table(s) moved"), "\(r.stdout)")
    #expect(try Self.sideData(out).contains { $0["side_data_type"] as? String == "Stereo 3D" })
    let frames = try Self.tool(
      "ffprobe",
      ["-v", "error", "-count_frames", "-select_streams", "v", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", out])
    #expect(frames.split(separator: ",").first == "10", "\(frames)")
    #expect(try Self.md5(out) == Self.md5(Self.path("fast.mp4")))
  }

  /// `-o` naming the input retags it through a temporary; tagging again replaces the boxes.
  @Test func retaggingInPlaceReplacesTheBoxes() throws {
    let file = Self.path("again.mp4")
    try? FileManager.default.removeItem(atPath: file)
    try FileManager.default.copyItem(atPath: Self.path("fast.mp4"), toPath: file)
    #expect(try Tool.run("imagestage", ["pano", "tag", file, "-o", file, "--pose", "10,0,0"]).status == 0)
    let once = try Data(contentsOf: URL(fileURLWithPath: file)).count
    let r = try Tool.run("imagestage", ["pano", "tag", file, "-o", file, "--pose", "45,0,0"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)).count == once)
    let mapping = try Self.sideData(file).first { $0["side_data_type"] as? String == "Spherical Mapping" }
    #expect(mapping?["yaw"] as? Int == 45)
    #expect(try Self.md5(file) == Self.md5(Self.path("fast.mp4")))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: Self.dir.path).filter { $0.contains(".partial-") }
    #expect(leftovers.isEmpty)
  }

  /// Bad input: a clear message naming what is wrong, exit 2, and no output.
  @Test func brokenFilesAreRefusedByName() throws {
    let clip = try Data(contentsOf: URL(fileURLWithPath: Self.path("fast.mp4")))
    // Cut inside moov (the faststart file's second box), and a box claiming 4 GB.
    let cut = Self.path("cut.mp4"), huge = Self.path("huge.mp4")
    try clip.prefix(200).write(to: URL(fileURLWithPath: cut))
    var bytes = [UInt8](clip)
    bytes.replaceSubrange(0..<4, with: [0xFF, 0xFF, 0xFF, 0xF0])
    try Data(bytes).write(to: URL(fileURLWithPath: huge))
    for (file, words) in [(cut, "claims"), (huge, "claims")] {
      let out = Self.path("never.mp4")
      let r = try Tool.run("imagestage", ["pano", "tag", file, "-o", out])
      #expect(r.status == 2)
      #expect(r.stderr.contains(words), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
    // A faststart clip whose stco claims 2³¹ chunks: refused before any offset is touched.
    var lying = [UInt8](clip)
    let stco = Array("stco".utf8)
    let at = (0..<(lying.count - 4)).first { lying[$0..<($0 + 4)].elementsEqual(stco) }!
    lying.replaceSubrange((at + 8)..<(at + 12), with: [0x7F, 0xFF, 0xFF, 0xFF])
    let lyingPath = Self.path("lying.mp4")
    try Data(lying).write(to: URL(fileURLWithPath: lyingPath))
    let refused = try Tool.run("imagestage", ["pano", "tag", lyingPath, "-o", Self.path("never.mp4")])
    #expect(refused.status == 2 && refused.stderr.contains("stco lists 2147483647 chunks"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: Self.path("never.mp4")))
    let pose = try Tool.run("imagestage", ["pano", "tag", Self.path("fast.mp4"), "-o", Self.path("x.mp4"), "--pose", "90"])
    #expect(pose.status == 2 && pose.stderr.contains("--pose"))
  }
}

/// A 2:1 view of the whole sphere is a 360° clip itself: its .mp4 says so, as `pano tag` would.
@Suite("360° outputs carry metadata", .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
struct SphericalOutputTests {
  static func mapping(_ file: String) throws -> [String: Any]? {
    try PanoTagTests.sideData(file).first { $0["side_data_type"] as? String == "Spherical Mapping" }
  }

  @Test func reframeToAFullSphereWritesIt() throws {
    let out = PanoTagTests.path("sphere.mp4"), flat = PanoTagTests.path("flat.mp4")
    let r = try Tool.run(
      "imagestage",
      [
        "pano", "reframe", PanoTagTests.path("plain.mp4"), "-o", out, "--lens", "equirectangular", "--hfov", "360",
        "--size", "256x128", "--quiet",
      ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try Self.mapping(out)?["projection"] as? String == "equirectangular")
    let info = try Tool.run("imagestage", ["pano", "info", out])
    #expect(info.stdout.contains("\"spherical\":\"Spherical Video V2"), "\(info.stdout)")
    // A flat view is not a 360° clip.
    let f = try Tool.run(
      "imagestage", ["pano", "reframe", PanoTagTests.path("plain.mp4"), "-o", flat, "--size", "256x128", "--quiet"])
    #expect(f.status == 0, "\(f.stderr)")
    #expect(try Self.mapping(flat) == nil)
  }

  @Test func panoVideoToAFullSphereWritesIt() throws {
    let dir = PanoTagTests.dir
    let log = dir.appendingPathComponent("still.csv")
    try "t,qx,qy,qz,qw\n0,0,0,0,1\n1,0,0,0,1\n".write(to: log, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("still-sphere.mp4").path
    let r = try Tool.run(
      "imagestage",
      [
        "pano", "video", dir.appendingPathComponent("pano.png").path, "--motion", log.path, "-o", out, "--lens",
        "equirectangular", "--hfov", "360", "--size", "256x128", "--fps", "5",
      ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try Self.mapping(out)?["projection"] as? String == "equirectangular")
  }
}
