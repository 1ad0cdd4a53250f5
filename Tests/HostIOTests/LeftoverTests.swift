import Foundation
import HostIO
import Testing

/// Which temporaries a new output removes from its folder: those any killed run left (not
/// only this output's), never a live run's or a name it does not make; a symlink is removed
/// itself, never followed.
@Suite("Leftovers of killed runs")
struct LeftoverTests {
  /// A PID that was a process and is no more.
  static func deadPID() throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.run()
    p.waitUntilExit()
    return p.processIdentifier
  }

  @Test func anyKilledRunsTemporariesGoAndNothingElse() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leftovers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    let dead = try Self.deadPID(), live = getppid()
    // Killed runs of other outputs: a video, a folder of frames, one being removed.
    try Data("half a video".utf8).write(to: URL(fileURLWithPath: path("earlier.mp4.partial-\(dead)")))
    try FileManager.default.createDirectory(atPath: path("frames.partial-\(dead)"), withIntermediateDirectories: false)
    try Data().write(to: URL(fileURLWithPath: path("frames.partial-\(dead)/frame-00001.png")))
    try Data().write(to: URL(fileURLWithPath: path("tiles.partial-\(dead).removing")))
    // Kept: a live run's, a name with no PID, a bare marker, the user's own names.
    let kept = [
      "running.mp4.partial-\(live)", "notes.partial-draft", ".partial-\(dead)", "clip.partial-\(dead).mp4",
    ]
    for name in kept { try Data("keep".utf8).write(to: URL(fileURLWithPath: path(name))) }
    // A symlink named like a leftover: removed itself, what it points to untouched.
    let elsewhere = dir.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
    try Data("precious".utf8).write(to: elsewhere.appendingPathComponent("file"))
    try FileManager.default.createSymbolicLink(atPath: path("link.mp4.partial-\(dead)"), withDestinationPath: elsewhere.path)

    let staged = try StagedOutput(path("new.mp4"), kind: .file)
    staged.discard()
    #expect(
      staged.removedLeftovers
        == [
          "earlier.mp4.partial-\(dead)", "frames.partial-\(dead)", "link.mp4.partial-\(dead)",
          "tiles.partial-\(dead).removing",
        ].map(path).sorted())
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(left == (kept + ["elsewhere"]).sorted(), "\(left)")
    #expect(try String(contentsOf: elsewhere.appendingPathComponent("file"), encoding: .utf8) == "precious")
  }
}
