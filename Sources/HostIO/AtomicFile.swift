#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An I/O failure: the operation, the path, and the system's own message.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
  public var operation: String
  public var path: String
  public var reason: String
  /// Whether it happened reading a file (the user's input) rather than writing one.
  public var isRead = false
  /// The path escaped (`Console.escaped`): a file name may hold newlines or escape codes.
  public var description: String { "\(operation) \(Console.escaped(path)): \(reason)" }

  public init(operation: String, path: String, reason: String, isRead: Bool = false) {
    self.operation = operation
    self.path = path
    self.reason = reason
    self.isRead = isRead
  }

  static func fromErrno(_ operation: String, _ path: String, isRead: Bool = false) -> FileError {
    FileError(operation: operation, path: path, reason: String(cString: strerror(errno)), isRead: isRead)
  }
}

/// Whole-file reads and crash-safe writes.
public enum FileIO {
  /// Reads the whole file, refusing files larger than `limit` bytes before allocating.
  public static func read(_ path: String, limit: Int = 256 << 20) throws(FileError) -> [UInt8] {
    try read(path, prefix: nil, limit: limit)
  }

  /// The first `count` bytes of the file (fewer when it is shorter): the header and
  /// metadata of an image too large to read whole.
  public static func readPrefix(_ path: String, count: Int) throws(FileError) -> [UInt8] {
    try read(path, prefix: max(0, count), limit: Int.max)
  }

  /// The last `count` bytes of the file (all of it when it is shorter): how an image ends.
  public static func readSuffix(_ path: String, count: Int) throws(FileError) -> [UInt8] {
    let (fd, st) = try openRegularFile(path)
    defer { close(fd) }
    let size = Int(st.st_size), start = max(0, size - max(0, count))
    return try fill(fd, path, count: size - start, from: start)
  }

  /// The file's first `prefix` bytes, or all of it (refused over `limit`).
  static func read(_ path: String, prefix: Int?, limit: Int) throws(FileError) -> [UInt8] {
    let (fd, st) = try openRegularFile(path)
    defer { close(fd) }
    guard prefix != nil || Int(st.st_size) <= limit else {
      throw FileError(
        operation: "refusing to read", path: path, reason: "\(st.st_size) bytes is over the limit of \(limit)", isRead: true)
    }
    return try fill(fd, path, count: min(prefix ?? Int.max, Int(st.st_size)), from: 0)
  }

  /// Opens `path` for reading if it is a regular file: a FIFO, a device, a socket or a folder
  /// is refused, by name, without waiting. `O_NONBLOCK` makes the open of a FIFO return at
  /// once (a plain open waits for a writer: the CLI hung on a FIFO named in a config), and
  /// `fstat` of what was opened decides.
  static func openRegularFile(_ path: String) throws(FileError) -> (Int32, stat) {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw .fromErrno("cannot open", path, isRead: true) }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      let error = FileError.fromErrno("cannot stat", path, isRead: true)
      close(fd)
      throw error
    }
    guard (st.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      throw FileError(operation: "cannot read", path: path, reason: notRegular(st.st_mode), isRead: true)
    }
    // Reads block as usual from here (a regular file's never wait; this keeps it so).
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return (fd, st)
  }

  /// Refuses `path` unless it is a regular file (following links), without opening it: for
  /// readers that open files themselves (libjpeg's rows, ffmpeg), which a FIFO would hang.
  public static func requireRegularFile(_ path: String) throws(FileError) {
    var st = stat()
    guard stat(path, &st) == 0 else { throw .fromErrno("cannot open", path, isRead: true) }
    guard (st.st_mode & S_IFMT) == S_IFREG else {
      throw FileError(operation: "cannot read", path: path, reason: notRegular(st.st_mode), isRead: true)
    }
  }

  /// What a file that is not a regular one is, in words.
  static func notRegular(_ mode: mode_t) -> String {
    let kind: String
    switch mode & S_IFMT {
    case S_IFDIR: kind = "a folder"
    case S_IFIFO: kind = "a FIFO (named pipe)"
    case S_IFSOCK: kind = "a socket"
    case S_IFCHR, S_IFBLK: kind = "a device"
    default: kind = "something else"
    }
    return "not a regular file (\(kind))"
  }

  /// Up to `count` bytes of `fd` from `offset`; fewer when the file ends sooner (it shrank
  /// while we read it: the unread tail is dropped in place, without a copy).
  private static func fill(_ fd: Int32, _ path: String, count: Int, from offset: Int) throws(FileError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < bytes.count {
      let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(offset + filled)) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { throw .fromErrno("cannot read", path, isRead: true) }
      if n == 0 { break }
      filled += n
    }
    if filled < bytes.count { bytes.removeSubrange(filled...) }
    return bytes
  }

  /// Writes a new file at `path` (failing if one exists), without `writeAtomically`'s
  /// fsyncs: for the many files of a directory that is itself made atomically (written
  /// under a temporary name, synced with `syncFileSystem()`, then renamed).
  public static func writeNew(_ bytes: [UInt8], to path: String) throws(FileError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw .fromErrno("cannot create", path) }
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { buffer in write(fd, buffer.baseAddress! + written, buffer.count - written) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        let error = FileError.fromErrno("cannot write", path)
        close(fd)
        throw error
      }
      written += n
    }
    guard close(fd) == 0 else { throw .fromErrno("cannot close", path) }
  }

  /// Flushes written files to disk, once for many `writeNew`s (`sync`: Glibc hides the
  /// per-file-system `syncfs` behind _GNU_SOURCE).
  public static func syncFileSystem() { sync() }

  /// Whether `path` is a folder (following symbolic links).
  public static func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  /// Whether a file exists at `path`.
  public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// Replaces `path` with `bytes` so that a crash at any moment leaves either the old file or
  /// the new one, never a torn or empty file: write a temporary file beside it, fsync it,
  /// rename it over the old one, fsync the directory.
  ///
  /// The temporary file is `path.tmp-PID-RANDOM`, made new (`O_EXCL | O_NOFOLLOW`): a name
  /// no one can guess ahead, so a symbolic link planted beside `path` is never written
  /// through (`path.tmp-PID` was, truncating whatever it pointed at).
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileError) {
    // Errors name `path`, what the user asked for, not the temporary file beside it.
    let (tmp, fd) = try createTemporary(beside: path)
    // A command that catches interrupts removes this file if one comes now.
    let cleanup = Interrupts.isInstalled ? Interrupts.register { unlink(tmp) == 0 ? "removed \(tmp)" : nil } : nil
    defer { cleanup.map(Interrupts.unregister) }
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { buffer in
        write(fd, buffer.baseAddress! + written, buffer.count - written)
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        let error = FileError.fromErrno("cannot write", path)
        close(fd)
        unlink(tmp)
        throw error
      }
      written += n
    }
    guard fsync(fd) == 0 else {
      let error = FileError.fromErrno("cannot sync", path)
      close(fd)
      unlink(tmp)
      throw error
    }
    close(fd)
    guard rename(tmp, path) == 0 else {
      let error = FileError.fromErrno("cannot rename over", path)
      unlink(tmp)
      throw error
    }
    let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    let dfd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dfd >= 0 {
      fsync(dfd)
      close(dfd)
    }
    removeStaleTemporaries(of: path)
  }

  /// A new file `path.tmp-PID-RANDOM` open for writing: created exclusively, never through a
  /// link, its suffix from the system's random source; another name is tried if one is taken.
  static func createTemporary(beside path: String) throws(FileError) -> (String, Int32) {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<16 {
      let suffix = String(generator.next() as UInt64, radix: 16)
      let tmp = "\(path).tmp-\(getpid())-\(suffix)"
      let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
      if fd >= 0 { return (tmp, fd) }
      if errno != EEXIST { throw .fromErrno("cannot create", path) }
    }
    throw FileError(operation: "cannot create", path: path, reason: "no free temporary name beside it")
  }

  /// Removes `path.tmp-PID-…` files that a killed writer left behind: those whose process is
  /// gone. A live writer's file is left alone; a link is removed itself, never followed.
  static func removeStaleTemporaries(of path: String) {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) } ?? "."
    let prefix = (slash.map { String(path[path.index(after: $0)...]) } ?? path) + ".tmp-"
    guard let dir = opendir(directory.isEmpty ? "/" : directory) else { return }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }) else { continue }
      if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH { unlink((directory.isEmpty ? "" : directory) + "/" + name) }
    }
  }

  /// The modification time (ns) and size of `path`, or `nil` when it does not exist: enough
  /// to notice that another program replaced it.
  public static func stamp(_ path: String) -> (modified: Int, size: Int)? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return (st.st_mtim.tv_sec * 1_000_000_000 + st.st_mtim.tv_nsec, Int(st.st_size))
  }

  /// Creates `path` and its missing parents (as `mkdir -p`).
  public static func makeDirectories(_ path: String) throws(FileError) {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      current += "/" + part
      if mkdir(current, 0o755) != 0 && errno != EEXIST { throw .fromErrno("cannot create directory", current) }
    }
  }

  /// Moves `path` aside to `path.corrupt` (keeping a bad settings file for the user).
  public static func moveAside(_ path: String) -> String? {
    let aside = path + ".corrupt"
    return rename(path, aside) == 0 ? aside : nil
  }
}
