import Foundation
import Testing

/// An HDR clip (PQ, BT.2020) is drawn without tone mapping: the commands say so, and the
/// .mp4 keeps the clip's matrix and transfer tags so a player shows it as the clip.
@Suite("HDR tags", .serialized)
struct HDRTagTests {
  @Test func aPQClipIsSaidNotToBeToneMappedAndKeepsItsTags() throws {
    let clip = Clips.path("pq.mp4"), out = Clips.path("pq-out.mp4")
    Clips.ffmpeg([
      "-f", "lavfi", "-i", "color=0x808080:s=256x128:d=0.2:r=30", "-c:v", "libx264", "-preset", "ultrafast",
      "-pix_fmt", "yuv420p", "-color_range", "tv", "-colorspace", "bt2020nc", "-color_primaries", "bt2020",
      "-color_trc", "smpte2084", clip,
    ])
    let info = try Tool.run("imagestage", ["pano", "info", clip])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("\"hdr\":\"PQ (smpte2084)\""), "\(info.stdout)")
    #expect(info.stderr.contains("HDR is not tone-mapped"), "\(info.stderr)")
    let result = try Tool.run("imagestage", ["pano", "reframe", clip, "-o", out, "--size", "64x32"])
    #expect(result.status == 0 && result.stderr.contains("HDR is not tone-mapped"), "\(result.stderr)")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    p.arguments = [
      "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=color_range,color_space,color_transfer",
      "-of", "csv=p=0", out,
    ]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let tags = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(tags.trimmingCharacters(in: .whitespacesAndNewlines) == "tv,bt2020nc,smpte2084", "\(tags)")
    let still = try Tool.run(
      "imagestage", ["pano", "render", clip, "--time", "0", "-o", Clips.path("pq.png"), "--size", "64x32"])
    #expect(still.status == 0 && still.stderr.contains("HDR is not tone-mapped"), "\(still.stderr)")
    let sdr = try Tool.run("imagestage", ["pano", "info", Clips.path("plain.mp4")])
    #expect(sdr.stdout.contains("\"hdr\":null") && !sdr.stderr.contains("tone-mapped"), "\(sdr.stdout) \(sdr.stderr)")
  }
}
