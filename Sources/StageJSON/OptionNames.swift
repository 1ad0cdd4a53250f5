/// The check PageBoard makes of the option names a page wrote: a name that is no option is
/// refused with the one it is closest to, an `onNAME` that names no event with the events, and
/// SortableJS's names with what to use instead. Standard library only. The sortable mode checks
/// its names in JS (web/board/board-options.js) in the same words; keep the two in step.
enum OptionNames {
  /// The event an `onNAME` key names (lowercased), or nil for any other key.
  static func event(_ key: String) -> String? {
    key.hasPrefix("on") && key.count > 2 ? String(decoding: lowercasedBytes(String(key.dropFirst(2))), as: UTF8.self) : nil
  }

  /// Why `key` is refused, or nil when it is one of `allowed` or an `on` + one of `events`.
  /// `sortableJS`: SortableJS's names the mode does not take, each with what to use instead.
  static func problem(_ key: String, allowed: [String], events: [String], sortableJS: [(names: [String], hint: String)])
    -> String?
  {
    if allowed.contains(key) { return nil }
    let event = event(key)
    if let event, events.contains(event) { return nil }
    if let hint = sortableJS.first(where: { $0.names.contains(key) })?.hint {
      return "SortableJS's name, not the board's: \(hint)"
    }
    if let event {
      return "not an event\(suggestion(event, among: events, prefix: "on")); the events are \(events.joined(separator: ", "))"
    }
    return "not an option\(suggestion(key, among: allowed)) (docs/board.md lists them)"
  }

  /// " (did you mean NAME?)" for the allowed name nearest a misspelt one, or nothing.
  /// Names are ASCII, compared by bytes without case.
  static func suggestion(_ name: String, among names: [String], prefix: String = "") -> String {
    let lower = lowercasedBytes(name)
    var best: (String, Int)?
    for candidate in names {
      let d = editDistance(lower, lowercasedBytes(candidate))
      if d <= max(2, lower.count / 3), d < lower.count, d < (best?.1 ?? Int.max) { best = (candidate, d) }
    }
    return best.map { " (did you mean \(prefix)\($0.0)?)" } ?? ""
  }

  /// ASCII letters lowercased (`lowercased()` would link Unicode's case tables into the wasm).
  static func lowercasedBytes(_ text: String) -> [UInt8] { text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 } }

  static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    var row = Array(0...b.count)
    for i in a.indices {
      var previous = row[0]
      row[0] = i + 1
      for j in b.indices {
        let above = row[j + 1]
        row[j + 1] = min(row[j + 1] + 1, row[j] + 1, previous + (a[i] == b[j] ? 0 : 1))
        previous = above
      }
    }
    return row[b.count]
  }
}
