/// Something the engine says (an announcement or the status label) as a phrase code and
/// numeric arguments, not as text: a host turns it into words from its own table. The app
/// and `imagestage board run` read it through ``Engine/text(of:)`` (``Phrase/english`` unless
/// the options replace a phrase); the web board through the table in imagestage-board.js,
/// which a page translates.
///
/// Each `{name}` in the phrase's template reads one argument:
/// - `{item}`: item `item`'s name; `items`' names joined with ", " and ``Phrase/and`` when
///   `items` is not empty (``Phrase/changesTo``); in ``Phrase/focused`` and
///   ``Phrase/pickedUp`` with `slot` ≥ 0, ``Phrase/itemInSlot`` filled with `item` and `slot`.
/// - `{slot}`: slot `slot`'s name (its id as ``Phrase/location`` when it has none); `slots`'
///   names joined with ", " when `slots` is not empty (``Phrase/moved``).
/// - `{other}`: item `other`'s name; in ``Phrase/takenHome``, slot `other`'s name.
/// - `{count}`: `count`. `{position}`: `slot` + 1. `{change}`: `change` filled with this
///   sentence's arguments (``Phrase/undid``, ``Phrase/redid``). `{undo}`: " " and the undo hint.
/// - ``Phrase/slotStatus`` keeps the seed's wording: `{slot}` is the slot's name or
///   "slot #<id>", `{item}` the content's id when the slot has no name, and ``Phrase/empty``
///   when `item` is −1.
/// An announcement starts with a capital letter unless an item's name leads it.
public struct Sentence: Hashable, Sendable {
  /// The template.
  public var phrase: Phrase
  /// An item index, or −1.
  public var item: Int
  /// A slot index, or −1.
  public var slot: Int
  /// Another item's index (a slot's in ``Phrase/takenHome``), or −1.
  public var other: Int
  /// A count (``Phrase/cleared``).
  public var count: Int
  /// The change that ``Phrase/undid`` and ``Phrase/redid`` name, or `nil`.
  public var change: Phrase?
  /// Several items, in order, for one `{item}`.
  public var items: [Int]
  /// Several slots, in order, for one `{slot}`.
  public var slots: [Int]

  /// A sentence of `phrase` with the arguments its template reads.
  public init(
    _ phrase: Phrase, item: Int = -1, slot: Int = -1, other: Int = -1, count: Int = 0, change: Phrase? = nil,
    items: [Int] = [], slots: [Int] = []
  ) {
    self.phrase = phrase
    self.item = item
    self.slot = slot
    self.other = other
    self.count = count
    self.change = change
    self.items = items
    self.slots = slots
  }
}

extension Engine {
  /// `sentence` in words: the options' phrases filled with the board's names, as the app and
  /// the scenario files print it. An index the board does not have reads as nothing.
  public func text(of sentence: Sentence) -> String {
    let items = board.items, slots = board.slots
    func item(_ i: Int) -> String { items.indices.contains(i) ? name(item: i) : "" }
    func slot(_ s: Int) -> String { slots.indices.contains(s) ? name(slot: s) : "" }
    let p = sentence.phrase
    var itemText = item(sentence.item)
    var slotText = slot(sentence.slot)
    var otherText = p == .takenHome ? slot(sentence.other) : item(sentence.other)
    if !sentence.items.isEmpty {
      let names = sentence.items.map(item)
      itemText = names.dropLast().joined(separator: ", ") + options.phrases[.and] + names[names.count - 1]
      if names.count == 1 { itemText = names[0] }
    } else if (p == .focused || p == .pickedUp) && slots.indices.contains(sentence.slot) {
      itemText = say(.itemInSlot, item: itemText, slot: slotText)
    }
    if !sentence.slots.isEmpty { slotText = sentence.slots.map(slot).joined(separator: ", ") }
    if p == .slotStatus, slots.indices.contains(sentence.slot) {
      let s = slots[sentence.slot]
      slotText = s.name ?? "slot #\(s.id)"
      itemText =
        !items.indices.contains(sentence.item)
        ? options.phrases[.empty] : s.name == nil ? items[sentence.item].id : name(item: sentence.item)
      otherText = ""
    }
    let change =
      sentence.change.map { say($0, item: itemText, slot: slotText, other: otherText, count: String(sentence.count)) }
      ?? ""
    let position = slots.indices.contains(sentence.slot) ? String(sentence.slot + 1) : ""
    return options.phrases.fill(
      p,
      [
        ("item", itemText), ("slot", slotText), ("other", otherText), ("count", String(sentence.count)),
        ("change", change), ("position", position), ("undo", undoSuffix),
      ])
  }

  /// An announcement in words, with a capital first letter unless an item's name leads.
  public func announcement(_ sentence: Sentence) -> String { self.sentence(text(of: sentence)) }

  /// `events` as a host that prints words takes them: each ``StageEvent/said(_:)`` as
  /// ``StageEvent/announce(_:)`` and each ``StageEvent/shown(_:)`` as ``StageEvent/status(_:)``.
  public func inWords(_ events: [StageEvent]) -> [StageEvent] {
    events.map {
      switch $0 {
      case .said(let s): .announce(announcement(s))
      case .shown(let s): .status(text(of: s))
      default: $0
      }
    }
  }
}
