/// Every sentence the engine says (announcements for a screen reader, the status label),
/// as templates a host may replace: a web page in French gives its own. `{item}`, `{slot}`,
/// `{other}`, `{count}`, `{change}` and `{undo}` are filled in; a template that leaves one
/// out simply does not say it.
public enum Phrase: String, Hashable, Sendable, CaseIterable {
  /// "Focused {item}." in English.
  case focused
  /// "{item}, in {slot}" in English.
  case itemInSlot
  /// "Picked up {item}. Use the arrow keys to move, Space to drop, Escape to cancel." in English.
  case pickedUp
  /// "Movement cancelled. {item} returned." in English.
  case cancelled
  /// "Movement cancelled. {item} returned to {slot}." in English.
  case cancelledHome
  /// "No location to the left." in English.
  case noneLeft
  /// "No location to the right." in English.
  case noneRight
  /// "No location above." in English.
  case noneAbove
  /// "No location below." in English.
  case noneBelow
  /// "{item} is over {slot}." in English.
  case over
  /// "{item} is over {slot}. Dropping swaps it with {other}." in English.
  case overSwaps
  /// "{item} was dropped on no location and returned." in English.
  case droppedNowhere
  /// "{item} was dropped on {slot}." in English.
  case dropped
  /// "Nothing to undo." in English.
  case nothingToUndo
  /// "Nothing to redo." in English.
  case nothingToRedo
  /// "Undid {change}." in English.
  case undid
  /// "Redid {change}." in English.
  case redid
  /// "move of {item}" in English.
  case moveOf
  /// "swap of {item} and {other}" in English.
  case swapOf
  /// "assignment of {item}" in English.
  case assignmentOf
  /// "move of {item}" in English.
  case movedOf
  /// "changes to {item}" in English.
  case changesTo
  /// " and " in English.
  case and
  /// "{slot} is taken: {item} went back." in English.
  case taken
  /// "{slot} is taken: {item} went back to {other}." in English.
  case takenHome
  /// "Moved {item} to {slot}." in English.
  case moved
  /// "Nothing to remove." in English.
  case nothingToRemove
  /// "Removed {item} from {slot}.{undo}" in English.
  case removed
  /// "Swapped {item} with {other}, now in {slot}." in English.
  case swapped
  /// "Swapped {item} with {other}, now in its place." in English.
  case swappedNoSlot
  /// "Cleared 1 slot.{undo}" in English.
  case clearedOne
  /// "Cleared {count} slots.{undo}" in English.
  case cleared
  /// "Replaced {other} with {item} in {slot}.{undo}" in English.
  case replaced
  /// "location #{id}" in English.
  case location
  /// "{slot}" in English: the status label in Locations, where the item is.
  case current
  /// "{slot}: {item}" in English.
  case slotStatus
  /// "empty" in English.
  case empty

  /// The engine's own wording, which the app and the scenario files print.
  public var english: String {
    switch self {
    case .focused: "Focused {item}."
    case .itemInSlot: "{item}, in {slot}"
    case .pickedUp: "Picked up {item}. Use the arrow keys to move, Space to drop, Escape to cancel."
    case .cancelled: "Movement cancelled. {item} returned."
    case .cancelledHome: "Movement cancelled. {item} returned to {slot}."
    case .noneLeft: "No location to the left."
    case .noneRight: "No location to the right."
    case .noneAbove: "No location above."
    case .noneBelow: "No location below."
    case .over: "{item} is over {slot}."
    case .overSwaps: "{item} is over {slot}. Dropping swaps it with {other}."
    case .droppedNowhere: "{item} was dropped on no location and returned."
    case .dropped: "{item} was dropped on {slot}."
    case .nothingToUndo: "Nothing to undo."
    case .nothingToRedo: "Nothing to redo."
    case .undid: "Undid {change}."
    case .redid: "Redid {change}."
    case .moveOf: "move of {item}"
    case .swapOf: "swap of {item} and {other}"
    case .assignmentOf: "assignment of {item}"
    case .movedOf: "move of {item}"
    case .changesTo: "changes to {item}"
    case .and: " and "
    case .taken: "{slot} is taken: {item} went back."
    case .takenHome: "{slot} is taken: {item} went back to {other}."
    case .moved: "Moved {item} to {slot}."
    case .nothingToRemove: "Nothing to remove."
    case .removed: "Removed {item} from {slot}.{undo}"
    case .swapped: "Swapped {item} with {other}, now in {slot}."
    case .swappedNoSlot: "Swapped {item} with {other}, now in its place."
    case .clearedOne: "Cleared 1 slot.{undo}"
    case .cleared: "Cleared {count} slots.{undo}"
    case .replaced: "Replaced {other} with {item} in {slot}.{undo}"
    case .location: "location #{id}"
    case .current: "{slot}"
    case .slotStatus: "{slot}: {item}"
    case .empty: "empty"
    }
  }
}

extension Phrase {
  /// Phrases are equal when they are the same case. Written out because a `String`-backed
  /// enum otherwise compares and hashes its raw value: every `Sentence` comparison (the
  /// status, at each move) and every `Phrases` lookup hashed a `String`, and the names'
  /// text stayed in the web board's module.
  public static func == (a: Phrase, b: Phrase) -> Bool { a.ordinal == b.ordinal }

  /// Hashes the case, not its raw value (see `==`).
  public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

  /// The case's place in `allCases` (declaration order): a case-only enum is stored as it.
  var ordinal: UInt8 { unsafeBitCast(self, to: UInt8.self) }
}

/// The templates in use: the engine's English unless a host replaced some.
public struct Phrases: Hashable, Sendable {
  var replaced: [Phrase: String] = [:]

  /// The engine's English for every phrase.
  public init() {}

  /// The template for `phrase`; setting it replaces the English (setting the English back clears the replacement).
  public subscript(_ phrase: Phrase) -> String {
    get { replaced[phrase] ?? phrase.english }
    set { replaced[phrase] = newValue == phrase.english ? nil : newValue }
  }

  /// `phrase`'s template with each `{name}` replaced by its value; unknown names stay as
  /// written, so a typo shows instead of vanishing.
  public func fill(_ phrase: Phrase, _ values: [(String, String)]) -> String {
    let template = Array(self[phrase].unicodeScalars)
    var out = String.UnicodeScalarView()
    var i = 0
    while i < template.count {
      if template[i] == "{", let close = template[i...].firstIndex(of: "}") {
        let name = String(String.UnicodeScalarView(template[(i + 1)..<close]))
        if let value = values.first(where: { $0.0 == name }) {
          out.append(contentsOf: value.1.unicodeScalars)
          i = close + 1
          continue
        }
      }
      out.append(template[i])
      i += 1
    }
    return String(out)
  }
}
