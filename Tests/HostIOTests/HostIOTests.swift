import Foundation
import HostIO
import Testing

@Suite("Files and arguments")
struct HostIOTests {
  @Test func atomicWriteReplacesWholeFiles() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hostio-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("f.txt").path
    try FileIO.writeAtomically(Array("first".utf8), to: path)
    try FileIO.writeAtomically(Array("second, longer".utf8), to: path)
    #expect(try FileIO.read(path) == Array("second, longer".utf8))
    #expect(throws: FileError.self) { try FileIO.read(path, limit: 3) }
    #expect(throws: FileError.self) { try FileIO.writeAtomically([1], to: "/nonexistent/dir/f") }
  }

  @Test func errorsSayWhetherTheyCameFromReading() {
    do {
      _ = try FileIO.read("/nonexistent/input.json")
      Issue.record("read a file that is not there")
    } catch {
      #expect(error.isRead)
    }
    do {
      try FileIO.writeAtomically([1], to: "/nonexistent/dir/out.json")
      Issue.record("wrote into a folder that is not there")
    } catch {
      #expect(!error.isRead)
    }
  }

  @Test func argumentsParse() throws {
    let a = try Arguments(
      ["in.jpg", "-o", "out.png", "--yaw=90", "--fast"], valued: ["output", "yaw"], switches: ["fast"], aliases: ["o": "output"])
    #expect(a.positional == ["in.jpg"])
    #expect(a.value("output") == "out.png")
    #expect(try a.number("yaw", in: -360...360) == 90)
    #expect(a.flag("fast"))
    #expect(throws: Arguments.Error.self) { try Arguments(["--nope"], valued: [], switches: []) }
    #expect(throws: Arguments.Error.self) { try Arguments(["--size", "0x5"], valued: ["size"], switches: []).size("size") }
  }
}
