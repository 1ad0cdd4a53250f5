import Dispatch
import HostIO
import Panorama
import Raster
import Scenes
import Stage
import StageJSON
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Saves and restores what the boards keep across restarts (Locations positions, Shortcuts
/// assignments), one file a board in the state format (docs/scenario.md), written
/// atomically.
///
/// Two copies of the app share the files. Each notices when the other saved (the file's
/// time and size changed, checked once a second) and reloads it, so the last change made
/// in either window wins and neither overwrites the other's with stale state. Chosen over a
/// lock, which would leave the second window unable to save at all.
struct SceneStore {
  let directory: String?
  var stamps: [SceneKind: (modified: Int, size: Int)] = [:]
  /// Writes run here, off the frame: an atomic write ends in `fsync`, which took a
  /// millisecond or more and showed as the p99 of a drag's frames.
  let writer = BackgroundWriter()
  /// Writes queued and not yet reported back, per board.
  var inFlight: [SceneKind: Int] = [:]

  init(directory: String?) {
    if let directory {
      self.directory = directory
    } else if let xdg = getenv("XDG_CONFIG_HOME"), xdg.pointee != 0 {
      self.directory = String(cString: xdg) + "/imagestage"
    } else if let home = getenv("HOME") {
      self.directory = String(cString: home) + "/.config/imagestage"
    } else {
      self.directory = nil
    }
  }

  func path(_ kind: SceneKind) -> String? { directory.map { "\($0)/\(kind.rawValue).json" } }

  /// Restores `kind` from its file; a message when the file was unreadable (it is kept aside
  /// as `.corrupt`, never overwritten).
  mutating func load(_ kind: SceneKind, into studio: inout Studio, at t: Double) -> String? {
    guard let path = path(kind), FileIO.exists(path) else { return nil }
    stamps[kind] = FileIO.stamp(path)
    do {
      try studio.restoreSaved(kind, from: try FileIO.read(path, limit: 1 << 20), source: path, at: t)
      return nil
    } catch {
      let aside = FileIO.moveAside(path)
      stamps[kind] = nil
      // What happened to the file first: the banner may be read only that far.
      let message =
        "The saved \(kind.title) board could not be read and was "
        + (aside.map { "kept as \($0)" } ?? "left in place") + "; it starts afresh. \(error)"
      Console.error(message)
      return message
    }
  }

  /// Saves `kind` in the background (the text is taken now, in order with earlier saves).
  mutating func save(_ kind: SceneKind, _ studio: Studio) {
    guard let path = path(kind), let directory else { return }
    inFlight[kind, default: 0] += 1
    // The engine is a value: the writer encodes this very state off the frame (a board of
    // 1 000 items is 100 KB of JSON).
    let engine = studio.board(kind).engine, numericIDs = studio.board(kind).numericIDs
    writer.write(to: path, in: directory, for: kind) { Array((SavedState.encode(engine, numericIDs: numericIDs)).utf8) }
  }

  /// Takes in finished writes: their file stamps, and a message for each that failed.
  mutating func collect() -> [String] {
    var problems: [String] = []
    for done in writer.takeFinished() {
      inFlight[done.kind, default: 1] -= 1
      if let stamp = done.stamp { stamps[done.kind] = stamp }
      if let error = done.error {
        let message = "Cannot save \(done.kind.title): \(error)"
        Console.error(message)
        problems.append(message)
      }
    }
    return problems
  }

  /// Waits for every queued write (before the app exits).
  mutating func finish() -> [String] {
    writer.drain()
    return collect()
  }

  /// Boards whose file another program changed since we last read or wrote it (not while a
  /// write of ours is on its way).
  func changedOutside() -> [SceneKind] {
    SceneKind.allCases.filter { kind in
      guard kind.isBoard, inFlight[kind, default: 0] == 0 else { return false }
      guard let path = path(kind), let now = FileIO.stamp(path) else { return false }
      guard let known = stamps[kind] else { return true }
      return known != now
    }
  }
}

/// One serial queue of atomic writes, and what finished.
final class BackgroundWriter: Sendable {
  struct Finished: Sendable {
    var kind: SceneKind
    var stamp: (modified: Int, size: Int)?
    var error: String?
  }

  let queue = DispatchQueue(label: "imagestage.saves")
  let finished = Mutex<[Finished]>([])

  func write(to path: String, in directory: String, for kind: SceneKind, _ bytes: @escaping @Sendable () -> [UInt8]) {
    queue.async { [self] in
      var result = Finished(kind: kind)
      do {
        try FileIO.makeDirectories(directory)
        try FileIO.writeAtomically(bytes(), to: path)
        result.stamp = FileIO.stamp(path)
      } catch {
        result.error = "\(error)"
      }
      self.finished.withLock { $0.append(result) }
    }
  }

  func takeFinished() -> [Finished] {
    finished.withLock { all in
      defer { all = [] }; return all
    }
  }

  func drain() { queue.sync {} }
}

/// Photos for Locations: JPEG and PNG files, decoded at reduced size into square thumbnails.
enum PhotoFolder {
  static let side = 256

  /// The photos in `directory` (sorted by name), and a message for each file that failed.
  static func load(_ directory: String) -> (photos: [(photo: Photo, image: RGBAImage)], problems: [String]) {
    guard let dir = opendir(directory) else { return ([], ["--photos \(directory): cannot open the folder"]) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      let lower = name.lowercased()
      if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") || lower.hasSuffix(".png") { names.append(name) }
    }
    closedir(dir)
    var photos: [(Photo, RGBAImage)] = []
    var problems: [String] = []
    for name in names.sorted() {
      do { photos.append(try loadOne(directory + "/" + name)) } catch { problems.append("\(name): \(error)") }
    }
    if names.isEmpty { problems.append("--photos \(directory): no JPEG or PNG files there") }
    return (photos, problems)
  }

  /// One photo: its id and name come from the file name.
  static func loadOne(_ path: String) throws -> (photo: Photo, image: RGBAImage) {
    let file = fileName(path)
    let stem = file.split(separator: ".").dropLast().joined(separator: ".")
    let image = try Raster.thumbnail(try FileIO.read(path, limit: 256 << 20), side: side)
    return (Photo(id: stem.isEmpty ? file : stem, name: stem.isEmpty ? file : stem), image)
  }
}
