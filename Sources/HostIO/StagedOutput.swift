#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output that takes a while to make (a video through ffmpeg, a folder of frames or
/// tiles), written under a temporary name beside its target, `NAME.partial-PID`, and renamed
/// over the target only when it is complete: a failure, an interrupt (`Interrupts`) or a
/// crash leaves whatever was at the target as it was. Temporaries that killed runs left in
/// the target's folder (their process gone; `removeLeftovers` says which) are removed when
/// the next output there is opened, and listed in `removedLeftovers` so the command can say so.
///
/// ```swift
/// FileIO.checkDestination("clips/out.mp4")        // before any decoding
/// let staged = try StagedOutput("clips/out.mp4", kind: .file)
/// // … write staged.temporary …
/// try staged.commit()                              // or staged.discard()
/// ```
public final class StagedOutput: @unchecked Sendable {
  public enum Kind: Sendable { case file, directory }

  /// Where the output goes when it is complete.
  public let target: String
  /// Where it is written meanwhile, in the target's folder (so the rename is atomic).
  public let temporary: String
  public let kind: Kind
  /// Temporaries of earlier runs that died without cleaning up, removed just now.
  public let removedLeftovers: [String]
  private var interruptID: Int?
  private var finished = false

  /// Reserves `target.partial-PID` (a new empty folder for `.directory`, a new empty file for
  /// `.file`, which the writer overwrites), after removing dead runs' leftovers.
  public init(_ target: String, kind: Kind) throws(FileError) {
    // `-o frames/` names the folder `frames`: its temporary is `frames.partial-PID`.
    var target = target
    while target.count > 1, target.hasSuffix("/") { target.removeLast() }
    self.target = target
    self.kind = kind
    temporary = "\(target).partial-\(getpid())"
    removedLeftovers = Self.removeLeftovers(of: target)
    Self.removeTree(temporary)
    // Made here, new, for either kind (`mkdir` and `O_EXCL` never follow a link): the
    // writer (ffmpeg) then opens our own file, not a link planted at the name meanwhile.
    if kind == .directory {
      guard mkdir(temporary, 0o755) == 0 else { throw .fromErrno("cannot create directory", target) }
    } else {
      let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw .fromErrno("cannot create", target) }
      close(fd)
    }
    let temporary = self.temporary, shown = self.target
    interruptID =
      Interrupts.isInstalled
      ? Interrupts.register {
        StagedOutput.removeWhileOthersWrite(temporary)
        return "removed \(temporary); \(shown) is as it was"
      } : nil
  }

  /// Puts the finished output in place: flushed to disk, then renamed over the target (a
  /// folder replaces a folder whole, by an atomic exchange where the system has one).
  public func commit() throws(FileError) {
    let result: FileError? = Interrupts.withoutInterruption(unregistering: interruptID) {
      if kind == .directory {
        FileIO.syncFileSystem()
      } else {
        let fd = open(temporary, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 {
          fsync(fd)
          close(fd)
        }
      }
      if rename(temporary, target) == 0 {
        FileIO.syncDirectory(of: target)
        return nil
      }
      // A folder over a folder that is not empty: swap the two, then remove the old one.
      guard kind == .directory, errno == ENOTEMPTY || errno == EEXIST else {
        let error = FileError.fromErrno("cannot rename into place", target)
        Self.removeTree(temporary)
        return error
      }
      guard Self.exchange(temporary, target) else {
        let error = FileError.fromErrno("cannot replace", target)
        Self.removeTree(temporary)
        return error
      }
      Self.removeTree(temporary)
      FileIO.syncDirectory(of: target)
      return nil
    }
    forget()
    if let result { throw result }
  }

  /// Removes the temporary output; the target stays as it was.
  public func discard() {
    Interrupts.withoutInterruption(unregistering: interruptID) { Self.removeTree(temporary) }
    forget()
  }

  private func forget() {
    interruptID = nil
    finished = true
  }

  /// Dropped unfinished (an error unwound past it): the temporary goes.
  deinit { if !finished { discard() } }

  /// Whether `name` is any output's temporary, as `init` and its cleanup name them
  /// (`NAME.partial-PID`, `….removing`, `….old`), and that PID.
  static func leftoverPID(_ name: String) -> Int32? {
    let marker = Array(".partial-".utf8), bytes = Array(name.utf8)
    var i = bytes.count - marker.count
    // The last marker with a name before it.
    while i >= 1 && !bytes[i..<(i + marker.count)].elementsEqual(marker) { i -= 1 }
    guard i >= 1 else { return nil }
    let digits = bytes[(i + marker.count)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    let rest = String(decoding: bytes[(i + marker.count + digits.count)...], as: UTF8.self)
    guard (1...10).contains(digits.count), rest.isEmpty || rest == ".removing" || rest == ".old",
      let pid = Int32(String(decoding: digits, as: UTF8.self)), pid > 0
    else { return nil }
    return pid
  }

  /// Removes the temporaries in `target`'s folder that killed runs left: any output's, not
  /// only this one's (a run killed with `kill -9` and never repeated under the same name left
  /// its `OUT.partial-PID` for ever). One is a leftover when all of these hold: its name is
  /// one `init` makes (`leftoverPID`), its process is gone (`kill(PID, 0)` says no such
  /// process: a live one, or one of another user, keeps it), and it is a plain file, folder
  /// or symbolic link of this user's (another user's file never is). A link is removed
  /// itself, never followed (`removeTree`): `OUT.partial-123 -> ~/Photos` once had the folder
  /// it pointed at emptied.
  static func removeLeftovers(of target: String) -> [String] {
    let (directory, _) = FileIO.split(target)
    guard let dir = opendir(directory) else { return [] }
    var found: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      guard let pid = leftoverPID(name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
      let path = directory == "." && !target.hasPrefix("./") ? name : FileIO.join(directory, name)
      var status = stat()
      guard lstat(path, &status) == 0, status.st_uid == geteuid(),
        [S_IFREG, S_IFDIR, S_IFLNK].contains(status.st_mode & S_IFMT)
      else { continue }
      found.append(path)
    }
    closedir(dir)
    for path in found { removeTree(path) }
    return found.sorted()
  }

  /// Removes a folder that threads may still be writing into (the run is being stopped):
  /// renamed first, so that no new file can appear in it, then removed.
  static func removeWhileOthersWrite(_ path: String) {
    let aside = path + ".removing"
    removeTree(rename(path, aside) == 0 ? aside : path)
  }

  /// Removes a file, or a folder with everything in it; best effort, nothing if absent. A
  /// symbolic link is removed itself, never followed, at the top and at every level below:
  /// a link named like a leftover (`OUT.partial-123 -> ~/Photos`) once had the folder it
  /// pointed at emptied. Folders are opened `O_NOFOLLOW | O_DIRECTORY` and their entries
  /// removed relative to that open folder (`unlinkat`), so no path is looked up twice.
  public static func removeTree(_ path: String) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else {
      // Not a folder: a file, a link (ELOOP, ENOTDIR), or nothing.
      unlink(path)
      return
    }
    removeContents(of: fd)
    rmdir(path)
  }

  /// Empties the open folder `fd` (and closes it): links and files unlinked, folders
  /// emptied the same way, then removed.
  static func removeContents(of fd: Int32) {
    guard let dir = fdopendir(fd) else {
      close(fd)
      return
    }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name == "." || name == ".." { continue }
      let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      if child >= 0 {
        removeContents(of: child)
        unlinkat(fd, name, AT_REMOVEDIR)
      } else {
        unlinkat(fd, name, 0)
      }
    }
  }

  /// Swaps two paths atomically (Linux's renameat2 with RENAME_EXCHANGE); elsewhere, or
  /// where the file system refuses, the old one is moved aside first.
  static func exchange(_ a: String, _ b: String) -> Bool {
    #if os(Linux)
      typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
      let atCurrentDirectory: Int32 = -100, exchange: UInt32 = 2
      if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2"),
        unsafeBitCast(symbol, to: RenameAt2.self)(atCurrentDirectory, a, atCurrentDirectory, b, exchange) == 0
      {
        return true
      }
    #endif
    let aside = a + ".old"
    guard rename(b, aside) == 0 else { return false }
    guard rename(a, b) == 0 else {
      rename(aside, b)
      return false
    }
    if rename(aside, a) != 0 { removeTree(aside) }
    return true
  }
}

extension FileIO {
  /// Refuses a destination whose folder is missing or not a folder, with the same message
  /// for every command, before any work is done: an output must never create folders the
  /// user did not ask for, nor fail only after minutes of decoding.
  public static func checkDestination(_ path: String) throws(FileError) {
    let directory = Console.escaped(split(path).directory)
    var st = stat()
    guard stat(split(path).directory, &st) == 0 else {
      throw FileError(operation: "cannot write", path: path, reason: "the folder \(directory) does not exist")
    }
    guard (st.st_mode & S_IFMT) == S_IFDIR else {
      throw FileError(operation: "cannot write", path: path, reason: "\(directory) is not a folder")
    }
    guard access(split(path).directory, W_OK | X_OK) == 0 else {
      throw FileError(operation: "cannot write", path: path, reason: "the folder \(directory) is not writable")
    }
  }

  /// The names in folder `path` (without `.` and `..`), sorted; none if it cannot be read.
  public static func entries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// The folder holding `path` and its last component (`"."` for a bare name; a trailing
  /// slash ignored).
  static func split(_ path: String) -> (directory: String, name: String) {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
    let directory = trimmed[..<slash]
    return (directory.isEmpty ? "/" : String(directory), String(trimmed[trimmed.index(after: slash)...]))
  }

  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  /// Flushes the folder holding `path` (its new entry after a rename).
  static func syncDirectory(of path: String) {
    let dfd = open(split(path).directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dfd >= 0 {
      fsync(dfd)
      close(dfd)
    }
  }
}
