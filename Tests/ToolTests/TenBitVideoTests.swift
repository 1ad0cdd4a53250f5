import Foundation
import Panorama
import Testing

/// 10-bit clips (HEVC Main 10, `yuv420p10le`) made with ffmpeg's libx265, read and drawn
/// from their 16-bit planes.
@Suite("10-bit video", .serialized)
struct TenBitVideoTests {
  static let degree = Double.pi / 180
  /// x265 at 10 bits: `lossless` keeps a ramp's values as made (the 8-bit twin is lossless
  /// too, so the two differ only in their bit depth).
  static func x265(_ pixelFormat: String, lossless: Bool = false) -> [String] {
    [
      "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", pixelFormat, "-x265-params",
      "log-level=error" + (lossless ? ":lossless=1" : ""),
    ]
  }

  static let dir: URL = {
    let dir = try! Tool.temporaryDirectory()
    let pano = dir.appendingPathComponent("pano.png").path
    _ = try! Tool.run("imagestage", ["pano", "sample", "-o", pano, "--size", "512x256"])
    // The marker clip of ReframeCommandTests, 0.6 s of it, in 10 bits.
    Clips.ffmpeg(
      [
        "-loop", "1", "-i", pano, "-f", "lavfi", "-i", "color=0xFF00FF:s=12x12", "-filter_complex",
        "[0][1]overlay=x='250+512*20*t/360':y=122:shortest=1", "-t", "0.6", "-r", "30",
      ] + x265("yuv420p10le") + ["marker10.mp4"], in: dir)
    // A grey ramp, black at source column 128 to white at 384, made in 16 bits; 10- and
    // 8-bit lossless copies.
    let ramp = [
      "-f", "lavfi", "-i", "nullsrc=s=512x256:r=30:d=0.1,format=gray16le,geq=lum='clip((X-128)*65535/256,0,65535)'",
    ]
    Clips.ffmpeg(ramp + x265("yuv420p10le", lossless: true) + ["ramp10.mp4"], in: dir)
    Clips.ffmpeg(ramp + x265("yuv420p", lossless: true) + ["ramp8.mp4"], in: dir)
    Clips.ffmpeg(["-loop", "1", "-i", pano, "-t", "0.2", "-r", "30"] + x265("yuv422p10le") + ["422.mp4"], in: dir)
    return dir
  }()

  static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

  @Test func infoNamesTheBitDepthAndTheMarkerLandsWhereTheViewSays() throws {
    let info = try Tool.run("imagestage", ["pano", "info", Self.path("marker10.mp4")])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("\"pixelFormat\":\"yuv420p10le\"") && info.stdout.contains("\"bitDepth\":10"), "\(info.stdout)")
    #expect(info.stdout.contains("\"hdr\":null"))

    // At 0.5 s the marker is about 10° right of the clip's centre: --yaw 10 centres it, and
    // --yaw 0 puts it tan(10°)·80 px right of the centre.
    for (yaw, expected) in [(10.0, 79.5), (0, 79.5 + 80 * tan(10 * Self.degree))] {
      let result = try Clips.raw([
        "pano", "reframe", Self.path("marker10.mp4"), "--yaw", "\(yaw)", "-o", "-", "--raw", "rgba", "--size", "160x90",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let frames = Clips.frames(result.stdout, width: 160, height: 90)
      #expect(frames.count == 18)
      let m = try #require(Clips.marker(frames[15]), "no marker at yaw \(yaw)")
      #expect(abs(m.x - expected) < 3 && abs(m.y - 44.5) < 4, "yaw \(yaw): marker at \(m)")
      // The rest of the view is the panorama, not noise from misread samples.
      let still = try Tool.run(
        "imagestage",
        [
          "pano", "render", Self.path("marker10.mp4"), "--time", "0.5", "--yaw", "\(yaw)", "--size", "160x90", "-o",
          Self.dir.appendingPathComponent("still\(Int(yaw)).png").path,
        ])
      #expect(still.status == 0, "\(still.stderr)")
      let image = try PanoCommandTests.decode(Self.dir.appendingPathComponent("still\(Int(yaw)).png").path)
      #expect(image.psnr(against: frames[15]) > 40, "render and reframe: \(image.psnr(against: frames[15])) dB")
    }
  }

  /// Straight across the ramp (equirectangular view, two output pixels a source pixel): the
  /// 10-bit clip reaches nearly every grey level and follows the ramp more closely; 8-bit
  /// limited range has 220 luma levels, stretched over 256.
  @Test func aRampKeepsMoreLevelsAndLessErrorThanItsEightBitTwin() throws {
    func row(_ clip: String) throws -> [Double] {
      let result = try Clips.raw([
        "pano", "reframe", Self.path(clip), "--lens", "equirectangular", "--hfov", "180", "-o", "-", "--raw", "rgba",
        "--size", "512x16",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let frame = try #require(Clips.frames(result.stdout, width: 512, height: 16).first)
      return (0..<512).map { Double(RGBAImage.unpack(frame[$0, 8]).g) }
    }
    let deep = try row("ramp10.mp4"), shallow = try row("ramp8.mp4")
    // Output x at source column 128 + (x + 0.5) / 2 - 0.5 (pixel centres at integers); the
    // error measured about each clip's mean offset from it (half a level here, where
    // ffmpeg's and our pixel centres part), so what is left is the quantisation's.
    func truth(_ x: Int) -> Double { min(max((Double(x) + 0.5) / 2 - 0.5, 0) / 256, 1) * 255 }
    func error(_ row: [Double]) -> Double {
      let xs = 8..<504
      let bias = xs.map { row[$0] - truth($0) }.reduce(0, +) / Double(xs.count)
      return xs.map { abs(row[$0] - truth($0) - bias) }.reduce(0, +) / Double(xs.count)
    }
    let e10 = error(deep), e8 = error(shallow)
    let levels10 = Set(deep).count, levels8 = Set(shallow).count
    #expect(levels8 <= 221, "\(levels8) levels from 8 bits")
    #expect(levels10 >= 250, "\(levels10) levels from 10 bits, \(levels8) from 8")
    #expect(e10 < 0.8 * e8, "mean error: 10-bit \(e10), 8-bit \(e8)")
  }

  @Test func fourTwoTwoIsRefusedSayingWhatIsRead() throws {
    let result = try Tool.run("imagestage", ["pano", "info", Self.path("422.mp4")])
    #expect(result.status != 0)
    #expect(
      result.stderr.contains("its frames are yuv422p10le; only 4:2:0 at 8 or 10 bits (yuv420p, yuv420p10le)"),
      "\(result.stderr)")
  }
}
