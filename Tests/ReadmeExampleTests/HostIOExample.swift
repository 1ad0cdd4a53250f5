import CMacTypes
import Glibc
import HostIO
import Testing

/// Sources/HostIO/README.md's example, run in a temporary `folder` (it writes files and runs
/// ffmpeg).
@Suite(.serialized) struct HostIOExample {
  @Test func filesAreWrittenWholeAndAStagedVideoLandsUnderItsName() throws {
    let folder = "/tmp/imagestage-readme-hostio-\(getpid())"  // where the example writes
    mkdir(folder, 0o755)
    defer { StagedOutput.removeTree(folder) }
    // README Sources/HostIO/README.md
    try FileIO.writeAtomically(Array("{}\n".utf8), to: "\(folder)/state.json")  // a crash leaves the old file or the new
    let bytes = try FileIO.read("\(folder)/state.json", limit: 1 << 20)  // "{}\n"
    Console.line("{\"type\":\"done\"}")

    // A command that writes a video (after `Interrupts.install()`: Ctrl-C kills ffmpeg and
    // removes the temporary): refuse a missing folder first, then stage the output.
    try FileIO.checkDestination("\(folder)/out.mp4")
    let staged = try StagedOutput("\(folder)/out.mp4", kind: .file)
    let ffmpeg = try ChildProcess([
      "ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=red:size=16x16:duration=0.1", "-f", "mp4", "-y", staged.temporary,
    ])
    ffmpeg.closeInput()  // this source needs no frames; a renderer writes raw frames to ffmpeg.input
    if ffmpeg.wait() == 0 { try staged.commit() } else { staged.discard() }
    // folder/out.mp4 is there whole, or not at all
    // END README
    Console.flush()
    #expect(bytes == Array("{}\n".utf8))
    #expect(try FileIO.read("\(folder)/out.mp4").count > 100)
    #expect(throws: FileError.self) { try FileIO.checkDestination("\(folder)/missing/out.mp4") }
  }
}
