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

/// Links planted where outputs are cleaned up or written are removed themselves, never
/// followed: what they point at stays as it was (issue 39).
@Suite("Planted links")
struct PlantedLinkTests {
  /// A process id no process has (kill(pid, 0) answers ESRCH): a dead run's leftover.
  static let deadPID: Int32 = 2_147_483_000

  static func folder() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hostio-links-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// A folder of the user's, with a file in it, outside the output's folder.
  static func victim(in dir: URL) throws -> URL {
    let victim = dir.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
    try Data("keep me".utf8).write(to: victim.appendingPathComponent("holiday.jpg"))
    return victim
  }

  @Test func aLinkNamedLikeALeftoverIsRemovedNotFollowed() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let victim = try Self.victim(in: dir)
    let out = dir.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let target = out.appendingPathComponent("tiles").path
    // At the top: OUT.partial-DEADPID -> photos.
    try FileManager.default.createSymbolicLink(atPath: "\(target).partial-\(Self.deadPID)", withDestinationPath: victim.path)
    // Inside a real leftover folder: a link to photos among its files.
    let leftover = "\(target).partial-\(Self.deadPID + 1)"
    try FileManager.default.createDirectory(atPath: leftover + "/1", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: leftover + "/1/inner", withDestinationPath: victim.path)
    // Our own run's name, planted ahead (a guessable PID).
    try FileManager.default.createSymbolicLink(atPath: "\(target).partial-\(getpid())", withDestinationPath: victim.path)

    let staged = try StagedOutput(target, kind: .directory)
    #expect(staged.removedLeftovers.count == 2, "\(staged.removedLeftovers)")
    staged.discard()
    #expect(try Data(contentsOf: victim.appendingPathComponent("holiday.jpg")) == Data("keep me".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == [], "leftovers and links removed")

    StagedOutput.removeTree(victim.path + "-link")  // absent: nothing happens
    try FileManager.default.createSymbolicLink(atPath: victim.path + "-link", withDestinationPath: victim.path)
    StagedOutput.removeTree(victim.path + "-link")
    #expect(!FileManager.default.fileExists(atPath: victim.path + "-link"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == ["holiday.jpg"])
  }

  /// A file output's temporary is made by us, new: a link planted at its name is removed,
  /// and the writer (ffmpeg) opens a plain file.
  @Test func aFileOutputsTemporaryIsANewPlainFile() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let victim = dir.appendingPathComponent("victim.mp4")
    try Data("the user's video".utf8).write(to: victim)
    let target = dir.appendingPathComponent("out.mp4").path
    try FileManager.default.createSymbolicLink(atPath: "\(target).partial-\(getpid())", withDestinationPath: victim.path)
    let staged = try StagedOutput(target, kind: .file)
    let attributes = try FileManager.default.attributesOfItem(atPath: staged.temporary)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    staged.discard()
    #expect(try Data(contentsOf: victim) == Data("the user's video".utf8))
  }

  /// An image write never goes through a link at its temporary name: the old name,
  /// `OUT.tmp-PID`, could be planted ahead and was truncated and written through.
  @Test func anAtomicWriteNeverWritesThroughAPlantedLink() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let victim = dir.appendingPathComponent("victim.txt")
    try Data("the user's notes".utf8).write(to: victim)
    let out = dir.appendingPathComponent("out.png").path
    try FileManager.default.createSymbolicLink(atPath: "\(out).tmp-\(getpid())", withDestinationPath: victim.path)
    try FileIO.writeAtomically(Array("new image".utf8), to: out)
    #expect(try Data(contentsOf: victim) == Data("the user's notes".utf8))
    #expect(try FileIO.read(out) == Array("new image".utf8))
    let attributes = try FileManager.default.attributesOfItem(atPath: out)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    // No temporary of ours is left beside it.
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(names.filter { $0.hasPrefix("out.png.tmp-\(getpid())-") }.isEmpty, "\(names)")
  }

  /// A FIFO, a folder or a device is refused by name at once (a FIFO's open used to wait
  /// for a writer that never came).
  @Test func onlyRegularFilesAreRead() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("pipe.json").path
    #expect(mkfifo(fifo, 0o644) == 0)
    for (path, kind) in [(fifo, "FIFO"), (dir.path, "folder"), ("/dev/zero", "device")] {
      for read in [
        { _ = try FileIO.read(path) }, { _ = try FileIO.readPrefix(path, count: 10) }, { try FileIO.requireRegularFile(path) },
      ] {
        do {
          try read()
          Issue.record("\(path) was read")
        } catch let error as FileError {
          #expect(error.description.contains(path) && error.description.contains(kind), "\(error)")
          #expect(error.isRead)
        }
      }
    }
  }

  @Test(arguments: [
    ("plain/name.jpg", "plain/name.jpg"), ("a\nb.jpg", "a\\nb.jpg"), ("x\u{1b}[31mred.jpg", "x\\u{1b}[31mred.jpg"),
    ("t\tr\r.png", "t\\tr\\r.png"), ("bidi\u{202E}gpj.exe", "bidi\\u{202e}gpj.exe"), ("été.jpg", "été.jpg"),
  ])
  func controlCharactersInPathsAreEscaped(raw: String, shown: String) {
    #expect(Console.escaped(raw) == shown)
    #expect(FileError(operation: "cannot open", path: raw, reason: "x").description == "cannot open \(shown): x")
  }
}
