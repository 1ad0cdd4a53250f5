#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folder a viewer config may read from: the files a config names (`panorama`,
/// `cubeMap`, `multiRes` under `basePath`) are resolved here, and by default only files inside
/// the config's own folder are read. A config is input (an upload on a server, a tour from
/// someone else): without this, `"panorama": "../../../home/me/private.jpg"` or a symbolic
/// link beside the config read any file the user can.
///
/// Refused by default: a path that leads out of the folder (`..`, an absolute path elsewhere,
/// a symbolic link whose target is outside, or one that leads nowhere: where it leads cannot
/// be told), and every `file://` address. A refusal names the config's key and says nothing
/// of the file behind the path (whether it exists, or can be read), so a config cannot probe
/// the host. `allowsOutside` (`--allow-outside-paths`) reads any path, for a config the user
/// trusts.
///
/// ```swift
/// let folder = ConfigFolder(configPath: "tour/tour.json", allowsOutside: false)
/// let file = try folder.file("rooms/hall.jpg", key: "scenes.hall.panorama")  // "tour/rooms/hall.jpg"
/// ```
public struct ConfigFolder: Sendable {
  /// The config file, as named on the command line.
  public let configPath: String
  /// Whether paths outside the config's folder and `file://` addresses are read.
  public let allowsOutside: Bool
  /// The config's folder as a prefix of the paths returned ("" for a bare file name).
  let prefix: String

  public init(configPath: String, allowsOutside: Bool) {
    self.configPath = configPath
    self.allowsOutside = allowsOutside
    prefix = configPath.lastIndex(of: "/").map { String(configPath[...$0]) } ?? ""
  }

  /// The file `url` (an address from the config, under its `basePath`) names, or `nil` for a
  /// web address (`http:`, `https:`, `data:`, `blob:`), which a host that reads files cannot
  /// read. A `?query` is dropped.
  ///
  /// `rootIsFolder`: a path starting with "/" is the config's folder's (our tiler writes
  /// `"path": "/%l/%s%y_%x"` with no `basePath`, as Pannellum reads it under the site's
  /// root). With `allowsOutside` such a path is read as it stands when a file is there, as
  /// before; without, as the folder's unless it names a file inside the folder in full.
  /// - Throws: `ConfigPathError` naming `key` when the path is refused.
  public func file(_ url: String, key: String, rootIsFolder: Bool = false) throws(ConfigPathError) -> String? {
    if url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("data:") || url.hasPrefix("blob:") {
      return nil
    }
    var path = url
    if url.hasPrefix("file://") {
      guard allowsOutside else { throw refusal(key, url, fileScheme: true) }
      path = String(url.dropFirst(7))
    }
    if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
    if allowsOutside {
      if path.hasPrefix("/") && (!rootIsFolder || FileIO.exists(path)) { return path }
      return prefix + (path.hasPrefix("/") ? String(path.dropFirst()) : path)
    }
    guard let folder = Self.realPath(prefix.isEmpty ? "." : prefix) else { throw refusal(key, url) }
    var candidate: String
    if path.hasPrefix("/") {
      if Self.isInside(Self.normalized(path), folder) {
        candidate = path
      } else if rootIsFolder {
        candidate = prefix + String(path.drop { $0 == "/" })
      } else {
        throw refusal(key, url)
      }
    } else {
      candidate = prefix + path
    }
    // `..` out of the folder is refused before the file system is asked anything.
    guard lexicallyInside(candidate) else { throw refusal(key, url) }
    try checkLinks(candidate, folder: folder, key: key, url: url)
    return candidate
  }

  /// Whether `candidate` stays inside the folder by its words alone (`..` resolved).
  func lexicallyInside(_ candidate: String) -> Bool {
    if candidate.hasPrefix("/") {
      guard let folder = Self.realPath(prefix.isEmpty ? "." : prefix) else { return false }
      // A full path inside the folder as given, or inside it with its links resolved.
      let given = prefix.hasPrefix("/") ? Self.normalized(prefix) : folder
      let n = Self.normalized(candidate)
      return Self.isInside(n, given) || Self.isInside(n, folder)
    }
    // Relative to the current folder: the part after the config's folder must not climb out.
    var depth = 0
    for part in candidate.dropFirst(prefix.count).split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        depth -= 1
        if depth < 0 { return false }
      } else {
        depth += 1
      }
    }
    return true
  }

  /// Refuses `candidate` when its links lead out of the folder: the longest part of it that
  /// exists, with its links resolved, must be inside; a link that leads nowhere is refused too
  /// (its target cannot be checked). A path that is simply missing inside is let through, for
  /// the reader to say so.
  func checkLinks(_ candidate: String, folder: String, key: String, url: String) throws(ConfigPathError) {
    if let real = Self.realPath(candidate) {
      guard Self.isInside(real, folder) else { throw refusal(key, url) }
      return
    }
    // Walk up to the deepest part that resolves.
    var missing = candidate
    while true {
      guard let slash = missing.lastIndex(of: "/") else {
        // A bare name in the current folder: it is the folder's.
        var st = stat()
        if lstat(missing, &st) == 0 { throw refusal(key, url) }
        return
      }
      let parent = slash == missing.startIndex ? "/" : String(missing[..<slash])
      if let real = Self.realPath(parent) {
        guard Self.isInside(real, folder) else { throw refusal(key, url) }
        // Something is there that does not resolve (a dangling link, or one into a folder
        // that cannot be searched): refused, whatever lies behind it.
        var st = stat()
        if lstat(missing, &st) == 0 { throw refusal(key, url) }
        return
      }
      missing = parent
    }
  }

  func refusal(_ key: String, _ url: String, fileScheme: Bool = false) -> ConfigPathError {
    ConfigPathError(configPath: configPath, key: key, value: url, isFileScheme: fileScheme)
  }

  /// `path` with its links resolved (`realpath`), or nil when some part of it does not exist
  /// or cannot be searched.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// `path` with `.`, `..` and repeated slashes resolved by its words (no file system).
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
      } else {
        parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// Whether `path` is `folder` or inside it (both absolute and normalized).
  static func isInside(_ path: String, _ folder: String) -> Bool {
    folder == "/" || path == folder || path.hasPrefix(folder + "/")
  }
}

/// A path in a config that leads outside the config's folder (or a `file://` address), refused
/// by default (`ConfigFolder`). Its message names the key and never what is behind the path.
public struct ConfigPathError: Error, Sendable, Equatable, CustomStringConvertible {
  public var configPath: String
  /// Where in the config: `scenes.hall.panorama`, `multiRes.path`, `cubeMap[2]`.
  public var key: String
  /// The address as the config gives it (under its `basePath`).
  public var value: String
  public var isFileScheme: Bool

  public var description: String {
    let shown = Console.escaped(value)
    let what =
      isFileScheme
      ? "a file:// address; a config reads files inside its own folder only"
      : "outside the config's folder; a config reads files inside its own folder only"
    return
      "\(Console.escaped(configPath)): \(Console.escaped(key)) \"\(shown)\" is \(what) (--allow-outside-paths reads it, for a config you trust)"
  }
}
